// The host side of a pass or verifier run: the state behind the opaque pto_run_context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/document.h"
#include "ir/rewrite.h"
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
};

}  // namespace ptoplug::host

/// One run of one pass or verifier over one document. Single-threaded; many may exist at once.
struct pto_run_context {
    explicit pto_run_context(ptoplug::ir::Document& document);

    uint64_t token;  ///< stamped into every handle this context gives out
    ptoplug::ir::Document& doc;
    std::vector<ptoplug::ir::Value*> values;  ///< pto_value handles: index + 1
    ptoplug::ir::PendingInserts inserts;
    ptoplug::ir::Value lastOp;  ///< the op map create_op_call made last: calls of one op share it
    std::vector<ptoplug::host::Diagnostic> diagnostics;
    bool hasErrors = false;
};

namespace ptoplug::host {

/// The host function table (ABI 1.0), immutable, shared by every run.
const pto_host_api& hostApi();

/// The outcome of running one pass or verifier through the ABI.
struct RunOutcome {
    pto_status status = PTO_OK;
    std::vector<Diagnostic> diagnostics;
    /// True if the run failed: an error status or an error diagnostic.
    bool failed() const;
};

/// "PTO_ERR_USER", ...; "status N" for a value that is not a pto_status.
std::string statusName(pto_status status);
/// True if `status` is one of the pto_status values this host knows.
bool isKnownStatus(pto_status status);

/// Runs `fn` (a pass or verifier run function) over `doc` and applies its pending insertions.
RunOutcome runThroughAbi(ir::Document& doc, pto_status (*fn)(const pto_host_api*, pto_run_context*));

}  // namespace ptoplug::host
