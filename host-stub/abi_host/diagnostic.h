// A diagnostic as the host keeps it: what a pass or verifier emitted (emit_diagnostic), or what the host
// says of a run, with its place resolved.
#pragma once

#include <cstdint>
#include <string>

#include "ptoplug/abi.h"

namespace ptoplug::host {

/// A diagnostic as the host keeps it (strings copied, span resolved).
struct Diagnostic {
    pto_severity severity = PTO_SEVERITY_ERROR;
    std::string rule;
    std::string message;
    std::string file;  ///< span filename ("" if unknown)
    int64_t line = -1;
    int64_t column = -1;
    int64_t endLine = -1;
    int64_t endColumn = -1;
    std::string pass;    ///< the pass or verifier (property) that reported it, once the host knows
    std::string plugin;  ///< that pass's plugin
};

}  // namespace ptoplug::host
