// pto-gen: writes a large, realistic pypto program for benchmarks (see program_generator.h).
//
//   pto-gen N OUT [--same-window] [--format json|msgpack]
// --same-window: one chip function called N times with the same two windows (the pass's name
// synthesis stress case).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "generator/program_generator.h"
#include "io/output_file.h"
#include "ir/writer.h"

int main(int argc, char** argv) try {
    CLI::App app{"pto-gen: write a large realistic pypto program (for benchmarks)"};
    int n = 1000;
    std::string out;
    std::string format = "json";
    bool sameWindow = false;
    app.add_option("n", n, "number of chip-orchestration functions (or calls, with --same-window)")
        ->required()
        ->check(CLI::Range(1, 10000000));
    app.add_option("output", out, "output file")->required();
    app.add_option("--format", format, "json or msgpack")->check(CLI::IsMember({"json", "msgpack"}));
    app.add_flag("--same-window", sameWindow, "one chip function called n times with the same two windows");
    CLI11_PARSE(app, argc, argv);

    using namespace ptoplug::ir;
    Document doc;
    ptoplug::tools::generateProgram(doc, n, sameWindow);
    WriteOptions options{format == "json" ? Format::Json : Format::MsgPack, false};
    if (auto err = ptoplug::io::writeOutput(out, [&](Sink& sink) { return writeDocument(doc, options, sink); })) {
        std::cerr << "pto-gen: " << err->format() << "\n";
        return 1;
    }
    return 0;
} catch (const std::exception& e) {
    std::cerr << "pto-gen: internal error: " << e.what() << "\n";
    return 1;
}
