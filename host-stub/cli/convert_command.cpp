// pto-host convert: JSON <-> MessagePack, no pass.
#include <iostream>

#include "cli/cli.h"
#include "driver/output_writer.h"
#include "ir/reader.h"

namespace ptoplug::cli {

Command addConvertCommand(CLI::App& app, Cli& cli) {
    struct Args {
        std::string input;
        std::string output;
    };
    auto args = std::make_shared<Args>();
    CLI::App* convert = app.add_subcommand("convert", "convert between JSON and MessagePack (no pass)");
    convert->add_option("input", args->input, "IR file (- for stdin)")->required();
    convert->add_option("-o,--output", args->output, "output file (- for stdout)")->required()->check(kPath);
    cli.addOutputOptions(convert);
    return {convert, [&cli, args] {
                auto doc = ir::readFile(args->input);
                if (!doc) return cli.fail(doc.error(), host::kExitBadInput);
                if (!cli.chooseOutputFormat(args->output, (*doc)->inputFormat())) return int{host::kExitUsage};
                if (!cli.outputSparesInput(singleFile(args->input, args->output))) return int{host::kExitUsage};
                host::FileReport written = host::writeProgram(**doc, args->output, cli.file);
                host::writeDiagnostics(written.messages, cli.diagnostics());
                return written.exitCode;
            }};
}

}  // namespace ptoplug::cli
