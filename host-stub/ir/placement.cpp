#include "ir/placement.h"

namespace ptoplug::ir {
namespace {

enum class Pass { AssignIds, PlaceByReadOrder, PlaceRemaining };

class Placer {
public:
    Placer(const Document& doc, Layout& layout) : layout_(layout) {
        layout_.ids.assign(doc.nodes().size(), UINT32_MAX);
        layout_.fullAt.assign(doc.nodes().size(), nullptr);
    }

    void run(const Value& root) {
        pass_ = Pass::AssignIds;
        visit(root, 0);
        pass_ = Pass::PlaceByReadOrder;
        visit(root, 0);
        // Nodes reachable only through fields pypto never reads are rare; skip the pass without them.
        if (placed_ == nextId_) return;
        pass_ = Pass::PlaceRemaining;
        visit(root, 0);
    }

private:
    static bool holdsContainers(const Map& map) {
        for (uint32_t i = 0; i < map.size; ++i) {
            Kind k = map.values[i].kind;
            if (k == Kind::Array || k == Kind::Map || k == Kind::Node || k == Kind::Ref) return true;
        }
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
                    forEachMemberInOrder(*v.m, parentKey, readOrder(), [&](const Member& m) { visit(m.value, m.key); });
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
        if (descend) forEachFieldInOrder(n, readOrder(), [&](const Member& m) { visit(m.value, m.key); });
    }

    Layout& layout_;
    Pass pass_ = Pass::AssignIds;
    uint32_t nextId_ = 0;
    uint32_t placed_ = 0;
};

}  // namespace

Layout computeLayout(const Document& doc) {
    Layout layout;
    Placer(doc, layout).run(doc.root());
    return layout;
}

}  // namespace ptoplug::ir
