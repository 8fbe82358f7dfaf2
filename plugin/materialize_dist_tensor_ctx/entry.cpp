// The plugin's descriptor and its one exported symbol.
#include "pass.h"
#include "ptoplug/abi.h"

namespace {

using ptoplug::plugin::Host;
using ptoplug::plugin::runGuarded;

constexpr const char* kPassName = "MaterializeDistTensorCtx";

pto_status runPass(const pto_host_api* api, pto_run_context* ctx) {
    return runGuarded(api, ctx, kPassName, [](const Host& h) { ptoplug::mdtc::materializeDistTensorCtx(h); });
}

pto_status runVerifier(const pto_host_api* api, pto_run_context* ctx) {
    return runGuarded(api, ctx, "DistTensorCtxMaterialized",
                      [](const Host& h) { ptoplug::mdtc::verifyDistTensorCtxMaterialized(h); });
}

const char* const kRequired[] = {"CommDomainScopesMaterialized", "ReturnParamsExplicit"};
const char* const kProduced[] = {"CommDomainScopesMaterialized", "DistTensorCtxMaterialized"};

const pto_pass_desc kPass = {
    sizeof(pto_pass_desc),
    kPassName,
    "Adds a CommCtx parameter per DistributedTensor parameter and passes contexts at every call",
    kRequired,
    2,
    kProduced,
    2,
    nullptr,
    0,
    runPass,
};

const pto_verifier_desc kVerifier = {
    sizeof(pto_verifier_desc),
    "DistTensorCtxMaterialized",
    "No pld.system.get_comm_ctx outside host orchestration",
    runVerifier,
};

const pto_pass_desc* const kPasses[] = {&kPass};
const pto_verifier_desc* const kVerifiers[] = {&kVerifier};

const pto_plugin_desc kPlugin = {
    sizeof(pto_plugin_desc),
    PTO_ABI_MAJOR,
    0,
    PTO_ABI_MINOR,
    "materialize-dist-tensor-ctx",
    "0.1.0",
    kPasses,
    1,
    kVerifiers,
    1,
};

}  // namespace

extern "C" PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t, uint32_t) { return &kPlugin; }
