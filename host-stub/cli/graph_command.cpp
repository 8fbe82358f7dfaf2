// pto-host graph: a program's context flow as a picture (DOT, or SVG through Graphviz).
#include <filesystem>

#include "cli/cli.h"
#include "driver/inputs.h"
#include "graph/context_flow.h"
#include "graph/dot.h"
#include "graph/render.h"
#include "ir/reader.h"

namespace ptoplug::cli {

Command addGraphCommand(CLI::App& app, Cli& cli) {
    struct Args {
        std::string input;
        std::string output = "-";
        std::string function;
        int depth = 1;
    };
    auto args = std::make_shared<Args>();
    CLI::App* graph = app.add_subcommand(
        "graph",
        "draw the context flow of a program: functions, the calls between them, the distributed tensors "
        "each call passes and the communication context each one gets");
    graph->add_option("input", args->input, "IR file (- for stdin)")->required();
    graph->add_option("-o,--output", args->output, "output: .dot (the default, - for stdout) or .svg (needs Graphviz)")
        ->check(kPath);
    CLI::Option* function = graph->add_option("--function", args->function, "draw only the functions around this one");
    graph->add_option("--depth", args->depth, "with --function: how many calls away (default 1)")
        ->check(CLI::Range(0, 1000))
        ->needs(function);
    return {graph, [&cli, args] {
                // The name says the format, and the graph is never written over the program it draws.
                if (Status err = graph::checkGraphPath(args->output)) return cli.fail(*err, host::kExitUsage);
                if (Status err = host::checkSideOutput("the graph", args->output, {singleFile(args->input, "")},
                                                       "write the graph to a file of its own"))
                    return cli.fail(*err, host::kExitUsage);
                auto doc = ir::readFile(args->input);
                if (!doc) return cli.fail(doc.error(), host::kExitBadInput);
                const graph::ContextFlow flow = graph::contextFlowOf(**doc);
                if (!args->function.empty() &&
                    std::none_of(flow.functions.begin(), flow.functions.end(),
                                 [&](const graph::FunctionNode& f) { return f.name == args->function; }))
                    return cli.fail(fileError(args->input, "the program has no function '" + args->function + "'",
                                              "name one of its functions (pto-host print lists them)"),
                                    host::kExitUsage);
                const std::string dot = graph::toDot(
                    flow,
                    {.title = args->input == "-" ? "<stdin>" : std::filesystem::path(args->input).filename().string(),
                     .focus = args->function,
                     .depth = args->depth});
                if (auto err = graph::writeGraph(args->output, dot)) return cli.fail(*err, host::kExitOutput);
                return int{host::kExitOk};
            }};
}

}  // namespace ptoplug::cli
