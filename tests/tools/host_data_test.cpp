// pto-host against what the data can do (issue 33, its data half): text that would forge or cut
// diagnostics, programs pypto would refuse, inputs that are not files, and outputs and reports that
// would land where they must not. Each case is a fault with its exit code and message.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/fake_plugins.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;
using test::hostWithFake;
using test::runProcess;
using test::TempDir;

std::string input() { return test::fakesInput(); }

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// --- text diagnostics ----------------------------------------------------------------------------

// A plugin's message is shown whole, one line, with its control bytes and invalid UTF-8 made visible: it
// can neither cut off what follows it (a NUL) nor forge a line (a newline, a terminal escape).
TEST(DataText, APluginsMessageIsShownWholeOnOneLineWithItsControlBytesEscaped) {
    TempDir tmp;
    auto r = runProcess(hostWithFake(tmp, "forges_message", {"run", input(), "-o", tmp / "out.json"}));
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(
        r.err.find(": error: hidden after a NUL:\\x00 still here\\n\\x1b[2J\\xff pto-host batch: 20 files, 20 ok, "
                   "0 failed\\nthe end [fake/forged]\n"),
        std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
    EXPECT_EQ(r.err.find('\0'), std::string::npos);
    EXPECT_EQ(r.err.find("\npto-host batch"), std::string::npos);
    EXPECT_FALSE(fs::exists(tmp / "out.json"));
}

// In a batch the summary stays the host's: the forged one is inside each file's escaped message.
TEST(DataText, ABatchSummaryCannotBeForged) {
    TempDir tmp, in, out;
    fs::copy_file(input(), in / "a.json");
    fs::copy_file(input(), in / "b.json");
    auto r = runProcess(hostWithFake(tmp, "forges_message", {"batch", in.path(), "--out-dir", out.path(), "-j", "2"}));
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(count(r.err, "\\x00 still here"), 2u) << r.err;
    EXPECT_EQ(count(r.err, "\npto-host batch: "), 1u) << r.err;
    EXPECT_NE(r.err.find("\npto-host batch: 2 files, 0 ok, 2 failed\n"), std::string::npos) << r.err;
}

// JSON and SARIF carry the message exactly (JSON's own escapes; invalid UTF-8 as U+FFFD, which JSON must).
TEST(DataText, JsonAndSarifCarryThePluginsMessageExactly) {
    TempDir tmp;
    const std::string expected =
        "hidden after a NUL:\0 still here\n\x1b[2J\xef\xbf\xbd pto-host batch: 20 files, 20 ok, 0 failed\nthe end"s;
    auto json = runProcess(
        hostWithFake(tmp, "forges_message", {"--diagnostics-format", "json", "run", input(), "-o", tmp / "out.json"}));
    EXPECT_EQ(json.exitCode, 1) << json.err;
    nlohmann::json line = nlohmann::json::parse(json.err.substr(0, json.err.find('\n')));
    EXPECT_EQ(line["message"].get<std::string>(), expected);
    auto sarif = runProcess(
        hostWithFake(tmp, "forges_message", {"--diagnostics-format", "sarif", "run", input(), "-o", tmp / "out.json"}));
    EXPECT_EQ(sarif.exitCode, 1) << sarif.err;
    nlohmann::json log = nlohmann::json::parse(sarif.err);
    EXPECT_EQ(log["runs"][0]["results"][0]["message"]["text"].get<std::string>(), expected);
}

// An input's file name is shown escaped too, as every other text diagnostic.
TEST(DataText, AnInputsFileNameIsShownEscaped) {
    TempDir tmp;
    const std::string name = tmp / "bad\nname\x1b[1m.json";
    test::writeBytes(name, "{\"type\": ");
    auto r = runProcess({test::kHost, "--no-default-plugins", "run", name, "-o", tmp / "out.json"});
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_NE(r.err.find("bad\\nname\\x1b[1m.json:1:"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace ptoplug
