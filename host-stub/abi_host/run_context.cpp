// A run of one pass or verifier: the run context's life and the outcome the host keeps.
#include <atomic>

#include "abi_host/run_context.h"

#include "abi_host/handles.h"
#include "base/allocator.h"
#include "base/process_state.h"

pto_run_context::pto_run_context(ptoplug::ir::Document& document) : doc(document) {
    static std::atomic<uint64_t> next{1};
    token = next.fetch_add(1);
}

pto_run_context::~pto_run_context() { magic = 0; }

namespace ptoplug::host {

std::string statusName(pto_status status) {
    switch (status) {
        case PTO_OK: return "PTO_OK";
        case PTO_ERR_INVALID_HANDLE: return "PTO_ERR_INVALID_HANDLE";
        case PTO_ERR_OUT_OF_RANGE: return "PTO_ERR_OUT_OF_RANGE";
        case PTO_ERR_WRONG_KIND: return "PTO_ERR_WRONG_KIND";
        case PTO_ERR_NOT_FOUND: return "PTO_ERR_NOT_FOUND";
        case PTO_ERR_INVALID_ARGUMENT: return "PTO_ERR_INVALID_ARGUMENT";
        case PTO_ERR_UNSUPPORTED: return "PTO_ERR_UNSUPPORTED";
        case PTO_ERR_USER: return "PTO_ERR_USER";
        case PTO_ERR_INTERNAL: return "PTO_ERR_INTERNAL";
        case PTO_STATUS_MAX_ENUM: break;
    }
    return "status " + std::to_string(static_cast<int>(status));
}

bool isKnownStatus(pto_status status) { return statusName(status).rfind("PTO_", 0) == 0; }

bool RunOutcome::failed() const {
    if (status != PTO_OK || !lostProcessState.empty()) return true;
    for (const Diagnostic& d : diagnostics)
        if (d.severity >= PTO_SEVERITY_ERROR) return true;
    return false;
}

RunOutcome runThroughAbi(ir::Document& doc, pto_status (*fn)(const pto_host_api*, pto_run_context*),
                         const RunSettings& settings) {
    RunOutcome outcome;
    {
        pto_run_context ctx(doc);
        ctx.settings = settings;
        ProcessStateGuard keep;
        outcome.status = fn(&hostApi(), &ctx);
        outcome.lostProcessState = keep.restore();
        table::applyEdits(&ctx);
        outcome.diagnostics = std::move(ctx.diagnostics);
        if (outcome.status == PTO_OK && ctx.hasErrors) outcome.status = PTO_ERR_USER;
    }
    // What the plugin and this run's tables freed would stay resident beside the pages the host's next
    // phase touches (the check, the write): on the 10,000-function program 3.5 MiB, 1.3 of it at the peak.
    returnFreedHeapPages();
    return outcome;
}

}  // namespace ptoplug::host
