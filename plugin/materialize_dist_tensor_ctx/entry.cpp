// The plugin's descriptor and its one exported symbol.
#include <iterator>

#include "consistency.h"
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

pto_status runConsistencyVerifier(const pto_host_api* api, pto_run_context* ctx) {
    return runGuarded(api, ctx, "DistTensorCtxConsistent",
                      [](const Host& h) { ptoplug::mdtc::verifyDistTensorCtxConsistent(h); });
}

const char* const kRequired[] = {"CommDomainScopesMaterialized", "ReturnParamsExplicit"};
const char* const kProduced[] = {"CommDomainScopesMaterialized", "DistTensorCtxMaterialized"};

const pto_pass_desc kPass = {
    .struct_size = sizeof(pto_pass_desc),
    .name = kPassName,
    .description = "Adds a CommCtx parameter per DistributedTensor parameter and passes contexts at every call",
    .required_properties = kRequired,
    .required_count = std::size(kRequired),
    .produced_properties = kProduced,
    .produced_count = std::size(kProduced),
    .invalidated_properties = nullptr,
    .invalidated_count = 0,
    .run = runPass,
    .options = nullptr,
    .option_count = 0,
};

const pto_verifier_desc kVerifier = {
    .struct_size = sizeof(pto_verifier_desc),
    .property = "DistTensorCtxMaterialized",
    .description = "No pld.system.get_comm_ctx outside host orchestration",
    .run = runVerifier,
};

// Not produced by any pass (pypto has no such property): run on request, --verify or `pto-host verify`.
const pto_verifier_desc kConsistency = {
    .struct_size = sizeof(pto_verifier_desc),
    .property = "DistTensorCtxConsistent",
    .description = "Every call passes, per DistributedTensor parameter, the context of the tensor it passes",
    .run = runConsistencyVerifier,
};

const pto_pass_desc* const kPasses[] = {&kPass};
const pto_verifier_desc* const kVerifiers[] = {&kVerifier, &kConsistency};

const pto_plugin_desc kPlugin = {
    .struct_size = sizeof(pto_plugin_desc),
    .abi_major = PTO_ABI_MAJOR,
    .abi_minor_min = 1,  // typed attribute and shape reads (ptoplug/sdk.hpp)
    .abi_minor_max = PTO_ABI_MINOR,
    .name = "materialize-dist-tensor-ctx",
    .version = "0.1.0",
    .passes = kPasses,
    .pass_count = std::size(kPasses),
    .verifiers = kVerifiers,
    .verifier_count = std::size(kVerifiers),
};

}  // namespace

extern "C" PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t, uint32_t) { return &kPlugin; }
