// Running one pass or verifier through the ABI over a document: the host table it is given, and what the
// host keeps of the run (its status, diagnostics, and the process state it could not put back).
#pragma once

#include <string>
#include <vector>

#include "abi_host/diagnostic.h"
#include "abi_host/run_settings.h"
#include "abi_host/status.h"
#include "ir/document.h"
#include "ptoplug/abi.h"

namespace ptoplug::host {

/// The host function table (ABI 1.1), immutable, shared by every run (abi_host/table.cpp).
const pto_host_api& hostApi();

/// The outcome of running one pass or verifier through the ABI.
struct RunOutcome {
    pto_status status = PTO_OK;
    std::vector<Diagnostic> diagnostics;
    /// What of the process's state the plugin changed and the host could not put back (ProcessStateGuard):
    /// a limit lowered for good, which would fail the host later as if the user's limits were too low, or
    /// a descriptor of the host's closed.
    std::string lostProcessState;
    /// An option check's refusal (refuse_option), if it refused.
    OptionRefusal refusal;
    /// True if the run failed: an error status, an error diagnostic or a lost process state.
    bool failed() const;
};

/// Runs `fn` (a pass or verifier run function) over `doc` and applies its pending insertions.
RunOutcome runThroughAbi(ir::Document& doc, pto_status (*fn)(const pto_host_api*, pto_run_context*),
                         const RunSettings& settings = {});

/// Runs a pass's check of its option values (pto_option_check_fn) on `options`, with no program.
RunOutcome runOptionCheck(pto_option_check_fn check, const std::vector<PassOption>& options);

}  // namespace ptoplug::host
