// Where a variable is used and where it is bound, below a root (var_uses, var_definition): one walk
// through types, attrs and kwargs, sorting each occurrence by the class of the field holding it (a field
// that takes only a Var or an IterArg binds; docs/ir_format.md §6).
#include <vector>

#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "ir/schema.h"

namespace ptoplug::host::table {
namespace {

struct Occurrences {
    pto_run_context* ctx;
    pto_node var;
    bool firstBindingOnly;
    std::vector<pto_walk_position> uses, bindings;
};

bool isBindingPlace(pto_run_context* ctx, const pto_walk_position& at) {
    const Node* parent = toNode(ctx, at.parent);
    if (!parent) return false;
    const ir::NodeClass cls = ir::fieldNodeClass(parent->type, keyOf(at.field));
    return cls == ir::NodeClass::Var || cls == ir::NodeClass::IterArg;
}

pto_walk_result note(pto_run_context*, pto_node node, const pto_walk_position* at, void* data) {
    auto* found = static_cast<Occurrences*>(data);
    if (!pto_node_equal(node, found->var)) return PTO_WALK_ADVANCE;
    (isBindingPlace(found->ctx, *at) ? found->bindings : found->uses).push_back(*at);
    return found->firstBindingOnly && !found->bindings.empty() ? PTO_WALK_STOP : PTO_WALK_SKIP_CHILDREN;
}

// Every occurrence of `var` below `root`, or a failed status.
pto_status findOccurrences(pto_run_context* ctx, pto_node root, pto_node var, Occurrences& found) {
    Node* r = toNode(ctx, root);
    Node* v = toNode(ctx, var);
    PTO_REQUIRE_WHY(r && v, PTO_ERR_INVALID_HANDLE, "`root` or `var` is null, foreign or stale");
    PTO_REQUIRE_WHY(ir::nodeFitsClass(v->type, ir::NodeClass::Var), PTO_ERR_WRONG_KIND,
                    "`var` is a " + std::string(typeName(ctx, v)) + ", not a Var, IterArg or MemRef");
    found.ctx = ctx;
    found.var = fromNode(ctx, v);  // the handle the walk gives, whatever ticket `var` came with
    const pto_walk_callbacks cb{sizeof cb, note, nullptr, &found, PTO_WALK_INTO_TYPES | PTO_WALK_INTO_KWARGS};
    return walk(ctx, fromNode(ctx, r), &cb);
}

}  // namespace

pto_status varUses(pto_run_context* ctx, pto_node root, pto_node var, pto_walk_position* out, size_t capacity,
                   size_t* count) {
    PTO_REQUIRE_WHY(count && (out || !capacity), PTO_ERR_INVALID_HANDLE, "NULL count, or NULL out with a capacity");
    Occurrences found{};
    if (pto_status s = findOccurrences(ctx, root, var, found); s != PTO_OK) return s;
    for (size_t i = 0; i < found.uses.size() && i < capacity; ++i) out[i] = found.uses[i];
    *count = found.uses.size();
    return PTO_OK;
}

pto_status varDefinition(pto_run_context* ctx, pto_node root, pto_node var, pto_walk_position* out) {
    PTO_REQUIRE_WHY(out, PTO_ERR_INVALID_HANDLE, "NULL out");
    Occurrences found{};
    found.firstBindingOnly = true;
    if (pto_status s = findOccurrences(ctx, root, var, found); s != PTO_OK) return s;
    PTO_REQUIRE_WHY(!found.bindings.empty(), PTO_ERR_NOT_FOUND, "the variable is bound nowhere at or below `root`");
    *out = found.bindings.front();
    return PTO_OK;
}

}  // namespace ptoplug::host::table
