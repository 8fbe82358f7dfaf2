// An example plugin built out of tree: one note per function with DistributedTensor parameters, naming
// them. It reads the IR through <ptoplug/sdk.hpp>, the C++ plugin SDK over the ABI, and changes
// nothing.
#include <ptoplug/sdk.hpp>

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

constexpr char kPass[] = "ListDistFunctions";
constexpr const char* kRequired[] = {"SSAForm"};
constexpr ptoplug::plugin::Plugin kPlugin({.name = "list-dist-functions", .version = "1.0.0", .abiMinorMin = 0},
                                          {{.name = kPass,
                                            .description = "notes the functions that take DistributedTensors",
                                            .run = ptoplug::plugin::guardedRun<kPass, listDistFunctions>,
                                            .required = kRequired}});

}  // namespace

PTOPLUG_PLUGIN_ENTRY(kPlugin)
