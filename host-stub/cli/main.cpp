// pto-host: runs pass plugins over serialized pypto IR, as a stub of pypto's pass manager.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <thread>

#include "driver/batch.h"
#include "driver/process_file.h"
#include "io/atomic_file.h"
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

ir::Format parseFormat(const std::string& s) {
    if (s == "json") return ir::Format::Json;
    if (s == "msgpack") return ir::Format::MsgPack;
    return ir::Format::Auto;
}

}  // namespace

int main(int argc, char** argv) try {
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

    std::vector<std::string> inputs;
    std::string outDir;
    int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    auto* batch = app.add_subcommand("batch", "run the pipeline over many programs, each isolated");
    batch->add_option("inputs", inputs, "files, directories and globs")->required();
    batch->add_option("--out-dir", outDir, "where outputs go, under their input names")->required();
    batch->add_option("-j,--jobs", jobs, "files processed at once (default: the number of cores)")
        ->check(CLI::Range(1, 1024));
    addOutputOptions(batch);
    batch->add_flag("--no-verify", noVerify, "skip the property verifiers after each pass");

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
        if (*print) {
            std::cout << ir::printProgram(**doc);
            return host::kExitOk;
        }
        ir::WriteOptions write{fileOptions.outputFormat, fileOptions.pretty};
        if (auto err =
                io::writeFileAtomically(output, [&](ir::Sink& s) { return ir::writeDocument(**doc, write, s); })) {
            std::cerr << host::formatError(*err, diagFormat);
            return host::kExitOutput;
        }
        return host::kExitOk;
    }

    // Plugins and the pipeline are checked before any IR is read.
    std::vector<std::string> manifests = noDefaultPlugins ? std::vector<std::string>{} : defaultManifests();
    manifests.insert(manifests.end(), pluginManifests.begin(), pluginManifests.end());
    std::vector<host::Plugin> plugins;
    for (const std::string& m : manifests) {
        auto plugin = host::loadFromManifest(m);
        if (!plugin) {
            std::cerr << host::formatError(plugin.error(), diagFormat);
            return host::kExitPlugin;
        }
        plugins.push_back(std::move(*plugin));
    }
    auto pipeline = host::buildPipeline(std::move(plugins));
    if (!pipeline) {
        std::cerr << host::formatError(pipeline.error(), diagFormat);
        return host::kExitPlugin;
    }

    if (*pipelineCmd) {
        for (size_t i = 0; i < (*pipeline)->stages.size(); ++i) {
            const host::Stage& s = (*pipeline)->stages[i];
            std::string name = s.name + (s.occurrence > 1 ? " #" + std::to_string(s.occurrence) : "");
            std::printf("%3zu  %-30s %s\n", i, name.c_str(),
                        s.plugin ? ("[plugin " + s.plugin->manifest.name + " " + s.plugin->manifest.version + ": " +
                                    s.plugin->manifest.library + "]")
                                       .c_str()
                                 : "(skipped: not implemented by the stub host)");
        }
        return host::kExitOk;
    }

    if (*run) {
        size_t skipped = 0;
        for (const host::Stage& s : (*pipeline)->stages) skipped += s.plugin ? 0 : 1;
        if (skipped)
            std::cerr << "pto-host: note: " << skipped << " of " << (*pipeline)->stages.size()
                      << " pipeline stages are not implemented by the stub host and are skipped (pto-host pipeline "
                         "lists them)\n";
        host::FileReport report = host::processFile(**pipeline, input, output, fileOptions);
        std::cerr << report.messages;
        return report.exitCode;
    }

    auto items = host::expandBatchInputs(inputs, outDir);
    if (!items) {
        std::cerr << host::formatError(items.error(), diagFormat);
        return host::kExitUsage;
    }
    return host::runBatch(**pipeline, *items, jobs, fileOptions);
}
// Errors are values inside the host; an exception reaching here (e.g. out of memory) is an internal error.
catch (const std::exception& e) {
    std::cerr << "pto-host: internal error: " << e.what() << "\n";
    return host::kExitInternal;
}
