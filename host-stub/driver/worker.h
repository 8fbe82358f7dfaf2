// A worker process's loop: it takes the index of a file from pto-host, runs that file through the pipeline
// (driver/process_file.h) and answers with its exit code and messages (driver/channel.h), until pto-host
// closes the channel. Where it is goes to shared memory (driver/progress.h), so that a worker that dies
// can still be reported on.
#pragma once

#include <vector>

#include "driver/batch.h"

namespace ptoplug::host {

/// A worker's exit code when it ends on purpose (WorkerProgress::retired): plugin code left what the host
/// cannot put back, so the worker takes no more files, and it has ended what it started.
inline constexpr int kExitWorkerRetired = 75;

/// Runs the worker's loop on channel ends `in` and `out`; returns its exit code.
int workerMain(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
               const IsolationOptions& isolation, WorkerProgress& progress, int in, int out);

}  // namespace ptoplug::host
