#include "driver/output_writer.h"

#include <system_error>

#include "driver/fatal_signals.h"
#include "io/output_file.h"
#include "ir/validate.h"
#include "ir/writer.h"

namespace ptoplug::host {

FileReport writeProgram(const ir::Document& doc, const std::string& output, const FileOptions& options,
                        StepTimes* steps, const ir::Layout* layout, const std::function<Status()>& beforeNaming) {
    FileReport report;
    ir::WriteOptions write{options.outputFormat, options.pretty};
    auto produce = [&](ir::Sink& sink) -> Status {
        Status written = ir::writeDocument(doc, write, sink, steps, layout);
        if (beforeNaming)
            if (Status held = beforeNaming()) return held;
        return written;
    };
    if (auto err = io::writeOutput(output, produce, steps, options.durability,
                                   beforeNaming ? io::Withdrawal::Required : io::Withdrawal::Optional)) {
        if (err->file.empty()) err->file = output;
        report.exitCode = kExitOutput;
        report.messages = formatError(*err, options.diagnostics);
    }
    return report;
}

OutputWriter::OutputWriter(const ir::Document& doc, const std::string& output, const FileOptions& options)
    : doc_(doc), output_(output), options_(options) {}

OutputWriter::~OutputWriter() {
    if (!thread_.joinable()) return;
    layout_->finish(false);  // a check that threw left it unfinished: the encoder must not wait for it
    decide(false);
    thread_.join();
}

Status OutputWriter::checkLastPass(ir::Document& doc) {
    layout_.emplace(doc.nodes().size());
    // Below this size a thread costs more than it saves; a stream (stdout, a pipe) takes bytes as they
    // come and could not be withdrawn.
    if (doc.nodes().size() >= ir::kParallelWalkNodes && io::canWithdraw(output_)) {
        try {
            thread_ = std::thread([this] { writeBehind(); });
        } catch (const std::system_error&) {  // no thread to be had: the write follows the run
        }
    }
    return ir::checkStructure(doc, &*layout_);
}

void OutputWriter::writeBehind() {
    WriterThread mark;  // a crash here is the host's, not the phase's (a verifier's plugin)
    try {
        report_ = writeProgram(doc_, output_, options_, &steps_, &*layout_, [this] {
            markEncoded();
            return awaitVerdict();
        });
    } catch (...) {
        thrown_ = std::current_exception();
    }
    markEncoded();  // also when the write failed before encoding, or threw
}

void OutputWriter::markEncoded() {
    {
        std::lock_guard lock(mutex_);
        encoded_ = true;
    }
    changed_.notify_all();
}

void OutputWriter::decide(bool passed) {
    {
        std::lock_guard lock(mutex_);
        decided_ = true;
        passed_ = passed;
    }
    changed_.notify_all();
}

Status OutputWriter::awaitVerdict() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return decided_; });
    if (passed_) return std::nullopt;
    Error withdrawn;
    withdrawn.message = "withdrawn: the run failed";
    return withdrawn;
}

FileReport OutputWriter::finish(bool passed, StepTimes* steps) {
    if (!thread_.joinable()) {
        if (!passed) return {};
        const ir::Layout* layout = layout_ && layout_->finished() && layout_->whole() ? &*layout_ : nullptr;
        return writeProgram(doc_, output_, options_, steps, layout);
    }
    if (!passed) layout_->finish(false);  // see ~OutputWriter
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return encoded_; });
    }
    lap(steps, "finish encoding (begun with the structural check)");
    decide(passed);
    thread_.join();
    if (thrown_) std::rethrow_exception(thrown_);
    if (!passed) return {};
    // The thread's last step is the naming (with --fsync, the sync too), which followed the verdict.
    if (!steps_.steps().empty()) lap(steps, steps_.steps().back().name);
    return std::move(report_);
}

}  // namespace ptoplug::host
