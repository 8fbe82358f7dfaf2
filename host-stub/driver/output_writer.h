// A run's output. The program is written after the run, laid out by the structural check after the last
// pass; or, for a large program going to a regular file, *behind* that check: on a thread of its own the
// encoder follows the check's layout walk as it goes (ir::Layout::await) while the check and the verifiers
// run, and the file is named only once the run has passed. A failed run withdraws it unnamed, so nothing is
// written either way. The check's walks and the encoding overlap, and so do the disk's writes and the check
// (the README's measurements say how much that gains).
#pragma once

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <functional>

#include "base/step_times.h"
#include "driver/file_options.h"
#include "driver/file_report.h"
#include "ir/document.h"
#include "ir/placement.h"

namespace ptoplug::host {

/// Writes `doc` to `output` (see io::writeOutput) in the options' format; an error report on failure.
/// `layout`: `doc`'s own, if made already or being made (see ir::writeDocument). `beforeNaming`, if given,
/// is called once the program is encoded, before the file is named: an error it returns withdraws the file.
FileReport writeProgram(const ir::Document& doc, const std::string& output, const FileOptions& options,
                        StepTimes* steps = nullptr, const ir::Layout* layout = nullptr,
                        const std::function<Status()>& beforeNaming = {});

class OutputWriter {
public:
    /// `doc`, `output` and `options` must outlive the writer.
    OutputWriter(const ir::Document& doc, const std::string& output, const FileOptions& options);
    /// A writer never finished withdraws its output and waits for its thread.
    ~OutputWriter();
    OutputWriter(const OutputWriter&) = delete;
    OutputWriter& operator=(const OutputWriter&) = delete;

    /// The structural check after the last pass (ir::checkStructure; `doc` is the writer's document), which
    /// lays the program out for writing on its way; writing may begin here.
    Status checkLastPass(ir::Document& doc);

    /// The run's verdict. `passed`: writes the program (or ends the write under way) and names the file; the
    /// write's report, with its steps in `steps` (may be null). Otherwise withdraws the output and returns
    /// an empty report. Rethrows what the writing thread threw (out of memory).
    FileReport finish(bool passed, StepTimes* steps);

private:
    void writeBehind();
    void markEncoded();
    void decide(bool passed);
    Status awaitVerdict();

    const ir::Document& doc_;
    const std::string& output_;
    const FileOptions& options_;
    std::optional<ir::Layout> layout_;
    std::thread thread_;

    std::mutex mutex_;
    std::condition_variable changed_;
    bool encoded_ = false;  ///< the thread has written everything (or failed), and waits for the verdict
    bool decided_ = false;
    bool passed_ = false;
    FileReport report_;  ///< the thread's
    StepTimes steps_;    ///< the thread's
    std::exception_ptr thrown_;
};

}  // namespace ptoplug::host
