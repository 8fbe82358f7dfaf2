// Crash reproducers, in the manner of MLIR's: when plugin code crashes or hangs on a file, everything
// needed to replay that one run is saved in a folder, with the one command line that replays it.
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
