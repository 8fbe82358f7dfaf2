// Where each node goes when a document is written (docs/ir_format.md §11.4-11.5):
// * ids are fresh, assigned in pre-order following pypto's *emit* order, so ids equal pypto's own;
// * a node is written in full at its first occurrence in pypto's *read* order (so pypto's reader can
//   always resolve every later reference), and as {"ref": id} everywhere else; a node that occurs only
//   under fields pypto never reads goes in full at its first occurrence in emit order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/document.h"

namespace ptoplug::ir {

struct Layout {
    std::vector<uint32_t> ids;         ///< output id per Node::index (UINT32_MAX: unreachable node)
    std::vector<const Value*> fullAt;  ///< the occurrence written in full, per Node::index
};

/// The layout of `doc`; nullopt if nodes nest deeper than kMaxNodeDepth on the way (the walks recurse).
/// With `checkGraph`, for a document a pass changed, the one walk that makes it also rejects a node that
/// contains itself (checkStructure says where). Without it, there must be no cycle.
std::optional<Layout> computeLayout(const Document& doc, bool checkGraph = false);

/// The same layout by two walks, one per order, at once on two threads where a thread can be had: what
/// computeLayout does for a large document it need not check, and the plain form of the one walk (tests
/// compare the two).
std::optional<Layout> computeLayoutApart(const Document& doc);

/// Calls `f(const Member&)` for each field of `node` in pypto's emit order (or read order, skipping the
/// fields pypto never reads). Fields the schema does not list follow in key order.
template <class F>
void forEachFieldInOrder(const Node& node, bool readOrder, F&& f);

/// The same for an inline map held under key `parentKey` (type maps and tile views have their own order).
template <class F>
void forEachMemberInOrder(const Map& map, uint32_t parentKey, bool readOrder, F&& f);

}  // namespace ptoplug::ir

#include "ir/placement_inl.h"
