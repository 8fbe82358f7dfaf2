// Programs through the pipeline in worker processes: `run` is a batch of one. A worker that crashes,
// exits, hangs or runs out of memory fails its file with a message naming the plugin and the pass or
// verifier (driver/progress.h); every other file still completes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "driver/inputs.h"
#include "driver/process_file.h"

namespace ptoplug::host {

/// The CPUs this process may run on (sched_getaffinity), at least 1: the default number of workers.
int availableCpus();

/// The default per-file time limit of `run` and `batch`, in seconds.
inline constexpr double kDefaultTimeoutSeconds = 600;

struct IsolationOptions {
    int jobs = 1;
    double timeoutSeconds = kDefaultTimeoutSeconds;  ///< per file; 0 = none
    uint64_t memoryLimitMiB = 0;                     ///< per worker; 0 = none
    std::string crashReproducerDir;                  ///< "" = a new temporary folder, named in the message
    bool summary = true;                             ///< print the closing "N files, N ok" line
    std::string reportPath;                          ///< "" = none; else one JSON line per file (README)
    /// Each file in a process of its own, forked from its worker (driver/worker.h); otherwise (--reuse-workers)
    /// a worker runs file after file, and is replaced when plugin code left something behind in it.
    bool processPerFile = true;
    /// With a process per file and no --memory-limit: a worker copies whole 2 MiB blocks of code and
    /// constants onto huge pages before its second file (base/huge_code.h); off with --no-huge-code, for
    /// profilers that name code by its file.
    bool hugeCode = true;
};

/// Processes every item, printing each file's messages as it finishes (and a progress line when
/// stderr is a terminal). Returns 0 if every file succeeded, else the highest exit code of the failed
/// files; 130/143 when interrupted by SIGINT/SIGTERM (workers stopped, no partial output left).
int runBatch(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
             const IsolationOptions& isolation);

}  // namespace ptoplug::host
