#include "driver/crash_reproducer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace ptoplug::host {
namespace fs = std::filesystem;

namespace {

// Single-quoted for sh: the replay command must survive any path.
std::string shellQuoted(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

bool writeText(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out.flush());
}

}  // namespace

std::optional<std::string> writeCrashReproducer(const Pipeline& pipeline, const std::string& input,
                                                const std::string& parentDir, const std::string& what) {
    std::error_code ec;
    fs::path parent = parentDir.empty() ? fs::temp_directory_path(ec) : fs::path(parentDir);
    fs::create_directories(parent, ec);
    std::string pattern = (parent / (parentDir.empty() ? "pto-host-crash-XXXXXX" : "crash-XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) return std::nullopt;
    fs::path dir = fs::absolute(pattern, ec);

    fs::path copy = dir / ("input" + fs::path(input).extension().string());
    if (input == "-" || !fs::copy_file(input, copy, ec)) copy.clear();
    fs::create_directories(dir / "manifests", ec);
    std::string command = shellQuoted(fs::read_symlink("/proc/self/exe", ec).string()) + " --no-default-plugins";
    for (const Plugin& plugin : pipeline.plugins) {
        fs::path manifest = fs::absolute(plugin.manifest.path, ec);
        fs::copy_file(manifest, dir / "manifests" / manifest.filename(), fs::copy_options::overwrite_existing, ec);
        command += " --plugin " + shellQuoted(manifest.string());
    }
    command += " run " + (copy.empty() ? std::string("-") : shellQuoted(copy.string())) + " -o /dev/null";

    bool ok = writeText(dir / "what.txt", "input: " + input + "\n" + what + "\n") &&
              writeText(dir / "pipeline.txt", describePipeline(pipeline)) &&
              writeText(dir / "replay.sh", "#!/bin/sh\n# Replays the run that " + what + ".\nexec " + command + "\n");
    ::chmod((dir / "replay.sh").c_str(), 0755);
    return ok ? std::optional<std::string>(dir.string()) : std::nullopt;
}

}  // namespace ptoplug::host
