// Words for what happened to a worker's file: where the worker was (the pass or verifier and its plugin,
// or the host's own phase) and what ran out, for the messages of a file whose worker failed.
#pragma once

#include <cstdint>
#include <string>

#include "driver/file_options.h"
#include "driver/progress.h"
#include "pipeline/pipeline.h"

namespace ptoplug::host {

/// "in pass 'P' of plugin 'p' (lib.so)", "in the verifier of property 'X' of plugin ...", "while reading
/// the input", ...: where a worker at `phase` (with its stage and property indices) was.
std::string describeWhere(const Pipeline& pipeline, const FileOptions& options, Phase phase, int stageIndex,
                          int property);

/// Whether plugin code runs in `phase` (loading, a pass, a verifier): a failure there is the plugin's.
bool runsPluginCode(Phase phase);

/// "exceeded the memory limit of N MiB (--memory-limit)".
std::string memoryLimitExceeded(uint64_t limitMiB);

}  // namespace ptoplug::host
