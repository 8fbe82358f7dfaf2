// Which thread a worker's fatal signal hit. The output writer runs on a thread of its own beside the
// structural check and the verifiers (driver/output_writer.h), so the phase a worker was in cannot by
// itself say whose crash it was: the host's writer's, or the plugin's whose verifier was running.
#pragma once

#include "driver/progress.h"

namespace ptoplug::host {

/// For the rest of this worker process: a fatal signal (SIGSEGV, SIGILL, SIGFPE, SIGABRT) that hits the
/// thread a WriterThread marks sets `progress.writerCrashed`, and every one of them then ends the process
/// as it would have without the handler (same signal, same core). A signal that already has a handler (a
/// sanitizer's, a plugin library's) is left to it: then only the phase tells. Call it in the worker, once,
/// before a file is processed. Not for the host's own process: the API's users own their signals.
void noteFatalSignalsOfTheWriter(WorkerProgress& progress);

/// Marks the calling thread as the output writer's while it lives, and names it "pto-writer" (in
/// debuggers, `top -H`, /proc/<pid>/task/*/comm). One at a time per process. Thread-safe.
class WriterThread {
public:
    WriterThread();
    ~WriterThread();
    WriterThread(const WriterThread&) = delete;
    WriterThread& operator=(const WriterThread&) = delete;
};

}  // namespace ptoplug::host
