// The C++ API as its users have it (linked to libptoplug.so): pypto's fixtures through
// passes::MaterializeDistTensorCtx() give pypto's output; rejected programs throw PassError with
// pypto's message; files and formats behave.
#include <ptoplug/ptoplug.hpp>

#include <gtest/gtest.h>

#include <filesystem>

#include "support/fake_plugins.h"
#include "support/fixtures.h"
#include "support/process.h"

namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& name, const std::string& file) {
    return (fs::path(ptoplug::test::dataDir()) / "pypto-unit" / name / file).string();
}

TEST(CppApi, ThePassGivesPyptosOutput) {
    const ptoplug::Pass pass = ptoplug::passes::MaterializeDistTensorCtx();
    EXPECT_EQ(pass.name(), "MaterializeDistTensorCtx");
    for (const char* name : {"param_alias_forwards_materialized_comm_ctx_param",
                             "buffer_aliasing_view_inherits_source_context", "return_call_reuses_returned_param_ctx"}) {
        ptoplug::Program program = ptoplug::Program::read(fixture(name, "before.msgpack"));
        program = pass(std::move(program));
        EXPECT_TRUE(program.to_bytes(ptoplug::Format::MsgPack) ==
                    ptoplug::test::readBytes(fixture(name, "after.msgpack")))
            << name;
    }
}

TEST(CppApi, ARejectedProgramThrowsPassErrorWithPyptosMessage) {
    const std::string name = "device_call_without_materialized_context_rejects_synthesized_prefix";
    ptoplug::Program program = ptoplug::Program::from_bytes(ptoplug::test::readBytes(fixture(name, "before.msgpack")));
    try {
        ptoplug::passes::MaterializeDistTensorCtx()(std::move(program));
        FAIL() << "no PassError";
    } catch (const ptoplug::PassError& e) {
        EXPECT_FALSE(e.internal());
        EXPECT_EQ(std::string(e.what()).rfind("Cannot determine the communication context", 0), 0u) << e.what();
        ASSERT_FALSE(e.diagnostics().empty());
        EXPECT_EQ(e.diagnostics()[0].rule, "MaterializeDistTensorCtx/unresolved-context");
        EXPECT_EQ(e.diagnostics()[0].severity, "error");
    }
}

TEST(CppApi, TransformRunsThePassAloneAndGivesItsWarnings) {
    // The pass succeeds on it; what it produces does not hold (DistTensorCtxMaterialized).
    const std::string dir = ptoplug::test::dataDir() + "/pypto-random/0012/";
    const ptoplug::Pass pass = ptoplug::passes::MaterializeDistTensorCtx();
    std::vector<ptoplug::Diagnostic> diagnostics;
    ptoplug::Program out = pass.transform(ptoplug::Program::read(dir + "before.json"), &diagnostics);
    EXPECT_TRUE(out.to_bytes(ptoplug::Format::Json) == ptoplug::test::readBytes(dir + "after.json"));
    EXPECT_THROW(pass(ptoplug::Program::read(dir + "before.json")), ptoplug::PassError);
    // Its own output again: the pass warns that it adds a second set of contexts.
    pass.transform(ptoplug::Program::read(fixture("param_alias_forwards_materialized_comm_ctx_param", "after.msgpack")),
                   &diagnostics);
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_EQ(diagnostics[0].severity, "warning");
    EXPECT_EQ(diagnostics[0].rule, "MaterializeDistTensorCtx/already-materialized");
    EXPECT_EQ(ptoplug::manifestsIn(ptoplug::defaultPluginDir()).size(), 1u);
}

TEST(CppApi, ANodePyptosConstructorRefusesIsPyptosText) {
    // The fake adds one direction to the first call's arg_directions: pypto's Call constructor refuses it
    // (a TypeError in pypto, with this text).
    ptoplug::test::TempDir tmp;
    const ptoplug::PassManager manager({ptoplug::test::fakeManifest(tmp, "breaks_directions")}, false);
    try {
        manager.run(ptoplug::Program::read(ptoplug::test::fakesInput()));
        FAIL() << "no PassError";
    } catch (const ptoplug::PassError& e) {
        EXPECT_TRUE(e.nodeRefused());
        EXPECT_FALSE(e.internal());
        EXPECT_EQ(std::string(e.what()), "Call attrs['arg_directions'] size (2) must match args size (1)");
        ASSERT_FALSE(e.diagnostics().empty());
        EXPECT_EQ(e.diagnostics()[0].rule, "pto-host/invalid-ir");
    }
}

TEST(CppApi, ProgramsReadAndWriteBothFormats) {
    ptoplug::test::TempDir tmp;
    const std::string name = "param_alias_forwards_materialized_comm_ctx_param";  // not a host program (§11.5)
    ptoplug::Program program = ptoplug::Program::read(fixture(name, "before.json"));
    EXPECT_EQ(program.format(), ptoplug::Format::Json);
    program.write(tmp / "out.msgpack");  // the extension chooses the format
    EXPECT_TRUE(ptoplug::test::readBytes(tmp / "out.msgpack") ==
                ptoplug::test::readBytes(fixture(name, "before.msgpack")));
    EXPECT_TRUE(program.to_bytes(ptoplug::Format::Json) == ptoplug::test::readBytes(fixture(name, "before.json")));
    EXPECT_THROW(ptoplug::Program::from_bytes("not IR"), ptoplug::FileError);
    EXPECT_THROW(ptoplug::Program::read(tmp / "missing.msgpack"), ptoplug::FileError);
    EXPECT_THROW(program.write(tmp / "no/such/dir/out.json"), ptoplug::FileError);
}

TEST(CppApi, PassManagerRunsTheDefaultPipelineWithThePlugins) {
    const ptoplug::PassManager manager;
    EXPECT_NE(manager.describe().find("MaterializeDistTensorCtx"), std::string::npos);
    const std::string name = "wrapper_calls_forward_materialized_comm_ctx_params_Group";
    ptoplug::Program program = manager.run(ptoplug::Program::read(fixture(name, "before.msgpack")));
    EXPECT_TRUE(program.to_bytes(ptoplug::Format::MsgPack) == ptoplug::test::readBytes(fixture(name, "after.msgpack")));
    EXPECT_THROW(ptoplug::passes::MaterializeDistTensorCtx("/nonexistent"), ptoplug::FileError);
}

TEST(CppApi, PassManagerSetsPassOptions) {
    const std::string rename = PTOPLUG_EXAMPLE_PLUGIN_DIR "/rename_functions.json";
    const ptoplug::PassManager manager({rename}, true,
                                       {"RenameFunctions.pattern=chip_(.*)", "RenameFunctions.replacement=device_$1"});
    const std::string input = ptoplug::test::dataDir() + "/examples/input.json";
    ptoplug::Program program = manager.run(ptoplug::Program::read(input));
    EXPECT_TRUE(program.to_bytes(ptoplug::Format::Json) ==
                ptoplug::test::readBytes(ptoplug::test::dataDir() + "/examples/expected_rename_functions.json"));
    try {
        ptoplug::PassManager({rename}, true, {"RenameFunctions.patern=x"});
        ADD_FAILURE() << "an unknown option was accepted";
    } catch (const ptoplug::FileError& e) {
        EXPECT_NE(std::string(e.what()).find("pass RenameFunctions has no option 'patern'"), std::string::npos)
            << e.what();
        // The error names the API call that gave the value, not pto-host's --pass-option.
        EXPECT_NE(std::string(e.what()).find("ptoplug::PassManager pass option RenameFunctions.patern=x"),
                  std::string::npos)
            << e.what();
        EXPECT_EQ(std::string(e.what()).find("--pass-option"), std::string::npos) << e.what();
    }
}

// Any plugin's pass, as a Pass like MaterializeDistTensorCtx(), with its options.
TEST(CppApi, LoadPassGivesAnyPluginsPassWithItsOptions) {
    const std::string rename = PTOPLUG_EXAMPLE_PLUGIN_DIR "/rename_functions.json";
    const ptoplug::Pass pass =
        ptoplug::load_pass(rename, "RenameFunctions", {{"pattern", "chip_(.*)"}, {"replacement", "device_$1"}});
    EXPECT_EQ(pass.name(), "RenameFunctions");
    const std::string input = ptoplug::test::dataDir() + "/examples/input.json";
    // The default pipeline first (the pass's place is after MaterializeDistTensorCtx), then the pass alone.
    ptoplug::Program program = pass(ptoplug::PassManager().run(ptoplug::Program::read(input)));
    EXPECT_TRUE(program.to_bytes(ptoplug::Format::Json) ==
                ptoplug::test::readBytes(ptoplug::test::dataDir() + "/examples/expected_rename_functions.json"));
    try {
        ptoplug::load_pass(rename, "Rename");
        ADD_FAILURE() << "a pass the plugin lacks was given";
    } catch (const ptoplug::FileError& e) {
        EXPECT_NE(std::string(e.what()).find("has no pass named Rename (it has: RenameFunctions)"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(ptoplug::load_pass(rename, "RenameFunctions", {{"colour", "red"}}), ptoplug::FileError);
}

// The pass's check of its option values runs when the pass or the PassManager is made, naming the API.
TEST(CppApi, AValueThePassRefusesIsAnErrorWhenThePassIsMade) {
    const std::string rename = PTOPLUG_EXAMPLE_PLUGIN_DIR "/rename_functions.json";
    const std::string refused =
        "refuses option 'replacement' of pass RenameFunctions, 'a-b' (from the C++ API): not a "
        "function name";
    try {
        ptoplug::load_pass(rename, "RenameFunctions", {{"pattern", "chip_(.*)"}, {"replacement", "a-b"}});
        ADD_FAILURE() << "a refused value was taken";
    } catch (const ptoplug::FileError& e) {
        EXPECT_NE(std::string(e.what()).find("ptoplug::PassManager pass option RenameFunctions.replacement=a-b"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find(refused), std::string::npos) << e.what();
    }
    try {
        ptoplug::PassManager({rename}, true, {"RenameFunctions.pattern=x", "RenameFunctions.replacement=a-b"});
        ADD_FAILURE() << "a refused value was taken";
    } catch (const ptoplug::FileError& e) {
        EXPECT_NE(std::string(e.what()).find(refused), std::string::npos) << e.what();
    }
}

// A textual pipeline, as pto-host --passes takes it.
TEST(CppApi, PassManagerParsesAPassList) {
    const std::string rename = PTOPLUG_EXAMPLE_PLUGIN_DIR "/rename_functions.json";
    const ptoplug::PassManager manager = ptoplug::PassManager::parse(
        "MaterializeDistTensorCtx,RenameFunctions{pattern=chip_(.*) replacement=device_$1}", {rename});
    EXPECT_EQ(manager.describe().find("Simplify"), std::string::npos) << manager.describe();
    const std::string input = ptoplug::test::dataDir() + "/examples/input.json";
    ptoplug::Program program = manager.run(ptoplug::Program::read(input));
    EXPECT_TRUE(program.to_bytes(ptoplug::Format::Json) ==
                ptoplug::test::readBytes(ptoplug::test::dataDir() + "/examples/expected_rename_functions.json"));
    try {
        ptoplug::PassManager::parse("MaterializeDistTensorCtx;RenameFunctions", {rename});
        ADD_FAILURE() << "a malformed list was accepted";
    } catch (const ptoplug::FileError& e) {
        EXPECT_NE(std::string(e.what()).find("--passes:1:25: error: expected ',' between passes, found ';'"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
