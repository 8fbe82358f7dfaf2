// Crash reproducers, in the manner of MLIR's: when plugin code crashes or hangs on a file, what ran is
// saved in a folder with a replay.sh that runs it again: the input, copies of every plugin's manifest
// and library (the replay loads the copies, so a rebuilt plugin does not change it), the pass options
// given on the command line or through an API, --verify/--no-verify, the output format and the limits.
#pragma once

#include <optional>
#include <string>

#include "driver/batch.h"
#include "driver/file_options.h"
#include "pipeline/pipeline.h"

namespace ptoplug::host {

/// Writes, in a new folder under `isolation.crashReproducerDir` (the system's temporary folder if empty):
/// the input as `input.<ext>`, `plugins/N/` (a manifest naming the copy of its library beside it),
/// `pipeline.txt` (the resolved pipeline), `what.txt` (what happened) and `replay.sh`. Returns the
/// folder, or nullopt if any of it could not be written.
std::optional<std::string> writeCrashReproducer(const Pipeline& pipeline, const FileOptions& options,
                                                const IsolationOptions& isolation, const std::string& input,
                                                const std::string& what);

}  // namespace ptoplug::host
