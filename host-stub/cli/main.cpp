// pto-host: runs pass plugins over serialized pypto IR, as a stub of pypto's pass manager.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <filesystem>
#include <iostream>

#include "driver/batch.h"
#include "driver/process_file.h"
#include "io/output_file.h"
#include "ir/printer.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "pipeline/pipeline.h"

namespace {

namespace fs = std::filesystem;
using namespace ptoplug;
using host::ExitCode;

// Plugins installed beside the executable: <bin>/../lib/ptoplug/*.json.
std::vector<std::string> defaultManifests() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    std::vector<std::string> out;
    if (ec) return out;
    fs::path dir = exe.parent_path().parent_path() / "lib" / "ptoplug";
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".json") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// Text for the host's own stdout, every byte checked: a full disk or a closed pipe is exit 6.
int printOut(const std::string& text, host::DiagnosticsFormat format) {
    if (auto err = io::writeOutput("-", [&](ir::Sink& sink) {
            sink.write(text);
            return Status();
        })) {
        std::cerr << host::formatError(*err, format);
        return host::kExitOutput;
    }
    return host::kExitOk;
}

ir::Format parseFormat(const std::string& s) {
    if (s == "json") return ir::Format::Json;
    if (s == "msgpack") return ir::Format::MsgPack;
    return ir::Format::Auto;
}

}  // namespace

int main(int argc, char** argv) try {
    // Plugin code may print: its stdout goes to stderr, the host's output to the real stdout.
    io::reserveStdoutForHost();
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    CLI::App app{"pto-host: run pass plugins over serialized pypto IR (MessagePack or JSON)"};
    app.set_version_flag("--version", std::string("pto-host 0.1.0 (ptoplug ABI ") + std::to_string(PTO_ABI_MAJOR) +
                                          "." + std::to_string(PTO_ABI_MINOR) + ")");
    app.require_subcommand(1);
    app.footer(
        "Exit codes: 0 success; 1 the input program has errors (diagnostics); 2 bad command line; 3 bad input file;\n"
        "4 manifest, plugin or pipeline problem; 5 internal error or plugin crash; 6 output cannot be written.");

    std::vector<std::string> pluginManifests;
    bool noDefaultPlugins = false;
    std::string diagnosticsFormat = "text";
    app.add_option("--plugin", pluginManifests, "load the plugin declared by this manifest (repeatable)")
        ->check(CLI::ExistingFile);
    app.add_flag("--no-default-plugins", noDefaultPlugins, "do not load the plugins installed beside pto-host");
    app.add_option("--diagnostics-format", diagnosticsFormat, "text (file:line:col: error: [rule] message) or json")
        ->check(CLI::IsMember({"text", "json"}));

    host::FileOptions fileOptions;
    std::string format;
    auto addOutputOptions = [&](CLI::App* cmd) {
        cmd->add_option("--format", format, "output format: json or msgpack (default: the input's)")
            ->check(CLI::IsMember({"json", "msgpack"}));
        cmd->add_flag("--pretty", fileOptions.pretty, "indented JSON for people");
    };

    host::IsolationOptions isolation;
    isolation.jobs = host::availableCpus();
    bool inPlace = false;
    auto addIsolationOptions = [&](CLI::App* cmd) {
        cmd->add_option("--timeout", isolation.timeoutSeconds,
                        "seconds one file may take before its worker is stopped (0: no limit)")
            ->capture_default_str()
            ->check(CLI::NonNegativeNumber);
        cmd->add_option("--memory-limit", isolation.memoryLimitMiB, "MiB of address space per worker (0: no limit)")
            ->capture_default_str();
        cmd->add_option("--crash-reproducer", isolation.crashReproducerDir,
                        "where to save a reproducer when plugin code crashes or hangs (default: a new temporary "
                        "folder, named in the message)");
        cmd->add_flag("--in-place", inPlace, "allow outputs that overwrite inputs (the pass is not idempotent)");
    };

    std::string input, output = "-";
    auto* run = app.add_subcommand("run", "run the pipeline's plugin passes over one program");
    run->add_option("input", input, "IR file (- for stdin)")->required();
    run->add_option("-o,--output", output, "output file (- for stdout, the default)");
    addOutputOptions(run);
    run->add_flag("--print-ir-before", fileOptions.printBefore, "print the program (pypto-style text) on stderr first");
    run->add_flag("--print-ir-after", fileOptions.printAfter, "print the transformed program on stderr");
    run->add_flag("--time-passes", fileOptions.timePasses, "report each pass's time on stderr");
    bool noVerify = false;
    run->add_flag("--no-verify", noVerify, "skip the property verifiers after each pass");
    addIsolationOptions(run);

    std::vector<std::string> inputs;
    std::string outDir;
    auto* batch = app.add_subcommand("batch", "run the pipeline over many programs, each isolated");
    batch->add_option("inputs", inputs, "files, directories and globs")->required();
    batch->add_option("--out-dir", outDir, "where outputs go, under their input names")->required();
    batch->add_option("-j,--jobs", isolation.jobs, "files processed at once (default: the CPUs this process may use)")
        ->check(CLI::Range(1, 1024));
    addOutputOptions(batch);
    batch->add_flag("--no-verify", noVerify, "skip the property verifiers after each pass");
    addIsolationOptions(batch);

    auto* convert = app.add_subcommand("convert", "convert between JSON and MessagePack (no pass)");
    convert->add_option("input", input, "IR file (- for stdin)")->required();
    convert->add_option("-o,--output", output, "output file (- for stdout)")->required();
    addOutputOptions(convert);

    auto* print = app.add_subcommand("print", "print a program as pypto-style text");
    print->add_option("input", input, "IR file (- for stdin)")->required();

    auto* pipelineCmd = app.add_subcommand("pipeline", "list the resolved pipeline, plugin stages marked");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : host::kExitUsage;
    }
    host::DiagnosticsFormat diagFormat =
        diagnosticsFormat == "json" ? host::DiagnosticsFormat::Json : host::DiagnosticsFormat::Text;
    fileOptions.diagnostics = diagFormat;
    fileOptions.verify = !noVerify;
    fileOptions.outputFormat = parseFormat(format);

    if (*print || *convert) {
        auto doc = ir::readFile(input);
        if (!doc) {
            std::cerr << host::formatError(doc.error(), diagFormat);
            return host::kExitBadInput;
        }
        if (*print) return printOut(ir::printProgram(**doc), diagFormat);
        host::FileReport written = host::writeProgram(**doc, output, fileOptions);
        std::cerr << written.messages;
        return written.exitCode;
    }

    // Plugins and the pipeline are checked before any IR is read.
    std::vector<std::string> manifests = noDefaultPlugins ? std::vector<std::string>{} : defaultManifests();
    manifests.insert(manifests.end(), pluginManifests.begin(), pluginManifests.end());
    auto pipeline = host::loadPipelineIsolated(manifests, isolation.timeoutSeconds);
    if (!pipeline) {
        std::cerr << host::formatError(pipeline.error(), diagFormat);
        return host::kExitPlugin;
    }

    if (*pipelineCmd) return printOut(host::describePipeline(**pipeline), diagFormat);

    auto spareInputs = [&](const std::vector<std::string>& ins, const std::string& dir,
                           const std::vector<host::BatchItem>& items) {
        if (auto err = host::checkOutputsSpareInputs(ins, dir, items, inPlace)) {
            std::cerr << host::formatError(*err, diagFormat);
            return false;
        }
        return true;
    };

    if (*run) {
        size_t skipped = 0;
        for (const host::Stage& s : (*pipeline)->stages) skipped += s.plugin ? 0 : 1;
        if (skipped)
            std::cerr << "pto-host: note: " << skipped << " of " << (*pipeline)->stages.size()
                      << " pipeline stages are not implemented by the stub host and are skipped (pto-host pipeline "
                         "lists them)\n";
        std::vector<host::BatchItem> one{{input, output, {}}};
        if (!spareInputs({input}, "", one)) return host::kExitUsage;
        isolation.jobs = 1;
        isolation.summary = false;
        return host::runBatch(**pipeline, one, fileOptions, isolation);
    }

    auto items = host::expandBatchInputs(inputs, outDir);
    if (!items) {
        std::cerr << host::formatError(items.error(), diagFormat);
        return host::kExitUsage;
    }
    if (!spareInputs(inputs, outDir, *items)) return host::kExitUsage;
    return host::runBatch(**pipeline, *items, fileOptions, isolation);
}
// Errors are values inside the host; an exception reaching here (e.g. out of memory) is an internal error.
catch (const std::exception& e) {
    std::cerr << "pto-host: internal error: " << e.what() << "\n";
    return host::kExitInternal;
}
