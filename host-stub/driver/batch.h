// Programs through the pipeline in worker processes: `run` is a batch of one. A worker that crashes,
// exits, hangs or runs out of memory fails its file with a message naming the plugin and the pass or
// verifier (driver/progress.h); every other file still completes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "driver/process_file.h"

namespace ptoplug::host {

struct BatchItem {
    std::string input;
    std::string output;
    std::string problem;   ///< set when listing the inputs found this entry unusable: reported, not run
    std::string relative;  ///< the input's path below the folder or glob base it was found in (its name, alone)
};

/// Files, directories (recursively, following linked folders once; outputs keep the relative path)
/// and globs, mapped into `outDir` under their own names; an input list that matches no file is an error. Paths are
/// computed from the inputs as given, never from a link's target. An unusable entry inside a tree (a loop, an
/// unreadable folder, a dangling link, a FIFO) becomes an item with a `problem`; a missing top-level input, two inputs
/// with one output, or an output that is an input are errors. Which files found in folders and globs are inputs (files
/// named on the command line always are): those whose path below their folder matches an `include` pattern (default:
/// *.json, *.msgpack) and no `exclude` pattern (fnmatch; `*` matches across folders).
struct InputFilter {
    std::vector<std::string> include;
    std::vector<std::string> exclude;
    bool admits(const std::string& relative) const;
};

Expected<std::vector<BatchItem>> expandBatchInputs(const std::vector<std::string>& inputs, const std::string& outDir,
                                                   const InputFilter& filter = {});

/// Fails unless `allowInPlace` when an output would be written to a path that is, or resolves to, one
/// of the inputs, or `outDir` is or lies inside an input folder (the pass is not idempotent).
Status checkOutputsSpareInputs(const std::vector<std::string>& inputs, const std::string& outDir,
                               const std::vector<BatchItem>& items, bool allowInPlace);

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
    std::string reportPath;                          ///< "" = none; else one JSON line per file (batch.md)
};

/// The share `shard` (1-based) of `shards` of `items`: stable and disjoint, chosen by a hash of each
/// input's relative path, so that N machines given the same corpus (wherever it is mounted) split it
/// without coordination.
std::vector<BatchItem> shardOf(std::vector<BatchItem> items, uint32_t shard, uint32_t shards);

/// Processes every item, printing each file's messages as it finishes (and a progress line when
/// stderr is a terminal). Returns 0 if every file succeeded, else the highest exit code of the failed
/// files; 130/143 when interrupted by SIGINT/SIGTERM (workers stopped, no partial output left).
int runBatch(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
             const IsolationOptions& isolation);

/// Loads the plugins of `manifests` and builds the pipeline, first in a child process, so that a
/// plugin that crashes, exits or hangs in its constructors or entry point is reported as a plugin
/// problem naming its manifest, never a dead host.
Expected<std::unique_ptr<Pipeline>> loadPipelineIsolated(const std::vector<std::string>& manifests,
                                                         double timeoutSeconds);

}  // namespace ptoplug::host
