// The three example plugins of ABI 1.1 (examples/), each alone and all together with
// MaterializeDistTensorCtx in one pipeline, on one program: whole outputs against fixtures; their
// options and user errors as a user meets them; and the plain-C count_calls built against the frozen
// 1.0 headers, still running in this host.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/fixtures.h"
#include "support/paths.h"
#include "support/process.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;
using test::kHost;
using test::runProcess;
using test::TempDir;

const std::string kExamples = PTOPLUG_EXAMPLE_PLUGIN_DIR;
std::string data(const std::string& name) { return (fs::path(test::dataDir()) / "examples" / name).string(); }
std::string manifestOf(const std::string& plugin) { return kExamples + "/" + plugin + ".json"; }

const std::vector<std::string> kRenameChip = {"--pass-option", "RenameFunctions.pattern=chip_(.*)", "--pass-option",
                                              "RenameFunctions.replacement=device_$1"};

// Runs pto-host with `plugins` (and the default MaterializeDistTensorCtx) on the example input; returns
// the output file's bytes, failing the test on a non-zero exit.
std::string runWith(const std::vector<std::string>& plugins, const std::vector<std::string>& options = {}) {
    TempDir dir;
    std::vector<std::string> args = {kHost};
    for (const std::string& p : plugins) args.insert(args.end(), {"--plugin", manifestOf(p)});
    args.insert(args.end(), options.begin(), options.end());
    const std::string out = dir / "out.json";
    args.insert(args.end(), {"run", data("input.json"), "-o", out});
    auto r = runProcess(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.exitCode == 0 ? test::readBytes(out) : "";
}

TEST(ExamplePlugins, FoldConstantsFoldsNestedIntegerArithmetic) {
    EXPECT_EQ(runWith({"fold_constants"}), test::readBytes(data("expected_fold_constants.json")));
}

TEST(ExamplePlugins, RemoveDeadAssignmentsRemovesChainsOfPureDeadAssignmentsOnly) {
    EXPECT_EQ(runWith({"remove_dead_assignments"}), test::readBytes(data("expected_remove_dead_assignments.json")));
}

TEST(ExamplePlugins, RenameFunctionsRenamesByPatternAndCallSitesFollow) {
    EXPECT_EQ(runWith({"rename_functions"}, kRenameChip), test::readBytes(data("expected_rename_functions.json")));
    // Without a pattern (the declared default) it changes nothing: the output is MDTC's alone.
    EXPECT_EQ(runWith({"rename_functions"}), runWith({}));
}

TEST(ExamplePlugins, AllThreeRunWithMaterializeDistTensorCtxInLoadOrder) {
    const std::vector<std::string> all = {"rename_functions", "fold_constants", "remove_dead_assignments"};
    EXPECT_EQ(runWith(all, kRenameChip), test::readBytes(data("expected_pipeline.json")));
    std::vector<std::string> args = {kHost};
    for (const std::string& p : all) args.insert(args.end(), {"--plugin", manifestOf(p)});
    args.push_back("pipeline");
    auto r = runProcess(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const size_t mdtc = r.out.find("MaterializeDistTensorCtx"), rename = r.out.find("RenameFunctions"),
                 fold = r.out.find("FoldConstants"), dce = r.out.find("RemoveDeadAssignments");
    EXPECT_TRUE(mdtc < rename && rename < fold && fold < dce) << r.out;
}

TEST(ExamplePlugins, BadPassOptionsFailBeforeAnyInputIsRead) {
    struct Bad {
        std::string setting, message;
    };
    const std::vector<Bad> cases = {
        {"RenameFunctions.patern=x", "pass RenameFunctions has no option 'patern'; it declares pattern (string)"},
        {"NoSuchPass.pattern=x", "no plugin pass named 'NoSuchPass' is in the pipeline"},
        {"RenameFunctions", "not of the form PASS.KEY=VALUE"},
    };
    for (const Bad& b : cases) {
        auto r = runProcess({kHost, "--plugin", manifestOf("rename_functions"), "--pass-option", b.setting, "run",
                             "/nonexistent/input.json", "-o", "/dev/null"});
        EXPECT_EQ(r.exitCode, 4) << b.setting << "\n" << r.err;
        EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("/nonexistent/input.json"), std::string::npos) << "the input was read: " << r.err;
    }
}

// RenameFunctions checks its option values once, at load (ABI 1.2 check_options): a pattern that is no
// regular expression, or a replacement that is no name, is exit 4 naming the plugin, the pass, the option and
// where its value came from, before any input is read (the input does not exist, and is never named).
TEST(ExamplePlugins, ARefusedOptionValueIsExit4BeforeAnyInputIsRead) {
    TempDir dir;
    const std::string plugin = "plugin 'rename-functions' (" + kExamples + "/librename_functions.so) refuses option ";
    struct Bad {
        std::vector<std::string> args;
        std::string message;
    };
    const std::string manifest = dir / "rename.json";
    test::writeBytes(manifest, R"({"file_format_version": 2, "library": ")" + kExamples +
                                   R"(/librename_functions.so", "passes": [{"name": "RenameFunctions", "placement": )"
                                   R"({"after": {"pass": "MaterializeDistTensorCtx"}}, "options": {"pattern": "f", )"
                                   R"("replacement": ""}}]})");
    const std::vector<Bad> cases = {
        {{"--plugin", manifestOf("rename_functions"), "--pass-option", "RenameFunctions.pattern=chip_(.*)",
          "--pass-option", "RenameFunctions.replacement=has space"},
         "--pass-option RenameFunctions.replacement=has space: error: " + plugin +
             "'replacement' of pass RenameFunctions, 'has space' (from --pass-option): not a function name"},
        {{"--plugin", manifestOf("rename_functions"), "--passes", "RenameFunctions{pattern=chip_( replacement=x}"},
         "--passes: error: " + plugin +
             "'pattern' of pass RenameFunctions, 'chip_(' (from --passes): not a regular expression"},
        {{"--plugin", manifest},
         manifest + ": error: " + plugin + "'replacement' of pass RenameFunctions, '' (from manifest " + manifest +
             "): empty: every function renamed would have no name (at /passes/0/options/replacement)"},
    };
    for (const Bad& b : cases) {
        std::vector<std::string> args = {kHost};
        args.insert(args.end(), b.args.begin(), b.args.end());
        args.insert(args.end(), {"run", "/nonexistent/input.json", "-o", dir / "out.json"});
        auto r = runProcess(args);
        EXPECT_EQ(r.exitCode, 4) << r.err;
        EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("hint: give RenameFunctions."), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("/nonexistent/input.json"), std::string::npos) << "the input was read: " << r.err;
    }
    // Its defaults (nothing to rename) and good values pass the check.
    auto r = runProcess({kHost, "--plugin", manifestOf("rename_functions"), "--pass-option",
                         "RenameFunctions.pattern=chip_(.*)", "--pass-option", "RenameFunctions.replacement=d_$1",
                         "pipeline"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST(ExamplePlugins, ManifestOptionValuesAreTypedAndOverriddenByTheCommandLine) {
    TempDir dir;
    const std::string lib = kExamples + "/librename_functions.so";
    auto manifest = [&](const std::string& options) {
        const std::string path = dir / "rename.json";
        test::writeBytes(path, R"({"file_format_version": 2, "library": ")" + lib +
                                   R"(", "passes": [{"name": "RenameFunctions", "placement": {"after": {"pass": )"
                                   R"("MaterializeDistTensorCtx"}}, "options": )" +
                                   options + "}]}");
        return path;
    };
    const std::string out = dir / "out.json";
    auto typed = runProcess({kHost, "--plugin", manifest(R"({"pattern": 3})"), "pipeline"});
    EXPECT_EQ(typed.exitCode, 4);
    EXPECT_NE(typed.err.find("option 'pattern' of pass RenameFunctions is a string"), std::string::npos) << typed.err;
    EXPECT_NE(typed.err.find("(at /passes/0/options/pattern)"), std::string::npos) << typed.err;

    const std::string good = manifest(R"j({"pattern": "chip_(.*)", "replacement": "device_$1"})j");
    auto r = runProcess({kHost, "--plugin", good, "run", data("input.json"), "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(test::readBytes(out), test::readBytes(data("expected_rename_functions.json")));
    r = runProcess({kHost, "--plugin", good, "--pass-option", "RenameFunctions.replacement=dev_$1", "run",
                    data("input.json"), "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(test::readBytes(out).find("\"dev_orch\""), std::string::npos);
    // `pipeline` shows each option's value and where it came from.
    r = runProcess({kHost, "--plugin", good, "--pass-option", "RenameFunctions.replacement=dev_$1", "pipeline"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("option pattern=chip_(.*) (string, manifest " + good + ")\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("option replacement=dev_$1 (string, --pass-option)\n"), std::string::npos) << r.out;
}

TEST(ExamplePlugins, RenameOntoAnExistingNameIsAUserErrorAndWritesNothing) {
    TempDir dir;
    const std::string out = dir / "out.json";
    auto r = runProcess({kHost, "--plugin", manifestOf("rename_functions"), "--pass-option",
                         "RenameFunctions.pattern=chip_orch", "--pass-option", "RenameFunctions.replacement=host_orch",
                         "run", data("input.json"), "-o", out});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("cannot rename 'chip_orch' to 'host_orch': the program has a function of that name "
                         "[RenameFunctions/name-taken]"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(out));
}

// A manifest in `dir` for test plugin lib<library>.so (built against frozen headers), its pass `pass`
// placed after MaterializeDistTensorCtx.
std::string frozenAbiManifest(const TempDir& dir, const std::string& library, const std::string& pass) {
    const std::string manifest = dir / (library + ".json");
    test::writeBytes(manifest, R"({"file_format_version": 2, "library": ")" + test::kFakes + "/lib" + library +
                                   R"(.so", "passes": [{"name": ")" + pass +
                                   R"(", "placement": {"after": {"pass": "MaterializeDistTensorCtx"}}}]})");
    return manifest;
}

TEST(ExamplePlugins, APluginBuiltAgainstAbi10StillRuns) {
    TempDir dir;
    const std::string manifest = frozenAbiManifest(dir, "count_calls_abi_1_0", "CountCalls");
    const std::string out = dir / "out.json";
    auto r = runProcess({kHost, "--plugin", manifest, "run", data("input.json"), "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("note: function 'chip_orch' makes 1 call(s) [CountCalls]"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("note: function 'host_orch' makes"), std::string::npos) << r.err;
}

// fold_constants uses 1.1's functions (create_node, remove_stmt, ...); built against the frozen 1.1 headers
// it runs in this host as the one built now does.
TEST(ExamplePlugins, APluginBuiltAgainstAbi11StillRuns) {
    TempDir dir;
    const std::string manifest = frozenAbiManifest(dir, "fold_constants_abi_1_1", "FoldConstants");
    const std::string out = dir / "out.json";
    auto r = runProcess({kHost, "--plugin", manifest, "run", data("input.json"), "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(test::readBytes(out), test::readBytes(data("expected_fold_constants.json")));
}

}  // namespace
}  // namespace ptoplug
