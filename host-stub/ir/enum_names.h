// The names pypto gives the codes of the format's enums (docs/ir_format.md §7), as its Python API spells them:
// what the printer and the context-flow graph show. nullptr for a code with no name.
#pragma once

#include <cstdint>

namespace ptoplug::ir {

const char* dtypeName(uint64_t code);         ///< "FP32", "INT64", ...
const char* functionTypeName(uint64_t code);  ///< "Opaque", "Orchestration", "InCore", ...
const char* levelName(uint64_t code);         ///< "HOST", "CHIP", ... ("UNDEFINED" for 255)
const char* argDirectionName(uint64_t code);  ///< "input", "output", ... "scalar"

}  // namespace ptoplug::ir
