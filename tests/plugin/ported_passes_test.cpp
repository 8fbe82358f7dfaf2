// The example plugins that port pypto's own passes (examples/flatten_call_expr, examples/unroll_loops), against pypto's
// answers: tests/data/<port>/pypto-unit/<test>/ holds the program pypto's unit test of that pass gives it
// (before.json) and pypto's result (after.json, or error.txt); tests/data/<port>/pypto-random/<case>/
// pypto's result on tests/data/pypto-random/<case>/before.json. Made by scripts/make-port-fixtures.sh.
// The whole output is compared, node sharing included (test::resolvedJson), after a write and read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "abi_host/runner.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "loader/loader.h"
#include "support/fixtures.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;

struct Port {
    const char* pass;
    const char* library;
    const char* data;  // folder under tests/data
};

const Port kPorts[] = {
    {"FlattenCallExpr", PTOPLUG_FLATTEN_CALL_EXPR_PLUGIN, "flatten-call-expr"},
    {"UnrollLoops", PTOPLUG_UNROLL_LOOPS_PLUGIN, "unroll-loops"},
};

struct Case {
    const Port* port;
    fs::path input;
    fs::path expected;  // after.json or error.txt inside
    std::string name;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> cases() {
    std::vector<Case> out;
    const fs::path data = test::dataDir();
    for (const Port& port : kPorts) {
        for (const char* corpus : {"pypto-unit", "pypto-random"}) {
            for (const auto& e : fs::directory_iterator(data / port.data / corpus)) {
                const std::string name = e.path().filename().string();
                const fs::path input = std::string(corpus) == "pypto-unit"
                                           ? e.path() / "before.json"
                                           : data / "pypto-random" / name / "before.json";
                out.push_back({&port, input, e.path(), std::string(port.pass) + "_" + corpus + "_" + name});
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
    return out;
}

const pto_pass_desc* pass(const Port& port) {
    static std::vector<std::shared_ptr<host::LoadedPlugin>> loaded;
    auto plugin = host::loadPlugin(port.library);
    if (!plugin) {
        ADD_FAILURE() << plugin.error().format();
        return nullptr;
    }
    loaded.push_back(*plugin);
    return loaded.back()->pass(port.pass);
}

class PortedPass : public ::testing::TestWithParam<Case> {};

TEST_P(PortedPass, GivesPyptosProgram) {
    const Case& c = GetParam();
    const pto_pass_desc* p = pass(*c.port);
    ASSERT_TRUE(p);
    auto doc = ir::readDocument(test::readBytes(c.input.string()), ir::Format::Json, c.name);
    ASSERT_TRUE(doc.ok()) << doc.error().format();
    host::RunOutcome outcome = host::runThroughAbi(**doc, p->run);
    const std::string ours = outcome.diagnostics.empty() ? "" : outcome.diagnostics[0].message;

    if (fs::exists(c.expected / "error.txt")) {
        // "<Type>: <message> [file:line:col]"
        std::string want = test::readBytes((c.expected / "error.txt").string());
        want = want.substr(0, want.find('\n'));
        want = want.substr(want.find(": ") + 2);
        want = want.substr(0, want.rfind(" ["));
        ASSERT_EQ(outcome.status, PTO_ERR_USER) << ours;
        EXPECT_EQ(ours, want);
        return;
    }
    ASSERT_FALSE(outcome.failed()) << ours;
    auto bytes = ir::writeToString(**doc, ir::WriteOptions{ir::Format::Json, false});
    ASSERT_TRUE(bytes.ok());
    auto back = ir::readDocument(*bytes, ir::Format::Json, "ours");
    ASSERT_TRUE(back.ok()) << back.error().format();
    auto expected = ir::readDocument(test::readBytes((c.expected / "after.json").string()), ir::Format::Json, "after");
    ASSERT_TRUE(expected.ok()) << expected.error().format();
    EXPECT_EQ(test::resolvedJson(**back), test::resolvedJson(**expected));
}

INSTANTIATE_TEST_SUITE_P(Pypto, PortedPass, ::testing::ValuesIn(cases()), [](const auto& info) {
    std::string name = info.param.name;
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
});

}  // namespace
}  // namespace ptoplug
