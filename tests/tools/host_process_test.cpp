// pto-host against what plugin code can leave behind in the process (issue 33, its process half): threads,
// timers, child processes, a changed signal mask or handling, another process group. Each fails the call
// that left it, naming the plugin and what it left (exit 5; 4 while loading), nothing of it reaches another
// file, and no leftover outlives pto-host (each fake's leftover would print "leftover ... still running").
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "support/fake_plugins.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;
using test::runProcess;
using test::TempDir;

struct ProcessFault {
    std::string fault;
    std::string message;  ///< after "<file>: " (exit 5)
};
void PrintTo(const ProcessFault& f, std::ostream* os) { *os << f.fault; }

// A pass that left `what`.
ProcessFault leaves(const std::string& fault, const std::string& what) {
    return {fault, "internal error: pass 'FakePass' of plugin 'fake' (" + test::fakeLibrary(fault) +
                       ") changed what the host cannot put back: " + what + "; this is a bug in the plugin"};
}

class ProcessFaults : public ::testing::TestWithParam<ProcessFault> {};

// `run`: the file fails naming the plugin and what it left, the old output stays, and pto-host's stderr
// closes at once (no leftover holds it open or writes to it).
TEST_P(ProcessFaults, RunFailsNamingWhatThePassLeft) {
    const ProcessFault& f = GetParam();
    TempDir tmp;
    const std::string out = tmp / "out.json";
    test::writeBytes(out, "old");
    auto r = runProcess(test::hostWithFake(tmp, f.fault, {"run", test::fakesInput(), "-o", out}));
    EXPECT_EQ(r.exitCode, 5) << r.err;
    EXPECT_NE(r.err.find(f.message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("leftover"), std::string::npos) << r.err;
    EXPECT_EQ(test::readBytes(out), "old");
}

// A 20-file batch at -j2 where one file triggers it: that file fails as in `run`, and every other output is
// byte for byte that of a clean run (what was left ended with the process that ran that file).
void expectOneFileFailsAlone(const ProcessFault& f, const std::vector<std::string>& extra) {
    test::OneTriggerBatch b = test::batchWithOneTrigger(f.fault, extra);
    ASSERT_TRUE(b.cleanOk);
    EXPECT_EQ(b.run.exitCode, 5) << b.run.err;
    EXPECT_NE(b.run.err.find("p107.json: " + f.message), std::string::npos) << b.run.err;
    EXPECT_NE(b.run.err.find("\npto-host batch: 20 files, 19 ok, 1 failed\n"), std::string::npos) << b.run.err;
    EXPECT_EQ(b.run.err.find("leftover"), std::string::npos) << b.run.err;
    EXPECT_FALSE(b.triggerWritten);
    EXPECT_TRUE(b.differing.empty()) << b.differing.front();
}

TEST_P(ProcessFaults, OneFileOfABatchFailsAloneAndEveryOtherOutputIsAsInACleanRun) {
    expectOneFileFailsAlone(GetParam(), {});
}

// The same with workers that run file after file (--reuse-workers): the worker that ran it is replaced.
TEST_P(ProcessFaults, OneFileOfABatchWithReusedWorkersFailsAlone) {
    expectOneFileFailsAlone(GetParam(), {"--reuse-workers"});
}

// Memory plugin code keeps from one file's run to the next (a static the triggering file sets, which makes every
// later run in that process rename a function and succeed) never reaches another file: each file runs in a
// process of its own, forked from a worker that ran no plugin code.
TEST(ProcessFaultsInMemory, StateKeptByOneFilesRunNeverReachesAnotherFile) {
    test::OneTriggerBatch b = test::batchWithOneTrigger("keeps_state");
    ASSERT_TRUE(b.cleanOk);
    EXPECT_EQ(b.run.exitCode, 0) << b.run.err;
    EXPECT_NE(b.run.err.find("pto-host batch: 20 files, 20 ok, 0 failed\n"), std::string::npos) << b.run.err;
    EXPECT_TRUE(b.triggerWritten);
    EXPECT_TRUE(b.differing.empty()) << b.differing.front();
}

INSTANTIATE_TEST_SUITE_P(
    Fakes, ProcessFaults,
    ::testing::Values(leaves("leaves_thread", "1 thread left running"),
                      leaves("arms_alarm", "a timer left armed (alarm or ITIMER_REAL, disarmed)"),
                      leaves("arms_timer", "a POSIX timer (timer_create) left"),
                      leaves("leaves_child", "a child process left (running or not reaped)"),
                      leaves("leaves_daemon", "a child process left (running or not reaped)"),
                      leaves("blocks_signals", "the signal mask changed (blocked: SIGTERM SIGCHLD, put back)"),
                      leaves("ignores_sigchld", "the handling of SIGCHLD changed (put back)"),
                      leaves("defaults_sigpipe", "the handling of SIGPIPE changed (put back)"),
                      leaves("changes_group", "the process moved to another process group (setpgid)"),
                      ProcessFault{
                          "writes_channel",
                          "error: sent pto-host what is no answer of its worker (a frame that does not begin as "
                          "pto-host's do) in pass 'FakePass' of plugin 'fake' (" +
                              test::fakeLibrary("writes_channel") + "); no output was written"}),
    [](const auto& info) { return info.param.fault; });

// While loading: the plugin is named by its library and the load fails (exit 4) before any file is read. It
// loaded once, in the child that tries the plugins: pto-host's own process never ran its code.
TEST(ProcessFaultsWhileLoading, AThreadAConstructorLeavesFailsTheLoad) {
    TempDir tmp;
    std::string command;
    for (const std::string& arg :
         test::hostWithFake(tmp, "thread_in_constructor", {"run", test::fakesInput(), "-o", tmp / "o"}))
        command += " '" + arg + "'";
    auto r = runProcess({"/bin/sh", "-c", "PTOPLUG_FAKE_LOADS='" + (tmp / "loads") + "' exec" + command});
    EXPECT_EQ(test::readBytes(tmp / "loads"), "x");
    EXPECT_EQ(r.exitCode, 4) << r.err;
    EXPECT_NE(r.err.find(test::fakeLibrary("thread_in_constructor") +
                         ": error: loading the plugin changed what the host cannot put back: 1 thread left running"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(tmp / "o"));
}

// An exit handler a plugin's library registers cannot change pto-host's exit status: the worker that loads
// the plugins ends without running exit handlers (and pto-host never loads them).
TEST(ProcessFaultsWhileLoading, AnExitHandlerCannotTurnAFailureIntoSuccess) {
    TempDir tmp;
    auto r = runProcess(test::hostWithFake(tmp, "atexit_in_constructor", {"run", test::fakesInput(), "-o", tmp / "o"}));
    EXPECT_EQ(r.exitCode, 5) << r.err;
    EXPECT_NE(r.err.find("failed with status PTO_ERR_INTERNAL without an error diagnostic saying why"),
              std::string::npos)
        << r.err;
}

// pto-host's own process never loads a plugin, in any subcommand: the plugins load in a child that checks
// them and in the workers; pto-host builds its pipeline from what that child tells it.
TEST(ProcessFaultsWhileLoading, PtoHostItselfNeverLoadsAPlugin) {
    TempDir tmp;
    const std::string loads = tmp / "loads";
    ::setenv("PTOPLUG_FAKE_LOADS", loads.c_str(), 1);
    fs::create_directory(tmp / "in");
    fs::copy_file(test::fakesInput(), tmp / "in/a.json");
    fs::copy_file(test::fakesInput(), tmp / "in/b.json");
    const std::vector<std::vector<std::string>> commands = {
        {"run", test::fakesInput(), "-o", tmp / "o.json"},
        {"batch", tmp / "in", "--out-dir", tmp / "out", "-j", "2"},
        {"run", test::fakesInput(), "-o", tmp / "p.json", "--reuse-workers"},
        {"pipeline"},
        {"verify", test::fakesInput(), "--property", "UseAfterDef"},
    };
    for (const auto& command : commands) {
        fs::remove(loads);
        auto r = runProcess(test::hostWithFake(tmp, "records_loads", command));
        EXPECT_EQ(r.exitCode, 0) << command[0] << ": " << r.err;
        std::istringstream lines(test::readBytes(loads));
        int count = 0;
        for (long pid = 0, ppid = 0; lines >> pid >> ppid; ++count)
            EXPECT_NE(ppid, static_cast<long>(::getpid()))
                << command[0] << ": pto-host itself (pid " << pid << ") loaded the plugin";
        EXPECT_GE(count, 1) << command[0];
    }
    ::unsetenv("PTOPLUG_FAKE_LOADS");
}

// A run context is never valid after its run, even when the next run's context is made at the same address:
// a verifier that calls the host with the context of its own earlier run (--verify runs it after every
// stage it follows) is refused (PTO_ERR_INVALID_HANDLE; the fake fails the run if it is accepted).
TEST(RunContexts, AContextKeptFromAnEarlierRunIsRefused) {
    TempDir tmp;
    // With the default plugins, whose pass runs before the fake's: two verifier runs from the same place.
    auto r = runProcess({test::kHost, "--plugin", test::fakeManifest(tmp, "keeps_context"), "run", test::fakesInput(),
                         "-o", tmp / "out.json", "--verify", "FakeProperty"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(tmp / "out.json"));
}

// A worker that runs more than one file copies its code onto huge pages before the second (base/huge_code.h):
// the files' processes then run that copy. A batch with it (one worker, so every file after the first) and
// without it (--no-huge-code) writes the same outputs byte for byte, MaterializeDistTensorCtx's work.
TEST(HugeCode, ABatchWritesTheSameOutputsWithAndWithoutIt) {
    TempDir tmp, in, with, without;
    ASSERT_EQ(runProcess({test::kGen, "3", tmp / "gen.msgpack"}).exitCode, 0);
    for (int i = 0; i < 5; ++i) fs::copy_file(tmp / "gen.msgpack", in / ("p" + std::to_string(i) + ".msgpack"));
    auto batch = [&](const std::string& out, std::vector<std::string> extra) {
        std::vector<std::string> args = {test::kHost, "batch", in.path(), "--out-dir", out, "-j", "1"};
        args.insert(args.end(), extra.begin(), extra.end());
        return runProcess(args);
    };
    auto r = batch(with.path(), {});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    r = batch(without.path(), {"--no-huge-code"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (int i = 0; i < 5; ++i) {
        const std::string name = "p" + std::to_string(i) + ".msgpack";
        EXPECT_NE(test::readBytes(with / name), test::readBytes(in / name)) << name << ": the pass changed nothing";
        EXPECT_EQ(test::readBytes(with / name), test::readBytes(without / name)) << name;
    }
}

}  // namespace
}  // namespace ptoplug
