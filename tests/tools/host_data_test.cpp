// pto-host against what the data can do (issue 33, its data half): text that would forge or cut
// diagnostics, programs pypto would refuse, inputs that are not files, and outputs and reports that
// would land where they must not. Each case is a fault with its exit code and message.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "io/digest.h"
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

// --- verifiers ------------------------------------------------------------------------------------

// A verifier reads its plugin's options (as PASS.NAME), so that the property it checks can follow them.
TEST(DataVerifiers, AVerifierReadsItsPluginsOptions) {
    TempDir tmp;
    auto relaxed = runProcess(hostWithFake(tmp, "verifier_reads_option", {"run", input(), "-o", tmp / "a.json"}));
    EXPECT_EQ(relaxed.exitCode, 0) << relaxed.err;
    auto strict = runProcess(hostWithFake(
        tmp, "verifier_reads_option", {"--pass-option", "FakePass.strict=true", "run", input(), "-o", tmp / "b.json"}));
    EXPECT_EQ(strict.exitCode, 1) << strict.err;
    EXPECT_NE(strict.err.find("strict is on [FakeProperty/strict]"), std::string::npos) << strict.err;
    EXPECT_FALSE(fs::exists(tmp / "b.json"));
}

// --- option checks ---------------------------------------------------------------------------------

// A pass's check of its option values (ABI 1.2) runs once, after every value is resolved and before any input
// is read, in a child: a refusal is exit 4 naming the plugin, the pass, the option, where its value came from
// and the plugin's message; a check that crashes is exit 4 naming the plugin and the pass; pto-host lives.
TEST(DataOptions, APassRefusesAnOptionValueAtLoadBeforeAnyInputIsRead) {
    TempDir tmp;
    const std::string missing = tmp / "missing.json";  // never read: the error is the option's
    auto refused = runProcess(hostWithFake(
        tmp, "refuses_option", {"--pass-option", "FakePass.level=7", "run", missing, "-o", tmp / "a.json"}));
    EXPECT_EQ(refused.exitCode, 4) << refused.err;
    EXPECT_NE(refused.err.find(
                  "--pass-option FakePass.level=7: error: plugin 'fake' (" + test::fakeLibrary("refuses_option") +
                  ") refuses option 'level' of pass FakePass, '7' (from --pass-option): must be at most 3"),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(refused.err.find(missing), std::string::npos) << refused.err;

    auto crashed = runProcess(hostWithFake(
        tmp, "refuses_option", {"--pass-option", "FakePass.level=0", "run", missing, "-o", tmp / "a.json"}));
    EXPECT_EQ(crashed.exitCode, 4) << crashed.err;
    EXPECT_NE(crashed.err.find("error: the check of pass FakePass's options by plugin 'fake' (" +
                               test::fakeLibrary("refuses_option") + ") ended the process with SIGSEGV"),
              std::string::npos)
        << crashed.err;
    EXPECT_EQ(crashed.err.find(missing), std::string::npos) << crashed.err;

    // A refused default is named as such: the plugin's own value.
    auto byDefault = runProcess(hostWithFake(tmp, "refuses_default", {"run", missing, "-o", tmp / "a.json"}));
    EXPECT_EQ(byDefault.exitCode, 4) << byDefault.err;
    EXPECT_NE(byDefault.err.find("<declared default>: error: plugin 'fake' (" + test::fakeLibrary("refuses_default") +
                                 ") refuses option 'level' of pass FakePass, '9' (from default): must be at most 3"),
              std::string::npos)
        << byDefault.err;
    EXPECT_NE(byDefault.err.find("hint: the plugin refuses its own default"), std::string::npos) << byDefault.err;

    auto accepted = runProcess(hostWithFake(
        tmp, "refuses_option", {"--pass-option", "FakePass.level=3", "run", input(), "-o", tmp / "b.json"}));
    EXPECT_EQ(accepted.exitCode, 0) << accepted.err;
    EXPECT_TRUE(fs::exists(tmp / "b.json"));
}

// A verifier may only read: one that writes into the program through a pointer the host lent it fails,
// naming its plugin and property, and nothing is written, also when the output was being encoded beside it.
TEST(DataVerifiers, AVerifierThatWritesIntoTheProgramFailsAndNothingIsWritten) {
    TempDir tmp, outDir;
    ASSERT_EQ(runProcess({test::kGen, "1000", tmp / "large.json", "--format", "json"}).exitCode, 0);
    for (const std::string& in : {input(), tmp / "large.json"}) {
        const std::string out = outDir / "out.json";
        test::writeBytes(out, "old");
        auto r = runProcess(
            hostWithFake(tmp, "verifier_writes", {"run", in, "-o", out, "--crash-reproducer", tmp / "crashes"}));
        EXPECT_EQ(r.exitCode, 5) << r.err;
        EXPECT_NE(r.err.find(in +
                             ": error: crashed with SIGSEGV (Segmentation fault) in the verifier of property "
                             "'FakeProperty' of plugin 'fake' (" +
                             test::fakeLibrary("verifier_writes") + "), after pass 'FakePass'; no output was written"),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("to the plugin's authors (the program is read-only while a verifier runs: a write into "
                             "it faults)"),
                  std::string::npos)
            << r.err;
        EXPECT_EQ(test::readBytes(out), "old");
        EXPECT_EQ(std::distance(fs::directory_iterator(outDir.path()), fs::directory_iterator()), 1);
    }
}

// --- programs pypto would refuse ------------------------------------------------------------------

// What pypto's deserializer refuses is bad input, named with its place: a root that is not a Program, and
// arg_directions that is not an ArgDirectionVector (it was exit 5, "internal error", or passed).
TEST(DataPrograms, ProgramsPyptoWouldRefuseAreBadInputWithTheirPlace) {
    TempDir tmp;
    nlohmann::json program = nlohmann::json::parse(test::readBytes(input()));
    test::writeBytes(tmp / "function.json", program["fields"]["functions"][0]["value"].dump());
    auto root = runProcess({test::kHost, "run", tmp / "function.json", "-o", tmp / "out.json"});
    EXPECT_EQ(root.exitCode, 3) << root.err;
    EXPECT_NE(root.err.find(tmp / "function.json:1:1: error: the document's root is a 'Function' node, not a Program"),
              std::string::npos)
        << root.err;
    std::string text = test::readBytes(input());
    const std::string vector = R"({"type":"ArgDirectionVector","value":[0]})";
    ASSERT_NE(text.find(vector), std::string::npos);
    text.replace(text.find(vector), vector.size(), R"({"type":"Int32Vector","value":[0]})");
    test::writeBytes(tmp / "directions.json", text);
    auto directions = runProcess({test::kHost, "run", tmp / "directions.json", "-o", tmp / "out.json"});
    EXPECT_EQ(directions.exitCode, 3) << directions.err;
    EXPECT_NE(directions.err.find("error: Call attrs['arg_directions'] must be std::vector<ArgDirection> (at "
                                  "/fields/functions/"),
              std::string::npos)
        << directions.err;
    EXPECT_FALSE(fs::exists(tmp / "out.json"));
}

// A pass that gives a function the name of another (through memory: the table refuses it), which pypto's
// Program refuses and its reader would resolve to one of them, fails naming the pass; nothing is written.
TEST(DataPrograms, APassThatRenamesOntoAnExistingNameFailsNamingIt) {
    TempDir tmp;
    ASSERT_EQ(runProcess({test::kGen, "2", tmp / "in.json", "--format", "json"}).exitCode, 0);
    test::writeBytes(tmp / "out.json", "old");
    auto r = runProcess(hostWithFake(tmp, "duplicates_name", {"run", tmp / "in.json", "-o", tmp / "out.json"}));
    EXPECT_EQ(r.exitCode, 5) << r.err;
    EXPECT_NE(r.err.find("internal error: pass 'FakePass' of plugin 'fake' (" + test::fakeLibrary("duplicates_name") +
                         ") left invalid IR: Duplicate function name \"chip_orch_00001\" (at "
                         "/fields/functions/1/value/fields/name); nothing was written"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(test::readBytes(tmp / "out.json"), "old");
}

// A pass that leaves a variable used before the statement that binds it (every node well formed, so the
// structural check holds) fails naming the pass, the variable and the place; nothing is written.
TEST(DataPrograms, APassThatUsesAVariableBeforeItsDefinitionFailsNamingThePlace) {
    TempDir tmp;
    test::writeBytes(tmp / "out.json", "old");
    auto r = runProcess(hostWithFake(tmp, "uses_before_def", {"run", input(), "-o", tmp / "out.json"}));
    EXPECT_EQ(r.exitCode, 5) << r.err;
    EXPECT_NE(r.err.find("internal error: pass 'FakePass' of plugin 'fake' (" + test::fakeLibrary("uses_before_def") +
                         ") left a use of a variable before its definition: Variable 'view' used before definition "
                         "in function 'main' (at /fields/functions/1/value/fields/body/fields/stmts/0/fields/value); "
                         "nothing was written [pto-host/use-after-def]"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(test::readBytes(tmp / "out.json"), "old");
}

// `verify --property UseAfterDef` is the host's own check, by identity as pypto's verifier: pypto's output on a
// loop whose iter_arg init the pass rewrote uses copies of the iter_arg (docs/pass.md §12.4), which it reports;
// a run of the pass leaves the same copies and warns, as pypto's pipeline accepts them.
TEST(DataPrograms, VerifyChecksUseAfterDefOnAnyFile) {
    TempDir tmp;
    const std::string dir = test::dataDir() + "/pypto-random/0000/";
    auto after = runProcess({test::kHost, "verify", dir + "after.json", "--property", "UseAfterDef"});
    EXPECT_EQ(after.exitCode, 1) << after.err;
    EXPECT_NE(after.err.find("after.json: error: Verification failed for property UseAfterDef: Variable 'peer' used "
                             "before definition in function 'sink' (at /fields/functions/8/value/fields/body/fields/"
                             "stmts/1/fields/body/fields/stmts/1/fields/value/fields/args/0) [pto-host/verify]"),
              std::string::npos)
        << after.err;
    auto before = runProcess({test::kHost, "verify", dir + "before.json", "--property", "UseAfterDef"});
    EXPECT_EQ(before.exitCode, 0) << before.err;
    auto run = runProcess({test::kHost, "run", dir + "before.json", "-o", tmp / "out.json"});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find("warning: pass 'MaterializeDistTensorCtx' of plugin 'materialize-dist-tensor-ctx' ("),
              std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find(") left 1 use of a copy of a loop's iter_arg where the loop binds the original (first: "
                           "Variable 'peer' used before definition in function 'sink', at "),
              std::string::npos)
        << run.err;
    EXPECT_EQ(test::readBytes(tmp / "out.json"), test::readBytes(dir + "after.json"));
    auto unknown = runProcess({test::kHost, "verify", dir + "before.json", "--property", "NoSuchProperty"});
    EXPECT_EQ(unknown.exitCode, 2) << unknown.err;
    EXPECT_NE(unknown.err.find("these are verified: UseAfterDef (the host's own), "), std::string::npos) << unknown.err;
}

// A program on which MaterializeDistTensorCtx fails with I1 (a query with two arguments), a condition pypto
// raises as internal but the input causes; its spans name `sourceFile`.
std::string queryWithTwoArguments(const std::string& sourceFile) {
    std::string text = test::readBytes(
        test::dataDir() + "/pypto-unit/device_get_comm_ctx_is_replaced_by_materialized_context/before.json");
    const std::string query =
        R"("args":[{"ref":2}],"attrs":[],"kwargs":[],"op":{"is_global_var":false,"name":"pld.system.get_comm_ctx"})";
    EXPECT_NE(text.find(query), std::string::npos);
    text.replace(text.find(query), 18, R"("args":[{"ref":2},{"ref":2}])");
    const std::string file = "\"test_materialize_dist_tensor_ctx.py\"";
    for (size_t at = text.find(file); at != std::string::npos; at = text.find(file, at + 1))
        text.replace(at, file.size(), nlohmann::json(sourceFile).dump());
    return text;
}

// Such a condition is the program's error: exit 1, pypto's message, no "report a bug".
TEST(DataPrograms, AMalformedInputIsTheProgramsErrorNotAPassBug) {
    TempDir tmp;
    test::writeBytes(tmp / "in.json", queryWithTwoArguments("test.py"));
    auto r = runProcess({test::kHost, "run", tmp / "in.json", "-o", tmp / "out.json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("test.py:804:19: error: MaterializeDistTensorCtx: pld.system.get_comm_ctx expects exactly "
                         "one argument [MaterializeDistTensorCtx/query-arity]"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("report"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(tmp / "out.json"));
}

// A span's file name comes from the input: shown escaped, and nothing after a NUL in it is lost.
TEST(DataText, ASpansFileNameIsShownEscaped) {
    TempDir tmp;
    test::writeBytes(tmp / "in.json", queryWithTwoArguments("evil\0\x1b[2J\nname.py"s));
    auto r = runProcess({test::kHost, "run", tmp / "in.json", "-o", tmp / "out.json"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(r.err.rfind("evil\\x00\\x1b[2J\\nname.py:804:19: error: MaterializeDistTensorCtx:", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
}

// --- one file of a batch -------------------------------------------------------------------------

struct DataFault {
    std::string fault;
    int exitCode;
    std::string message;
};
void PrintTo(const DataFault& f, std::ostream* os) { *os << f.fault; }

class OneFileOfABatch : public ::testing::TestWithParam<DataFault> {};

// A 20-file batch at -j2 where one file triggers the fault (the fakes leave programs named "innocent"
// alone): that file fails as in `run`, and every other output is byte for byte that of a clean run.
TEST_P(OneFileOfABatch, FailsAloneAndEveryOtherOutputIsAsInACleanRun) {
    const DataFault& f = GetParam();
    test::OneTriggerBatch b = test::batchWithOneTrigger(f.fault);
    ASSERT_TRUE(b.cleanOk);
    EXPECT_EQ(b.run.exitCode, f.exitCode) << b.run.err;
    EXPECT_NE(b.run.err.find(f.message), std::string::npos) << b.run.err;
    EXPECT_NE(b.run.err.find("\npto-host batch: 20 files, 19 ok, 1 failed\n"), std::string::npos) << b.run.err;
    EXPECT_FALSE(b.triggerWritten);
    EXPECT_TRUE(b.differing.empty()) << b.differing.front();
}

INSTANTIATE_TEST_SUITE_P(
    Faults, OneFileOfABatch,
    ::testing::Values(DataFault{"forges_message", 1, "p107.json: error: hidden after a NUL:\\x00 still here\\n"},
                      DataFault{"verifier_writes", 5,
                                "p107.json: error: crashed with SIGSEGV (Segmentation fault) in the verifier of "
                                "property 'FakeProperty'"},
                      DataFault{"duplicates_name", 5, "left invalid IR: Duplicate function name"},
                      DataFault{"uses_before_def", 5, "left a use of a variable before its definition"}),
    [](const auto& info) { return info.param.fault; });

// --- inputs ----------------------------------------------------------------------------------------

std::vector<nlohmann::json> reportLines(const std::string& path) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(test::readBytes(path));
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    return lines;
}

void makeSocket(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    ASSERT_LT(path.size(), sizeof address.sun_path);
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    ::close(fd);
}

// A FIFO would block the reader until something wrote to it (and then be read as whatever came): it is
// refused at once, named for what it is, without being opened; so are a folder and a device.
TEST(DataInputs, AFifoFolderOrDeviceGivenAsAnInputIsRefusedAtOnce) {
    TempDir tmp;
    ASSERT_EQ(::mkfifo((tmp / "pipe.json").c_str(), 0600), 0);
    fs::create_directory(tmp / "folder.json");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {tmp / "pipe.json", "a FIFO (named pipe), not a regular file"},
        {tmp / "folder.json", "a folder, not a regular file"},
        {"/dev/zero", "a character device, not a regular file"},
    };
    for (const auto& [path, message] : cases) {
        const auto start = std::chrono::steady_clock::now();
        auto r =
            runProcess({test::kHost, "--no-default-plugins", "run", path, "-o", tmp / "out.json", "--timeout", "20"});
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10)) << path;
        EXPECT_EQ(r.exitCode, 3) << r.err;
        EXPECT_NE(r.err.find(path + ": error: " + message), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(tmp / "out.json"));
    }
}

// In a batch, a FIFO or socket named on the command line, found by a glob or in a folder is that entry's
// failure (exit 3, "skipped" in the report, no input hash: it was never read), and the rest runs.
TEST(DataInputs, ABatchReportsAFifoOrSocketAsASkippedEntryAndRunsTheRest) {
    TempDir tmp, in, globbed, out;
    fs::copy_file(input(), in / "a.json");
    ASSERT_EQ(::mkfifo((in / "b.json").c_str(), 0600), 0);
    makeSocket(globbed / "s.json");
    ASSERT_EQ(::mkfifo((tmp / "named.json").c_str(), 0600), 0);
    const std::string report = tmp / "report.jsonl";
    auto r = runProcess({test::kHost, "--no-default-plugins", "batch", in.path(), globbed / "*.json",
                         tmp / "named.json", "--out-dir", out.path(), "--report", report, "--timeout", "20"});
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_NE(r.err.find(in / "b.json: error: a FIFO (named pipe), not a regular file; skipped"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(globbed / "s.json: error: a socket, not a regular file; skipped"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(tmp / "named.json: error: a FIFO (named pipe), not a regular file; skipped"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("4 files, 1 ok, 3 failed"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::exists(out / "a.json"));
    for (const nlohmann::json& line : reportLines(report)) {
        const bool good = line["input"] == in / "a.json";
        EXPECT_EQ(line["status"], good ? "ok" : "skipped") << line;
        EXPECT_EQ(line["input_sha256"].is_null(), !good) << line;
    }
}

// The report's input hash is of the bytes the run read, not of the file as a pass left it.
TEST(DataInputs, TheReportsInputHashIsOfTheBytesProcessed) {
    TempDir tmp, in, out;
    const std::string victim = in / "p.json";
    fs::copy_file(input(), victim);
    const std::string original = test::readBytes(victim);
    auto r = runProcess({"/usr/bin/env", "PTOPLUG_FAKE_TRUNCATE=" + victim, test::kHost, "--no-default-plugins",
                         "--plugin", test::fakeManifest(tmp, "truncates_input"), "batch", in.path(), "--out-dir",
                         out.path(), "--report", tmp / "report.jsonl"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(fs::file_size(victim), 0u);
    const std::vector<nlohmann::json> lines = reportLines(tmp / "report.jsonl");
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0]["input_sha256"], io::sha256Of(original));
    EXPECT_EQ(lines[0]["output_sha256"], io::sha256Of(test::readBytes(out / "p.json")));
}

// --- files and options -----------------------------------------------------------------------------

// --shard takes two whole numbers in range and nothing else: no sign, no space, nothing that wraps.
TEST(DataFiles, AShardIsTwoWholeNumbersWithOneAtMostKAtMostN) {
    TempDir in, out;
    fs::copy_file(input(), in / "a.json");
    for (const char* bad : {"1/-1", "-1/3", "+1/3", " 1/3", "1/3 ", "1/3x", "1/4294967296", "4294967297/4294967298",
                            "0/3", "4/3", "1/0", "1", "/", "1//3"}) {
        auto r = runProcess(
            {test::kHost, "--no-default-plugins", "batch", in.path(), "--out-dir", out.path(), "--shard", bad});
        EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("--shard takes K/N, two whole numbers with 1 <= K <= N"), std::string::npos) << r.err;
    }
    EXPECT_TRUE(fs::is_empty(out.path()));
    auto r = runProcess(
        {test::kHost, "--no-default-plugins", "batch", in.path(), "--out-dir", out.path(), "--shard", "01/1"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
}

// A --report that cannot be written (a folder) fails before any file runs, not after all of them.
TEST(DataFiles, AReportThatIsAFolderFailsBeforeAnyFileRuns) {
    TempDir in, out, reports;
    fs::copy_file(input(), in / "a.json");
    auto r = runProcess(
        {test::kHost, "--no-default-plugins", "batch", in.path(), "--out-dir", out.path(), "--report", reports.path()});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find(reports.path() + ": error: the report would be written over a folder"), std::string::npos)
        << r.err;
    EXPECT_TRUE(fs::is_empty(out.path()));
    EXPECT_TRUE(fs::is_empty(reports.path()));
}

// An --out-dir that resolves into an input folder (a link to one of its subfolders, or a folder a glob
// matched) would have the outputs join the inputs: refused without --in-place, as one written there is.
TEST(DataFiles, AnOutDirThatResolvesIntoAnInputFolderIsRefused) {
    TempDir tmp;
    fs::create_directories(tmp / "in/sub");
    fs::copy_file(input(), tmp / "in/sub/a.json");
    fs::create_directory_symlink(tmp / "in/sub", tmp / "link");
    auto linked = runProcess({test::kHost, "--no-default-plugins", "batch", tmp / "in", "--out-dir", tmp / "link/out"});
    EXPECT_EQ(linked.exitCode, 2) << linked.err;
    EXPECT_NE(linked.err.find(tmp / "link/out: error: the output folder is, or lies inside, the input folder " +
                              (tmp / "in") + " (through links it is " + (tmp / "in/sub/out") + ")"),
              std::string::npos)
        << linked.err;
    auto globbed =
        runProcess({test::kHost, "--no-default-plugins", "batch", tmp / "in/*", "--out-dir", tmp / "in/sub/out"});
    EXPECT_EQ(globbed.exitCode, 2) << globbed.err;
    EXPECT_NE(globbed.err.find("lies inside, the input folder " + (tmp / "in/sub")), std::string::npos) << globbed.err;
    EXPECT_FALSE(fs::exists(tmp / "in/sub/out"));
    auto inPlace = runProcess(
        {test::kHost, "--no-default-plugins", "batch", tmp / "in", "--out-dir", tmp / "link/out", "--in-place"});
    EXPECT_EQ(inPlace.exitCode, 0) << inPlace.err;
}

// A plugin that ends the process while loading is named by its library as well as by its manifest.
TEST(DataFiles, AFailedLoadNamesTheLibraryAndTheManifest) {
    TempDir tmp;
    const std::string manifest = test::fakeManifest(tmp, "exit_in_constructor");
    auto r =
        runProcess({test::kHost, "--no-default-plugins", "--plugin", manifest, "run", input(), "-o", tmp / "out.json"});
    EXPECT_EQ(r.exitCode, 4) << r.err;
    EXPECT_NE(r.err.find(manifest + ": error: the plugin " + test::fakeLibrary("exit_in_constructor") +
                         " of this manifest ended the process with exit(0) while loading"),
              std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace ptoplug
