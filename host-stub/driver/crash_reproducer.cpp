#include "driver/crash_reproducer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/printable.h"

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

// The plugin's manifest and library, copied into `dir`, the copy of the manifest naming the copy of the
// library (a relative library is found beside its manifest). Returns the copied manifest.
std::optional<fs::path> savePlugin(const Plugin& plugin, const fs::path& dir) {
    std::error_code ec;
    const fs::path library = fs::path(plugin.manifest.library).filename();
    if (!fs::create_directories(dir, ec) || !fs::copy_file(plugin.manifest.library, dir / library, ec))
        return std::nullopt;
    std::ifstream in(plugin.manifest.path, std::ios::binary);
    nlohmann::json manifest = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!manifest.is_object()) return std::nullopt;  // changed since it was loaded: nothing to replay from
    manifest["library"] = library.string();
    const fs::path saved = dir / fs::path(plugin.manifest.path).filename();
    return writeText(saved, manifest.dump(2) + "\n") ? std::optional<fs::path>(saved) : std::nullopt;
}

std::string formatFlag(ir::Format format) {
    switch (format) {
        case ir::Format::Json: return " --format json";
        case ir::Format::MsgPack: return " --format msgpack";
        case ir::Format::Auto: break;
    }
    return "";
}

std::string diagnosticsFlag(DiagnosticsFormat format) {
    switch (format) {
        case DiagnosticsFormat::Json: return " --diagnostics-format json";
        case DiagnosticsFormat::Sarif: return " --diagnostics-format sarif";
        case DiagnosticsFormat::Text: break;
    }
    return "";
}

// A number as the command line reads it back.
std::string number(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

}  // namespace

std::optional<std::string> writeCrashReproducer(const Pipeline& pipeline, const FileOptions& options,
                                                const IsolationOptions& isolation, const std::string& input,
                                                const std::string& what) {
    std::error_code ec;
    const std::string& parentDir = isolation.crashReproducerDir;
    fs::path parent = parentDir.empty() ? fs::temp_directory_path(ec) : fs::path(parentDir);
    fs::create_directories(parent, ec);
    std::string pattern = (parent / (parentDir.empty() ? "pto-host-crash-XXXXXX" : "crash-XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) return std::nullopt;
    fs::path dir = fs::absolute(pattern, ec);

    fs::path copy = dir / ("input" + fs::path(input).extension().string());
    if (input == "-" || !fs::copy_file(input, copy, ec)) copy.clear();
    // The replay's paths are relative to replay.sh's folder, so the folder can be moved or sent.
    std::string command = shellQuoted(fs::read_symlink("/proc/self/exe", ec).string()) + " --no-default-plugins";
    for (size_t i = 0; i < pipeline.plugins.size(); ++i) {
        const fs::path sub = fs::path("plugins") / std::to_string(i + 1);
        const std::optional<fs::path> saved = savePlugin(pipeline.plugins[i], dir / sub);
        if (!saved) return std::nullopt;
        command += " --plugin \"$here\"/" + shellQuoted((sub / saved->filename()).string());
    }
    if (!pipeline.passList.empty()) command += " --passes " + shellQuoted(pipeline.passList);
    for (const Stage& stage : pipeline.stages)
        for (const PassOption& option : stage.options)
            if (option.origin.kind == OptionOrigin::Kind::CommandLine || option.origin.kind == OptionOrigin::Kind::Api)
                command += " --pass-option " + shellQuoted(option.setting(stage.name));
    command += diagnosticsFlag(options.diagnostics);
    const std::string in = copy.empty() ? std::string("-") : "\"$here\"/" + shellQuoted(copy.filename().string());
    if (options.runPasses) {
        command +=
            " run " + in + " -o /dev/null" + formatFlag(options.outputFormat) + (options.pretty ? " --pretty" : "");
        if (!options.verify) command += " --no-verify";
        for (const std::string& property : options.verifyProperties) command += " --verify " + shellQuoted(property);
    } else {
        command += " verify " + in;
        for (const std::string& property : options.verifyProperties) command += " --property " + shellQuoted(property);
    }
    command += " --timeout " + number(isolation.timeoutSeconds);
    if (isolation.memoryLimitMiB != 0) command += " --memory-limit " + std::to_string(isolation.memoryLimitMiB);

    bool ok =
        writeText(dir / "what.txt", "input: " + input + "\n" + what + "\n") &&
        writeText(dir / "pipeline.txt", describePipeline(pipeline)) &&
        writeText(dir / "replay.sh", "#!/bin/sh\n# Replays the run that " + printable(what) +
                                         ", with the plugins saved beside this script.\nhere=$(dirname \"$0\")\nexec " +
                                         command + "\n");
    ::chmod((dir / "replay.sh").c_str(), 0755);
    return ok ? std::optional<std::string>(dir.string()) : std::nullopt;
}

}  // namespace ptoplug::host
