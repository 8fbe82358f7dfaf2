// Crash reproducers, in the manner of MLIR's: when plugin code crashes or hangs on a file, its input, the
// resolved pipeline, copies of the manifests and what happened are saved in a folder, with a replay.sh.
// The replay is not yet exactly the run: it loads the plugins through the original manifests (not the
// saved copies) and gives neither the run's pass options nor its --verify properties nor its output format.
#pragma once

#include <optional>
#include <string>

#include "pipeline/pipeline.h"

namespace ptoplug::host {

/// Writes, in a new folder under `parentDir` (the system's temporary folder if empty): the input as
/// `input.<ext>`, `pipeline.txt` (the resolved pipeline), copies of the manifests, `what.txt` (what
/// happened) and `replay.sh`. Returns the folder, or nullopt if it could not be written.
std::optional<std::string> writeCrashReproducer(const Pipeline& pipeline, const std::string& input,
                                                const std::string& parentDir, const std::string& what);

}  // namespace ptoplug::host
