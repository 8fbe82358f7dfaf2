// Large realistic pypto programs for benchmarks, shaped like pypto's own output for host dispatch
// (the host_dispatch fixture): N chip-orchestration functions each taking two DistributedTensors, and
// one host orchestration that allocates two windows per chip function inside a CommDomainScopeStmt
// and calls every chip function inside a `for` over the world size.
#pragma once

#include "ir/document.h"

namespace ptoplug::tools {

/// Fills `doc` with the program of N chip functions; with `sameWindow`, one chip function called N
/// times with the same two windows (the name-synthesis stress case).
void generateProgram(ir::Document& doc, int n, bool sameWindow);

}  // namespace ptoplug::tools
