// pypto's fixtures through the MaterializeDistTensorCtx plugin, loaded like any plugin. The 17 unit
// cases: outputs equal pypto's byte for byte (MessagePack and canonical JSON), errors give pypto's
// message and span. The 100 generated programs: the same program as pypto's (structurally), or an error
// with pypto's message; the known divergences are listed, with their reason, beside the corpus. The
// outputs of both, fed back to the pass: the same program as pypto makes of them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "abi_host/runner.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "loader/loader.h"
#include "support/fixtures.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;

struct Case {
    std::string name;
    fs::path dir;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const auto& e : fs::directory_iterator(fs::path(test::dataDir()) / "pypto-unit"))
        out.push_back({e.path().filename().string(), e.path()});
    std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
    return out;
}

std::shared_ptr<host::LoadedPlugin> plugin() {
    static auto loaded = host::loadPlugin(PTOPLUG_MDTC_PLUGIN);
    if (!loaded) ADD_FAILURE() << loaded.error().format();
    return loaded ? *loaded : nullptr;
}

host::RunOutcome runPass(ir::Document& doc) {
    const pto_pass_desc* pass = plugin()->pass("MaterializeDistTensorCtx");
    return host::runThroughAbi(doc, pass->run);
}

class MdtcFixture : public ::testing::TestWithParam<Case> {};

TEST_P(MdtcFixture, MatchesPypto) {
    const Case& c = GetParam();
    ASSERT_TRUE(plugin());
    for (const char* format : {"msgpack", "json"}) {
        std::string input = test::readBytes((c.dir / (std::string("before.") + format)).string());
        auto doc = ir::readDocument(input, ir::Format::Auto, c.name);
        ASSERT_TRUE(doc.ok()) << doc.error().format();
        host::RunOutcome outcome = runPass(**doc);

        if (fs::exists(c.dir / "error.txt")) {
            // "ValueError: <message> [file:line:col]"
            std::string expected = test::readBytes((c.dir / "error.txt").string());
            expected = expected.substr(expected.find(": ") + 2);
            std::string location = expected.substr(expected.rfind(" [") + 2);
            expected = expected.substr(0, expected.rfind(" ["));
            location = location.substr(0, location.find(']'));
            ASSERT_EQ(outcome.status, PTO_ERR_USER);
            ASSERT_EQ(outcome.diagnostics.size(), 1u);
            const host::Diagnostic& d = outcome.diagnostics[0];
            EXPECT_EQ(d.severity, PTO_SEVERITY_ERROR);
            EXPECT_EQ(d.message, expected);
            EXPECT_EQ(d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column), location);
            EXPECT_EQ(d.rule.rfind("MaterializeDistTensorCtx/", 0), 0u) << d.rule;
            continue;
        }
        ASSERT_FALSE(outcome.failed()) << (outcome.diagnostics.empty() ? "" : outcome.diagnostics[0].message);
        const pto_verifier_desc* verifier = plugin()->verifier("DistTensorCtxMaterialized");
        ASSERT_TRUE(verifier);
        EXPECT_FALSE(host::runThroughAbi(**doc, verifier->run).failed());

        for (ir::Format out : {ir::Format::MsgPack, ir::Format::Json}) {
            std::string expectedBytes =
                test::readBytes((c.dir / (out == ir::Format::Json ? "after.json" : "after.msgpack")).string());
            auto bytes = ir::writeToString(**doc, ir::WriteOptions{out, false});
            ASSERT_TRUE(bytes.ok());
            bool hostOrch = test::fixtureNamed(c.name + "/after").pyptoPlacementUnreadable;
            if (hostOrch) {
                // docs/ir_format.md §11.5 places the window buffers differently from pypto: same program.
                auto expectedDoc = ir::readDocument(expectedBytes, ir::Format::Auto, "after");
                auto ours = ir::readDocument(*bytes, ir::Format::Auto, "ours");
                ASSERT_TRUE(expectedDoc.ok() && ours.ok());
                EXPECT_EQ(test::resolvedJson(**ours), test::resolvedJson(**expectedDoc));
                EXPECT_EQ(test::firstReferenceBeforeDefinition(
                              *ir::writeToString(**ours, ir::WriteOptions{ir::Format::Json, false})),
                          "");
            } else {
                EXPECT_EQ(*bytes, expectedBytes) << c.name << " from " << format;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(PyptoUnit, MdtcFixture, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

fs::path randomDir() { return fs::path(test::dataDir()) / "pypto-random"; }

std::vector<std::string> randomCases() {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(randomDir()))
        if (e.is_directory()) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

/// KNOWN_DIVERGENCES.txt: case -> reason.
const std::map<std::string, std::string>& knownDivergences() {
    static const std::map<std::string, std::string> known = [] {
        std::map<std::string, std::string> out;
        std::ifstream in(randomDir() / "KNOWN_DIVERGENCES.txt");
        for (std::string line; std::getline(in, line);) {
            if (line.empty() || line[0] == '#') continue;
            std::istringstream fields(line);
            std::string name, reason;
            fields >> name >> reason;
            out[name] = reason;
        }
        return out;
    }();
    return known;
}

/// "" when the plugin's result on `input` agrees with pypto's in `expected` (after.json, or error.txt),
/// else what differs.
std::string divergence(const fs::path& input, const fs::path& expected, const std::string& name) {
    auto doc = ir::readDocument(test::readBytes(input.string()), ir::Format::Json, name);
    if (!doc.ok()) return input.filename().string() + " unreadable: " + doc.error().format();
    host::RunOutcome outcome = runPass(**doc);
    std::string ours = outcome.diagnostics.empty() ? "" : outcome.diagnostics[0].message;

    if (fs::exists(expected / "error.txt")) {
        // "<Type>: <message> [file:line:col]"; the span is the generator's, not compared.
        std::string want = test::readBytes((expected / "error.txt").string());
        want = want.substr(0, want.find('\n'));
        want = want.substr(want.find(": ") + 2);
        want = want.substr(0, want.rfind(" ["));
        if (!outcome.failed()) return "pypto rejects it (" + want + "); the plugin accepted it";
        return ours == want ? "" : "pypto: " + want + "\nplugin: " + ours;
    }
    if (outcome.failed()) return "pypto accepts it; the plugin failed: " + ours;
    auto expectedDoc = ir::readDocument(test::readBytes((expected / "after.json").string()), ir::Format::Json, "after");
    if (!expectedDoc.ok()) return "after.json unreadable: " + expectedDoc.error().format();
    std::string want = test::resolvedJson(**expectedDoc), got = test::resolvedJson(**doc);
    return want == got ? "" : "the program differs from pypto's after.json";
}

std::string randomCaseDivergence(const std::string& name) {
    return divergence(randomDir() / name / "before.json", randomDir() / name, name);
}

class PyptoRandom : public ::testing::TestWithParam<std::string> {};

TEST_P(PyptoRandom, AgreesWithPypto) {
    ASSERT_TRUE(plugin());
    std::string divergence = randomCaseDivergence(GetParam());
    auto known = knownDivergences().find(GetParam());
    if (known == knownDivergences().end()) {
        EXPECT_EQ(divergence, "");
        return;
    }
    ASSERT_NE(divergence, "") << "now agrees with pypto: delete its line from KNOWN_DIVERGENCES.txt";
    GTEST_SKIP() << "known divergence: " << known->second;
}

// The call/callee consistency check (docs/pass.md §13) gives the same verdict on this plugin's output
// as on pypto's own: programs are consistent, except where an IterArg's init value is rewritten per
// use (§12.4), whose copies' calls carry a context set per rewrite. Those it must flag, in both.
TEST_P(PyptoRandom, ConsistencyVerdictMatchesPypto) {
    ASSERT_TRUE(plugin());
    fs::path dir = randomDir() / GetParam();
    if (!fs::exists(dir / "after.json")) GTEST_SKIP() << "pypto rejects this program";
    auto doc = ir::readDocument(test::readBytes((dir / "before.json").string()), ir::Format::Json, GetParam());
    ASSERT_TRUE(doc.ok()) << doc.error().format();
    ASSERT_FALSE(runPass(**doc).failed());
    auto theirs = ir::readDocument(test::readBytes((dir / "after.json").string()), ir::Format::Json, "after");
    ASSERT_TRUE(theirs.ok());
    const pto_verifier_desc* verifier = plugin()->verifier("DistTensorCtxConsistent");
    ASSERT_TRUE(verifier);
    const host::RunSettings readOnly{.options = nullptr, .readOnly = true};
    host::RunOutcome ours = host::runThroughAbi(**doc, verifier->run, readOnly);
    host::RunOutcome pypto = host::runThroughAbi(**theirs, verifier->run, readOnly);
    ASSERT_EQ(ours.diagnostics.size(), pypto.diagnostics.size());
    for (size_t i = 0; i < ours.diagnostics.size(); ++i)
        EXPECT_EQ(ours.diagnostics[i].message, pypto.diagnostics[i].message);
}

INSTANTIATE_TEST_SUITE_P(PyptoRandom, PyptoRandom, ::testing::ValuesIn(randomCases()),
                         [](const auto& info) { return "case_" + info.param; });

// pypto's programs fed back: what pypto's pass made of each fixture, given to the pass again (a pipeline
// run twice, a dumped program read back). The input is the fixture's after.json, pypto's result on it is
// in pypto-fed-back/<corpus>/<case>/ (after.json or error.txt). Shared nodes meet the pass there: a call
// that already carries contexts is both a synthesized query's argument and a later call's (§12.4).
fs::path fedBackDir() { return fs::path(test::dataDir()) / "pypto-fed-back"; }

std::vector<std::string> fedBackCases() {
    std::vector<std::string> out;
    for (const char* corpus : {"pypto-random", "pypto-unit"})
        for (const auto& e : fs::directory_iterator(fedBackDir() / corpus))
            out.push_back(std::string(corpus) + "/" + e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

class PyptoFedBack : public ::testing::TestWithParam<std::string> {};

TEST_P(PyptoFedBack, AgreesWithPypto) {
    ASSERT_TRUE(plugin());
    const fs::path input = fs::path(test::dataDir()) / GetParam() / "after.json";
    EXPECT_EQ(divergence(input, fedBackDir() / GetParam(), GetParam()), "");
}

INSTANTIATE_TEST_SUITE_P(PyptoFedBack, PyptoFedBack, ::testing::ValuesIn(fedBackCases()), [](const auto& info) {
    std::string name = info.param;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
});

}  // namespace
}  // namespace ptoplug
