// pto-host with misbehaving plugins and awkward files (issue: "the host contains every plugin
// failure"): each fault is reported with its exit code, names the plugin and the pass, and never
// costs an input or leaves a partial output.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "io/subprocess.h"
#include "support/fake_plugins.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;
using test::runProcess;
using test::TempDir;

using test::kGen;
using test::kHost;

using test::fakeManifest;
std::string input() { return test::fakesInput(); }
std::string library(const std::string& fault) { return test::fakeLibrary(fault); }
std::vector<std::string> withFake(const TempDir& dir, const std::string& fault, std::vector<std::string> rest) {
    return test::hostWithFake(dir, fault, std::move(rest));
}

std::vector<std::string> filesIn(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

struct Misbehaviour {
    std::string fault;
    int exitCode;
    std::string message;  ///< what the user reads (the plugin's library path is checked besides)
};
void PrintTo(const Misbehaviour& m, std::ostream* os) { *os << m.fault; }

const std::string kInPass = " in pass 'FakePass' of plugin 'fake' (";

std::vector<Misbehaviour> misbehaviours() {
    return {
        {"segfaults", 5, "error: crashed with SIGSEGV (Segmentation fault)" + kInPass},
        {"aborts", 5, "error: crashed with SIGABRT (Aborted)" + kInPass},
        {"verifier_segfaults", 5,
         "error: crashed with SIGSEGV (Segmentation fault) in the verifier of property 'FakeProperty' of plugin 'fake' "
         "("},
        {"exits", 5, "error: ended the process with exit(0) instead of returning" + kInPass},
        {"throws", 5, "error: uncaught exception: escaped" + kInPass},
        {"hangs", 5, "error: timed out after 1 s (the --timeout limit)" + kInPass},
        {"unknown_status", 5, "internal error: pass 'FakePass' of plugin 'fake' ("},
        {"error_status", 5, "failed with status PTO_ERR_INTERNAL without an error diagnostic saying why"},
        {"user_status", 1, "failed with status PTO_ERR_USER without an error diagnostic saying why"},
        {"makes_cycle", 5, "failed with status PTO_ERR_INVALID_ARGUMENT without an error diagnostic saying why"},
        {"breaks_directions", 5, "internal error: pass 'FakePass' of plugin 'fake' ("},
        {"entry_segfaults", 4,
         "error: the plugin " + library("entry_segfaults") +
             " of this manifest ended the process with SIGSEGV (Segmentation fault) while loading"},
        {"exit_in_constructor", 4,
         "error: the plugin " + library("exit_in_constructor") +
             " of this manifest ended the process with exit(0) while loading"},
    };
}

class Misbehaving : public ::testing::TestWithParam<Misbehaviour> {};

TEST_P(Misbehaving, RunFailsNamingThePluginAndKeepsTheOldOutput) {
    const Misbehaviour& m = GetParam();
    TempDir tmp;
    std::string out = tmp / "out.json";
    test::writeBytes(out, "old");
    auto r = runProcess(
        withFake(tmp, m.fault, {"run", input(), "-o", out, "--timeout", "1", "--crash-reproducer", tmp / "crashes"}));
    EXPECT_EQ(r.exitCode, m.exitCode) << r.err;
    EXPECT_NE(r.err.find(m.message), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(m.exitCode == 4 ? tmp.path() : library(m.fault)), std::string::npos) << r.err;
    EXPECT_EQ(test::readBytes(out), "old");
    EXPECT_EQ(r.out, "");
}

void expectBatchReportsEveryFile(const Misbehaviour& m, const std::vector<std::string>& extra) {
    TempDir tmp, in, out;
    fs::copy_file(input(), in / "a.json");
    fs::copy_file(input(), in / "b.json");
    std::vector<std::string> args = {"batch", in.path(),   "--out-dir", out.path(),           "-j",
                                     "2",     "--timeout", "1",         "--crash-reproducer", tmp / "crashes"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = runProcess(withFake(tmp, m.fault, args));
    EXPECT_EQ(r.exitCode, m.exitCode) << r.err;
    EXPECT_NE(r.err.find(m.message), std::string::npos) << r.err;
    if (m.exitCode != 4) {
        EXPECT_NE(r.err.find("2 files, 0 ok, 2 failed"), std::string::npos) << r.err;
    }
    EXPECT_TRUE(filesIn(out.path()).empty());
    EXPECT_EQ(test::readBytes(in / "a.json"), test::readBytes(input()));
}

TEST_P(Misbehaving, BatchReportsEveryFileAndWritesNothing) { expectBatchReportsEveryFile(GetParam(), {}); }

// The same with workers that run file after file (--reuse-workers).
TEST_P(Misbehaving, BatchWithReusedWorkersReportsEveryFile) {
    expectBatchReportsEveryFile(GetParam(), {"--reuse-workers"});
}

INSTANTIATE_TEST_SUITE_P(Plugins, Misbehaving, ::testing::ValuesIn(misbehaviours()),
                         [](const auto& info) { return info.param.fault; });

// A large program's output is written behind the last structural check (driver/output_writer.h): a pass
// that leaves invalid IR, or a verifier that crashes while the encoding is under way, still costs the old
// output nothing, and leaves no other file beside it.
TEST(PluginContainment, AnOutputWrittenBehindTheCheckIsWithdrawnWhenTheRunFails) {
    TempDir tmp, gen, outDir;
    const std::string large = gen / "large.json";
    ASSERT_EQ(runProcess({kGen, "1000", large, "--format", "json"}).exitCode, 0);
    for (const Misbehaviour& m : misbehaviours()) {
        if (m.fault != "breaks_directions" && m.fault != "verifier_segfaults") continue;
        const std::string out = outDir / "out.json";
        test::writeBytes(out, "old");
        auto r = runProcess(withFake(tmp, m.fault, {"run", large, "-o", out, "--crash-reproducer", tmp / "crashes"}));
        EXPECT_EQ(r.exitCode, m.exitCode) << m.fault << ": " << r.err;
        EXPECT_NE(r.err.find(m.message), std::string::npos) << m.fault << ": " << r.err;
        EXPECT_TRUE(test::readBytes(out) == "old") << m.fault;
        EXPECT_EQ(filesIn(outDir.path()), std::vector<std::string>{"out.json"}) << m.fault;
    }
}

// The output writer runs on its own thread while the verifiers do: a fatal signal that hits it is the host's
// crash, reported as the writer's with the verifier then running named beside it, not as the verifier's.
TEST(PluginContainment, ACrashOfTheOutputWriterIsReportedAsTheWritersNotTheVerifiers) {
    TempDir tmp, gen, outDir;
    const std::string large = gen / "large.json";
    ASSERT_EQ(runProcess({kGen, "1000", large, "--format", "json"}).exitCode, 0);
    const std::string out = outDir / "out.json";
    test::writeBytes(out, "old");
    auto r =
        runProcess(withFake(tmp, "kills_writer", {"run", large, "-o", out, "--crash-reproducer", tmp / "crashes"}));
    EXPECT_EQ(r.exitCode, 5) << r.err;
    EXPECT_NE(r.err.find("error: crashed with SIGSEGV (Segmentation fault) in the host's output writer, which was "
                         "writing the program while the run went on (then in the verifier of property "
                         "'FakeProperty' of plugin 'fake' ("),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("hint: a reproducer is in " + (tmp / "crashes")), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("replay.sh, and report it as a bug in pto-host"), std::string::npos) << r.err;
    EXPECT_TRUE(test::readBytes(out) == "old");
    EXPECT_EQ(filesIn(outDir.path()), std::vector<std::string>{"out.json"});
}

TEST(PluginContainment, MemoryLimitNamesTheLimitAndThePass) {
#ifdef PTOPLUG_SANITIZED
    GTEST_SKIP() << "sanitizers reserve more address space than any limit";
#endif
    TempDir tmp;
    auto r = runProcess(withFake(tmp, "allocates", {"run", input(), "-o", tmp / "out.json", "--memory-limit", "512"}));
    EXPECT_EQ(r.exitCode, 5) << r.err;
    EXPECT_NE(r.err.find("error: exceeded the memory limit of 512 MiB (--memory-limit)" + kInPass), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(tmp / "out.json"));
}

// Out of memory while a large input is read in two parts (ir/two_part_read.h): the limit is named, as
// in a single pass, and nothing aborts (an exception on the second reading thread must not end the run).
TEST(PluginContainment, MemoryLimitWhileReadingALargeInputNamesTheLimit) {
#ifdef PTOPLUG_SANITIZED
    GTEST_SKIP() << "sanitizers reserve more address space than any limit";
#endif
    TempDir tmp;
    const std::string large = tmp / "large.msgpack";
    ASSERT_EQ(runProcess({kGen, "10000", large, "--format", "msgpack"}).exitCode, 0);
    for (const char* limit : {"110", "150"}) {
        auto r = runProcess({kHost, "run", large, "-o", tmp / "out.msgpack", "--memory-limit", limit});
        EXPECT_EQ(r.exitCode, 5) << r.err;
        EXPECT_NE(r.err.find(std::string("error: exceeded the memory limit of ") + limit +
                             " MiB (--memory-limit) while reading the input"),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("hint: raise --memory-limit"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(tmp / "out.msgpack"));
    }
}

TEST(PluginContainment, PrintsNeverReachTheOutputStream) {
    TempDir tmp;
    auto r = runProcess(withFake(tmp, "prints", {"run", input(), "-o", "-"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("FakePass was here"), std::string::npos) << r.err;
    auto plain = runProcess({kHost, "convert", input(), "-o", "-"});
    EXPECT_EQ(r.out, plain.out);  // exactly the program, nothing else
}

TEST(PluginContainment, ANullRunContextIsAnErrorStatusNotACrash) {
    TempDir tmp;
    auto r = runProcess(withFake(tmp, "null_context", {"run", input(), "-o", tmp / "out.json"}));
    EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST(PluginContainment, RefusedEditsLeaveTheProgramUnchanged) {
    TempDir tmp;
    auto r = runProcess(withFake(tmp, "wrong_kind", {"run", input(), "-o", tmp / "out.json"}));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(test::readBytes(tmp / "out.json"), test::readBytes(input()));
}

// The reproducer replays what ran: the saved copies of every plugin (the originals are gone when it
// replays, and the folder has moved), the pass options given on the command line, --verify and the
// output format.
TEST(PluginContainment, ACrashLeavesAReproducerThatReplaysIt) {
    TempDir tmp;
    const fs::path plugins = tmp / "plugins";
    fs::create_directories(plugins);
    fs::copy_file(library("segfaults"), plugins / "libfake_segfaults.so");
    const std::string fake = plugins / "fake.json";
    test::writeBytes(fake, R"({"file_format_version": 2, "library": "libfake_segfaults.so", "passes": [)"
                           R"({"name": "FakePass", "placement": {"after": {"pass": "ConvertToSSA"}}}]})");
    const std::string examples = PTOPLUG_EXAMPLE_PLUGIN_DIR;
    fs::copy_file(examples + "/librename_functions.so", plugins / "librename_functions.so");
    fs::copy_file(examples + "/rename_functions.json", plugins / "rename_functions.json");
    const std::vector<std::string> options = {"--pass-option", "RenameFunctions.pattern=chip_(.*)", "--pass-option",
                                              "RenameFunctions.replacement=device_$1"};
    std::vector<std::string> args = {kHost, "--plugin", fake, "--plugin", plugins / "rename_functions.json"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"run", input(), "-o", tmp / "out.msgpack", "--verify", "DistTensorCtxConsistent",
                             "--timeout", "30", "--crash-reproducer", tmp / "repro"});
    auto r = runProcess(args);
    ASSERT_EQ(r.exitCode, 5) << r.err;
    std::vector<fs::path> crashes;
    for (const auto& e : fs::directory_iterator(tmp / "repro")) crashes.push_back(e.path());
    ASSERT_EQ(crashes.size(), 1u);
    EXPECT_NE(r.err.find(crashes[0].string() + "/replay.sh"), std::string::npos) << r.err;
    EXPECT_EQ(test::readBytes((crashes[0] / "input.json").string()), test::readBytes(input()));
    EXPECT_NE(test::readBytes((crashes[0] / "pipeline.txt").string()).find("FakePass"), std::string::npos);
    const std::string script = test::readBytes((crashes[0] / "replay.sh").string());
    for (const char* part :
         {"--pass-option 'RenameFunctions.pattern=chip_(.*)'", "--pass-option 'RenameFunctions.replacement=device_$1'",
          "--verify 'DistTensorCtxConsistent'", "--format msgpack", "--timeout 30"})
        EXPECT_NE(script.find(part), std::string::npos) << part << " not in\n" << script;

    fs::remove_all(plugins);
    const fs::path moved = tmp / "moved";
    fs::rename(crashes[0], moved);
    auto replay = runProcess({"/usr/bin/env", "TMPDIR=" + tmp.path(), "/bin/sh", (moved / "replay.sh").string()});
    EXPECT_EQ(replay.exitCode, 5) << replay.err;
    EXPECT_NE(replay.err.find("crashed with SIGSEGV (Segmentation fault)" + kInPass), std::string::npos) << replay.err;
}

// The document keeps nothing of its input once read (strings are copied, the mapping released): a
// plugin that truncates the input file cannot disturb the run, whose output is the program as read.
TEST(PluginContainment, AnInputTruncatedAfterReadingChangesNothing) {
    TempDir tmp;
    std::string victim = tmp / "in.msgpack";
    fs::copy_file(fs::path(input()).replace_extension(".msgpack"), victim);
    auto r = runProcess({"/usr/bin/env", "PTOPLUG_FAKE_TRUNCATE=" + victim, kHost, "--no-default-plugins", "--plugin",
                         fakeManifest(tmp, "truncates_input"), "run", victim, "-o", tmp / "out.msgpack"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(fs::file_size(victim), 0u);
    EXPECT_EQ(test::readBytes(tmp / "out.msgpack"), test::readBytes(fs::path(input()).replace_extension(".msgpack")));
}

// --- signals -------------------------------------------------------------------------------------

// A batch of hanging files, started in the background with its workers busy.
struct HangingBatch {
    TempDir tmp, in, out;
    std::optional<io::Child> host;
    std::vector<pid_t> workers;

    HangingBatch() {
        for (int i = 0; i < 4; ++i) fs::copy_file(input(), in / ("p" + std::to_string(i) + ".json"));
        auto args = withFake(tmp, "hangs", {"batch", in.path(), "--out-dir", out.path(), "-j", "2", "--timeout", "0"});
        host = io::Child::exec(args);
        // Wait until both workers exist and have had time to start their files.
        for (int i = 0; i < 100 && workers.size() < 2; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            workers.clear();
            std::ifstream children("/proc/" + std::to_string(host->pid()) + "/task/" + std::to_string(host->pid()) +
                                   "/children");
            for (pid_t pid; children >> pid;) workers.push_back(pid);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
};

bool gone(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string pidText, name, state;
    return !(stat >> pidText >> name >> state) || state == "Z";
}

TEST(Signals, InterruptStopsWorkersAndLeavesNoFile) {
    HangingBatch batch;
    ASSERT_EQ(batch.workers.size(), 2u);
    batch.host->kill(SIGINT);
    io::ChildEnd end = batch.host->wait();
    EXPECT_TRUE(end.exitedWith(130)) << end.describe();
    for (pid_t w : batch.workers) EXPECT_TRUE(gone(w)) << w;
    EXPECT_TRUE(filesIn(batch.out.path()).empty());
}

TEST(Signals, KillingTheHostKillsItsWorkers) {
    HangingBatch batch;
    ASSERT_EQ(batch.workers.size(), 2u);
    batch.host->kill(SIGKILL);
    batch.host->wait();
    for (pid_t w : batch.workers) {
        for (int i = 0; i < 40 && !gone(w); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        EXPECT_TRUE(gone(w)) << w;
    }
    EXPECT_TRUE(filesIn(batch.out.path()).empty());
}

// --- inputs and outputs ----------------------------------------------------------------------------

TEST(Files, LinkedInputsAreReadNeverWritten) {
    TempDir tmp;
    fs::create_directories(tmp / "src/deep");
    fs::create_directories(tmp / "in");
    fs::copy_file(input(), tmp / "src/prog.json");
    fs::copy_file(input(), tmp / "src/deep/other.json");
    fs::create_symlink("../src/prog.json", tmp / "in/prog.json");
    fs::create_directory_symlink("../src/deep", tmp / "in/linked");
    auto r = runProcess({kHost, "batch", tmp / "in", "--out-dir", tmp / "out"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("2 files, 2 ok"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_regular_file(tmp / "out/prog.json"));
    EXPECT_TRUE(fs::is_regular_file(tmp / "out/linked/other.json"));
    EXPECT_EQ(test::readBytes(tmp / "src/prog.json"), test::readBytes(input()));
    EXPECT_EQ(test::readBytes(tmp / "src/deep/other.json"), test::readBytes(input()));
    EXPECT_TRUE(fs::is_symlink(tmp / "in/prog.json"));
}

TEST(Files, OutputsThatWouldOverwriteInputsAreRefused) {
    TempDir tmp;
    fs::create_directories(tmp / "in/sub");
    fs::create_directories(tmp / "src");
    fs::copy_file(input(), tmp / "in/a.json");
    fs::copy_file(input(), tmp / "src/b.json");
    fs::create_symlink("src/b.json", tmp / "b.json");
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"batch", tmp / "in", "--out-dir", tmp / "in"},
                                               {"batch", tmp / "in", "--out-dir", tmp / "in/sub"},
                                               {"batch", tmp / "b.json", "--out-dir", tmp / "src"},
                                               {"run", tmp / "in/a.json", "-o", tmp / "in/a.json"},
                                               {"run", tmp / "b.json", "-o", tmp / "src/b.json"},
                                               {"convert", tmp / "in/a.json", "-o", tmp / "in/a.json", "--pretty"},
                                               {"convert", tmp / "b.json", "-o", tmp / "src/b.json", "--pretty"}}) {
        std::vector<std::string> argv = {kHost};
        argv.insert(argv.end(), args.begin(), args.end());
        auto r = runProcess(argv);
        EXPECT_EQ(r.exitCode, 2) << args[3] << "\n" << r.err;
        EXPECT_NE(r.err.find("--in-place"), std::string::npos) << r.err;
    }
    EXPECT_EQ(filesIn(tmp / "in"), (std::vector<std::string>{"a.json", "sub"}));
    EXPECT_EQ(test::readBytes(tmp / "in/a.json"), test::readBytes(input()));
    EXPECT_EQ(test::readBytes(tmp / "src/b.json"), test::readBytes(input()));
    auto inPlace = runProcess({kHost, "run", tmp / "in/a.json", "-o", tmp / "in/a.json", "--in-place"});
    EXPECT_EQ(inPlace.exitCode, 0) << inPlace.err;
    EXPECT_NE(test::readBytes(tmp / "in/a.json"), test::readBytes(input()));
}

TEST(Files, UnusableEntriesAreReportedAndTheRestRuns) {
    TempDir tmp;
    fs::create_directories(tmp / "in");
    fs::copy_file(input(), tmp / "in/good.json");
    fs::create_symlink("nowhere.json", tmp / "in/dangling.json");
    fs::create_directory_symlink(".", tmp / "in/loop");
    ASSERT_EQ(::mkfifo((tmp / "in/fifo.json").c_str(), 0644), 0);
    auto r = runProcess({kHost, "batch", tmp / "in", "--out-dir", tmp / "out"});
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_NE(r.err.find("dangling.json: error: a dangling symbolic link"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("fifo.json: error: a FIFO (named pipe), not a regular file; skipped"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("loop: error: a symbolic link loop"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_regular_file(tmp / "out/good.json"));
    EXPECT_NE(r.err.find("4 files, 1 ok, 3 failed"), std::string::npos) << r.err;
}

TEST(Files, NonRegularOutputsAreStreamedNotReplaced) {
    TempDir tmp;
    auto r = runProcess({kHost, "run", input(), "-o", "/dev/null"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    struct stat st {};
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
    ASSERT_EQ(::mkfifo((tmp / "fifo").c_str(), 0644), 0);
    auto unread = runProcess({kHost, "run", input(), "-o", tmp / "fifo"});
    EXPECT_EQ(unread.exitCode, 6);
    EXPECT_NE(unread.err.find("no process is reading this FIFO"), std::string::npos) << unread.err;
}

TEST(Files, EveryWriteIsChecked) {
    TempDir tmp;
    for (const std::string command : {"print", "run"}) {
        std::string args = command == "print" ? " > /dev/full" : " -o /dev/full";
        auto r = runProcess({"/bin/sh", "-c", "exec '" + kHost + "' " + command + " '" + input() + "'" + args});
        EXPECT_EQ(r.exitCode, 6) << command << r.err;
        EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    }
    auto big =
        runProcess({"/bin/sh", "-c",
                    "ulimit -f 2; exec '" + kHost + "' convert '" + input() + "' -o '" + (tmp / "out.json") + "'"});
    EXPECT_EQ(big.exitCode, 6) << big.err;
    EXPECT_NE(big.err.find("File too large"), std::string::npos) << big.err;
    EXPECT_TRUE(filesIn(tmp.path()).empty());
    // Past the first 1 MiB buffer, whole buffers are written by a helper thread: the run still fails, with
    // the reason, and leaves nothing.
    const std::string large = tmp / "large.msgpack";
    ASSERT_EQ(runProcess({kGen, "500", large, "--format", "msgpack"}).exitCode, 0);
    ASSERT_GT(fs::file_size(large), size_t{2} << 20);
    auto helper =
        runProcess({"/bin/sh", "-c",
                    "ulimit -f 3000; exec '" + kHost + "' convert '" + large + "' -o '" + (tmp / "out.json") + "'"});
    EXPECT_EQ(helper.exitCode, 6) << helper.err;
    EXPECT_NE(helper.err.find("File too large"), std::string::npos) << helper.err;
    EXPECT_EQ(filesIn(tmp.path()).size(), 1u);  // the input only
}

TEST(Files, OutputsHonourTheUmaskAndKeepAnExistingMode) {
    TempDir tmp;
    auto fresh = runProcess(
        {"/bin/sh", "-c", "umask 027; exec '" + kHost + "' convert '" + input() + "' -o '" + (tmp / "new.json") + "'"});
    ASSERT_EQ(fresh.exitCode, 0) << fresh.err;
    EXPECT_EQ(fs::status(tmp / "new.json").permissions(), fs::perms(0640));
    test::writeBytes(tmp / "old.json", "old");
    fs::permissions(tmp / "old.json", fs::perms(0600));
    ASSERT_EQ(runProcess({kHost, "convert", input(), "-o", tmp / "old.json"}).exitCode, 0);
    EXPECT_EQ(fs::status(tmp / "old.json").permissions(), fs::perms(0600));
    std::string longName = tmp / (std::string(250, 'n') + ".json");
    EXPECT_EQ(runProcess({kHost, "convert", input(), "-o", longName}).exitCode, 0);
    EXPECT_TRUE(fs::is_regular_file(longName));
}

// The umask and the working folder are the user's, whatever plugin code does to the process: a plugin
// whose constructor and pass set the umask to 0777 and move to / changes neither where relative inputs
// and outputs are nor the outputs' mode.
TEST(Files, APluginChangingUmaskOrFolderChangesNoOutput) {
    TempDir tmp;
    const std::string manifest = fakeManifest(tmp, "changes_process");
    fs::copy_file(input(), tmp / "in.json");
    auto run = runProcess({"/bin/sh", "-c",
                           "cd '" + tmp.path() + "' && umask 027 && exec '" + kHost +
                               "' --no-default-plugins --plugin '" + manifest + "' run in.json -o out.json"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(fs::status(tmp / "out.json").permissions(), fs::perms(0640));
    EXPECT_EQ(test::readBytes(tmp / "out.json"), test::readBytes(input()));
    fs::create_directory(tmp / "out");
    auto batch =
        runProcess({"/bin/sh", "-c",
                    "cd '" + tmp.path() + "' && umask 027 && exec '" + kHost + "' --no-default-plugins --plugin '" +
                        manifest + "' batch in.json --out-dir out --report report.jsonl"});
    ASSERT_EQ(batch.exitCode, 0) << batch.err;
    EXPECT_EQ(fs::status(tmp / "out/in.json").permissions(), fs::perms(0640));
    EXPECT_EQ(fs::status(tmp / "report.jsonl").permissions(), fs::perms(0640));
}

// SIGPIPE is the host's to handle: a reader that closes the output stream early is a write error of the
// host's (exit 6), not a crash blamed on anyone (a plugin that lets SIGPIPE kill the process fails for it:
// ProcessFaults, defaults_sigpipe).
TEST(Files, AClosedOutputStreamIsAWriteErrorNotACrash) {
    TempDir tmp;
    const std::string large = tmp / "large.json";
    ASSERT_EQ(runProcess({kGen, "1000", large, "--format", "json"}).exitCode, 0);
    auto r = runProcess({"/bin/bash", "-c",
                         "'" + kHost + "' --no-default-plugins --plugin '" + fakeManifest(tmp, "changes_process") +
                             "' run '" + large + "' -o - | head -c 1 >/dev/null; exit ${PIPESTATUS[0]}"});
    EXPECT_EQ(r.exitCode, 6) << r.err;
    EXPECT_NE(r.err.find("<stdout>: error: write failed: Broken pipe"), std::string::npos) << r.err;
}

// Runs fake `fault`, which lowers the limit on file size (soft and hard) to 64 KiB, over a program larger
// than that: where the host may raise a hard limit again the run succeeds and the output is whole; else it
// fails with `exitCode` and `message`, nothing written, instead of the write failing as if the user's
// limits were too low.
void expectALoweredLimitPutBackOrBlamed(const std::string& fault, int exitCode, const std::string& message) {
    TempDir tmp;
    const std::string large = tmp / "large.json";
    ASSERT_EQ(runProcess({kGen, "1000", large, "--format", "json"}).exitCode, 0);
    auto r = runProcess(withFake(tmp, fault, {"run", large, "-o", tmp / "out.json"}));
    if (r.exitCode == 0) {  // privileged: the limit was raised again
        EXPECT_EQ(test::readBytes(tmp / "out.json"), test::readBytes(large));
        return;
    }
    EXPECT_EQ(r.exitCode, exitCode) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(tmp / "out.json"));
}

// Lowered by a pass: the pass is named (exit 5).
TEST(Files, ALimitAPluginLowersIsPutBackOrBlamedOnIt) {
    expectALoweredLimitPutBackOrBlamed("lowers_limit", 5,
                                       "pass 'FakePass' of plugin 'fake' (" + library("lowers_limit") +
                                           ") changed what the host cannot put back: the limit on file size "
                                           "(RLIMIT_FSIZE) lowered to 65536 for good");
}

// Lowered while the library loads: the load fails naming the library (exit 4), before any file is read.
TEST(Files, ALimitAPluginLowersWhileLoadingIsPutBackOrBlamedOnIt) {
    expectALoweredLimitPutBackOrBlamed("limit_in_constructor", 4,
                                       library("limit_in_constructor") +
                                           ": error: loading the plugin changed what the host cannot put back: the "
                                           "limit on file size (RLIMIT_FSIZE) lowered to 65536 for good");
}

// A plugin that closes the descriptors the host keeps (the worker's channel to pto-host, its stdout) is
// named for it and nothing is written, in each file of a batch; with the channel gone the worker tells
// the parent through their shared memory.
TEST(Files, APluginClosingTheHostsDescriptorsIsNamedAndWritesNothing) {
    TempDir tmp, out;
    fs::copy_file(input(), tmp / "a.json");
    fs::copy_file(input(), tmp / "b.json");
    auto r = runProcess(withFake(tmp, "closes_descriptors",
                                 {"batch", tmp / "a.json", tmp / "b.json", "--out-dir", out.path(), "-j", "1"}));
    EXPECT_EQ(r.exitCode, 5) << r.err;
    for (const char* name : {"a.json", "b.json"})
        EXPECT_NE(r.err.find(tmp / name +
                             ": error: closed or replaced the descriptors pto-host talks to its worker "
                             "through in pass 'FakePass' of plugin 'fake' (" +
                             library("closes_descriptors") + "); no output was written"),
                  std::string::npos)
            << r.err;
    EXPECT_TRUE(fs::is_empty(out.path()));
    auto toStdout = runProcess(withFake(tmp, "closes_descriptors", {"run", tmp / "a.json", "-o", "-"}));
    EXPECT_EQ(toStdout.exitCode, 5) << toStdout.err;
    EXPECT_EQ(toStdout.out, "");
}

// Plugin code reads /dev/null as its stdin: it cannot wait on a terminal or take a pipeline's data. An
// input read from stdin ("-") is read whole before any pass runs.
TEST(Files, PluginCodeNeverReadsTheUsersStdin) {
    TempDir tmp;
    auto fromFile = runProcess(withFake(tmp, "reads_stdin", {"run", input(), "-o", tmp / "a.json"}), "user data\n");
    EXPECT_EQ(fromFile.exitCode, 0) << fromFile.err;
    auto fromStdin =
        runProcess(withFake(tmp, "reads_stdin", {"run", "-", "-o", tmp / "b.json"}), test::readBytes(input()));
    EXPECT_EQ(fromStdin.exitCode, 0) << fromStdin.err;
    EXPECT_EQ(test::readBytes(tmp / "b.json"), test::readBytes(input()));
}

TEST(Files, ACrashRemovesOnlyItsOwnTemporaries) {
    TempDir tmp, in, out;
    fs::copy_file(input(), in / "a.json");
    test::writeBytes(out / "a.json.tmp.notes", "mine");
    test::writeBytes(out / ".ptoplug-1.tmp", "another run's");
    auto r = runProcess(withFake(tmp, "segfaults",
                                 {"batch", in.path(), "--out-dir", out.path(), "--crash-reproducer", tmp / "crashes"}));
    EXPECT_EQ(r.exitCode, 5);
    EXPECT_EQ(filesIn(out.path()), (std::vector<std::string>{".ptoplug-1.tmp", "a.json.tmp.notes"}));
}

}  // namespace
}  // namespace ptoplug
