#include "ir/graph.h"

#include <algorithm>

namespace ptoplug::ir {

std::string nodesNestedTooDeep() { return "nodes nested more than " + std::to_string(kMaxNodeDepth) + " deep"; }

GraphFault checkGraph(Document& doc, bool numberEdges) {
    const std::vector<Node*>& nodes = doc.nodes();
    std::vector<uint32_t> height(nodes.size(), 0);
    DepthFirst walk(nodes.size());
    GraphFault fault;
    auto enter = [](Node&) { return true; };
    auto follow = [&](Value& edge) {
        if (numberEdges) edge.aux = edge.n->index;
    };
    auto leave = [&](Node& n, std::span<Value* const> edges) {
        uint32_t h = 1;
        for (const Value* edge : edges) h = std::max(h, height[edge->n->index] + 1);
        height[n.index] = h;
        if (h <= kMaxNodeDepth) return true;
        fault = GraphFault{GraphFault::Kind::TooDeep, nullptr, &n};
        return false;
    };
    for (Node* start : nodes) {
        if (walk.entered(*start)) continue;
        if (GraphFault cycle = walk.walk(start, SIZE_MAX, enter, follow, leave)) return cycle;
        if (fault) return fault;
    }
    doc.heights().assign(height.begin(), height.end());
    return fault;
}

// --- Containment -----------------------------------------------------------------------------------

uint32_t Containment::keptHeight(const Node* n) const {
    const std::vector<uint16_t>& heights = doc_.heights();
    return n->index < heights.size() ? heights[n->index] : 0;
}

// The height of `n`, worked out from its children for a node made during a run (and then kept); 0 if not
// known: no heights, or too deep a new structure to work out here.
uint32_t Containment::heightOf(const Node* n, int depth) {
    constexpr int kDeepest = 32;
    std::vector<uint16_t>& heights = doc_.heights();
    if (heights.empty()) return 0;
    if (const uint32_t kept = keptHeight(n)) return kept;
    if (depth == kDeepest) return 0;
    uint32_t tallest = 0;
    bool known = true;
    for (Member m : n->fields)
        forEachNodeSlot(m.value, [&](const Value& edge) {
            const uint32_t h = known ? heightOf(edge.n, depth + 1) : 0;
            known = h != 0;
            tallest = std::max(tallest, h);
        });
    if (!known || tallest >= UINT16_MAX) return 0;
    if (n->index >= heights.size()) heights.resize(doc_.nodes().size(), 0);
    heights[n->index] = static_cast<uint16_t>(tallest + 1);
    return tallest + 1;
}

void Containment::noteEdges(const Node* parent, const Value& added) {
    // A node without a height has no parent with one: its height, worked out later, counts this edge.
    const uint32_t above = keptHeight(parent);
    if (!above) return;
    bool kept = true;
    forEachNodeSlot(added, [&](const Value& edge) {
        const uint32_t h = kept ? heightOf(edge.n) : 0;
        kept = h != 0 && h < above;
    });
    if (!kept) doc_.forgetHeights();
}

void Containment::noteReplaced(const Node* old, const Node* with) {
    const uint32_t below = keptHeight(old);
    if (!below) return;
    const uint32_t h = heightOf(with);
    if (!h || h > below) doc_.forgetHeights();
}

// One search from `from` for `target`; `visit(n)` marks n and says whether to walk on from it (false:
// seen before, or the caller gives up).
template <class Visit>
bool Containment::search(Node* from, const Node* target, Visit&& visit) {
    work_.assign(1, from);
    visit(from);
    bool found = false;
    while (!work_.empty() && !found) {
        Node* n = work_.back();
        work_.pop_back();
        for (Member m : n->fields)
            forEachNodeSlot(m.value, [&](Value& edge) {
                found = found || edge.n == target;
                if (visit(edge.n)) work_.push_back(edge.n);
            });
    }
    return found;
}

bool Containment::reaches(Node* from, const Node* target) {
    if (from == target) return true;
    // A node only contains lower nodes: most checks (a new statement, argument or param put into a taller
    // node) end here, without a walk.
    const uint32_t fromHeight = heightOf(from);
    if (fromHeight && fromHeight <= heightOf(target)) return false;
    // Most checks walk a few nodes (a new Var, a new call): a short visited list serves them without a
    // mark per node of the whole document (memory is time here). Larger walks use the marks, which are
    // reused across calls (no clearing per check).
    constexpr size_t kSmallWalk = 64;
    visited_.clear();
    bool tooLarge = false;
    bool found = search(from, target, [&](Node* n) {
        if (tooLarge || std::find(visited_.begin(), visited_.end(), n) != visited_.end()) return false;
        tooLarge = visited_.size() == kSmallWalk;
        visited_.push_back(n);
        return !tooLarge;
    });
    if (found || !tooLarge) return found;
    clearMarks();
    return search(from, target, [&](Node* n) { return mark(n); });
}

void Containment::clearMarks() {
    marks_.resize(doc_.nodes().size(), 0);
    ++stamp_;
}

bool Containment::mark(const Node* n) {
    if (marks_[n->index] == stamp_) return false;
    marks_[n->index] = stamp_;
    return true;
}

}  // namespace ptoplug::ir
