// One program through the pipeline: read, run each plugin stage, verify, write.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "abi_host/run_context.h"
#include "base/step_times.h"
#include "driver/diagnostics.h"
#include "driver/progress.h"
#include "io/output_file.h"
#include "ir/document.h"
#include "ir/placement.h"
#include "pipeline/pipeline.h"

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
    bool timePasses = false;
    DiagnosticsFormat diagnostics = DiagnosticsFormat::Text;
};

struct FileReport {
    int exitCode = kExitOk;
    std::string messages;                 ///< diagnostics, errors and notes for stderr, already formatted
    std::vector<Diagnostic> diagnostics;  ///< the same, structured
    int errors = 0;                       ///< diagnostics by severity (internal errors count as errors)
    int warnings = 0;
    int notes = 0;
};

/// --time-passes: each phase's time from the end of the one before, and the process's peak resident size
/// at its end, as report lines; then, indented, the steps of the phase when it timed them.
class PhaseTimer {
public:
    explicit PhaseTimer(bool on) : on_(on) {}
    /// Where a phase that times its steps puts them: null when off, so that nothing is timed then.
    StepTimes* steps() { return on_ ? &steps_ : nullptr; }
    void lap(FileReport& report, const std::string& what);
    void total(FileReport& report);

private:
    bool on_;
    StepTimes steps_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

class OutputWriter;

/// Runs the plugin stages of `pipeline` (and their verifiers, and the host's structural check after
/// each) over `doc` in place; `name` names it in diagnostics. With options.runPasses false, only the
/// verifiers of options.verifyProperties run. Runs plugin code in this process. `output`, if given, gets
/// the program laid out for writing by the check after the last pass, and may begin writing it then
/// (driver/output_writer.h); the caller finishes it with the verdict.
FileReport runPipeline(ir::Document& doc, const std::string& name, const Pipeline& pipeline, const FileOptions& options,
                       WorkerProgress* progress = nullptr, PhaseTimer* timer = nullptr, OutputWriter* output = nullptr);

/// Runs `input` through `pipeline` and writes `output` atomically ("-" = stdout); nothing is written
/// when the file fails. After every pass the host checks the program's structure, so that a plugin
/// that breaks it fails here and invalid IR is never written. `progress` (may be null) is told each
/// phase as it starts. Runs plugin code: call it in a worker process (driver/batch.h).
FileReport processFile(const Pipeline& pipeline, const std::string& input, const std::string& output,
                       const FileOptions& options, WorkerProgress* progress = nullptr);

/// The properties verified after `stage`: those it produces, then the --verify ones.
std::vector<std::string> verifiersAfter(const Stage& stage, const FileOptions& options);

/// Writes `doc` to `output` (see io::writeOutput) in the options' format; an error report on failure.
/// `layout`: `doc`'s own, if made already or being made (see ir::writeDocument). `beforeNaming`, if given,
/// is called once the program is encoded, before the file is named: an error it returns withdraws the file.
FileReport writeProgram(const ir::Document& doc, const std::string& output, const FileOptions& options,
                        StepTimes* steps = nullptr, const ir::Layout* layout = nullptr,
                        const std::function<Status()>& beforeNaming = {});

}  // namespace ptoplug::host
