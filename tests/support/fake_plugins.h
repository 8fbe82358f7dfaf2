// Running pto-host with one fake plugin of tests/fake_plugins (libfake_<fault>.so, pass "FakePass" of
// plugin "fake"), for the end-to-end tests of what the host does when a plugin misbehaves.
#pragma once

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/fixtures.h"
#include "support/paths.h"
#include "support/process.h"

namespace ptoplug::test {

/// A program with two functions, calls that carry arg_directions and a SeqStmts body (what the fakes poke at).
inline std::string fakesInput() {
    return dataDir() + "/pypto-unit/buffer_aliasing_view_inherits_source_context/before.json";
}

inline std::string fakeLibrary(const std::string& fault) { return kFakes + "/libfake_" + fault + ".so"; }

/// The manifest of fake plugin `fault`, its pass placed after ConvertToSSA; written into `dir`.
inline std::string fakeManifest(const TempDir& dir, const std::string& fault) {
    std::string path = dir / (fault + ".manifest.json");
    writeBytes(path, R"({"file_format_version": 2, "library": ")" + fakeLibrary(fault) +
                         R"(", "passes": [{"name": "FakePass", "placement": {"after": {"pass": "ConvertToSSA"}}}]})");
    return path;
}

/// pto-host's command line with that plugin alone, then `rest`. A run or batch that names no --crash-reproducer
/// saves its reproducers in `dir` (not in a new folder of the system's each time).
inline std::vector<std::string> hostWithFake(const TempDir& dir, const std::string& fault,
                                             std::vector<std::string> rest) {
    if (!rest.empty() && (rest[0] == "run" || rest[0] == "batch") &&
        std::find(rest.begin(), rest.end(), "--crash-reproducer") == rest.end()) {
        rest.push_back("--crash-reproducer");
        rest.push_back(dir / "crashes");
    }
    std::vector<std::string> args = {kHost, "--no-default-plugins", "--plugin", fakeManifest(dir, fault)};
    args.insert(args.end(), rest.begin(), rest.end());
    return args;
}

/// A 20-file batch at -j2 with fake `fault` where one file, p107.json, triggers it (the fakes leave programs
/// named "innocent" alone), beside a clean run of the other 19; `extra` goes on both command lines.
struct OneTriggerBatch {
    ProcessResult run;                   ///< the batch with the trigger
    bool cleanOk = false;                ///< the clean run exited 0
    bool triggerWritten = false;         ///< an output of p107.json exists
    std::vector<std::string> differing;  ///< the other files whose outputs differ from the clean run's
};

inline OneTriggerBatch batchWithOneTrigger(const std::string& fault, const std::vector<std::string>& extra = {}) {
    namespace fs = std::filesystem;
    TempDir tmp, in, clean, out;
    OneTriggerBatch result;
    if (runProcess({kGen, "2", tmp / "gen.json", "--format", "json"}).exitCode != 0) return result;
    nlohmann::json program = nlohmann::json::parse(readBytes(tmp / "gen.json"));
    const std::string trigger = program.dump();
    program["fields"]["name"] = "innocent";
    for (int i = 0; i < 20; ++i)
        if (i != 7) writeBytes(in / ("p" + std::to_string(100 + i) + ".json"), program.dump());
    auto batch = [&](const std::string& outDir) {
        std::vector<std::string> args = {"batch", in.path(), "--out-dir",          outDir,
                                         "-j",    "2",       "--crash-reproducer", tmp / "crashes"};
        args.insert(args.end(), extra.begin(), extra.end());
        return runProcess(hostWithFake(tmp, fault, args));
    };
    result.cleanOk = batch(clean.path()).exitCode == 0;
    writeBytes(in / "p107.json", trigger);
    result.run = batch(out.path());
    result.triggerWritten = fs::exists(out / "p107.json");
    for (int i = 0; i < 20; ++i) {
        const std::string name = "p" + std::to_string(100 + i) + ".json";
        if (i != 7 && (!fs::exists(out / name) || readBytes(out / name) != readBytes(clean / name)))
            result.differing.push_back(name);
    }
    return result;
}

}  // namespace ptoplug::test
