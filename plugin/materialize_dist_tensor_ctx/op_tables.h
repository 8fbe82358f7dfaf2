// Builtin ops whose result carries the communication context of one of its arguments (docs/pass.md
// §4.1). These are pypto's op-registry facts at the spec's commit; a newer pypto may add ops: extend
// the two tables in op_tables.cpp, nothing else.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace ptoplug::mdtc {

/// The argument whose context a call of builtin op `opName` with `argCount` args inherits, if any:
/// a writeback op's reused input (when it exists), else arg 0 of a buffer-aliasing view op.
std::optional<size_t> ctxInheritingArgIndex(std::string_view opName, size_t argCount);

}  // namespace ptoplug::mdtc
