// pto-host --passes: an explicit pipeline as mlir-opt writes one, run exactly, checked before any input is read.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/fake_plugins.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;
using test::runProcess;
using test::TempDir;

const std::string kRename = PTOPLUG_EXAMPLE_PLUGIN_DIR "/rename_functions.json";
std::string hostDispatch() {
    return (fs::path(test::dataDir()) / ".." / ".." / "examples" / "host_dispatch.json").string();
}

std::vector<std::string> host(std::vector<std::string> rest) {
    std::vector<std::string> argv{test::kHost, "--plugin", kRename};
    argv.insert(argv.end(), rest.begin(), rest.end());
    return argv;
}

TEST(PassList, PipelinePrintsExactlyTheListWithItsOptions) {
    auto r = runProcess(host(
        {"--passes", "MaterializeDistTensorCtx, RenameFunctions{pattern='chip (.*)' replacement=c_$1}", "pipeline"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("  0  MaterializeDistTensorCtx       [plugin materialize-dist-tensor-ctx"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  1  RenameFunctions                [plugin rename-functions"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("option pattern=chip (.*) (string, --passes)\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("option replacement=c_$1 (string, --passes)\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("  2  "), std::string::npos) << "only the listed passes: " << r.out;
}

// Exactly that pipeline: the passes listed and no other, in that order.
TEST(PassList, RunRunsExactlyThePassesListed) {
    TempDir tmp;
    auto renamed = runProcess(host({"--passes", "RenameFunctions{pattern=chip_(.*) replacement=c_$1}", "run",
                                    hostDispatch(), "-o", tmp / "a.json"}));
    ASSERT_EQ(renamed.exitCode, 0) << renamed.err;
    auto printed = runProcess({test::kHost, "print", tmp / "a.json"});
    EXPECT_NE(printed.out.find("def c_orch(self, data: pld.DistributedTensor[[256], pl.FP32], signal: "
                               "pld.DistributedTensor[[4], pl.INT32]):"),
              std::string::npos)
        << "renamed, and no context added: " << printed.out;
    auto both =
        runProcess(host({"--passes", "RenameFunctions{pattern=chip_(.*) replacement=c_$1},MaterializeDistTensorCtx",
                         "run", hostDispatch(), "-o", tmp / "b.json"}));
    ASSERT_EQ(both.exitCode, 0) << both.err;
    printed = runProcess({test::kHost, "print", tmp / "b.json"});
    EXPECT_NE(printed.out.find("def c_orch(self, data: pld.DistributedTensor[[256], pl.FP32], signal: "
                               "pld.DistributedTensor[[4], pl.INT32], data_ctx: pld.CommCtxType, signal_ctx: "
                               "pld.CommCtxType):"),
              std::string::npos)
        << printed.out;
}

struct BadList {
    std::string list;
    std::string error;
};

// Every mistake is found before any input is read (the input named does not exist), with its column.
TEST(PassList, AMistakeNamesItsColumnBeforeAnyInputIsRead) {
    TempDir tmp;
    const std::vector<BadList> cases = {
        {"MaterializeDistTensorCtx,", "--passes:1:26: error: expected a pass name at the end"},
        {"MaterializeDistTensorCtx RenameFunctions", "--passes:1:26: error: expected ',' between passes, found 'R'"},
        {"RenameFunctions{pattern", "--passes:1:24: error: expected '=' after option pattern of RenameFunctions"},
        {"RenameFunctions{pattern='x}", "--passes:1:25: error: a quoted value is not closed"},
        {"Renamer",
         "--passes:1:1: error: no loaded plugin has a pass named Renamer\n  hint: the loaded plugins' "
         "passes are: MaterializeDistTensorCtx, RenameFunctions"},
        {"Simplify", "--passes:1:1: error: Simplify is a stage of pypto's pipeline that no loaded plugin provides"},
        {"RenameFunctions{colour=red}", "--passes:1:17: error: pass RenameFunctions has no option 'colour'"},
    };
    for (const BadList& c : cases) {
        auto r = runProcess(host({"--passes", c.list, "run", tmp / "missing.json", "-o", tmp / "out.json"}));
        EXPECT_EQ(r.exitCode, 4) << c.list << ": " << r.err;
        EXPECT_NE(r.err.find(c.error), std::string::npos) << c.list << ": " << r.err;
        EXPECT_EQ(r.err.find("missing.json"), std::string::npos) << c.list << ": " << r.err;
    }
}

// The list's input holds what pypto's pipeline has where its first pass is placed: a pass placed after
// ConvertToSSA, then MaterializeDistTensorCtx, misses what the stages between would have made.
TEST(PassList, EachPasssRequiredPropertiesMustHold) {
    TempDir tmp;
    auto r = runProcess({test::kHost, "--plugin", test::fakeManifest(tmp, "prints"), "--passes",
                         "FakePass,MaterializeDistTensorCtx", "pipeline"});
    EXPECT_EQ(r.exitCode, 4) << r.err;
    EXPECT_NE(r.err.find("--passes:1:10: error: MaterializeDistTensorCtx requires IR property "
                         "CommDomainScopesMaterialized, which neither the program where the list starts (as "
                         "pypto's pipeline has it before FakePass) nor an earlier pass of the list holds"),
              std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace ptoplug
