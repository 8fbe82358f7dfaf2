// The running pass's options, resolved by the pipeline (declared defaults, then the manifest, then
// --pass-option) before any program was read.
#include "abi_host/entries.h"
#include "abi_host/handles.h"

namespace ptoplug::host::table {

pto_status passOption(pto_run_context* ctx, pto_string name, pto_value* out) {
    PTO_REQUIRE(out && (name.data || !name.size), PTO_ERR_INVALID_HANDLE);
    if (ctx->settings.options)
        for (const PassOption& o : *ctx->settings.options) {
            if (o.name != view(name)) continue;
            switch (o.value.type) {
                case PTO_OPTION_BOOL: *out = madeValue(ctx, Value::boolean(o.value.b)); break;
                case PTO_OPTION_INT: *out = madeValue(ctx, Value::integer(o.value.i)); break;
                case PTO_OPTION_FLOAT: *out = madeValue(ctx, Value::f64(o.value.d)); break;
                default: *out = madeValue(ctx, Value::str(o.value.s)); break;  // lives as long as the run
            }
            return PTO_OK;
        }
    return fail(ctx, PTO_ERR_NOT_FOUND,
                "the running pass declares no option '" + std::string(view(name)) +
                    "' (options are declared in pto_pass_desc.options; verifiers have none)");
}

}  // namespace ptoplug::host::table
