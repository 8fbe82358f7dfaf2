// pto-host: runs pass plugins over serialized pypto IR, as a stub of pypto's pass manager. Each
// subcommand is in its own file (cli.h lists them); this file sets up the process and dispatches.
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <iostream>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "base/allocator.h"
#include "base/process_state.h"
#include "cli/cli.h"
#include "io/output_file.h"

namespace {

// Ends pto-host with `code`, running no exit handlers: a plugin's library (loaded here once it loaded in a
// child, and never unloaded: loader.h) may have registered one with atexit, which could otherwise change
// the exit status or act after the outputs are named. Static objects are not destroyed either; the kernel
// closes the files.
[[noreturn]] void exitWith(int code) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
#if defined(__SANITIZE_ADDRESS__)
    __lsan_do_leak_check();  // LeakSanitizer checks from an exit handler, which _exit skips
#endif
    ::_exit(code);
}

int run(int argc, char** argv) try {
    using namespace ptoplug;
    // Plugin code may print: its stdout goes to stderr, the host's output to the real stdout.
    io::reserveStdoutForHost();
    ownProcessState();  // plugin code's changes to the working folder, umask, signals and limits are undone
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGXFSZ, SIG_IGN);
    returnLargeBlocksWhenFreed();
    CLI::App app{"pto-host: run pass plugins over serialized pypto IR (MessagePack or JSON)"};
    app.set_version_flag("--version", std::string("pto-host 0.1.0 (ptoplug ABI ") + std::to_string(PTO_ABI_MAJOR) +
                                          "." + std::to_string(PTO_ABI_MINOR) + ")");
    app.require_subcommand(1);
    app.fallthrough();  // global options may also follow the subcommand
    app.footer(
        "Exit codes: 0 success; 1 the input program has errors (diagnostics); 2 bad command line or outputs that\n"
        "would overwrite inputs; 3 bad input file; 4 manifest, plugin or pipeline problem; 5 internal error or a\n"
        "plugin that crashed, exited, hung or broke the IR; 6 output cannot be written; 130/143 interrupted.");
    cli::Cli shared(app);
    const cli::Command commands[] = {cli::addRunCommand(app, shared),      cli::addBatchCommand(app, shared),
                                     cli::addConvertCommand(app, shared),  cli::addPrintCommand(app, shared),
                                     cli::addPipelineCommand(app, shared), cli::addVerifyCommand(app, shared),
                                     cli::addGraphCommand(app, shared)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : host::kExitUsage;
    }
    shared.finishParsing();
    for (const cli::Command& command : commands)
        if (*command.app) {
            int code = command.run();
            host::finishDiagnostics(shared.diagnostics());
            return code;
        }
    return host::kExitUsage;
}
// Errors are values inside the host; an exception reaching here (e.g. out of memory) is an internal error.
catch (const std::exception& e) {
    std::cerr << "pto-host: internal error: " << e.what() << "\n";
    return ptoplug::host::kExitInternal;
}

}  // namespace

int main(int argc, char** argv) { exitWith(run(argc, argv)); }
