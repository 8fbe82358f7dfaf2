// pto-host verify: check IR properties of programs with the plugins' verifiers, running no pass.
#include "cli/cli.h"

namespace ptoplug::cli {

Command addVerifyCommand(CLI::App& app, Cli& cli) {
    auto inputs = std::make_shared<std::vector<std::string>>();
    CLI::App* verify = app.add_subcommand(
        "verify", "check properties of programs without running any pass (exit 0: they hold; 1: diagnostics)");
    verify->add_option("inputs", *inputs, "files, directories and globs")->required();
    verify->add_option("--property", cli.file.verifyProperties, "the property to verify (repeatable)")->required();
    cli.addIsolationOptions(verify);
    return {verify, [&cli, inputs] {
                auto pipeline = cli.loadPipeline();
                if (!pipeline) return cli.fail(pipeline.error(), host::kExitPlugin);
                if (!cli.propertiesAreVerified(**pipeline)) return int{host::kExitUsage};
                auto items = host::expandBatchInputs(*inputs, "");
                if (!items) return cli.fail(items.error(), host::kExitUsage);
                cli.file.runPasses = false;
                host::IsolationOptions isolation = cli.isolation;
                isolation.summary = items->size() > 1;
                return host::runBatch(**pipeline, *items, cli.file, isolation);
            }};
}

}  // namespace ptoplug::cli
