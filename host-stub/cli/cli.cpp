#include "cli/cli.h"

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "io/output_file.h"
#include "ir/use_after_def.h"
#include "ir/writer.h"
#include "pipeline/pass_list.h"

namespace ptoplug::cli {
namespace fs = std::filesystem;

namespace {

// Plugins installed beside the executable: <bin>/../lib/ptoplug/*.json.
std::vector<std::string> defaultManifests() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    return host::manifestsInFolder((exe.parent_path().parent_path() / "lib" / "ptoplug").string());
}

}  // namespace

Cli::Cli(CLI::App& app) {
    isolation.jobs = host::availableCpus();
    app.add_option("--plugin", pluginManifests_, "load the plugin declared by this manifest (repeatable)")
        ->check(CLI::ExistingFile);
    app.add_flag("--no-default-plugins", noDefaultPlugins_, "do not load the plugins installed beside pto-host");
    app.add_option("--pass-option", passOptions_,
                   "set an option of a plugin pass, PASS.KEY=VALUE (repeatable; checked before any input is read)");
    app.add_option("--passes", passList_,
                   "run exactly these plugin passes, in this order, instead of pypto's default pipeline with the "
                   "plugins placed in it: 'PassA,PassB{key=value key2=\'a b\'}' (checked before any input is read)");
    app.add_option("--diagnostics-format", diagnosticsFormat_,
                   "text (file:line:col: error: message [rule]), json (one object a line) or sarif (SARIF 2.1.0)")
        ->check(CLI::IsMember({"text", "json", "sarif"}));
    app.add_flag("-v,--verbose", verbose_, "say more (e.g. which pipeline stages the stub host skips)");
}

void Cli::addOutputOptions(CLI::App* command) {
    command->add_option("--format", format_, "output format: json or msgpack (default: the input's)")
        ->check(CLI::IsMember({"json", "msgpack"}));
    command->add_flag("--pretty", file.pretty, "indented JSON for people");
    command->add_flag_function(
        "--fsync", [this](int64_t) { file.durability = io::Durability::Synced; },
        "make each output durable (fsync file and directory) before reporting success; without it a crash "
        "still leaves the old output or the whole new one");
    command->add_flag("--in-place", inPlace_, "allow outputs that overwrite inputs (the pass is not idempotent)");
}

void Cli::addIsolationOptions(CLI::App* command) {
    command
        ->add_option("--timeout", isolation.timeoutSeconds,
                     "seconds one file may take before its worker is stopped, and loading the plugins before it is "
                     "stopped (0: no limit)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    command->add_option("--memory-limit", isolation.memoryLimitMiB, "MiB of address space per worker (0: no limit)")
        ->capture_default_str();
    command
        ->add_option("--crash-reproducer", isolation.crashReproducerDir,
                     "where to save a reproducer when plugin code crashes or hangs (default: a new temporary "
                     "folder, named in the message)")
        ->check(kPath);
    command->add_flag(
        "--reuse-workers", [this](int64_t) { isolation.processPerFile = false; },
        "run file after file in each worker instead of each file in a fresh process: faster on many small files "
        "(1-4 ms a file, by machine), but plugin code that corrupts a worker's memory reaches the files it runs after "
        "(README: what the host guarantees when a plugin misbehaves)");
    command->add_flag(
        "--no-huge-code", [this](int64_t) { isolation.hugeCode = false; },
        "keep code on the pages of its files: for profilers such as perf, which name code by its file (by default "
        "each worker copies the 2 MiB blocks that hold only code and constants, of pto-host and of large "
        "libraries, onto huge pages before its second file, which makes a process per file cheaper)");
}

void Cli::addVerifyFlag(CLI::App* command) {
    command->add_flag("--no-verify", noVerify_, "skip the property verifiers after each pass");
    command->add_option("--verify", file.verifyProperties,
                        "also verify this property after every plugin pass (repeatable), e.g. DistTensorCtxConsistent");
}

bool Cli::propertiesAreVerified(const host::Pipeline& pipeline) const {
    for (const std::string& property : file.verifyProperties)
        if (!pipeline.verifier(property) && property != ir::kUseAfterDefProperty) {
            std::string known = std::string(ir::kUseAfterDefProperty) + " (the host's own)";
            for (const host::Plugin& p : pipeline.plugins)
                for (size_t i = 0; i < p.loaded->descriptor().verifier_count; ++i)
                    known += ", " + std::string(p.loaded->descriptor().verifiers[i]->property);
            fail(fileError("", "no loaded plugin verifies property '" + property + "'",
                           "load a plugin that has a verifier for it (--plugin); these are verified: " + known),
                 host::kExitUsage);
            return false;
        }
    return true;
}

void Cli::finishParsing() {
    file.diagnostics = diagnosticsFormat_ == "json"    ? host::DiagnosticsFormat::Json
                       : diagnosticsFormat_ == "sarif" ? host::DiagnosticsFormat::Sarif
                                                       : host::DiagnosticsFormat::Text;
    file.verify = !noVerify_;
    file.outputFormat = format_ == "json"      ? ir::Format::Json
                        : format_ == "msgpack" ? ir::Format::MsgPack
                                               : ir::Format::Auto;
}

bool Cli::chooseOutputFormat(const std::string& output, ir::Format inputFormatIfKnown) {
    const ir::Format byName = ir::formatForName(output);
    if (byName != ir::Format::Auto && file.outputFormat != ir::Format::Auto && file.outputFormat != byName) {
        fail(fileError(output, "--format " + format_ + " contradicts the output's name",
                       "drop --format (the extension decides), or name the output ." + format_),
             host::kExitUsage);
        return false;
    }
    if (byName != ir::Format::Auto) file.outputFormat = byName;
    const ir::Format effective = file.outputFormat != ir::Format::Auto ? file.outputFormat : inputFormatIfKnown;
    const bool toStdout = output == "-" || output == "/dev/stdout";
    if (toStdout && effective != ir::Format::Json && ::isatty(io::hostStdout())) {
        fail(fileError("<stdout>", "refusing to write MessagePack to a terminal",
                       "write it to a file with -o FILE.msgpack, pipe it, or ask for --format json"),
             host::kExitUsage);
        return false;
    }
    return true;
}

int Cli::fail(const Error& error, int exitCode) const {
    host::writeDiagnostics(host::formatError(error, diagnostics()), diagnostics());
    return exitCode;
}

int Cli::printOut(const std::string& text) const {
    if (auto err = io::writeOutput("-", [&](ir::Sink& sink) {
            sink.write(text);
            return Status();
        }))
        return fail(*err, host::kExitOutput);
    return host::kExitOk;
}

Expected<std::unique_ptr<host::Pipeline>> Cli::loadPipeline() const {
    std::vector<std::string> manifests = noDefaultPlugins_ ? std::vector<std::string>{} : defaultManifests();
    manifests.insert(manifests.end(), pluginManifests_.begin(), pluginManifests_.end());
    auto pipeline = host::loadPipelineIsolated(manifests, isolation.timeoutSeconds);
    if (!pipeline) return pipeline;
    if (!passList_.empty())
        if (Status err = host::restrictToPassList(**pipeline, passList_)) return *err;
    for (const std::string& setting : passOptions_)
        if (Status err = host::setPassOption(**pipeline, setting, host::OptionOrigin::Kind::CommandLine)) return *err;
    if (Status err = host::checkPassOptionsIsolated(**pipeline, isolation.timeoutSeconds)) return *err;
    return pipeline;
}

bool Cli::outputsSpareInputs(const std::vector<std::string>& inputs, const std::string& outDir,
                             const std::vector<host::BatchItem>& items) const {
    if (auto err = host::checkOutputsSpareInputs(inputs, outDir, items, inPlace_)) {
        fail(*err, host::kExitUsage);
        return false;
    }
    return true;
}

}  // namespace ptoplug::cli
