// The host table's helpers shared by its parts (declared in handles.h): where a node may go, spans,
// the program's functions, host-made values, messages.
#include "abi_host/handles.h"

#include <algorithm>

#include "ir/rewrite.h"
#include "ir/schema.h"

namespace ptoplug::host::table {

namespace {

// One search from `from` for `target`; `visit(n)` marks n and says whether to walk on from it (false:
// seen before, or the caller gives up).
template <class Visit>
bool search(pto_run_context* ctx, Node* from, const Node* target, Visit&& visit) {
    std::vector<Node*>& work = ctx->reachWork;  // reused: one check per rewrite, no allocation each
    work.assign(1, from);
    visit(from);
    bool found = false;
    while (!work.empty() && !found) {
        Node* n = work.back();
        work.pop_back();
        for (ir::Member m : n->fields)
            ir::forEachNodeSlot(m.value, [&](Value& edge) {
                found = found || edge.n == target;
                if (visit(edge.n)) work.push_back(edge.n);
            });
    }
    return found;
}

// The height kept for `n` (Document::heights), or 0.
uint32_t keptHeight(pto_run_context* ctx, const Node* n) {
    const std::vector<uint16_t>& heights = ctx->doc.heights();
    return n->index < heights.size() ? heights[n->index] : 0;
}

// The height of `n`, worked out from its children for a node made during a run (and then kept); 0 if not
// known: no heights, or too deep a new structure to work out here.
uint32_t heightOf(pto_run_context* ctx, const Node* n, int depth = 0) {
    constexpr int kDeepest = 32;
    std::vector<uint16_t>& heights = ctx->doc.heights();
    if (heights.empty()) return 0;
    if (const uint32_t kept = keptHeight(ctx, n)) return kept;
    if (depth == kDeepest) return 0;
    uint32_t tallest = 0;
    bool known = true;
    for (ir::Member m : n->fields)
        ir::forEachNodeSlot(m.value, [&](const Value& edge) {
            const uint32_t h = known ? heightOf(ctx, edge.n, depth + 1) : 0;
            known = h != 0;
            tallest = std::max(tallest, h);
        });
    if (!known || tallest >= UINT16_MAX) return 0;
    if (n->index >= heights.size()) heights.resize(ctx->doc.nodes().size(), 0);
    heights[n->index] = static_cast<uint16_t>(tallest + 1);
    return tallest + 1;
}


}  // namespace

void noteEdges(pto_run_context* ctx, const Node* parent, const Value& added) {
    // A node without a height has no parent with one: its height, worked out later, counts this edge.
    const uint32_t above = keptHeight(ctx, parent);
    if (!above) return;
    bool kept = true;
    ir::forEachNodeSlot(added, [&](const Value& edge) {
        const uint32_t h = kept ? heightOf(ctx, edge.n) : 0;
        kept = h != 0 && h < above;
    });
    if (!kept) ctx->doc.forgetHeights();
}

void noteReplaced(pto_run_context* ctx, const Node* old, const Node* with) {
    const uint32_t below = keptHeight(ctx, old);
    if (!below) return;
    const uint32_t h = heightOf(ctx, with);
    if (!h || h > below) ctx->doc.forgetHeights();
}

bool reaches(pto_run_context* ctx, Node* from, const Node* target) {
    if (from == target) return true;
    // A node only contains lower nodes: most checks (a new statement, argument or param put into a taller
    // node) end here, without a walk.
    const uint32_t fromHeight = heightOf(ctx, from);
    if (fromHeight && fromHeight <= heightOf(ctx, target)) return false;
    // Most checks walk a few nodes (a new Var, a new call): a short visited list serves them without a
    // stamp per node of the whole document (memory is time here). Larger walks use the stamps, which
    // are reused across calls (no clearing per check).
    constexpr size_t kSmallWalk = 64;
    std::vector<Node*>& visited = ctx->reachVisited;
    visited.clear();
    bool tooLarge = false;
    bool found = search(ctx, from, target, [&](Node* n) {
        if (tooLarge || std::find(visited.begin(), visited.end(), n) != visited.end()) return false;
        tooLarge = visited.size() == kSmallWalk;
        visited.push_back(n);
        return !tooLarge;
    });
    if (found || !tooLarge) return found;
    ctx->seen.resize(ctx->doc.nodes().size(), 0);
    const uint32_t stamp = ++ctx->seenStamp;
    return search(ctx, from, target, [&](Node* n) {
        if (ctx->seen[n->index] == stamp) return false;
        ctx->seen[n->index] = stamp;
        return true;
    });
}

std::string_view typeName(pto_run_context* ctx, const Node* n) { return ctx->doc.keys().name(n->type); }

pto_status checkPlacement(pto_run_context* ctx, Node* parent, uint32_t key, Node* child) {
    ir::NodeClass cls = ir::fieldNodeClass(parent->type, key);
    if (!ir::nodeFitsClass(child->type, cls))
        return fail(ctx, PTO_ERR_WRONG_KIND,
                    "field '" + std::string(ctx->doc.keys().name(key)) + "' of a " +
                        std::string(typeName(ctx, parent)) + " holds " + ir::nodeClassName(cls) + "; got a " +
                        std::string(typeName(ctx, child)));
    if (reaches(ctx, child, parent))
        return fail(ctx, PTO_ERR_INVALID_ARGUMENT,
                    "the " + std::string(typeName(ctx, child)) + " contains the " + std::string(typeName(ctx, parent)) +
                        " it would be put in (a cycle)");
    return PTO_OK;
}

Value spanOf(pto_run_context* ctx, pto_node source) {
    Node* n = toNode(ctx, source);
    if (n)
        if (const Value* sp = n->field(K::span)) return *sp;
    return ir::makeUnknownSpan(ctx->doc);
}

Value* functionsOf(pto_run_context* ctx) {
    Value& root = ctx->doc.root();
    if (!root.isNode() || root.n->type != K::Program) return nullptr;
    Value* fns = root.n->field(K::functions);
    return fns && fns->kind == Kind::Array ? fns : nullptr;
}

Node* functionAt(const Value* functions, size_t i) {
    const Value& entry = functions->a->items[i];
    const Value* fn = entry.kind == Kind::Map ? entry.m->find(K::value) : nullptr;
    return fn && fn->isNode() ? fn->n : nullptr;
}

pto_value madeValue(pto_run_context* ctx, Value v) {
    return fromValue(ctx, ValueSlot{ctx->doc.arena().make<Value>(v)});
}

pto_status statusOf(pto_run_context* ctx, const Status& s, pto_status failure) {
    return s ? fail(ctx, failure, s->message) : PTO_OK;
}

}  // namespace ptoplug::host::table
