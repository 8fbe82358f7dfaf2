#include "ir/enum_names.h"

#include <iterator>

namespace ptoplug::ir {

const char* dtypeName(uint64_t code) {
    switch (code) {
        case 0: return "BOOL";
        case 16: return "INT4";
        case 17: return "INT8";
        case 18: return "INT16";
        case 19: return "INT32";
        case 20: return "INT64";
        case 21: return "INDEX";
        case 32: return "UINT4";
        case 33: return "UINT8";
        case 34: return "UINT16";
        case 35: return "UINT32";
        case 36: return "UINT64";
        case 48: return "FP4";
        case 49: return "FP8E4M3FN";
        case 50: return "FP8E5M2";
        case 51: return "FP16";
        case 52: return "FP32";
        case 53: return "FP64";
        case 54: return "FP8E8M0";
        case 64: return "BF16";
        case 65: return "HF4";
        case 66: return "HF8";
        case 80: return "TASK_ID";
        default: return nullptr;
    }
}

const char* functionTypeName(uint64_t code) {
    static const char* const names[] = {"Opaque", "Orchestration", "InCore", "AIC",  "AIV",
                                        "Group",  "Spmd",          "Inline", "Graph"};
    return code < std::size(names) ? names[code] : nullptr;
}

const char* levelName(uint64_t code) {
    static const char* const names[] = {"AIV",  "AIC",       "CORE_GROUP", "CHIP_DIE",  "CHIP",
                                        "HOST", "CLUSTER_0", "CLUSTER_1",  "CLUSTER_2", "GLOBAL"};
    if (code == 255) return "UNDEFINED";
    return code < std::size(names) ? names[code] : nullptr;
}

const char* argDirectionName(uint64_t code) {
    static const char* const names[] = {"input", "output", "inout", "output_existing", "no_dep", "scalar"};
    return code < std::size(names) ? names[code] : nullptr;
}

}  // namespace ptoplug::ir
