// pto-host batch: many programs, each in a worker, outputs under --out-dir.
#include "cli/cli.h"

namespace ptoplug::cli {

Command addBatchCommand(CLI::App& app, Cli& cli) {
    struct Args {
        std::vector<std::string> inputs;
        std::string outDir;
        std::string shard;
        host::InputFilter filter;
    };
    auto args = std::make_shared<Args>();
    CLI::App* batch = app.add_subcommand("batch", "run the pipeline over many programs, each isolated");
    batch->add_option("inputs", args->inputs, "files, directories and globs")->required();
    batch->add_option("--out-dir", args->outDir, "where outputs go, under their input names")->required()->check(kPath);
    batch
        ->add_option("-j,--jobs", cli.isolation.jobs,
                     "files processed at once (default: the CPUs this process may use)")
        ->check(CLI::Range(1, 1024));
    batch
        ->add_option("--shard", args->shard,
                     "K/N: process only share K of N of the inputs (stable and disjoint, by path), for running one "
                     "corpus on N machines")
        ->check([](const std::string& s) {
            return host::parseShard(s) ? std::string()
                                       : std::string(
                                             "--shard takes K/N, two whole numbers with 1 <= K <= N "
                                             "(at most 4294967295), e.g. 2/8");
        });
    batch->add_option("--include", args->filter.include,
                      "only files (in folders and globs) that match this pattern: without '/' the file name, with "
                      "'/' the relative path (repeatable; default: *.json and *.msgpack)");
    batch->add_option("--exclude", args->filter.exclude, "skip files that match this pattern (repeatable)");
    batch
        ->add_option("--report", cli.isolation.reportPath,
                     "write one JSON line per file here: input, output, status, exit code, diagnostic counts, "
                     "seconds, input and output sha256")
        ->check(kPath);
    cli.addOutputOptions(batch);
    cli.addVerifyFlag(batch);
    cli.addIsolationOptions(batch);
    return {batch, [&cli, args] {
                cli.file.hashInput = !cli.isolation.reportPath.empty();
                auto pipeline = cli.loadPipeline();
                if (!pipeline) return cli.fail(pipeline.error(), host::kExitPlugin);
                if (!cli.propertiesAreVerified(**pipeline)) return int{host::kExitUsage};
                auto items = host::expandBatchInputs(args->inputs, args->outDir, args->filter, cli.file.outputFormat);
                if (!items) return cli.fail(items.error(), host::kExitUsage);
                // Against the whole batch: a report must not land on another shard's input or output either.
                if (!cli.isolation.reportPath.empty())
                    if (Status err = host::checkReportPath(cli.isolation.reportPath, *items))
                        return cli.fail(*err, host::kExitUsage);
                if (!args->shard.empty()) {
                    const host::Shard shard = *host::parseShard(args->shard);  // checked when parsed
                    *items = host::shardOf(std::move(*items), shard.index, shard.count);
                }
                if (!cli.outputsSpareInputs(args->inputs, args->outDir, *items)) return int{host::kExitUsage};
                return host::runBatch(**pipeline, *items, cli.file, cli.isolation);
            }};
}

}  // namespace ptoplug::cli
