// What came of one file: its exit code (pto-host's exit codes), its messages and its diagnostics.
#pragma once

#include <string>
#include <vector>

#include "abi_host/diagnostic.h"

namespace ptoplug::host {

/// pto-host's exit codes (documented in the README).
enum ExitCode : int {
    kExitOk = 0,
    kExitDiagnostics = 1,  ///< the input program has errors (pass or verifier diagnostics)
    kExitUsage = 2,        ///< bad command line
    kExitBadInput = 3,     ///< an input file cannot be read or is not pypto IR
    kExitPlugin = 4,       ///< a manifest, plugin or pipeline placement problem
    kExitInternal = 5,     ///< an internal error: a pass's broken invariant, a plugin crash
    kExitOutput = 6,       ///< an output file cannot be written
};

struct FileReport {
    int exitCode = kExitOk;
    std::string messages;                 ///< diagnostics, errors and notes for stderr, already formatted
    std::vector<Diagnostic> diagnostics;  ///< the same, structured
    int errors = 0;                       ///< diagnostics by severity (internal errors count as errors)
    int warnings = 0;
    int notes = 0;
    std::string inputSha256;  ///< of the input's bytes as they were read, with FileOptions::hashInput; else ""
};

}  // namespace ptoplug::host
