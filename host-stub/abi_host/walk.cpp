// The host table's walk: depth first in pypto's field order, pre and post callbacks.
#include <vector>

#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "ir/placement.h"

namespace ptoplug::host::table {
namespace {

class Walk {
public:
    Walk(pto_run_context* ctx, const pto_walk_callbacks& cb) : ctx_(ctx), cb_(cb) {}

    // Returns false once stopped.
    bool visit(Node* n, const pto_walk_position& pos) {
        pto_node h = fromNode(ctx_, n);
        if (cb_.pre) {
            pto_walk_result r = cb_.pre(ctx_->ticket(), h, &pos, cb_.user_data);
            if (r == PTO_WALK_STOP) return false;
            if (r == PTO_WALK_SKIP_CHILDREN) return post(h, pos);
        }
        // Re-resolve the schema order each time: fields may have been replaced by the callback. The
        // keys of every node on the current path share one stack (indexed, so growth is safe) instead
        // of a vector per node: the allocation was most of the walk's time per node.
        const size_t begin = keys_.size();
        ir::forEachFieldInOrder(*n, false, [&](const ir::Member& m) { keys_.push_back(m.key); });
        const size_t end = keys_.size();
        bool go = true;
        for (size_t i = begin; go && i < end; ++i) {
            const uint32_t key = keys_[i];
            if ((key == K::type && !(cb_.flags & PTO_WALK_INTO_TYPES)) ||
                (key == K::kwargs && !(cb_.flags & PTO_WALK_INTO_KWARGS)) || key == K::span)
                continue;
            pto_walk_position child{h, fieldIdOf(key), 0};
            go = visitField(n, key, child);
        }
        keys_.resize(begin);
        return go && post(h, pos);
    }

private:
    bool post(pto_node h, const pto_walk_position& pos) {
        return !cb_.post || cb_.post(ctx_->ticket(), h, &pos, cb_.user_data) != PTO_WALK_STOP;
    }

    // Visits the nodes of one field; lists are re-read at every step.
    bool visitField(Node* parent, uint32_t key, pto_walk_position& pos) {
        Value* v = parent->field(key);
        if (!v) return true;
        if (v->isNode()) return visit(v->n, pos);
        if (v->kind == Kind::Array) {
            for (size_t i = 0;; ++i) {
                Value* list = parent->field(key);
                if (!list || list->kind != Kind::Array || i >= list->a->size) return true;
                Value item = list->a->items[i];
                pos.index = i;
                if (item.isNode()) {
                    if (!visit(item.n, pos)) return false;
                } else if (!visitNested(item, pos)) {
                    return false;
                }
            }
        }
        return visitNested(*v, pos);
    }

    // Nodes inside inline values (types, attrs): visited with the field's position.
    bool visitNested(const Value& v, pto_walk_position& pos) {
        switch (v.kind) {
            case Kind::Node:
            case Kind::Ref: return visit(v.n, pos);
            case Kind::Array:
                for (const Value& item : *v.a)
                    if (!visitNested(item, pos)) return false;
                return true;
            case Kind::Map:
                for (const ir::Member& m : *v.m)
                    if (!visitNested(m.value, pos)) return false;
                return true;
            default: return true;
        }
    }

    pto_run_context* ctx_;
    const pto_walk_callbacks& cb_;
    std::vector<uint32_t> keys_;
};

}  // namespace

pto_status walk(pto_run_context* ctx, pto_node root, const pto_walk_callbacks* callbacks) {
    Node* n = toNode(ctx, root);
    PTO_REQUIRE(n && callbacks, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(callbacks->struct_size >= sizeof(pto_walk_callbacks), PTO_ERR_INVALID_ARGUMENT);
    return guarded([&] {
        pto_walk_position pos{pto_node{}, 0, 0};
        Walk(ctx, *callbacks).visit(n, pos);
        return PTO_OK;
    });
}

}  // namespace ptoplug::host::table
