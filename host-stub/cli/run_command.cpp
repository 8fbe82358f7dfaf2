// pto-host run: one program through the pipeline, in a worker like every file of a batch.
#include <filesystem>
#include <iostream>

#include "cli/cli.h"
#include "driver/inputs.h"
#include "graph/render.h"

namespace ptoplug::cli {

Command addRunCommand(CLI::App& app, Cli& cli) {
    struct Args {
        std::string input;
        std::string output = "-";
    };
    auto args = std::make_shared<Args>();
    CLI::App* run = app.add_subcommand("run", "run the pipeline's plugin passes over one program");
    run->add_option("input", args->input, "IR file (- for stdin)")->required();
    run->add_option("-o,--output", args->output, "output file (- for stdout, the default)")->check(kPath);
    cli.addOutputOptions(run);
    run->add_flag("--print-ir-before", cli.file.printBefore, "print the program (pypto-style text) on stderr first");
    auto printAfter = std::make_shared<std::vector<std::string>>();
    run->add_option("--print-ir-after", *printAfter,
                    "print the program on stderr after the pipeline, or with =PASS after that pass (repeatable)")
        ->expected(0, 1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    run->add_flag("--print-ir-after-failure", cli.file.printAfterFailure,
                  "print the program as a failing pass left it");
    run->add_option("--dump-ir", cli.file.dumpDir, "write the program after each pass to DIR/NN_after_<Pass>.py")
        ->check(kPath);
    auto graphAfter = std::make_shared<std::vector<std::string>>();
    run->add_option("--graph-after", *graphAfter,
                    "PASS OUT: draw the context flow after that pass (what it added, where it failed) to OUT "
                    "(.dot, or .svg with Graphviz), also when the pass fails")
        ->expected(2);
    run->add_flag("--time-passes", cli.file.timePasses, "report the time and peak memory of every phase on stderr");
    cli.addVerifyFlag(run);
    cli.addIsolationOptions(run);
    return {run, [&cli, args, printAfter, graphAfter] {
                if (graphAfter->size() == 2) {
                    cli.file.graphAfterPass = (*graphAfter)[0];
                    cli.file.graphAfterPath = (*graphAfter)[1];
                }
                for (const std::string& pass : *printAfter) {
                    if (pass.empty())
                        cli.file.printAfter = true;
                    else
                        cli.file.printAfterPasses.push_back(pass);
                }
                auto pipeline = cli.loadPipeline();
                if (!pipeline) return cli.fail(pipeline.error(), host::kExitPlugin);
                if (!cli.propertiesAreVerified(**pipeline)) return int{host::kExitUsage};
                size_t skipped = 0;
                for (const host::Stage& s : (*pipeline)->stages) skipped += s.plugin ? 0 : 1;
                if (skipped && cli.verbose())
                    host::writeDiagnostics(
                        host::formatNote("pto-host/skipped-stages",
                                         std::to_string(skipped) + " of " + std::to_string((*pipeline)->stages.size()) +
                                             " pipeline stages are not implemented by the stub host and are skipped "
                                             "(pto-host pipeline lists them)",
                                         cli.diagnostics()),
                        cli.diagnostics());
                if (!cli.chooseOutputFormat(args->output)) return int{host::kExitUsage};
                if (!cli.file.graphAfterPass.empty() &&
                    std::none_of((*pipeline)->stages.begin(), (*pipeline)->stages.end(),
                                 [&](const host::Stage& s) { return s.pass && s.name == cli.file.graphAfterPass; }))
                    return cli.fail(fileError("",
                                              "--graph-after names '" + cli.file.graphAfterPass +
                                                  "', which is no pass a loaded plugin runs",
                                              "name a plugin pass (pto-host pipeline lists them)"),
                                    host::kExitUsage);
                if (!cli.file.dumpDir.empty()) {
                    std::error_code ec;
                    std::filesystem::create_directories(cli.file.dumpDir, ec);
                    if (!std::filesystem::is_directory(cli.file.dumpDir))
                        return cli.fail(fileError(cli.file.dumpDir,
                                                  "--dump-ir needs a folder, and this one cannot be made" +
                                                      (ec ? ": " + ec.message() : std::string()),
                                                  "name a folder that exists or can be created"),
                                        host::kExitUsage);
                }
                const std::vector<host::BatchItem> one{singleFile(args->input, args->output)};
                if (!cli.outputSparesInput(one.front())) return int{host::kExitUsage};
                if (!cli.file.graphAfterPath.empty()) {
                    Status err = graph::checkGraphPath(cli.file.graphAfterPath);
                    if (!err)
                        err = host::checkSideOutput("the graph", cli.file.graphAfterPath, one,
                                                    "write the graph to a file of its own");
                    if (err) return cli.fail(*err, host::kExitUsage);
                }
                host::IsolationOptions isolation = cli.isolation;
                isolation.jobs = 1;
                isolation.summary = false;
                return host::runBatch(**pipeline, one, cli.file, isolation);
            }};
}

}  // namespace ptoplug::cli
