// pto-plugin-check: every plugin the project builds passes; every fake plugin is rejected with a
// message that names the file and the broken rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/paths.h"
#include "support/process.h"

namespace ptoplug {
namespace {

using test::kCheck;
using test::kFakes;

TEST(PluginCheck, ProjectPluginsPass) {
    for (const std::string& plugin :
         {std::string(PTOPLUG_PLUGIN_DIR "/libptoplug_mdtc.so"), kFakes + "/libcount_calls.so"}) {
        auto r = test::runProcess({kCheck, plugin});
        EXPECT_EQ(r.exitCode, 0) << r.out;
        EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("on 8 threads"), std::string::npos) << r.out;
    }
}

// Given a manifest, the checker also checks that the manifest agrees with the library it names.
TEST(PluginCheck, ManifestIsCheckedAgainstItsLibrary) {
    const std::string manifest = PTOPLUG_PLUGIN_DIR "/materialize-dist-tensor-ctx.json";
    auto good = test::runProcess({kCheck, manifest});
    EXPECT_EQ(good.exitCode, 0) << good.out;
    EXPECT_NE(good.out.find("PASS  manifest agrees with the plugin"), std::string::npos) << good.out;

    std::ifstream in(manifest);
    nlohmann::json m = nlohmann::json::parse(in);
    m["library"] = PTOPLUG_PLUGIN_DIR "/libptoplug_mdtc.so";
    m["sha256"] = std::string(64, '0');
    test::TempDir dir;
    const std::string stale = dir / "stale.json";
    test::writeBytes(stale, m.dump());
    auto bad = test::runProcess({kCheck, stale});
    EXPECT_EQ(bad.exitCode, 1) << bad.out;
    EXPECT_NE(bad.out.find("FAIL  manifest agrees with the plugin"), std::string::npos) << bad.out;
    EXPECT_NE(bad.out.find("the manifest expects " + std::string(64, '0')), std::string::npos) << bad.out;
}

TEST(PluginCheck, FakePluginsAreRejectedNamingTheRule) {
    const std::vector<std::pair<std::string, std::string>> fakes = {
        {"missing_entry", "plugin has no entry symbol 'ptoplug_plugin_entry'"},
        {"bad_option", "pass 'FakePass': the default of option 'limit' is not an int: a decimal 64-bit integer"},
        {"wrong_major", "ABI mismatch: the plugin supports 2.0..2."},  // the minors are this build's
        {"small_desc", "descriptor struct_size 8 is too small"},
        {"null_slot", "pass 'FakePass' has a NULL run function"},
        {"throws", "a C++ exception escaped into the host: escaped"},
        {"error_status", "returned PTO_ERR_INTERNAL"},
        {"user_status", "returned PTO_ERR_USER without an error diagnostic saying why"},
        {"unknown_status", "returned status 99"},
        {"makes_cycle", "returned status 5"},
        {"breaks_directions", "the output is not valid IR"},
        {"aborts", "the plugin crashed: SIGABRT (Aborted)"},
        {"segfaults", "the plugin crashed: SIGSEGV (Segmentation fault)"},
        {"verifier_segfaults", "the plugin crashed: SIGSEGV (Segmentation fault)"},
        {"exits", "the plugin ended the process with exit(0) instead of returning"},
        {"exit_in_constructor", "the plugin ended the process with exit(0) instead of returning"},
        {"entry_segfaults", "the plugin crashed: SIGSEGV (Segmentation fault)"},
        {"hangs", "the plugin did not return within 1 s (--timeout)"},
        {"forges_message",
         "a diagnostic carries control bytes (a newline, an escape, a NUL): hidden after a NUL:\\x00"},
        {"leaves_thread", "changed what a host cannot put back: 1 thread left running"},
        {"arms_alarm", "changed what a host cannot put back: a timer left armed (alarm or ITIMER_REAL, disarmed)"},
        {"arms_timer", "changed what a host cannot put back: a POSIX timer (timer_create) left"},
        {"leaves_child", "changed what a host cannot put back: a child process left (running or not reaped)"},
        {"leaves_daemon", "changed what a host cannot put back: a child process left (running or not reaped)"},
        {"blocks_signals", "changed what a host cannot put back: the signal mask changed (blocked: SIGTERM SIGCHLD"},
        {"ignores_sigchld", "changed what a host cannot put back: the handling of SIGCHLD changed (put back)"},
        {"defaults_sigpipe", "changed what a host cannot put back: the handling of SIGPIPE changed (put back)"},
        {"changes_group", "changed what a host cannot put back: the process moved to another process group"},
        {"thread_in_constructor", "loading the plugin changed what the host cannot put back: 1 thread left running"},
        {"refuses_default", "refuses the default of option 'level': must be at most 3"},
    };
    for (const auto& [fake, rule] : fakes) {
        std::string path = kFakes + "/libfake_" + fake + ".so";
        auto r = test::runProcess({kCheck, path, "--timeout", "1"});
        EXPECT_EQ(r.exitCode, 1) << fake << "\n" << r.out;
        EXPECT_EQ(r.err.find("leftover"), std::string::npos) << fake << "\n" << r.err;  // what it left was ended
        size_t at = r.out.find(rule);
        EXPECT_NE(at, std::string::npos) << fake << "\n" << r.out;
        // The failing line names the file (the load errors) or the pass and corpus file.
        size_t line = r.out.rfind("FAIL", at);
        std::string failing = r.out.substr(line, r.out.find('\n', at) - line);
        EXPECT_TRUE(failing.find(path) != std::string::npos || failing.find("pass FakePass on") != std::string::npos ||
                    failing.find("verifier FakeProperty on") != std::string::npos || failing.find("load") == 6 ||
                    failing.find("option check of pass FakePass") != std::string::npos)
            << failing;
    }
}

TEST(PluginCheck, APluginsOutputStaysOutOfTheReport) {
    auto r = test::runProcess({kCheck, kFakes + "/libfake_prints.so"});
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(r.out.find("FakePass was here"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("FakePass was here"), std::string::npos) << r.err;
}

// The report is one line per check whatever the plugin's path holds: its bytes are shown escaped.
TEST(PluginCheck, APathWithControlBytesIsShownEscaped) {
    test::TempDir dir;
    const std::string odd = dir / "odd\n\x1b[2Jname.so";
    std::filesystem::copy_file(kFakes + "/libcount_calls.so", odd);
    auto r = test::runProcess({kCheck, odd});
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("odd\\n\\x1b[2Jname.so (host ABI"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("odd\\n\\x1b[2Jname.so: "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ptoplug
