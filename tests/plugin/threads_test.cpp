// One loaded plugin, 8 threads, 8 programs at once: the same results as one thread; and a verifier
// reading a program while it is encoded on another thread. CI runs these under ThreadSanitizer too
// (scripts/test.sh --tsan).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "abi_host/runner.h"
#include "generator/program_generator.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "loader/loader.h"
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

// pto-host encodes a large program's output while its verifiers read it through the ABI
// (driver/output_writer.h): a verifier's reads must change nothing the encoder reads, so the bytes are
// those of a write alone, in both formats.
TEST(PluginThreads, AVerifierReadsWhileTheOutputIsEncoded) {
    auto plugin = host::loadPlugin(PTOPLUG_MDTC_PLUGIN);
    ASSERT_TRUE(plugin.ok()) << plugin.error().format();
    const pto_pass_desc* pass = (*plugin)->pass("MaterializeDistTensorCtx");
    const pto_verifier_desc* verifier = (*plugin)->verifier("DistTensorCtxMaterialized");
    ASSERT_TRUE(pass && verifier);
    // Read from its bytes, as pto-host has a program (the reader leaves what the table's checks use).
    ir::Document generated;
    tools::generateProgram(generated, 300, false);
    auto bytes = ir::writeToString(generated, ir::WriteOptions{ir::Format::MsgPack, false});
    ASSERT_TRUE(bytes.ok());
    auto doc = ir::readDocument(*bytes, ir::Format::MsgPack, "generated.msgpack");
    ASSERT_TRUE(doc.ok()) << doc.error().format();
    ASSERT_FALSE(host::runThroughAbi(**doc, pass->run).failed());
    for (ir::Format format : {ir::Format::MsgPack, ir::Format::Json}) {
        const ir::WriteOptions options{format, false};
        auto alone = ir::writeToString(**doc, options);
        ASSERT_TRUE(alone.ok());
        std::atomic<bool> written{false};
        std::string behind;
        std::thread writer([&] {
            auto w = ir::writeToString(**doc, options);
            behind = w.ok() ? *w : "failed: " + w.error().format();
            written = true;
        });
        int runs = 0;
        do {  // for as long as the encoding lasts
            host::RunOutcome verified =
                host::runThroughAbi(**doc, verifier->run, host::RunSettings{.options = nullptr, .readOnly = true});
            EXPECT_FALSE(verified.failed());
            ++runs;
        } while (!written);
        writer.join();
        EXPECT_TRUE(behind == *alone) << "after " << runs << " verifier runs";
    }
}

}  // namespace
}  // namespace ptoplug
