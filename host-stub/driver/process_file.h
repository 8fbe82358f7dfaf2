// One program through the pipeline: read, run each plugin stage, verify, write.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "abi_host/runner.h"
#include "base/step_times.h"
#include "driver/file_options.h"
#include "driver/file_report.h"
#include "driver/progress.h"
#include "ir/document.h"
#include "pipeline/pipeline.h"

namespace ptoplug::host {

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

}  // namespace ptoplug::host
