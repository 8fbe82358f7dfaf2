// Second phase of reading: resolve every {"ref": id} to its node, check each known node's fields
// against the schema, and reject reference cycles and over-deep node chains.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "base/error.h"
#include "ir/document.h"
#include "ir/placement.h"

namespace ptoplug::ir {

/// What the reader knows of each node's place in the input; kept beside the document while reading, not
/// in every node, since only error messages need it.
struct NodeOrigins {
    std::function<Node*(uint64_t)> byId;        ///< the node an input id names, or nullptr
    std::function<uint64_t(const Node&)> idOf;  ///< the input id of a node read from the input
    LargeVector<uint32_t> offsets;              ///< byte offset per Node::index, or kUnknownOffset
    /// Every {"ref": id} the reader stored (Kind::RefId), so that a large input's references are resolved
    /// without a walk. May name slots outside the tree (the ignored members of a reference map).
    LargeVector<Value*> refSlots;
};

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
