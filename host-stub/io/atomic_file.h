// Output files are written atomically: into a temporary file beside the target, renamed over it
// only when complete. A failure leaves neither a partial output nor a temporary file behind.
#pragma once

#include <functional>
#include <string>

#include "ir/error.h"
#include "ir/sink.h"

namespace ptoplug::io {

/// Calls `produce` with a sink into a temporary file, then renames it to `path`. `path` "-" writes
/// to standard output directly. Returns the first error (from `produce` or the file system).
ir::Status writeFileAtomically(const std::string& path, const std::function<ir::Status(ir::Sink&)>& produce);

}  // namespace ptoplug::io
