// pto-host end to end: the built binary with the built plugin and its manifest.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "ir/reader.h"
#include "ir/rewrite.h"
#include "ir/writer.h"
#include "ptoplug/types.h"
#include "support/fixtures.h"
#include "support/paths.h"
#include "support/process.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;
using test::runProcess;
using test::TempDir;

using test::kHost;
using test::kPluginDir;
const std::string kLibrary = kPluginDir + "/libptoplug_mdtc.so";
const std::string kFake = test::kFakes + "/libfake_crash_on_marker.so";

struct Case {
    std::string name;
    fs::path dir;
    bool error;
    bool hostOrch;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const auto& e : fs::directory_iterator(fs::path(test::dataDir()) / "pypto-unit")) {
        std::string name = e.path().filename().string();
        out.push_back(
            {name, e.path(), fs::exists(e.path() / "error.txt"),
             !fs::exists(e.path() / "error.txt") && test::fixtureNamed(name + "/after").pyptoPlacementUnreadable});
    }
    std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
    return out;
}

// Our output equals pypto's: byte for byte, or (docs/ir_format.md §11.5 cases) after resolving references.
void expectPyptoOutput(const Case& c, const std::string& ours, const std::string& extension) {
    std::string expected = test::readBytes((c.dir / ("after." + extension)).string());
    if (!c.hostOrch) {
        EXPECT_EQ(ours, expected) << c.name;
        return;
    }
    auto a = ir::readDocument(ours, ir::Format::Auto, "ours");
    auto b = ir::readDocument(expected, ir::Format::Auto, "pypto");
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(test::resolvedJson(**a), test::resolvedJson(**b)) << c.name;
}

// A manifest in file format 1, which repeats the descriptor (and must agree with it).
std::string manifest(const std::string& library, const std::string& name, const std::string& version,
                     const std::string& passName, const std::string& placement, const std::string& required,
                     const std::string& produced, const std::string& extra = "", int minorMin = 0) {
    return R"({"file_format_version": 1, "name": ")" + name + R"(", "version": ")" + version + R"(", "library": ")" +
           library + R"(", "abi": {"major": 1, "minor_min": )" + std::to_string(minorMin) + R"(, "minor_max": )" +
           std::to_string(PTO_ABI_MINOR) + "}," + extra + R"( "passes": [{"name": ")" + passName +
           R"(", "placement": )" + placement + R"(, "required": )" + required + R"(, "produced": )" + produced +
           R"(}]})";
}

std::string fakeManifest(const std::string& placement) {
    return manifest(kFake, "fake", "0.0.1", "FakePass", placement, R"(["SSAForm"])", "[]");
}

std::string mdtcManifest(const std::string& placement, const std::string& extra = "") {
    return manifest(kLibrary, "materialize-dist-tensor-ctx", "0.1.0", "MaterializeDistTensorCtx", placement,
                    R"(["CommDomainScopesMaterialized", "ReturnParamsExplicit"])",
                    R"(["CommDomainScopesMaterialized", "DistTensorCtxMaterialized"])",
                    extra + R"( "verifiers": ["DistTensorCtxMaterialized", "DistTensorCtxConsistent"],)", 1);
}

const std::string kMdtcPlacement =
    R"({"after": {"pass": "LowerHostTensorCollectives"}, "before": {"pass": "Simplify", "occurrence": 2}})";

class HostRun : public ::testing::TestWithParam<Case> {};

TEST_P(HostRun, EveryFixtureMatchesPypto) {
    const Case& c = GetParam();
    TempDir tmp;
    for (const char* ext : {"msgpack", "json"}) {
        std::string out = tmp / (std::string("out.") + ext);
        auto r = runProcess({kHost, "run", (c.dir / (std::string("before.") + ext)).string(), "-o", out});
        if (c.error) {
            EXPECT_EQ(r.exitCode, 1) << r.err;
            EXPECT_NE(r.err.find(" [MaterializeDistTensorCtx/"), std::string::npos) << r.err;
            EXPECT_FALSE(fs::exists(out));
            continue;
        }
        ASSERT_EQ(r.exitCode, 0) << r.err;
        expectPyptoOutput(c, test::readBytes(out), ext);
    }
}

INSTANTIATE_TEST_SUITE_P(PyptoUnit, HostRun, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

TEST(HostBatch, EveryFixtureThroughBatchMatchesPypto) {
    TempDir in, out;
    for (const Case& c : cases()) fs::copy_file(c.dir / "before.msgpack", in / (c.name + ".msgpack"));
    auto r = runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "-j", "2"});
    EXPECT_EQ(r.exitCode, 1) << r.err;  // the two error fixtures
    for (const Case& c : cases()) {
        std::string produced = out / (c.name + ".msgpack");
        if (c.error) {
            EXPECT_FALSE(fs::exists(produced)) << c.name;
            EXPECT_NE(r.err.find(c.name + ".msgpack"), std::string::npos) << r.err;
        } else {
            expectPyptoOutput(c, test::readBytes(produced), "msgpack");
        }
    }
    EXPECT_NE(r.err.find("17 files, 15 ok, 2 failed"), std::string::npos) << r.err;
}

struct Rejection {
    std::string name;
    std::vector<std::string> manifests;  ///< contents, written to files m0.json, m1.json ...
    std::string message;
    int exitCode;
};

void expectRejected(const Rejection& t) {
    TempDir tmp;
    std::vector<std::string> args = {kHost, "--no-default-plugins"};
    for (size_t i = 0; i < t.manifests.size(); ++i) {
        std::string path = tmp / ("m" + std::to_string(i) + ".json");
        test::writeBytes(path, t.manifests[i]);
        args.insert(args.end(), {"--plugin", path});
    }
    args.push_back("pipeline");
    auto r = runProcess(args);
    EXPECT_EQ(r.exitCode, t.exitCode) << t.name << "\n" << r.err;
    EXPECT_NE(r.err.find(t.message), std::string::npos) << t.name << "\n" << r.err;
    EXPECT_NE(r.err.find(tmp.path()), std::string::npos) << t.name << ": the message names no manifest\n" << r.err;
}

TEST(HostPlacement, ErrorsNameBothSides) {
    std::vector<Rejection> cases = {
        {"missing anchor",
         {mdtcManifest(R"({"after": {"pass": "NoSuchPass"}})")},
         "placed relative to 'NoSuchPass' occurrence 1, which the pipeline does not have",
         4},
        {"missing occurrence",
         {mdtcManifest(R"({"before": {"pass": "Simplify", "occurrence": 3}})")},
         "'Simplify' occurrence 3",
         4},
        {"after not before before",
         {mdtcManifest(R"({"after": {"pass": "Simplify", "occurrence": 2}, "before": {"pass": "InlineFunctions"}})")},
         "must run after Simplify #2 and before InlineFunctions",
         4},
        {"two plugins contradict",
         {fakeManifest(R"({"after": {"pass": "Simplify", "occurrence": 2}})"),
          mdtcManifest(R"({"after": {"pass": "FakePass"}, "before": {"pass": "Simplify", "occurrence": 2}})")},
         "must run after FakePass and before Simplify #2",
         4},
        {"required property never produced",
         {fakeManifest(R"({"before": {"pass": "ConvertToSSA"}})")},
         "requires IR property SSAForm, but no earlier stage produces it",
         4},
        {"required property invalidated",
         {fakeManifest(R"({"after": {"pass": "InitMemRef"}})")},
         "requires IR property SSAForm, but stage InitMemRef invalidates it",
         4},
    };
    for (const Rejection& t : cases) expectRejected(t);
}

TEST(HostManifest, ErrorsNameTheKeyOrBothSides) {
    std::vector<Rejection> cases = {
        {"schema: unknown key", {R"({"file_format_version": 1, "nmae": "x"})"}, "(at /nmae)", 4},
        {"schema: wrong type",
         {R"({"file_format_version": "1", "name": "x", "version": "1", "library": "x.so",
             "abi": {"major": 1, "minor_min": 0, "minor_max": 0}, "passes": []})"},
         "(at /file_format_version)",
         4},
        {"missing library",
         {manifest("/nonexistent/libnothing.so", "x", "1", "P", kMdtcPlacement, "[]", "[]")},
         "cannot load plugin",
         4},
        {"wrong sha256",
         {mdtcManifest(kMdtcPlacement, std::string(R"( "sha256": ")") + std::string(64, '0') + R"(",)")},
         "the manifest expects 0000",
         4},
        {"name mismatch",
         {manifest(kLibrary, "another-name", "0.1.0", "MaterializeDistTensorCtx", kMdtcPlacement, "[]", "[]")},
         "disagree on the plugin name: manifest says another-name",
         4},
        {"ABI range mismatch",
         {mdtcManifest(kMdtcPlacement)
              .replace(mdtcManifest(kMdtcPlacement).find("\"minor_max\": " + std::to_string(PTO_ABI_MINOR)), 14,
                       "\"minor_max\": 9")},
         "disagree on the ABI range: manifest says 1.1..9",
         4},
    };
    for (const Rejection& t : cases) expectRejected(t);
}

TEST(HostManifest, BundledManifestLoadsAndPlacesThePass) {
    auto r = runProcess({kHost, "pipeline"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find(" 43  MaterializeDistTensorCtx       [plugin materialize-dist-tensor-ctx 0.1.0"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(" 44  Simplify #2                    (skipped: not implemented by the stub host)"),
              std::string::npos);
}

// Makes `count` inputs in `dir`: valid fixture programs, plus the bad and crashing ones asked for.
std::map<std::string, std::string> makeBatchInputs(const std::string& dir, int valid) {
    std::map<std::string, std::string> expected;  // input name -> expected output bytes
    std::vector<Case> good;
    for (const Case& c : cases())
        if (!c.error && !c.hostOrch) good.push_back(c);
    for (int i = 0; i < valid; ++i) {
        const Case& c = good[static_cast<size_t>(i) % good.size()];
        std::string name = "p" + std::to_string(i) + ".msgpack";
        fs::copy_file(c.dir / "before.msgpack", dir + "/" + name);
        expected[name] = test::readBytes((c.dir / "after.msgpack").string());
    }
    return expected;
}

TEST(HostBatch, BadFilesAndACrashAreIsolated) {
    TempDir in, out, tmp;
    std::map<std::string, std::string> expected = makeBatchInputs(in.path(), 196);
    test::writeBytes(in / "empty.msgpack", "");
    test::writeBytes(in / "garbage.json", "this is not IR");
    std::string fixture = test::readBytes(cases()[0].dir.string() + "/before.json");
    test::writeBytes(in / "truncated.json", fixture.substr(0, fixture.size() / 2));
    auto crash = ir::readDocument(fixture, ir::Format::Auto, "crash");
    ASSERT_TRUE(crash.ok());
    (*crash)->set((*crash)->root().n->fields, ir::K::name, ir::Value::str("crash_me"));
    test::writeBytes(in / "crash.json", *ir::writeToString(**crash, ir::WriteOptions{ir::Format::Json, false}));
    std::map<std::string, std::string> inputsBefore;
    for (const auto& e : fs::directory_iterator(in.path()))
        inputsBefore[e.path().filename().string()] = test::readBytes(e.path().string());

    std::string fakeM = tmp / "fake.json";
    test::writeBytes(fakeM, fakeManifest(R"({"after": {"pass": "ConvertToSSA"}})"));
    auto r = runProcess({kHost, "--plugin", fakeM, "batch", in.path(), "--out-dir", out.path(), "-j", "2",
                         "--crash-reproducer", tmp / "crashes"});
    EXPECT_EQ(r.exitCode, 5);
    EXPECT_NE(r.err.find("200 files, 196 ok, 4 failed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("crash.json: error: crashed with SIGSEGV (Segmentation fault) in pass 'FakePass' of plugin "
                         "'fake' (" +
                         kFake + ")"),
              std::string::npos)
        << r.err;
    for (const char* bad :
         {"empty.msgpack: error: empty file", "garbage.json: error: neither JSON nor MessagePack", "truncated.json:"})
        EXPECT_NE(r.err.find(bad), std::string::npos) << bad << "\n" << r.err;
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(out.path())) {
        ++files;
        std::string name = e.path().filename().string();
        ASSERT_TRUE(expected.count(name)) << "unexpected output " << name;
        EXPECT_EQ(test::readBytes(e.path().string()), expected[name]) << name;
    }
    EXPECT_EQ(files, 196u);  // no partial or temporary files
    for (const auto& [name, bytes] : inputsBefore) EXPECT_EQ(test::readBytes(in / name), bytes) << name;
}

TEST(HostBatch, OneAndTwoJobsGiveIdenticalOutputs) {
    TempDir in, one, two;
    makeBatchInputs(in.path(), 40);
    ASSERT_EQ(runProcess({kHost, "batch", in.path(), "--out-dir", one.path(), "-j", "1"}).exitCode, 0);
    ASSERT_EQ(runProcess({kHost, "batch", in.path(), "--out-dir", two.path(), "-j", "2", "--format", "json"}).exitCode,
              0);
    TempDir twoMsgpack;
    ASSERT_EQ(runProcess({kHost, "batch", in.path(), "--out-dir", twoMsgpack.path(), "-j", "2"}).exitCode, 0);
    for (const auto& e : fs::directory_iterator(one.path())) {
        std::string name = e.path().filename().string();
        EXPECT_EQ(test::readBytes(e.path().string()), test::readBytes(twoMsgpack / name)) << name;
        EXPECT_TRUE(fs::exists(two / fs::path(name).replace_extension(".json").string())) << name;
    }
}

TEST(HostCli, ConvertRoundTripsAndExitCodes) {
    TempDir tmp;
    const Case c = cases()[0];
    ASSERT_EQ(
        runProcess({kHost, "convert", (c.dir / "before.msgpack").string(), "-o", tmp / "x.json", "--format", "json"})
            .exitCode,
        0);
    EXPECT_EQ(test::readBytes(tmp / "x.json"), test::readBytes((c.dir / "before.json").string()));
    EXPECT_EQ(runProcess({kHost, "convert", tmp / "missing.json", "-o", tmp / "y.json"}).exitCode, 3);
    EXPECT_EQ(runProcess({kHost, "frobnicate"}).exitCode, 2);
    auto json = runProcess({kHost, "--diagnostics-format", "json", "run",
                            (fs::path(test::dataDir()) / "pypto-unit" /
                             "device_call_without_materialized_context_rejects_synthesized_prefix" / "before.msgpack")
                                .string(),
                            "-o", tmp / "z.msgpack"});
    EXPECT_EQ(json.exitCode, 1);
    EXPECT_NE(json.err.find(R"("rule":"MaterializeDistTensorCtx/unresolved-context")"), std::string::npos) << json.err;
}

TEST(HostCli, WarnsWhenContextsAreAlreadyMaterialized) {
    TempDir tmp;
    std::string after = (fs::path(test::dataDir()) / "pypto-unit" / "param_alias_forwards_materialized_comm_ctx_param" /
                         "after.msgpack")
                            .string();
    auto r = runProcess({kHost, "run", after, "-o", tmp / "twice.msgpack"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.err.find("warning: function 'kernel' already ends with one CommCtx parameter"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("[MaterializeDistTensorCtx/already-materialized]"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ptoplug

namespace ptoplug {
namespace {

// Every report line of `path`, parsed.
std::vector<nlohmann::json> reportLines(const std::string& path) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(test::readBytes(path));
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    return lines;
}

TEST(HostBatch, ShardsSplitTheBatchAndTheirReportsMerge) {
    TempDir in, out, reports;
    makeBatchInputs(in.path(), 30);
    test::writeBytes(in / "bad.json", "not IR");
    std::set<std::string> seen;
    size_t total = 0;
    for (int k = 1; k <= 3; ++k) {
        std::string report = reports / ("r" + std::to_string(k) + ".jsonl");
        auto r = runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--shard", std::to_string(k) + "/3",
                             "--report", report});
        EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 3) << r.err;
        for (const nlohmann::json& line : reportLines(report)) {
            ++total;
            EXPECT_TRUE(seen.insert(line["input"].get<std::string>()).second) << "in two shards: " << line["input"];
            bool bad = line["input"].get<std::string>().find("bad.json") != std::string::npos;
            EXPECT_EQ(line["status"], bad ? "failed" : "ok");
            EXPECT_EQ(line["exit_code"], bad ? 3 : 0);
            EXPECT_EQ(line["input_sha256"].get<std::string>().size(), 64u);
            if (!bad) {
                EXPECT_EQ(line["output_sha256"].get<std::string>().size(), 64u);
                EXPECT_TRUE(fs::exists(line["output"].get<std::string>()));
            }
        }
    }
    EXPECT_EQ(total, 31u);  // the union is the whole batch, each input once
    // A second run of one shard chooses the same files.
    auto again = runProcess(
        {kHost, "batch", in.path(), "--out-dir", out.path(), "--shard", "2/3", "--report", reports / "again.jsonl"});
    std::set<std::string> first, second;
    for (const auto& l : reportLines(reports / "r2.jsonl")) first.insert(l["input"].get<std::string>());
    for (const auto& l : reportLines(reports / "again.jsonl")) second.insert(l["input"].get<std::string>());
    EXPECT_EQ(first, second);
    EXPECT_EQ(runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--shard", "4/3"}).exitCode, 2);
}

// A report is an output too: it never lands on an input or on another file's output (not with
// --in-place, and not when that file is in another shard), and a path it cannot have fails before any
// file is run.
TEST(HostBatch, AReportOverwritesNoInputOrOutput) {
    TempDir in, out, elsewhere;
    makeBatchInputs(in.path(), 4);
    const std::string input = in / "p1.msgpack";
    const std::string before = test::readBytes(input);
    for (const std::vector<std::string>& extra :
         std::vector<std::vector<std::string>>{{}, {"--in-place"}, {"--shard", "1/4"}}) {
        std::vector<std::string> args{kHost, "batch", in.path(), "--out-dir", out.path(), "--report", input};
        args.insert(args.end(), extra.begin(), extra.end());
        auto r = runProcess(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_NE(r.err.find("the report would overwrite an input of this run"), std::string::npos) << r.err;
        EXPECT_EQ(test::readBytes(input), before);
        EXPECT_TRUE(fs::is_empty(out.path()));
    }
    auto onOutput = runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--report", out / "p2.msgpack"});
    EXPECT_EQ(onOutput.exitCode, 2) << onOutput.err;
    EXPECT_NE(onOutput.err.find("the report would overwrite the output of"), std::string::npos) << onOutput.err;
    EXPECT_TRUE(fs::is_empty(out.path()));
    test::writeBytes(elsewhere / "file", "");
    auto noFolder =
        runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--report", elsewhere / "file/r.jsonl"});
    EXPECT_EQ(noFolder.exitCode, 2) << noFolder.err;
    EXPECT_NE(noFolder.err.find("cannot create the report's folder"), std::string::npos) << noFolder.err;
    EXPECT_TRUE(fs::is_empty(out.path()));
    auto newFolder =
        runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--report", elsewhere / "new/r.jsonl"});
    EXPECT_EQ(newFolder.exitCode, 0) << newFolder.err;
    EXPECT_EQ(reportLines(elsewhere / "new/r.jsonl").size(), 4u);
}

}  // namespace
}  // namespace ptoplug

namespace ptoplug {
namespace {

// The DistTensorCtxConsistent verifier: every output of the pass holds the property; programs broken
// by hand fail it, with one located diagnostic saying which call and which context.
TEST(HostVerify, EveryOutputOfThePassIsConsistent) {
    TempDir tmp;
    for (const Case& c : cases()) {
        if (c.error) continue;
        auto run = runProcess({kHost, "run", (c.dir / "before.msgpack").string(), "-o", tmp / "out.msgpack", "--verify",
                               "DistTensorCtxConsistent"});
        EXPECT_EQ(run.exitCode, 0) << c.name << "\n" << run.err;
        auto pypto =
            runProcess({kHost, "verify", (c.dir / "after.msgpack").string(), "--property", "DistTensorCtxConsistent"});
        EXPECT_EQ(pypto.exitCode, 0) << c.name << "\n" << pypto.err;
    }
    EXPECT_EQ(runProcess({kHost, "verify", tmp / "out.msgpack", "--property", "NoSuchProperty"}).exitCode, 2);
}

ir::Array& args(ir::Node& call) { return *call.field(ir::K::args)->a; }

// The codes of a call's arg_directions attr.
ir::Array& directions(ir::Node& call) {
    for (ir::Value& attr : *call.field(ir::K::attrs)->a)
        if (attr.m->find(ir::K::key)->strView() == "arg_directions")
            return *attr.m->find(ir::K::value)->m->find(ir::K::value)->a;
    std::abort();
}

// pypto's output of fixture `name` with its first call to `callee` edited, written to `path`.
void writeEdited(const std::string& name, const std::string& callee, const std::string& path,
                 const std::function<void(ir::Document&, ir::Node&)>& edit) {
    auto doc = ir::readDocument(test::readBytes(test::dataDir() + "/pypto-unit/" + name + "/after.msgpack"),
                                ir::Format::Auto, name);
    ASSERT_TRUE(doc.ok());
    for (ir::Node* n : (*doc)->nodes()) {
        const ir::Value* op = n->type == ir::K::Call ? n->field(ir::K::op) : nullptr;
        const ir::Value* opName = op ? op->m->find(ir::K::name) : nullptr;
        if (!opName || opName->strView() != callee) continue;
        edit(**doc, *n);
        test::writeBytes(path, *ir::writeToString(**doc, ir::WriteOptions{ir::Format::MsgPack, false}));
        return;
    }
    FAIL() << "no call to " << callee;
}

TEST(HostVerify, InconsistentCallsAreLocatedAndNamed) {
    TempDir tmp;
    struct Broken {
        std::string fixture, callee, message;
        std::function<void(ir::Document&, ir::Node&)> edit;
    };
    const std::vector<Broken> broken = {
        {"host_dispatch_materializes_comm_ctx_args", "chip_orch",
         "the call to 'chip_orch' in 'host_orch' passes 'signal_ctx' as the context of 'data' (parameter 'data'), "
         "but that context cannot be traced to a parameter or to a pld.system.get_comm_ctx of it",
         [](ir::Document&, ir::Node& call) { std::swap(args(call).items[2], args(call).items[3]); }},
        {"host_dispatch_materializes_comm_ctx_args", "chip_orch",
         "the call to 'chip_orch' in 'host_orch' passes 3 arguments for the 4 parameters of 'chip_orch' (2 of them "
         "contexts)",
         [](ir::Document&, ir::Node& call) {
             --args(call).size;
             --directions(call).size;
         }},
        {"host_dispatch_materializes_comm_ctx_args", "chip_orch",
         "the call to 'chip_orch' in 'host_orch' does not end with one CommCtx argument per DistributedTensor "
         "parameter of 'chip_orch' (2)",
         [](ir::Document&, ir::Node& call) { args(call).items[3] = args(call).items[0]; }},
        {"wrapper_calls_forward_materialized_comm_ctx_params_Spmd", "inner",
         "the call to 'inner' in 'wrapper' passes 'other_ctx' as the context of 'data' (parameter 'data'), but its "
         "context is 'data_ctx'",
         [](ir::Document& doc, ir::Node& call) {
             ir::Value type = ir::makeSingletonType(doc, "CommCtxType");
             args(call).items[1] = ir::Value::node(ir::makeVar(doc, "other_ctx", type, ir::makeUnknownSpan(doc)));
         }},
    };
    for (const Broken& b : broken) {
        std::string path = tmp / "broken.msgpack";
        writeEdited(b.fixture, b.callee, path, b.edit);
        auto r = runProcess({kHost, "verify", path, "--property", "DistTensorCtxConsistent"});
        EXPECT_EQ(r.exitCode, 1) << b.message << "\n" << r.err;
        EXPECT_NE(r.err.find("error: " + b.message), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(" [DistTensorCtxConsistent]"), std::string::npos) << r.err;
        EXPECT_NE(
            r.err.find(b.fixture == "wrapper_calls_forward_materialized_comm_ctx_params_Spmd" ? ": error:" : ".py:"),
            std::string::npos)
            << "no place in: " << r.err;
    }
}

}  // namespace
}  // namespace ptoplug

namespace ptoplug {
namespace {

const std::string kNormal = "param_alias_forwards_materialized_comm_ctx_param";

std::string normalInput(const std::string& ext) {
    return test::dataDir() + "/pypto-unit/" + kNormal + "/before." + ext;
}

TEST(HostConventions, TheOutputNameChoosesTheFormat) {
    TempDir tmp;
    ASSERT_EQ(runProcess({kHost, "run", normalInput("msgpack"), "-o", tmp / "out.json"}).exitCode, 0);
    EXPECT_TRUE(test::readBytes(tmp / "out.json") ==
                test::readBytes(test::dataDir() + "/pypto-unit/" + kNormal + "/after.json"));
    ASSERT_EQ(runProcess({kHost, "convert", normalInput("json"), "-o", tmp / "x.msgpack"}).exitCode, 0);
    EXPECT_TRUE(test::readBytes(tmp / "x.msgpack") == test::readBytes(normalInput("msgpack")));
    auto clash = runProcess({kHost, "run", normalInput("msgpack"), "-o", tmp / "y.json", "--format", "msgpack"});
    EXPECT_EQ(clash.exitCode, 2);
    EXPECT_NE(clash.err.find("--format msgpack contradicts the output's name"), std::string::npos) << clash.err;
    EXPECT_FALSE(fs::exists(tmp / "y.json"));
}

TEST(HostConventions, GlobalOptionsFollowTheSubcommandAndNotesNeedVerbose) {
    TempDir tmp;
    auto quiet =
        runProcess({kHost, "run", normalInput("msgpack"), "-o", tmp / "a.msgpack", "--diagnostics-format", "json"});
    EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    auto verbose = runProcess({kHost, "run", normalInput("msgpack"), "-o", tmp / "b.msgpack", "-v"});
    EXPECT_NE(verbose.err.find("pipeline stages are not implemented by the stub host"), std::string::npos);
    EXPECT_EQ(runProcess({kHost, "pipeline", "--no-default-plugins"}).exitCode, 0);
}

TEST(HostConventions, IrIsPrintedAndDumpedAfterNamedPasses) {
    TempDir tmp;
    auto r = runProcess({kHost, "run", normalInput("msgpack"), "-o", tmp / "out.msgpack",
                         "--print-ir-after=MaterializeDistTensorCtx", "--dump-ir", tmp / "dump"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("// IR after MaterializeDistTensorCtx\n# pypto.program"), std::string::npos) << r.err;
    std::vector<std::string> dumped;
    for (const auto& e : fs::directory_iterator(tmp / "dump")) dumped.push_back(e.path().filename().string());
    ASSERT_EQ(dumped.size(), 1u);
    EXPECT_EQ(dumped[0].substr(2), "_after_MaterializeDistTensorCtx.py");
    // A dump that cannot be written fails the run (exit 6, no output); a --dump-ir that is no folder fails
    // it before anything runs (exit 2).
    fs::remove(tmp / ("dump/" + dumped[0]));
    fs::create_directory(tmp / ("dump/" + dumped[0]));
    auto unwritable =
        runProcess({kHost, "run", normalInput("msgpack"), "-o", tmp / "u.msgpack", "--dump-ir", tmp / "dump"});
    EXPECT_EQ(unwritable.exitCode, 6) << unwritable.err;
    EXPECT_NE(unwritable.err.find(dumped[0] + ": error: "), std::string::npos) << unwritable.err;
    EXPECT_FALSE(fs::exists(tmp / "u.msgpack"));
    auto notAFolder =
        runProcess({kHost, "run", normalInput("msgpack"), "-o", tmp / "u.msgpack", "--dump-ir", tmp / "out.msgpack"});
    EXPECT_EQ(notAFolder.exitCode, 2) << notAFolder.err;
    EXPECT_NE(notAFolder.err.find("--dump-ir needs a folder"), std::string::npos) << notAFolder.err;
    EXPECT_FALSE(fs::exists(tmp / "u.msgpack"));
    const std::string failing = test::dataDir() +
                                "/pypto-unit/device_call_without_materialized_context_rejects_synthesized_prefix/"
                                "before.msgpack";
    auto failed = runProcess({kHost, "run", failing, "-o", tmp / "f.msgpack", "--print-ir-after-failure"});
    EXPECT_EQ(failed.exitCode, 1);
    EXPECT_NE(failed.err.find("// IR after MaterializeDistTensorCtx\n"), std::string::npos) << failed.err;
}

// --time-passes: every phase in order with its steps indented under it, and the steps adding up to no more
// than their phase; a large input shows the steps of reading in two parts, a small one reading in one.
TEST(HostConventions, TimePassesShowsEachPhaseAndItsSteps) {
    TempDir tmp;
    const std::string large = tmp / "large.msgpack";
    ASSERT_EQ(runProcess({test::kGen, "1000", large, "--format", "msgpack"}).exitCode, 0);
    struct Expected {
        std::string input;
        std::vector<std::string> readSteps;
        std::vector<std::string> writeSteps;
        std::string flag;
    };
    // Any program's layout for writing is made by the structural check after the last pass; a large one's
    // encoding follows that check on another thread (what is left of it is the write phase). --fsync adds
    // the sync to the naming.
    for (const Expected& e : {Expected{large,
                                       {"read in two parts", "join the parts", "resolve and validate"},
                                       {"finish encoding (begun with the structural check)", "name the file"},
                                       {}},
                              Expected{normalInput("msgpack"),
                                       {"read in one part"},
                                       {"encode and write", "sync and name the file"},
                                       "--fsync"}}) {
        std::vector<std::string> argv{kHost, "run", e.input, "-o", tmp / "out.msgpack", "--time-passes"};
        if (!e.flag.empty()) argv.push_back(e.flag);
        auto r = runProcess(argv);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        std::vector<std::string> names;
        std::vector<double> phaseSeconds, stepSum;
        std::istringstream lines(r.err);
        // A phase: "time: NAME  SECONDS s   peak N MiB"; a step: "time:   NAME  SECONDS s".
        const std::regex format(R"(time: (  )?(\S.*\S) +([0-9.]+) s(   peak +[0-9.]+ MiB)?)");
        for (std::string line; std::getline(lines, line);) {
            std::smatch m;
            ASSERT_TRUE(std::regex_match(line, m, format)) << line;
            const bool step = m[1].matched;
            ASSERT_NE(step, m[4].matched) << "a phase has a peak, a step none: " << line;
            const std::string name = m[2];
            const double seconds = std::stod(m[3]);
            names.push_back(step ? "  " + name : name);
            if (step) {
                ASSERT_FALSE(stepSum.empty()) << "a step before any phase: " << line;
                stepSum.back() += seconds;
            } else {
                phaseSeconds.push_back(seconds);
                stepSum.push_back(0);
            }
        }
        std::vector<std::string> expected{"read and validate " + e.input};
        for (const std::string& s : e.readSteps) expected.push_back("  " + s);
        for (const char* phase : {"pass MaterializeDistTensorCtx", "structural check after MaterializeDistTensorCtx",
                                  "scope check after MaterializeDistTensorCtx", "verifier DistTensorCtxMaterialized"})
            expected.push_back(phase);
        expected.push_back("write " + tmp / "out.msgpack");
        for (const std::string& s : e.writeSteps) expected.push_back("  " + s);
        expected.push_back("total");
        EXPECT_EQ(names, expected) << r.err;
        for (size_t i = 0; i < phaseSeconds.size(); ++i)
            EXPECT_LE(stepSum[i], phaseSeconds[i] + 1e-3) << "phase " << i << " of\n" << r.err;
    }
}

// A large program going to a regular file is encoded behind the last structural check, following its
// layout on another thread (driver/output_writer.h); to stdout it is written after the run. The bytes are
// the same, in either format, and the same again in batch mode.
TEST(HostConventions, AProgramWrittenBehindTheCheckIsTheOneWrittenAfterIt) {
    TempDir tmp, out;
    const std::string large = tmp / "large.msgpack";
    ASSERT_EQ(runProcess({test::kGen, "1000", large, "--format", "msgpack"}).exitCode, 0);
    for (const char* format : {"msgpack", "json"}) {
        const std::string file = tmp / (std::string("out.") + format);
        auto behind = runProcess({kHost, "run", large, "-o", file, "--format", format});
        ASSERT_EQ(behind.exitCode, 0) << behind.err;
        auto after = runProcess({kHost, "run", large, "-o", "-", "--format", format});
        ASSERT_EQ(after.exitCode, 0) << after.err;
        EXPECT_GT(after.out.size(), size_t{1} << 20);
        EXPECT_TRUE(test::readBytes(file) == after.out) << format;
    }
    auto batch = runProcess({kHost, "batch", large, "--out-dir", out.path(), "-j", "2"});
    ASSERT_EQ(batch.exitCode, 0) << batch.err;
    EXPECT_TRUE(test::readBytes(out / "large.msgpack") == test::readBytes(tmp / "out.msgpack"));
}

TEST(HostConventions, BatchTakesIrFilesUnlessToldOtherwise) {
    TempDir in, out, other;
    fs::copy_file(normalInput("msgpack"), in / "a.msgpack");
    fs::copy_file(normalInput("json"), in / "b.json");
    test::writeBytes(in / "notes.txt", "not a program");
    auto r = runProcess({kHost, "batch", in.path(), "--out-dir", out.path()});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("2 files, 2 ok"), std::string::npos) << r.err;
    auto excluded = runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--exclude", "*.json"});
    EXPECT_NE(excluded.err.find("1 files, 1 ok"), std::string::npos) << excluded.err;
    auto none = runProcess({kHost, "batch", other.path(), "--out-dir", out.path()});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("no input file matched"), std::string::npos) << none.err;
}

// An empty path names nothing: a usage error that names the option, before anything is read or written.
TEST(HostCli, AnEmptyPathIsAUsageError) {
    TempDir tmp;
    const std::string in = normalInput("json");
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"run", in, "-o", ""},
                                               {"run", in, "-o", tmp / "a.json", "--dump-ir", ""},
                                               {"run", in, "-o", tmp / "a.json", "--crash-reproducer", ""},
                                               {"convert", in, "-o", ""},
                                               {"batch", in, "--out-dir", ""},
                                               {"batch", in, "--out-dir", tmp.path(), "--report", ""}}) {
        std::vector<std::string> argv{kHost};
        argv.insert(argv.end(), args.begin(), args.end());
        auto r = runProcess(argv);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_NE(r.err.find(": an empty path names no file or folder"), std::string::npos) << r.err;
    }
    EXPECT_TRUE(fs::is_empty(tmp.path()));
}

// With --format, an output's extension says its format: a batch converting MessagePack to JSON writes
// x.json, and refuses, before running anything, two inputs that would then share one output.
TEST(HostConventions, BatchOutputsAreNamedForTheirFormat) {
    TempDir in, out, again, clash, clashOut;
    fs::copy_file(normalInput("msgpack"), in / "a.msgpack");
    fs::copy_file(normalInput("json"), in / "b.json");
    auto r = runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(fs::exists(out / "a.msgpack"));
    auto converted = runProcess({kHost, "run", in / "a.msgpack", "-o", "-", "--format", "json"});
    ASSERT_EQ(converted.exitCode, 0) << converted.err;
    EXPECT_TRUE(test::readBytes(out / "a.json") == converted.out);
    auto back = runProcess({kHost, "batch", out.path(), "--out-dir", again.path(), "--format", "msgpack"});
    ASSERT_EQ(back.exitCode, 0) << back.err;
    EXPECT_TRUE(fs::exists(again / "a.msgpack") && fs::exists(again / "b.msgpack"));

    fs::copy_file(normalInput("msgpack"), clash / "x.msgpack");
    fs::copy_file(normalInput("json"), clash / "x.json");
    auto refused = runProcess({kHost, "batch", clash.path(), "--out-dir", clashOut.path(), "--format", "json"});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("writes the same output as"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("different --out-dir folders"), std::string::npos) << refused.err;
    EXPECT_TRUE(fs::is_empty(clashOut.path()));
}

TEST(HostConventions, BatchPatternsMatchNamesAtAnyDepthOrRelativePaths) {
    TempDir in, out;
    for (const char* dir : {"a", "b/c"}) {
        fs::create_directories(in / dir);
        fs::copy_file(normalInput("json"), fs::path(in / dir) / "before.json");
        fs::copy_file(normalInput("json"), fs::path(in / dir) / "after.json");
    }
    auto byName = runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--include", "before.json"});
    EXPECT_EQ(byName.exitCode, 0) << byName.err;
    EXPECT_NE(byName.err.find("2 files, 2 ok"), std::string::npos) << byName.err;
    EXPECT_TRUE(fs::exists(out / "b/c/before.json"));
    EXPECT_FALSE(fs::exists(out / "b/c/after.json"));
    auto byPath = runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--include", "b/*"});
    EXPECT_NE(byPath.err.find("2 files, 2 ok"), std::string::npos) << byPath.err;
    auto excluded =
        runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--include", "*.json", "--exclude", "a/*"});
    EXPECT_NE(excluded.err.find("2 files, 2 ok"), std::string::npos) << excluded.err;
}

}  // namespace
}  // namespace ptoplug

namespace ptoplug {
namespace {

TEST(HostConventions, MessagePackIsNotWrittenToATerminal) {
    if (!fs::exists("/usr/bin/script")) GTEST_SKIP() << "no script(1) to give pto-host a terminal";
    auto r = runProcess({"/usr/bin/script", "-qec", kHost + " run '" + normalInput("msgpack") + "' -o -", "/dev/null"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.out.find("refusing to write MessagePack to a terminal"), std::string::npos) << r.out;
    auto json = runProcess(
        {"/usr/bin/script", "-qec", kHost + " run '" + normalInput("msgpack") + "' -o - --format json", "/dev/null"});
    EXPECT_EQ(json.exitCode, 0) << json.out;
}

}  // namespace
}  // namespace ptoplug

namespace ptoplug {
namespace {

const std::string kRejected =
    "/pypto-unit/device_call_without_materialized_context_rejects_synthesized_prefix/before.msgpack";

TEST(HostDiagnostics, TextReadsLikeClang) {
    TempDir tmp;
    auto r = runProcess({kHost, "run", test::dataDir() + kRejected, "-o", tmp / "out.msgpack"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find(": error: Cannot determine the communication context"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" [MaterializeDistTensorCtx/unresolved-context]"), std::string::npos) << r.err;
}

TEST(HostDiagnostics, EveryJsonLineHasTheOneSchema) {
    TempDir in, out;
    fs::copy_file(test::dataDir() + kRejected, in / "rejected.msgpack");
    test::writeBytes(in / "garbage.json", "not IR");
    fs::copy_file(normalInput("msgpack"), in / "fine.msgpack");
    auto r = runProcess({kHost, "batch", in.path(), "--out-dir", out.path(), "--diagnostics-format", "json"});
    EXPECT_EQ(r.exitCode, 3);
    const std::set<std::string> schema = {"file",    "line", "column", "end",   "severity", "rule",
                                          "message", "pass", "plugin", "input", "pointer",  "hint"};
    std::istringstream lines(r.err);
    size_t count = 0;
    bool sawPassDiagnostic = false;
    for (std::string line; std::getline(lines, line); ++count) {
        nlohmann::json j = nlohmann::json::parse(line);
        std::set<std::string> keys;
        for (auto it = j.begin(); it != j.end(); ++it) keys.insert(it.key());
        EXPECT_EQ(keys, schema) << line;
        if (j["rule"] == "MaterializeDistTensorCtx/unresolved-context") {
            sawPassDiagnostic = true;
            EXPECT_EQ(j["pass"], "MaterializeDistTensorCtx");
            EXPECT_EQ(j["plugin"], "materialize-dist-tensor-ctx");
            EXPECT_TRUE(j["line"].is_number()) << line;
        }
    }
    EXPECT_GE(count, 3u);
    EXPECT_TRUE(sawPassDiagnostic) << r.err;
}

TEST(HostDiagnostics, SarifIsOneLogWithRulesAndLocations) {
    TempDir tmp;
    auto r = runProcess(
        {kHost, "run", test::dataDir() + kRejected, "-o", tmp / "out.msgpack", "--diagnostics-format", "sarif"});
    EXPECT_EQ(r.exitCode, 1);
    nlohmann::json log = nlohmann::json::parse(r.err);
    EXPECT_EQ(log["version"], "2.1.0");
    const nlohmann::json& run = log["runs"][0];
    EXPECT_EQ(run["tool"]["driver"]["name"], "pto-host");
    bool ruleListed = false;
    for (const auto& rule : run["tool"]["driver"]["rules"])
        ruleListed = ruleListed || rule["id"] == "MaterializeDistTensorCtx/unresolved-context";
    EXPECT_TRUE(ruleListed) << r.err;
    const nlohmann::json& result = run["results"][0];
    EXPECT_EQ(result["ruleId"], "MaterializeDistTensorCtx/unresolved-context");
    EXPECT_EQ(result["level"], "error");
    EXPECT_TRUE(result["locations"][0]["physicalLocation"]["region"]["startLine"].is_number()) << r.err;
}

}  // namespace
}  // namespace ptoplug
