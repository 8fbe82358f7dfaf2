// Running pto-host with one fake plugin of tests/fake_plugins (libfake_<fault>.so, pass "FakePass" of
// plugin "fake"), for the end-to-end tests of what the host does when a plugin misbehaves.
#pragma once

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

/// pto-host's command line with that plugin alone, then `rest`.
inline std::vector<std::string> hostWithFake(const TempDir& dir, const std::string& fault,
                                             std::vector<std::string> rest) {
    std::vector<std::string> args = {kHost, "--no-default-plugins", "--plugin", fakeManifest(dir, fault)};
    args.insert(args.end(), rest.begin(), rest.end());
    return args;
}

}  // namespace ptoplug::test
