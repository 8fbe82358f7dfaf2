// pto-host graph and run --graph-after: the context flow of the bundled examples and of pypto's fixtures
// (its error cases among them), compared whole with the .dot files in tests/data/graph. To accept a change
// of the drawing, run the test with PTOPLUG_UPDATE_GRAPHS=1 and review the diff of those files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "support/fake_plugins.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;
using test::runProcess;
using test::TempDir;

std::string examples() { return (fs::path(test::dataDir()) / ".." / ".." / "examples").lexically_normal().string(); }
std::string unit(const std::string& name) { return test::dataDir() + "/pypto-unit/" + name + "/before.json"; }

// The whole drawing equals tests/data/graph/<name>.dot.
void expectGraph(const std::string& name, const std::string& dot) {
    const std::string golden = test::dataDir() + "/graph/" + name + ".dot";
    if (std::getenv("PTOPLUG_UPDATE_GRAPHS")) test::writeBytes(golden, dot);
    EXPECT_EQ(dot, test::readBytes(golden)) << name;
}

struct GraphCase {
    std::string name;
    std::vector<std::string> argv;  ///< after pto-host; the graph goes to stdout
    int exitCode;
};

TEST(Graph, TheExamplesAndPyptosFixturesAreDrawnAsTheirGoldenFiles) {
    TempDir tmp;
    const std::string mdtc = "MaterializeDistTensorCtx";
    auto after = [&](const std::string& input) {
        return std::vector<std::string>{"run", input, "-o", tmp / "out.json", "--graph-after", mdtc, "-"};
    };
    const std::vector<GraphCase> cases = {
        {"host_dispatch", {"graph", examples() + "/host_dispatch.json"}, 0},
        {"host_dispatch.after", after(examples() + "/host_dispatch.json"), 0},
        {"dispatch_6.focus", {"graph", examples() + "/dispatch_6.json", "--function", "chip_orch_00002"}, 0},
        {"param_alias.after", after(unit("param_alias_forwards_materialized_comm_ctx_param")), 0},
        {"buffer_aliasing.after", after(unit("buffer_aliasing_view_inherits_source_context")), 0},
        {"random_1207.after", after(test::dataDir() + "/pypto-random/1207/before.json"), 0},
        // pypto's error cases: the call the pass cannot give a context is marked with pypto's message.
        {"error_device_call.after", after(unit("device_call_without_materialized_context_rejects_synthesized_prefix")),
         1},
        {"error_loop_rebinding.after", after(unit("loop_rebinding_carry_to_another_distributed_tensor_is_rejected")),
         1},
    };
    for (const GraphCase& c : cases) {
        std::vector<std::string> argv{test::kHost};
        argv.insert(argv.end(), c.argv.begin(), c.argv.end());
        auto r = runProcess(argv);
        EXPECT_EQ(r.exitCode, c.exitCode) << c.name << ": " << r.err;
        expectGraph(c.name, r.out);
    }
}

TEST(Graph, ANeighbourhoodKeepsTheFunctionsWithinTheDepth) {
    auto near =
        runProcess({test::kHost, "graph", examples() + "/dispatch_6.json", "--function", "host_orch", "--depth", "0"});
    ASSERT_EQ(near.exitCode, 0) << near.err;
    EXPECT_NE(near.out.find("<b>host_orch</b>"), std::string::npos);
    EXPECT_EQ(near.out.find("chip_orch"), std::string::npos) << near.out;
    auto all = runProcess({test::kHost, "graph", examples() + "/dispatch_6.json", "--function", "host_orch"});
    ASSERT_EQ(all.exitCode, 0) << all.err;
    EXPECT_NE(all.out.find("<b>chip_orch_00005</b>"), std::string::npos);
    auto missing = runProcess({test::kHost, "graph", examples() + "/dispatch_6.json", "--function", "nope"});
    EXPECT_EQ(missing.exitCode, 2) << missing.err;
    EXPECT_NE(missing.err.find("error: the program has no function 'nope'"), std::string::npos) << missing.err;
}

// SVG is Graphviz's: without `dot` on PATH the error says how to get it and nothing is written.
TEST(Graph, SvgNeedsGraphvizAndSaysHowToGetIt) {
    TempDir tmp;
    auto without = runProcess({"/usr/bin/env", "PATH=" + tmp.path(), test::kHost, "graph",
                               examples() + "/host_dispatch.json", "-o", tmp / "g.svg"});
    EXPECT_EQ(without.exitCode, 6) << without.err;
    EXPECT_NE(without.err.find("cannot write SVG: Graphviz's `dot` is not on PATH"), std::string::npos) << without.err;
    EXPECT_NE(without.err.find("apt-get install graphviz"), std::string::npos) << without.err;
    EXPECT_FALSE(fs::exists(tmp / "g.svg"));
    if (runProcess({"/bin/sh", "-c", "command -v dot"}).exitCode != 0) GTEST_SKIP() << "Graphviz is not installed";
    auto with = runProcess({test::kHost, "graph", examples() + "/host_dispatch.json", "-o", tmp / "g.svg"});
    EXPECT_EQ(with.exitCode, 0) << with.err;
    EXPECT_NE(test::readBytes(tmp / "g.svg").find("<svg"), std::string::npos);
}

TEST(Graph, GraphAfterNamesAPluginPass) {
    TempDir tmp;
    auto r = runProcess({test::kHost, "run", examples() + "/host_dispatch.json", "-o", tmp / "out.json",
                         "--graph-after", "Simplify", tmp / "g.dot"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("--graph-after names 'Simplify', which is no pass a loaded plugin runs"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(tmp / "out.json"));
}

}  // namespace
}  // namespace ptoplug
