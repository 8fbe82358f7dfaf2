// The pass's diagnostic rules (docs/diagnostics.md): pypto's short codes, kept where the code cites the
// spec (E1 ... I5), and the readable rule ids tools match.
#pragma once

namespace ptoplug::mdtc {

/// "MaterializeDistTensorCtx/unresolved-context" for "E4", and so on; the code itself if unknown.
const char* ruleId(const char* shortCode);

}  // namespace ptoplug::mdtc
