// What the reader knows of each node's place in the input (its id, its byte offset, where references
// stand), kept beside the document while reading for error messages, not in every node.
#pragma once

#include <cstdint>
#include <functional>

#include "ir/document.h"

namespace ptoplug::ir {

/// An input offset that is not known (MessagePack gives none; a container past 4 GiB).
inline constexpr uint32_t kUnknownOffset = UINT32_MAX;

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

}  // namespace ptoplug::ir
