// pto-host graph and run --graph-after: the context flow of the bundled examples and of pypto's fixtures
// (its error cases among them), compared whole with the .dot files in tests/data/graph. To accept a change
// of the drawing, run the test with PTOPLUG_UPDATE_GRAPHS=1 and review the diff of those files.
#include <gtest/gtest.h>

#include <algorithm>
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

std::vector<std::string> graphAfter(const TempDir& tmp, const std::string& input) {
    return {"run", input, "-o", tmp / "out.json", "--graph-after", "MaterializeDistTensorCtx", "-"};
}

TEST(Graph, TheExamplesAndPyptosFixturesAreDrawnAsTheirGoldenFiles) {
    TempDir tmp;
    auto after = [&](const std::string& input) { return graphAfter(tmp, input); };
    const std::vector<GraphCase> cases = {
        {"host_dispatch", {"graph", examples() + "/host_dispatch.json"}, 0},
        {"host_dispatch.after", after(examples() + "/host_dispatch.json"), 0},
        {"dispatch_6", {"graph", examples() + "/dispatch_6.json"}, 0},
        {"dispatch_6.after", after(examples() + "/dispatch_6.json"), 0},
        {"dispatch_6.focus", {"graph", examples() + "/dispatch_6.json", "--function", "chip_orch_00002"}, 0},
        {"same_window_4", {"graph", examples() + "/same_window_4.msgpack"}, 0},
        {"same_window_4.after", after(examples() + "/same_window_4.msgpack"), 0},
        {"param_alias.after", after(unit("param_alias_forwards_materialized_comm_ctx_param")), 0},
        {"buffer_aliasing.after", after(unit("buffer_aliasing_view_inherits_source_context")), 0},
        {"random_1207.after", after(test::dataDir() + "/pypto-random/1207/before.json"), 0},
    };
    for (const GraphCase& c : cases) {
        std::vector<std::string> argv{test::kHost};
        argv.insert(argv.end(), c.argv.begin(), c.argv.end());
        auto r = runProcess(argv);
        EXPECT_EQ(r.exitCode, c.exitCode) << c.name << ": " << r.err;
        expectGraph(c.name, r.out);
    }
}

// Every fixture pypto refuses (an error.txt beside its before.json): the drawing after the pass marks, in
// red, the call it could not give a context, or the function holding the loop or branch it refused, with
// the error as the terminal prints it. Golden files: errors/<fixture set>.<fixture>.dot.
TEST(Graph, EveryFixturePyptoRefusesIsDrawnWithItsErrorInPlace) {
    TempDir tmp;
    int fixtures = 0;
    for (const char* set : {"pypto-unit", "pypto-random"}) {
        std::vector<fs::path> dirs;
        for (const auto& entry : fs::directory_iterator(test::dataDir() + "/" + set))
            if (fs::exists(entry.path() / "error.txt")) dirs.push_back(entry.path());
        std::sort(dirs.begin(), dirs.end());
        for (const fs::path& dir : dirs) {
            const std::string name = std::string(set) + "." + dir.filename().string();
            std::vector<std::string> argv{test::kHost};
            for (const std::string& arg : graphAfter(tmp, (dir / "before.json").string())) argv.push_back(arg);
            auto r = runProcess(argv);
            EXPECT_EQ(r.exitCode, 1) << name << ": " << r.err;
            // The place and the message are the diagnostic's own, on a call or function (penwidth=2).
            const std::string place = r.err.substr(0, r.err.find(" error: "));
            EXPECT_NE(r.out.find(place + " error: "), std::string::npos) << name << ": " << r.err;
            EXPECT_NE(r.out.find("penwidth=2"), std::string::npos) << name;
            expectGraph("errors/" + name, r.out);
            ++fixtures;
        }
    }
    EXPECT_EQ(fixtures, 13);
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
