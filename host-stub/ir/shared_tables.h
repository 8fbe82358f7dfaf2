// The tables every read, check and write of a document uses (the schema, the known names' ids, ranks and
// encodings): built on first use, read-only after, one for the process.
#pragma once

namespace ptoplug::ir {

/// Builds them all now. A process that forks a process per file calls this first, so that each file's
/// process finds them built: building them there again cost every file its time and fresh pages.
void prepareSharedTables();

}  // namespace ptoplug::ir
