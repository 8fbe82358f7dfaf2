// One loaded plugin, 8 threads, 8 programs at once: the same results as one thread. CI runs this
// under ThreadSanitizer too (scripts/test.sh --tsan).
#include <gtest/gtest.h>

#include <thread>

#include "abi_host/run_context.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "plugins/loader.h"
#include "support/fixtures.h"

namespace ptoplug {
namespace {

TEST(PluginThreads, EightThreadsMatchOneThread) {
    auto plugin = host::loadPlugin(PTOPLUG_MDTC_PLUGIN);
    ASSERT_TRUE(plugin.ok()) << plugin.error().format();
    const pto_pass_desc* pass = (*plugin)->pass("MaterializeDistTensorCtx");
    std::vector<const test::Fixture*> inputs;
    for (const test::Fixture& f : test::allFixtures())
        if (f.name.find("/before") != std::string::npos && inputs.size() < 8) inputs.push_back(&f);
    ASSERT_EQ(inputs.size(), 8u);
    auto transform = [&](const test::Fixture& f) {
        auto doc = ir::readDocument(f.msgpack, ir::Format::Auto, f.name);
        if (!doc) return std::string("unreadable");
        host::RunOutcome o = host::runThroughAbi(**doc, pass->run);
        std::string out = o.failed() ? "failed: " + (o.diagnostics.empty() ? "" : o.diagnostics[0].message) : "";
        return out + *ir::writeToString(**doc, ir::WriteOptions{ir::Format::MsgPack, false});
    };
    std::vector<std::string> expected, actual(inputs.size());
    for (const test::Fixture* f : inputs) expected.push_back(transform(*f));
    std::vector<std::thread> threads;
    for (size_t i = 0; i < inputs.size(); ++i) threads.emplace_back([&, i] { actual[i] = transform(*inputs[i]); });
    for (std::thread& t : threads) t.join();
    for (size_t i = 0; i < inputs.size(); ++i) EXPECT_EQ(actual[i], expected[i]) << inputs[i]->name;
}

}  // namespace
}  // namespace ptoplug
