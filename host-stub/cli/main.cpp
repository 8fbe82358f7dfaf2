// pto-host: runs pass plugins over serialized pypto IR.
#include <CLI/CLI.hpp>
#include <iostream>

#include "ir/printer.h"
#include "ir/reader.h"
#include "ir/writer.h"

int main(int argc, char** argv) {
    using namespace ptoplug::ir;
    CLI::App app{"pto-host: run pass plugins over serialized pypto IR"};
    app.require_subcommand(1);
    std::string input;
    auto* print = app.add_subcommand("print", "print a program as pypto-style text");
    print->add_option("input", input, "IR file (MessagePack or JSON; - for stdin)")->required();
    CLI11_PARSE(app, argc, argv);
    auto doc = readFile(input);
    if (!doc) {
        std::cerr << doc.error().format() << "\n";
        return 3;
    }
    std::cout << printProgram(**doc);
    return 0;
}
