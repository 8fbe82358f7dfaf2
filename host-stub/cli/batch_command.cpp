// pto-host batch: many programs, each in a worker, outputs under --out-dir.
#include "cli/cli.h"

namespace ptoplug::cli {

Command addBatchCommand(CLI::App& app, Cli& cli) {
    struct Args {
        std::vector<std::string> inputs;
        std::string outDir;
    };
    auto args = std::make_shared<Args>();
    CLI::App* batch = app.add_subcommand("batch", "run the pipeline over many programs, each isolated");
    batch->add_option("inputs", args->inputs, "files, directories and globs")->required();
    batch->add_option("--out-dir", args->outDir, "where outputs go, under their input names")->required();
    batch
        ->add_option("-j,--jobs", cli.isolation.jobs,
                     "files processed at once (default: the CPUs this process may use)")
        ->check(CLI::Range(1, 1024));
    cli.addOutputOptions(batch);
    cli.addVerifyFlag(batch);
    cli.addIsolationOptions(batch);
    return {batch, [&cli, args] {
                auto pipeline = cli.loadPipeline();
                if (!pipeline) return cli.fail(pipeline.error(), host::kExitPlugin);
                auto items = host::expandBatchInputs(args->inputs, args->outDir);
                if (!items) return cli.fail(items.error(), host::kExitUsage);
                if (!cli.outputsSpareInputs(args->inputs, args->outDir, *items)) return int{host::kExitUsage};
                return host::runBatch(**pipeline, *items, cli.file, cli.isolation);
            }};
}

}  // namespace ptoplug::cli
