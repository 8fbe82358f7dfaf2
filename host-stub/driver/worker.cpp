#include "driver/worker.h"

#include <new>

#include "base/huge_code.h"
#include "base/process_state.h"
#include "driver/channel.h"
#include "driver/fatal_signals.h"
#include "driver/report_line.h"
#include "driver/worker_failure.h"
#include "io/subprocess.h"
#include "ir/shared_tables.h"

namespace ptoplug::host {
namespace {

WorkerProgress* gWorkerProgress = nullptr;

// An allocation failed: flag it for the parent (a memory limit is the likely cause), then fail as usual.
void onOutOfMemory() {
    if (gWorkerProgress) gWorkerProgress->outOfMemory.store(1);
    std::set_new_handler(nullptr);
    throw std::bad_alloc();
}

// One file: its run and its answer. 0 once answered; kExitInternal if the channel is gone.
// `unloaded`: why the plugins could not be loaded in this worker (the file then fails with it, exit 4).
int runFile(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
            const IsolationOptions& isolation, WorkerProgress& progress, uint32_t index, int out,
            const Status& unloaded) {
    const uint64_t memoryLimitMiB = isolation.memoryLimitMiB;
    const BatchItem& item = items[index];
    std::set_new_handler(onOutOfMemory);
    FileReport report;
    try {
        if (unloaded) {
            report.exitCode = kExitPlugin;
            report.messages = formatError(*unloaded, options.diagnostics);
        } else {
            report = processFile(pipeline, item.input, item.output, options, &progress);
        }
    } catch (const std::exception& e) {
        const bool oom = progress.outOfMemory.load() != 0;
        std::string what = !oom                 ? "uncaught exception: " + std::string(e.what())
                           : memoryLimitMiB > 0 ? memoryLimitExceeded(memoryLimitMiB)
                                                : std::string("ran out of memory");
        const Phase phase = progress.currentPhase();
        report.exitCode = kExitInternal;
        const std::string hint = oom && memoryLimitMiB > 0 ? "raise --memory-limit, or run without it"
                                 : runsPluginCode(phase)   ? "report this to the plugin's authors"
                                                           : "report this as a bug in pto-host";
        report.messages += formatError(
            fileError(item.input,
                      what + " " + describeWhere(pipeline, options, phase, progress.stage, progress.property) +
                          "; no output was written",
                      hint),
            options.diagnostics);
    }
    // Where the run ended, should the report not reach the parent.
    const Phase endPhase = progress.currentPhase();
    const int32_t endStage = progress.stage, endProperty = progress.property;
    progress.enter(Phase::Idle);
    std::string line;
    if (!isolation.reportPath.empty()) {
        bool ok = report.exitCode == kExitOk;
        line = reportLine(item, ok ? "ok" : "failed", report.exitCode, &report,
                          secondsSince(progress.itemStartNs.load()), ok && item.output != "-", report.inputSha256);
    }
    if (!sendAnswer(out, Answer{index, report.exitCode, std::move(report.messages), std::move(line)})) {
        // Plugin code closed the channel (its pass failed for it, nothing was written): the parent
        // learns it here, with the phase of that pass.
        progress.enter(endPhase, endStage, endProperty);
        progress.channelLost.store(1);
        return kExitInternal;
    }
    return 0;
}

}  // namespace

int workerMain(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
               const IsolationOptions& isolation, WorkerProgress& progress, int in, int out) {
    gWorkerProgress = &progress;
    noteFatalSignalsOfTheWriter(progress);
    watchHostDescriptor(in);
    watchHostDescriptor(out);
    // This process is a copy of pto-host's, whose pipeline knows the plugins only by their descriptions:
    // their code is loaded here, in the worker (pto-host itself runs no plugin code). A forked copy, so
    // that the pipeline may change here.
    progress.itemStartNs.store(nowNs());  // --timeout bounds loading too
    progress.enter(Phase::Load);
    const Status unloaded = loadPluginCode(const_cast<Pipeline&>(pipeline));
    progress.enter(Phase::Idle);
    ir::prepareSharedTables();  // once here, not once in each file's process
    FileOptions fileOptions = options;
    fileOptions.processEndsAfterFile = isolation.processPerFile;
    uint32_t index = 0;
    size_t filesRun = 0;
    while (receiveItem(in, index) && index < items.size()) {
        progress.item.store(index);
        progress.itemStartNs.store(nowNs());
        progress.noteInputSha256("");
        auto run = [&] { return runFile(pipeline, items, fileOptions, isolation, progress, index, out, unloaded); };
        if (isolation.processPerFile) {
            // One file, one process: forked from this one, which holds the loaded plugins and runs no plugin
            // code itself, so every file starts from the same state. What it started ends with it (it and
            // this process are subreapers: even what moved to a new session is found).
            // From the second file on, this worker is a zygote: its code goes on huge pages, so that each
            // file's process reaches it without a first touch per 4 KiB (a worker with one file never pays).
            // Not beside a thread plugin code left while loading (it could map into a block's gaps meanwhile),
            // nor under --memory-limit (the copies take address space).
            if (++filesRun == 2 && isolation.hugeCode && !unloaded && !processStateLost() &&
                isolation.memoryLimitMiB == 0)
                placeCodeOnHugePages();
            // The file on a fresh thread, except under --memory-limit: the thread's malloc arena reserves
            // 64 MiB of address space, which the limit counts (and glibc's aligned reservation may or may not
            // fit beside the others: the limit would fall at a different place from run to run).
            const io::ChildEnd end = io::runForked([&] {
                if (isolation.memoryLimitMiB == 0) io::exitOnFreshThread(run);
                return run();
            });
            io::endDescendants();
            // It answered, or this process ends as it did, so that pto-host reads the same end.
            if (!end.exitedWith(0) || progress.currentPhase() != Phase::Idle) io::endAs(end);
            continue;
        }
        if (int code = run(); code != 0) return code;
        if (processStateLost()) {
            // Plugin code left threads, timers, children or another session (that file failed for it):
            // none of it may reach the next file. End with everything this worker started.
            io::endDescendants();
            progress.retired.store(1);
            return kExitWorkerRetired;
        }
    }
    return 0;
}

}  // namespace ptoplug::host
