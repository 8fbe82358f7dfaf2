// One line of a --report file (JSON Lines, README): what happened to one input.
#pragma once

#include <string>

#include "driver/file_report.h"
#include "driver/inputs.h"

namespace ptoplug::host {

/// The line for `item`: its status ("ok", "failed", "skipped", "crashed", "timed-out"), exit code, the
/// diagnostics counted in `counts` (none if null), seconds, the hash of the input's bytes as read ("" =
/// null) and, if `outputWritten`, of its output.
std::string reportLine(const BatchItem& item, const char* status, int exitCode, const FileReport* counts,
                       double seconds, bool outputWritten, const std::string& inputSha256);

}  // namespace ptoplug::host
