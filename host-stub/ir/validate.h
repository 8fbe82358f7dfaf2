// Second phase of reading: resolve every {"ref": id} to its node, check each known node's fields
// against the schema, and reject reference cycles and over-deep node chains.
#pragma once

#include <cstdint>
#include <functional>

#include "base/error.h"
#include "ir/document.h"

namespace ptoplug::ir {

using IdLookup = std::function<Node*(uint64_t)>;

/// On error the Error names the place (pointer, and byte offset when the input gave one).
Status resolveAndValidate(Document& doc, const IdLookup& lookup);

/// The same rules over a document in memory (after a pass): every node reachable from the root holds
/// fields of the kinds and node classes the format allows, and there is no cycle. The error names the
/// place by JSON Pointer along the path from the root.
Status checkStructure(Document& doc);

/// The reader's rules for one node's own fields (kinds, required fields, node classes, direction
/// counts), not following its children: what a rewrite that builds or edits one node must keep. The
/// error names the field ("Call.args[2]"); its pointer is relative to the node.
Status checkNodeShape(Document& doc, Node* node);

}  // namespace ptoplug::ir
