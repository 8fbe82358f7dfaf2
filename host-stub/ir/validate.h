// Second phase of reading: resolve every {"ref": id} to its node, check each known node's fields
// against the schema, and reject reference cycles and over-deep node chains (ir/graph.h); the same rules
// over a document a pass changed, and over one node a rewrite builds.
#pragma once

#include "base/error.h"
#include "ir/document.h"
#include "ir/origins.h"
#include "ir/placement.h"

namespace ptoplug::ir {

/// On error the Error names the place (pointer, and byte offset when the input gave one).
Status resolveAndValidate(Document& doc, const NodeOrigins& origins);

/// The same rules over a document in memory (after a pass): every node reachable from the root holds
/// fields of the kinds and node classes the format allows, and there is no cycle. The error names the
/// place by JSON Pointer along the path from the root. With `layout` (made for `doc`, unset), the document
/// is also laid out for writing (placement.h), and the layout finished, failed where the check fails: a
/// large document's graph is checked by that very walk, beside the node checks on the other thread, and a
/// writer may follow the layout on a third thread meanwhile (driver/output_writer.h).
Status checkStructure(Document& doc, Layout* layout = nullptr);

/// The reader's rules for one node's own fields (kinds, required fields, node classes, direction
/// counts), not following its children: what a rewrite that builds or edits one node must keep. The
/// error names the field ("Call.args[2]"); its pointer is relative to the node.
Status checkNodeShape(Document& doc, Node* node);

}  // namespace ptoplug::ir
