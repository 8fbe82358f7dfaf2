#include "ir/placement.h"

#include <system_error>
#include <thread>

namespace ptoplug::ir {
namespace {

enum class Pass { AssignIds, PlaceByReadOrder, PlaceRemaining };

// One walk in one order. Each walk writes only its own table (ids, or fullAt), so the first two can run
// side by side.
class Placer {
public:
    Placer(Pass pass, Layout& layout) : layout_(layout), pass_(pass) {}

    void run(const Value& root) { visit(root, 0); }
    uint32_t assigned() const { return nextId_; }
    uint32_t placed() const { return placed_; }

private:
    static bool holdsContainers(const Map& map) {
        for (uint32_t i = 0; i < map.size; ++i)
            if (detail::holdsContainer(map.values[i])) return true;
        return false;
    }

    bool readOrder() const { return pass_ == Pass::PlaceByReadOrder; }

    void visit(const Value& v, uint32_t parentKey) {
        switch (v.kind) {
            case Kind::Array:
                for (const Value& item : *v.a) visit(item, parentKey);
                return;
            case Kind::Map:
                // Most maps (types, ops, attrs) hold no node: their member order does not matter then.
                if (holdsContainers(*v.m))
                    detail::forEachMemberRanked<true>(*v.m, parentKey, readOrder(),
                                                      [&](const Member& m) { visit(m.value, m.key); });
                return;
            case Kind::Node:
            case Kind::Ref: visitNode(v); return;
            default: return;
        }
    }

    void visitNode(const Value& occurrence) {
        const Node& n = *occurrence.n;
        bool descend = false;
        switch (pass_) {
            case Pass::AssignIds:
                if (layout_.ids[n.index] == UINT32_MAX) {
                    layout_.ids[n.index] = nextId_++;
                    descend = true;
                }
                break;
            case Pass::PlaceByReadOrder:
            case Pass::PlaceRemaining:
                if (!layout_.fullAt[n.index]) {
                    layout_.fullAt[n.index] = &occurrence;
                    ++placed_;
                }
                descend = layout_.fullAt[n.index] == &occurrence;
                break;
        }
        // Only members holding containers can hold nodes: the walk visits those alone.
        if (descend) detail::forEachFieldRanked<true>(n, readOrder(), [&](const Member& m) { visit(m.value, m.key); });
    }

    Layout& layout_;
    const Pass pass_;
    uint32_t nextId_ = 0;
    uint32_t placed_ = 0;
};

}  // namespace

Layout computeLayout(const Document& doc) {
    Layout layout;
    layout.ids.assign(doc.nodes().size(), UINT32_MAX);
    layout.fullAt.assign(doc.nodes().size(), nullptr);
    Placer ids(Pass::AssignIds, layout);
    Placer placement(Pass::PlaceByReadOrder, layout);
    // Both walks are bound by memory latency and the machine has a second core: on a large document they
    // run at once (the document is not changed meanwhile). Without a thread (a small document, or none
    // to be had under an address-space limit) they run one after the other.
    std::thread other;
    if (doc.nodes().size() >= kParallelWalkNodes) {
        try {
            other = std::thread([&] { ids.run(doc.root()); });
        } catch (const std::system_error&) {  // no thread to be had: the walks run in turn below
        }
    }
    placement.run(doc.root());
    if (other.joinable())
        other.join();
    else
        ids.run(doc.root());
    // Nodes reachable only through fields pypto never reads are rare; skip the pass without them.
    if (placement.placed() != ids.assigned()) Placer(Pass::PlaceRemaining, layout).run(doc.root());
    return layout;
}

}  // namespace ptoplug::ir
