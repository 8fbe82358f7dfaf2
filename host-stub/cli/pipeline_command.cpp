// pto-host pipeline: the resolved pipeline, plugin stages marked, with their passes' options.
#include "cli/cli.h"

namespace ptoplug::cli {

Command addPipelineCommand(CLI::App& app, Cli& cli) {
    CLI::App* pipeline =
        app.add_subcommand("pipeline", "list the resolved pipeline, plugin stages marked, with their options");
    return {pipeline, [&cli] {
                auto loaded = cli.loadPipeline();
                if (!loaded) return cli.fail(loaded.error(), host::kExitPlugin);
                return cli.printOut(host::describePipeline(**loaded));
            }};
}

}  // namespace ptoplug::cli
