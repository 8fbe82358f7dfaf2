// What to do with each file: the output's format and durability, what to verify, print, dump and time, and
// how diagnostics are written.
#pragma once

#include <string>
#include <vector>

#include "driver/diagnostics.h"
#include "io/output_file.h"
#include "ir/document.h"

namespace ptoplug::host {

struct FileOptions {
    ir::Format outputFormat = ir::Format::Auto;  ///< Auto: the input's format
    bool pretty = false;
    io::Durability durability = io::Durability::Atomic;  ///< Synced: --fsync
    bool verify = true;
    /// More properties to verify after every plugin pass (--verify), or, with runPasses false, the only
    /// thing to do (`pto-host verify`). Progress names a verifier by its index in
    /// verifiersAfter(stage) (a stage's produced properties, then these).
    std::vector<std::string> verifyProperties;
    bool runPasses = true;  ///< false: read, verify verifyProperties, write nothing
    bool printBefore = false;
    bool printAfter = false;                    ///< the program after the whole pipeline
    std::vector<std::string> printAfterPasses;  ///< the program after each pass of these names
    bool printAfterFailure = false;             ///< the program as a failing pass left it
    std::string dumpDir;                        ///< "": none; else NN_after_<Pass>.py per pass (pypto's naming)
    /// The context flow (graph/dot.h) after the pass named graphAfterPass, what it added and where it
    /// failed marked, written to graphAfterPath (.dot or .svg), also when the pass fails.
    std::string graphAfterPass, graphAfterPath;
    bool timePasses = false;
    bool hashInput = false;  ///< hash the input's bytes as they are read (FileReport::inputSha256; --report)
    /// The process ends after this file (one file, one process): its document is left to the process's end
    /// instead of freed node by node and mapping by mapping (as clang's -disable-free does).
    bool processEndsAfterFile = false;
    DiagnosticsFormat diagnostics = DiagnosticsFormat::Text;
};

}  // namespace ptoplug::host
