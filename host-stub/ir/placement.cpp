#include "ir/placement.h"

#include <system_error>
#include <thread>

#include "ir/graph.h"

namespace ptoplug::ir {
namespace {

// What a walk does at each node it meets.
enum class Mode : uint8_t {
    Ids,        ///< emit order: numbers each node at its first occurrence
    Place,      ///< read order: places each node at its first occurrence
    Both,       ///< emit order where it equals read order: numbers and places at once
    Remaining,  ///< emit order: places the nodes that occur only under fields pypto never reads
};

// Numbering (emit order) and placement (read order) in one walk. The two are independent (each writes its
// own table), so they may interleave as long as each keeps its own order: the walk takes a field in both
// at once wherever the orders agree, which is almost everywhere, and where a type's orders differ it
// follows the schema's merged order (a field taken by one order alone is walked for that order alone).
// At a node met in both at once, whichever of the two has not seen it descends.
class Placer {
public:
    Placer(Layout& layout, const Document& doc, bool checkGraph) : layout_(layout) {
        if (checkGraph) onStack_.assign(doc.nodes().size(), 0);
    }

    /// Numbers and places every node reachable from `root` in one walk; false if nodes nest too deep or,
    /// with checkGraph, a node contains itself.
    bool run(const Value& root) {
        visit<Mode::Both>(root, 0, 0);
        placeRemaining(root, nextId_);
        return !failed_;
    }
    /// One half of the work of run() each: two Placers may do them at once, on a document without cycles.
    void number(const Value& root) { visit<Mode::Ids>(root, 0, 0); }
    void place(const Value& root) { visit<Mode::Place>(root, 0, 0); }
    /// After placing: places the nodes that occur only under fields pypto never reads (rare: the walk is
    /// skipped when all `numbered` nodes are placed).
    void placeRemaining(const Value& root, uint32_t numbered) {
        if (!failed_ && placed_ != numbered) visit<Mode::Remaining>(root, 0, 0);
    }
    uint32_t numbered() const { return nextId_; }
    bool failed() const { return failed_; }

private:
    static constexpr bool kEmitOrder = false;
    static constexpr bool kReadOrder = true;

    static bool holdsContainers(const Map& map) {
        for (uint32_t i = 0; i < map.size; ++i)
            if (detail::holdsContainer(map.values[i])) return true;
        return false;
    }

    template <Mode M>
    void visit(const Value& v, uint32_t parentKey, uint32_t depth) {
        switch (v.kind) {
            case Kind::Array:
                for (const Value& item : *v.a) visit<M>(item, parentKey, depth);
                return;
            case Kind::Map: visitMap<M>(*v.m, parentKey, depth); return;
            case Kind::Node:
            case Kind::Ref: visitNode<M>(v, depth); return;
            default: return;
        }
    }

    template <Mode M>
    void visitMap(const Map& map, uint32_t parentKey, uint32_t depth) {
        // Most maps (types, ops, attrs) hold no node: their member order does not matter then.
        if (failed_ || !holdsContainers(map)) return;
        const bool tileView = parentKey == K::tile_view && !map.find(K::type_kind);
        if (M == Mode::Both && tileView) {  // its members' orders differ: numbered, then placed
            detail::forEachMemberRanked<true>(map, parentKey, kEmitOrder,
                                              [&](const Member& m) { visit<Mode::Ids>(m.value, m.key, depth); });
            detail::forEachMemberRanked<true>(map, parentKey, kReadOrder,
                                              [&](const Member& m) { visit<Mode::Place>(m.value, m.key, depth); });
            return;
        }
        detail::forEachMemberRanked<true>(map, parentKey, M == Mode::Place,
                                          [&](const Member& m) { visit<M>(m.value, m.key, depth); });
    }

    template <Mode M>
    void visitNode(const Value& occurrence, uint32_t depth) {
        if (failed_) return;
        const Node& n = *occurrence.n;
        if (++depth > kMaxNodeDepth) return fail();
        switch (M) {
            case Mode::Ids:
                if (layout_.id(n.index) != Layout::kNoId) return checkNotOnStack(n);
                layout_.setId(n.index, nextId_++);
                return descend<Mode::Ids>(n, depth);
            case Mode::Place:
                if (layout_.fullAt(n.index)) return;
                placeAt(n, occurrence);
                return descend<Mode::Place>(n, depth);
            case Mode::Both: {
                const bool numbers = layout_.id(n.index) == Layout::kNoId, places = !layout_.fullAt(n.index);
                if (!numbers) checkNotOnStack(n);
                if (numbers) layout_.setId(n.index, nextId_++);
                if (places) placeAt(n, occurrence);
                if (numbers && places) return descend<Mode::Both>(n, depth);
                if (numbers) return descend<Mode::Ids>(n, depth);
                if (places) return descend<Mode::Place>(n, depth);
                return;
            }
            case Mode::Remaining:
                if (!layout_.fullAt(n.index)) placeAt(n, occurrence);
                if (layout_.fullAt(n.index) == &occurrence) descend<Mode::Remaining>(n, depth);
                return;
        }
    }

    void placeAt(const Node& n, const Value& occurrence) {
        layout_.setFullAt(n.index, &occurrence);
        ++placed_;
    }

    // Only members holding containers can hold nodes: the walk visits those alone.
    template <Mode M>
    void descend(const Node& n, uint32_t depth) {
        const bool tracked = !onStack_.empty() && (M == Mode::Ids || M == Mode::Both);
        if (tracked) onStack_[n.index] = 1;
        const NodeSchema* schema = M == Mode::Both ? schemaFor(n.type) : nullptr;
        if (schema && !schema->mergedOrder.empty()) {
            using In = NodeSchema::OrderStep::In;
            for (const NodeSchema::OrderStep& step : schema->mergedOrder) {
                const Value* v = n.fields.find(step.key);
                if (!v || !detail::holdsContainer(*v)) continue;
                if (step.in == In::Both)
                    visit<Mode::Both>(*v, step.key, depth);
                else if (step.in == In::EmitOnly)
                    visit<Mode::Ids>(*v, step.key, depth);
                else
                    visit<Mode::Place>(*v, step.key, depth);
            }
            detail::forEachFieldRanked<true>(n, kEmitOrder, [&](const Member& m) {
                if (m.key >= schema->emitRank.size() || schema->emitRank[m.key] == kRankUnlisted)
                    visit<Mode::Both>(m.value, m.key, depth);
            });
        } else {
            detail::forEachFieldRanked<true>(n, M == Mode::Place,
                                             [&](const Member& m) { visit<M>(m.value, m.key, depth); });
        }
        if (tracked) onStack_[n.index] = 0;
    }

    // A node met again while its own fields are being walked: a cycle.
    void checkNotOnStack(const Node& n) {
        if (!onStack_.empty() && onStack_[n.index]) fail();
    }

    void fail() { failed_ = true; }

    Layout& layout_;
    std::vector<uint8_t> onStack_;  ///< per node, with checkGraph: its fields are being numbered
    uint32_t nextId_ = 0;
    uint32_t placed_ = 0;
    bool failed_ = false;
};

// Numbering and placement by two walks at once, one per order, and the layout finished.
bool layOutApart(const Document& doc, Layout& layout) {
    Placer ids(layout, doc, false);
    Placer placement(layout, doc, false);
    std::thread other;
    try {
        other = std::thread([&] { ids.number(doc.root()); });
    } catch (const std::system_error&) {  // no thread to be had: one walk after the other
    }
    placement.place(doc.root());
    if (other.joinable())
        other.join();
    else
        ids.number(doc.root());
    placement.placeRemaining(doc.root(), ids.numbered());
    const bool whole = !ids.failed() && !placement.failed();
    layout.finish(whole);
    return whole;
}

}  // namespace

bool layOut(const Document& doc, Layout& layout, bool checkGraph) {
    // The combined walk takes half again the time of one order's walk (both are bound by memory latency),
    // and two walks at once take as long as one: a large document needing no check is walked in each order
    // apart.
    if (!checkGraph && doc.nodes().size() >= kParallelWalkNodes) return layOutApart(doc, layout);
    const bool whole = Placer(layout, doc, checkGraph).run(doc.root());
    layout.finish(whole);
    return whole;
}

std::optional<Layout> computeLayout(const Document& doc, bool checkGraph) {
    Layout layout(doc.nodes().size());
    if (!layOut(doc, layout, checkGraph)) return std::nullopt;
    return layout;
}

std::optional<Layout> computeLayoutApart(const Document& doc) {
    Layout layout(doc.nodes().size());
    if (!layOutApart(doc, layout)) return std::nullopt;
    return layout;
}

bool Layout::awaitSlow(uint32_t index, uint32_t& id, const Value*& full) const {
    for (uint32_t spins = 0;; ++spins) {
        // The state first: if the walk had ended, the entries read after it are final.
        const bool ended = state_.load(std::memory_order_acquire) != kMaking;
        id = this->id(index);
        full = fullAt(index);
        if (id != kNoId && full) return true;
        if (ended) return false;
        // The walk is ahead of the writer almost always; when it is not, it needs the core more.
        if (spins >= 64) std::this_thread::yield();
    }
}

bool Layout::whole() const {
    uint8_t state;
    while ((state = state_.load(std::memory_order_acquire)) == kMaking) std::this_thread::yield();
    return state == kWhole;
}

}  // namespace ptoplug::ir
