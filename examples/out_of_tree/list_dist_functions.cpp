// An example plugin built out of tree: one note per function with DistributedTensor parameters, naming
// them. It reads the IR through <ptoplug/sdk.hpp>, the C++ plugin SDK over the ABI, and changes
// nothing.
#include <ptoplug/sdk.hpp>

#include <iterator>
#include <string>

namespace {

using ptoplug::plugin::Host;

void listDistFunctions(const Host& h) {
    for (size_t i = 0; i < h.functionCount(); ++i) {
        pto_node fn = h.functionAt(i);
        std::string names;
        for (pto_node param : h.children(fn, PTO_FIELD_PARAMS))
            if (h.typeKind(param) == PTO_TYPE_DISTRIBUTED_TENSOR)
                names += (names.empty() ? "" : ", ") + std::string(h.name(param));
        if (!names.empty())
            h.emit(PTO_SEVERITY_NOTE, "ListDistFunctions.found",
                   "function '" + std::string(h.name(fn)) + "' has DistributedTensor parameters: " + names, fn);
    }
}

pto_status run(const pto_host_api* api, pto_run_context* ctx) {
    return ptoplug::plugin::runGuarded(api, ctx, "ListDistFunctions", listDistFunctions);
}

const char* const kRequired[] = {"SSAForm"};
const pto_pass_desc kPass = {.struct_size = sizeof(pto_pass_desc),
                             .name = "ListDistFunctions",
                             .description = "notes the functions that take DistributedTensors",
                             .required_properties = kRequired,
                             .required_count = std::size(kRequired),
                             .produced_properties = nullptr,
                             .produced_count = 0,
                             .invalidated_properties = nullptr,
                             .invalidated_count = 0,
                             .run = run};
const pto_pass_desc* const kPasses[] = {&kPass};
const pto_plugin_desc kPlugin = {.struct_size = sizeof(pto_plugin_desc),
                                 .abi_major = PTO_ABI_MAJOR,
                                 .abi_minor_min = 0,
                                 .abi_minor_max = PTO_ABI_MINOR,
                                 .name = "list-dist-functions",
                                 .version = "1.0.0",
                                 .passes = kPasses,
                                 .pass_count = std::size(kPasses),
                                 .verifiers = nullptr,
                                 .verifier_count = 0};

}  // namespace

extern "C" PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t, uint32_t) { return &kPlugin; }
