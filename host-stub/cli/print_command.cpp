// pto-host print: a program as pypto-style text.
#include "cli/cli.h"
#include "ir/printer.h"
#include "ir/reader.h"

namespace ptoplug::cli {

Command addPrintCommand(CLI::App& app, Cli& cli) {
    auto input = std::make_shared<std::string>();
    CLI::App* print = app.add_subcommand("print", "print a program as pypto-style text");
    print->add_option("input", *input, "IR file (- for stdin)")->required();
    return {print, [&cli, input] {
                auto doc = ir::readFile(*input);
                if (!doc) return cli.fail(doc.error(), host::kExitBadInput);
                return cli.printOut(ir::printProgram(**doc));
            }};
}

}  // namespace ptoplug::cli
