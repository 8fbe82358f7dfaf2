// Diagnostics a pass or verifier emits (severity, rule, message, the node's span), and last_error: why the
// run's most recent failing call failed.
#include "abi_host/entries.h"
#include "abi_host/handles.h"

namespace ptoplug::host::table {

pto_status emitDiagnostic(pto_run_context* ctx, const pto_diagnostic* d) {
    PTO_REQUIRE(ctx && d, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(d->struct_size >= sizeof(pto_diagnostic), PTO_ERR_INVALID_ARGUMENT);
    PTO_REQUIRE(d->severity >= PTO_SEVERITY_NOTE && d->severity <= PTO_SEVERITY_INTERNAL_ERROR,
                PTO_ERR_INVALID_ARGUMENT);
    PTO_REQUIRE((d->rule.data || !d->rule.size) && (d->message.data || !d->message.size), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(pto_node_is_null(d->node) || toNode(ctx, d->node), PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        Diagnostic diag;
        diag.severity = d->severity;
        diag.rule.assign(view(d->rule));
        diag.message.assign(view(d->message));
        if (!pto_node_is_null(d->node)) {
            pto_span s{};
            if (pto_status read = nodeSpan(ctx, d->node, &s); read != PTO_OK) return read;  // never a made-up place
            diag.file.assign(view(s.filename));
            diag.line = s.begin_line;
            diag.column = s.begin_column;
            diag.endLine = s.end_line;
            diag.endColumn = s.end_column;
        }
        if (d->severity >= PTO_SEVERITY_ERROR) ctx->hasErrors = true;
        ctx->diagnostics.push_back(std::move(diag));
        return PTO_OK;
    });
}

pto_status lastError(pto_run_context* ctx, pto_string* out) {
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    *out = str(ctx->lastError);
    return PTO_OK;
}

}  // namespace ptoplug::host::table
