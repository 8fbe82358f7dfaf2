// What pto-host's subcommands share: the global options, the shared option groups, and the ways a
// subcommand reads input, loads the pipeline and reports. Each subcommand lives in its own file.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "driver/batch.h"
#include "driver/plugin_probe.h"
#include "driver/process_file.h"
#include "ir/document.h"
#include "pipeline/pipeline.h"

namespace ptoplug::cli {

/// For options that name a file or folder: an empty one names nothing, and would otherwise fail late
/// with a message about a file called "".
inline const CLI::Validator kPath(
    [](const std::string& path) { return path.empty() ? std::string("an empty path names no file or folder") : ""; },
    "PATH");

/// A command's one input and its output, as a batch item.
inline host::BatchItem singleFile(const std::string& input, const std::string& output) {
    return {input, output, {}, input};
}

class Cli {
public:
    explicit Cli(CLI::App& app);

    /// --format, --pretty, --fsync and --in-place; `outputFormat` is set from --format when the command runs.
    void addOutputOptions(CLI::App* command);
    /// --timeout, --memory-limit, --crash-reproducer.
    void addIsolationOptions(CLI::App* command);
    /// --no-verify, and --verify PROPERTY (more verifiers after every plugin pass).
    void addVerifyFlag(CLI::App* command);
    /// Fails (exit 2) unless a loaded plugin verifies every property of --verify / --property.
    bool propertiesAreVerified(const host::Pipeline& pipeline) const;
    /// Applies what the parsed options imply (formats); call once after parsing.
    void finishParsing();
    /// The output format of a command writing `output`: the -o extension (.json, .msgpack) decides,
    /// --format must agree with it, and MessagePack is never written to a terminal. False after
    /// printing why (exit 2).
    bool chooseOutputFormat(const std::string& output, ir::Format inputFormatIfKnown = ir::Format::Auto);
    bool verbose() const { return verbose_; }

    host::DiagnosticsFormat diagnostics() const { return file.diagnostics; }
    /// Prints `error` on stderr; returns `exitCode`.
    int fail(const Error& error, int exitCode) const;
    /// Text on the host's own stdout, every byte checked: a full disk or a closed pipe is exit 6.
    int printOut(const std::string& text) const;
    /// Loads the default plugins and those of --plugin, each first in a child process, and applies
    /// --pass-option; exit 4 on error.
    Expected<std::unique_ptr<host::Pipeline>> loadPipeline() const;
    /// Refuses outputs that would overwrite inputs unless --in-place; false after printing why.
    bool outputsSpareInputs(const std::vector<std::string>& inputs, const std::string& outDir,
                            const std::vector<host::BatchItem>& items) const;
    /// The same for a command of one input and one output (run, convert).
    bool outputSparesInput(const host::BatchItem& file) const { return outputsSpareInputs({file.input}, "", {file}); }

    host::FileOptions file;
    host::IsolationOptions isolation;

private:
    std::vector<std::string> pluginManifests_;
    std::vector<std::string> passOptions_;
    std::string passList_;  ///< --passes
    bool noDefaultPlugins_ = false;
    std::string diagnosticsFormat_ = "text";
    std::string format_;
    bool noVerify_ = false;
    bool inPlace_ = false;
    bool verbose_ = false;
};

/// A subcommand: its CLI11 app and what runs when it was chosen (returns the exit code).
struct Command {
    CLI::App* app;
    std::function<int()> run;
};

Command addRunCommand(CLI::App& app, Cli& cli);
Command addBatchCommand(CLI::App& app, Cli& cli);
Command addConvertCommand(CLI::App& app, Cli& cli);
Command addPrintCommand(CLI::App& app, Cli& cli);
Command addPipelineCommand(CLI::App& app, Cli& cli);
Command addVerifyCommand(CLI::App& app, Cli& cli);
Command addGraphCommand(CLI::App& app, Cli& cli);

}  // namespace ptoplug::cli
