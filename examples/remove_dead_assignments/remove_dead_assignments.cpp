// RemoveDeadAssignments: removes `x = value` when x is never used in its function and evaluating value
// has no effect: value is built only of variables, constants, arithmetic and tuples (no Call or Submit,
// no node type this ABI version does not name). Removing one can make another dead, so it repeats until
// nothing changes; uses are counted everywhere a variable can occur (types and attrs included).
#include <unordered_map>
#include <vector>

#include <ptoplug/sdk.hpp>

namespace {

using ptoplug::plugin::Host;
using ptoplug::plugin::NodeEq;
using ptoplug::plugin::NodeHash;

constexpr char kPass[] = "RemoveDeadAssignments";

struct Assignment {
    pto_node stmt, var, value;
    pto_walk_position at;
};

// Walk callbacks call the table directly and never throw: an exception must not unwind through the
// host's walk. A failed call stops the walk and is reported after it.
struct Scan {
    const pto_host_api* api;
    std::unordered_map<pto_node, size_t, NodeHash, NodeEq> uses;
    std::vector<Assignment> assignments;
    pto_status failure = PTO_OK;
};

pto_walk_result scanNode(pto_run_context* ctx, pto_node node, const pto_walk_position* at, void* data) {
    auto* scan = static_cast<Scan*>(data);
    pto_node_kind kind{}, parentKind{};
    Assignment a{node, {}, {}, *at};
    pto_status s = scan->api->node_kind(ctx, node, &kind);
    if (s == PTO_OK && kind == PTO_NODE_ASSIGN_STMT) {
        if ((s = scan->api->node_child(ctx, node, PTO_FIELD_VAR, 0, &a.var)) == PTO_OK &&
            (s = scan->api->node_child(ctx, node, PTO_FIELD_VALUE, 0, &a.value)) == PTO_OK)
            scan->assignments.push_back(a);
    } else if (s == PTO_OK && (kind == PTO_NODE_VAR || kind == PTO_NODE_ITER_ARG || kind == PTO_NODE_MEM_REF)) {
        bool definition = false;
        if (!pto_node_is_null(at->parent) && at->field == PTO_FIELD_VAR &&
            (s = scan->api->node_kind(ctx, at->parent, &parentKind)) == PTO_OK)
            definition = parentKind == PTO_NODE_ASSIGN_STMT;
        if (!definition) ++scan->uses[node];
    }
    if (s == PTO_OK) return PTO_WALK_ADVANCE;
    scan->failure = s;
    return PTO_WALK_STOP;
}

struct EffectSearch {
    const pto_host_api* api;
    bool effect = false;
};

pto_walk_result findEffect(pto_run_context* ctx, pto_node node, const pto_walk_position*, void* data) {
    auto* search = static_cast<EffectSearch*>(data);
    pto_node_kind kind = PTO_NODE_OTHER;
    search->api->node_kind(ctx, node, &kind);  // on failure, OTHER: counted as an effect
    switch (kind) {
        case PTO_NODE_VAR:
        case PTO_NODE_ITER_ARG:
        case PTO_NODE_CONST_INT:
        case PTO_NODE_CONST_FLOAT:
        case PTO_NODE_CONST_BOOL:
        case PTO_NODE_BINARY:
        case PTO_NODE_UNARY:
        case PTO_NODE_MAKE_TUPLE:
        case PTO_NODE_TUPLE_GET_ITEM: return PTO_WALK_ADVANCE;
        default: search->effect = true; return PTO_WALK_STOP;
    }
}

bool pure(const Host& h, pto_node value) {
    EffectSearch search{h.api()};
    pto_walk_callbacks cb{sizeof cb, findEffect, nullptr, &search, PTO_WALK_INTO_TYPES};
    Host::check("walk", h.api()->walk(h.ctx(), value, &cb));
    return !search.effect;
}

void removeDeadAssignments(const Host& h) {
    for (size_t f = 0; f < h.functionCount(); ++f) {
        const pto_node fn = h.functionAt(f);
        for (bool removed = true; removed;) {
            Scan scan{h.api(), {}, {}};
            pto_walk_callbacks cb{sizeof cb, scanNode, nullptr, &scan, PTO_WALK_INTO_TYPES | PTO_WALK_INTO_KWARGS};
            Host::check("walk", h.api()->walk(h.ctx(), fn, &cb));
            Host::check("walk callback", scan.failure);
            removed = false;
            for (const Assignment& a : scan.assignments) {
                if (scan.uses.count(a.var) || !pure(h, a.value)) continue;
                Host::check("remove_stmt", h.api()->remove_stmt(h.ctx(), a.at.parent, a.at.field, a.at.index));
                removed = true;
            }
            if (removed) Host::check("flush_inserts", h.api()->flush_inserts(h.ctx()));
        }
    }
}

constexpr ptoplug::plugin::Plugin kPlugin(
    {.name = "remove-dead-assignments", .version = "1.0.0"},  // 1.1: remove_stmt
    {{.name = kPass,
      .description = "Removes assignments to unused variables whose value has no effect",
      .run = ptoplug::plugin::guardedRun<kPass, removeDeadAssignments>}});

}  // namespace

PTOPLUG_PLUGIN_ENTRY(kPlugin)
