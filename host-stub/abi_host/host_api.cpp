// The host function table over the IR core. Every entry validates its arguments and catches every
// exception: nothing but a status crosses the ABI.
#include <algorithm>
#include <cmath>
#include <limits>
#include <new>

#include <algorithm>
#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "abi_host/walk.h"

#include "ir/placement.h"
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

void applyEdits(pto_run_context* ctx) {
    ctx->edits.apply(ctx->doc, [&](const Node* parent, const Value& field) { noteEdges(ctx, parent, field); });
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

namespace ptoplug::host {
namespace {

using namespace table;

// --- program -------------------------------------------------------------------------------------

pto_status program(pto_run_context* ctx, pto_node* out) {
    PTO_REQUIRE(ctx && out, PTO_ERR_INVALID_HANDLE);
    const Value& root = ctx->doc.root();
    PTO_REQUIRE(root.isNode(), PTO_ERR_WRONG_KIND);
    *out = fromNode(ctx, root.n);
    return PTO_OK;
}

pto_status programFunctionCount(pto_run_context* ctx, size_t* out) {
    PTO_REQUIRE(ctx && out, PTO_ERR_INVALID_HANDLE);
    const Value* fns = functionsOf(ctx);
    PTO_REQUIRE(fns, PTO_ERR_WRONG_KIND);
    *out = fns->a->size;
    return PTO_OK;
}

pto_status programFunctionAt(pto_run_context* ctx, size_t index, pto_node* out) {
    PTO_REQUIRE(ctx && out, PTO_ERR_INVALID_HANDLE);
    const Value* fns = functionsOf(ctx);
    PTO_REQUIRE(fns, PTO_ERR_WRONG_KIND);
    PTO_REQUIRE(index < fns->a->size, PTO_ERR_OUT_OF_RANGE);
    Node* fn = functionAt(fns, index);
    PTO_REQUIRE(fn, PTO_ERR_WRONG_KIND);
    *out = fromNode(ctx, fn);
    return PTO_OK;
}

pto_status programFindFunction(pto_run_context* ctx, pto_string name, pto_node* out) {
    PTO_REQUIRE(ctx && out && (name.data || !name.size), PTO_ERR_INVALID_HANDLE);
    const Value* fns = functionsOf(ctx);
    PTO_REQUIRE(fns, PTO_ERR_WRONG_KIND);
    std::string_view wanted = view(name);
    for (uint32_t i = 0; i < fns->a->size; ++i) {
        Node* fn = functionAt(fns, i);
        const Value* n = fn ? fn->field(K::name) : nullptr;
        if (n && n->kind == Kind::Str && n->strView() == wanted) {
            *out = fromNode(ctx, fn);
            return PTO_OK;
        }
    }
    return PTO_ERR_NOT_FOUND;
}

// --- nodes ---------------------------------------------------------------------------------------

pto_status nodeKind(pto_run_context* ctx, pto_node node, pto_node_kind* out) {
    // Validated like toNode, but answered from the dense type table: no read of the node itself.
    PTO_REQUIRE(ctx && out && node.opaque[0] == ctx->token && node.opaque[1] != 0, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(node.opaque[1] - 1 < ctx->doc.nodes().size(), PTO_ERR_INVALID_HANDLE);
    *out = kindOf(ctx->doc.nodeType(static_cast<uint32_t>(node.opaque[1] - 1)));
    return PTO_OK;
}

pto_status nodeTypeName(pto_run_context* ctx, pto_node node, pto_string* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    *out = str(ctx->doc.keys().name(n->type));
    return PTO_OK;
}

pto_status nodeName(pto_run_context* ctx, pto_node node, pto_string* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    uint32_t key = (n->type == K::Program || n->type == K::Function) ? K::name : K::name_hint;
    PTO_REQUIRE(key == K::name || n->type == K::Var || n->type == K::IterArg || n->type == K::MemRef ||
                    n->type == K::WindowBuffer,
                PTO_ERR_WRONG_KIND);
    const Value* v = n->field(key);
    PTO_REQUIRE(v && v->kind == Kind::Str, PTO_ERR_NOT_FOUND);
    *out = str(v->strView());
    return PTO_OK;
}

pto_status nodeSpan(pto_run_context* ctx, pto_node node, pto_span* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    pto_span s{pto_string{"", 0}, -1, -1, -1, -1};
    if (const Value* v = n->field(K::span)) {
        if (v->kind == Kind::Span) {
            const ir::Span sp = ctx->doc.span(*v);
            s.filename = str(sp.file);
            s.begin_line = sp.beginLine;
            s.begin_column = sp.beginColumn;
            s.end_line = sp.endLine;
            s.end_column = sp.endColumn;
        } else if (v->kind == Kind::Map) {
            auto num = [&](uint32_t key, int64_t& dst) {
                const Value* x = v->m->find(key);
                if (x && x->kind == Kind::Int) dst = x->i;
                if (x && x->kind == Kind::UInt && x->u <= INT64_MAX) dst = static_cast<int64_t>(x->u);
            };
            if (const Value* f = v->m->find(K::filename); f && f->kind == Kind::Str) s.filename = str(f->strView());
            num(K::begin_line, s.begin_line);
            num(K::begin_column, s.begin_column);
            num(K::end_line, s.end_line);
            num(K::end_column, s.end_column);
        }
    }
    *out = s;
    return PTO_OK;
}

pto_status nodeTypeKind(pto_run_context* ctx, pto_node node, pto_type_kind* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    *out = typeKindOf(n->field(K::type));
    return PTO_OK;
}

pto_status nodeChildCount(pto_run_context* ctx, pto_node node, uint32_t field, size_t* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    uint32_t key = keyOf(field);
    const Value* v = key == UINT32_MAX ? nullptr : n->field(key);
    PTO_REQUIRE(v, PTO_ERR_NOT_FOUND);
    if (v->kind == Kind::Array)
        *out = v->a->size;
    else if (v->isNode())
        *out = 1;
    else if (v->kind == Kind::Null)
        *out = 0;
    else
        return PTO_ERR_WRONG_KIND;
    return PTO_OK;
}

pto_status nodeChild(pto_run_context* ctx, pto_node node, uint32_t field, size_t index, pto_node* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    pto_status status = PTO_OK;
    Value* slot = childSlot(n, field, index, &status);
    PTO_REQUIRE(slot, status);
    *out = fromSlot(ctx, *slot);
    return PTO_OK;
}

pto_status nodeField(pto_run_context* ctx, pto_node node, uint32_t field, pto_value* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    uint32_t key = keyOf(field);
    Value* v = key == UINT32_MAX ? nullptr : n->field(key);
    PTO_REQUIRE(v, PTO_ERR_NOT_FOUND);
    return guarded([&] {
        *out = fromValue(ctx, ValueSlot{v, nullptr, &n->fields, n->fields.values});
        return PTO_OK;
    });
}

pto_status fieldFromName(pto_run_context* ctx, pto_string name, uint32_t* out) {
    PTO_REQUIRE(ctx && out && (name.data || !name.size), PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        // A name that cannot be interned is in no map: an id that names no field keeps the contract.
        uint32_t key = ctx->doc.keys().intern(view(name));
        *out = fieldIdOf(key == ir::KeyTable::kFull ? ir::KeyTable::kMaxNames : key);
        return PTO_OK;
    });
}

// --- functions, calls ----------------------------------------------------------------------------

pto_status functionInfo(pto_run_context* ctx, pto_node function, pto_function_info* out) {
    Node* n = toNode(ctx, function);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(n->type == K::Function, PTO_ERR_WRONG_KIND);
    PTO_REQUIRE(out->struct_size >= offsetof(pto_function_info, param_count) + sizeof(size_t),
                PTO_ERR_INVALID_ARGUMENT);
    auto code = [&](uint32_t key, int32_t absent) {
        const Value* v = n->field(key);
        return v && v->kind == Kind::UInt && v->u <= INT32_MAX ? static_cast<int32_t>(v->u) : absent;
    };
    out->func_type = code(K::func_type, 0);
    out->level = code(K::level, -1);
    out->role = code(K::role, -1);
    const Value* params = n->field(K::params);
    out->param_count = params && params->kind == Kind::Array ? params->a->size : 0;
    return PTO_OK;
}

pto_status functionParamDirection(pto_run_context* ctx, pto_node function, size_t index, pto_param_direction* out) {
    Node* n = toNode(ctx, function);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(n->type == K::Function, PTO_ERR_WRONG_KIND);
    const Value* params = n->field(K::params);
    PTO_REQUIRE(params && params->kind == Kind::Array && index < params->a->size, PTO_ERR_OUT_OF_RANGE);
    const Value* dirs = n->field(K::param_directions);
    uint64_t code = 0;
    if (dirs && dirs->kind == Kind::Array && index < dirs->a->size && dirs->a->items[index].kind == Kind::UInt)
        code = dirs->a->items[index].u;
    *out = static_cast<pto_param_direction>(code);
    return PTO_OK;
}

pto_status callOp(pto_run_context* ctx, pto_node call, pto_string* name, int* isGlobalVar) {
    Node* n = toNode(ctx, call);
    PTO_REQUIRE(n && name && isGlobalVar, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(isCallLike(n), PTO_ERR_WRONG_KIND);
    const Value* op = n->field(K::op);
    PTO_REQUIRE(op && op->kind == Kind::Map, PTO_ERR_NOT_FOUND);
    const Value* nm = op->m->find(K::name);
    const Value* global = op->m->find(K::is_global_var);
    PTO_REQUIRE(nm && nm->kind == Kind::Str, PTO_ERR_NOT_FOUND);
    *name = str(nm->strView());
    *isGlobalVar = global && global->kind == Kind::Bool && global->b;
    return PTO_OK;
}

pto_status callAttr(pto_run_context* ctx, pto_node call, pto_string key, pto_value* out) {
    Node* n = toNode(ctx, call);
    PTO_REQUIRE(n && out && (key.data || !key.size), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(isCallLike(n), PTO_ERR_WRONG_KIND);
    ir::Map* entry = ir::findAttrEntry(n->field(K::attrs), view(key));
    PTO_REQUIRE(entry, PTO_ERR_NOT_FOUND);
    *out = fromValue(ctx, ValueSlot{entry->find(K::value), nullptr, entry, entry->values});
    return PTO_OK;
}

pto_status tupleGetItemIndex(pto_run_context* ctx, pto_node node, int64_t* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE(n && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(n->type == K::TupleGetItemExpr, PTO_ERR_WRONG_KIND);
    const Value* v = n->field(K::index);
    PTO_REQUIRE(v && v->isInteger(), PTO_ERR_NOT_FOUND);
    PTO_REQUIRE(v->kind == Kind::Int || v->u <= INT64_MAX, PTO_ERR_OUT_OF_RANGE);
    *out = v->kind == Kind::Int ? v->i : static_cast<int64_t>(v->u);
    return PTO_OK;
}

// --- values --------------------------------------------------------------------------------------

pto_status valueKind(pto_run_context* ctx, pto_value value, pto_value_kind* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    switch (v->kind) {
        case Kind::Null: *out = PTO_VALUE_NULL; break;
        case Kind::Bool: *out = PTO_VALUE_BOOL; break;
        case Kind::UInt:
        case Kind::Int: *out = PTO_VALUE_INT; break;
        case Kind::F64:
        case Kind::F32: *out = PTO_VALUE_FLOAT; break;
        case Kind::Str: *out = PTO_VALUE_STRING; break;
        case Kind::Array: *out = PTO_VALUE_ARRAY; break;
        case Kind::Map:
        case Kind::Span: *out = PTO_VALUE_MAP; break;
        case Kind::Node:
        case Kind::Ref: *out = PTO_VALUE_NODE; break;
        case Kind::RefId: return PTO_ERR_INTERNAL;
    }
    return PTO_OK;
}

pto_status valueAsBool(pto_run_context* ctx, pto_value value, int* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->kind == Kind::Bool, PTO_ERR_WRONG_KIND);
    *out = v->b;
    return PTO_OK;
}

pto_status valueAsInt64(pto_run_context* ctx, pto_value value, int64_t* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->isInteger(), PTO_ERR_WRONG_KIND);
    PTO_REQUIRE(v->kind == Kind::Int || v->u <= INT64_MAX, PTO_ERR_OUT_OF_RANGE);
    *out = v->kind == Kind::Int ? v->i : static_cast<int64_t>(v->u);
    return PTO_OK;
}

pto_status valueAsUInt64(pto_run_context* ctx, pto_value value, uint64_t* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->isInteger(), PTO_ERR_WRONG_KIND);
    PTO_REQUIRE(v->kind == Kind::UInt, PTO_ERR_OUT_OF_RANGE);
    *out = v->u;
    return PTO_OK;
}

pto_status valueAsDouble(pto_run_context* ctx, pto_value value, double* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    switch (v->kind) {
        case Kind::F64: *out = v->d; return PTO_OK;
        case Kind::F32: *out = static_cast<double>(v->f); return PTO_OK;
        case Kind::UInt: *out = static_cast<double>(v->u); return PTO_OK;
        case Kind::Int: *out = static_cast<double>(v->i); return PTO_OK;
        default: return PTO_ERR_WRONG_KIND;
    }
}

pto_status valueAsString(pto_run_context* ctx, pto_value value, pto_string* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->kind == Kind::Str, PTO_ERR_WRONG_KIND);
    *out = str(v->strView());
    return PTO_OK;
}

pto_status valueAsNode(pto_run_context* ctx, pto_value value, pto_node* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->isNode(), PTO_ERR_WRONG_KIND);
    *out = fromSlot(ctx, *v);
    return PTO_OK;
}

// A span is exposed as the map it stands for.
Value spanAsMap(pto_run_context* ctx, const ir::Span& sp) {
    ir::Map* m = ctx->doc.newMap(5);
    ctx->doc.set(*m, K::begin_column, Value::integer(sp.beginColumn));
    ctx->doc.set(*m, K::begin_line, Value::integer(sp.beginLine));
    ctx->doc.set(*m, K::end_column, Value::integer(sp.endColumn));
    ctx->doc.set(*m, K::end_line, Value::integer(sp.endLine));
    ctx->doc.set(*m, K::filename, Value::str(sp.file));
    return Value::map(m);
}

ir::Map* asMap(pto_run_context* ctx, Value* v) {
    if (v->kind == Kind::Span) *v = spanAsMap(ctx, ctx->doc.span(*v));  // same content, generic form
    return v->kind == Kind::Map ? v->m : nullptr;
}

pto_status valueSize(pto_run_context* ctx, pto_value value, size_t* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    if (v->kind == Kind::Array)
        *out = v->a->size;
    else if (v->kind == Kind::Span)
        *out = 5;
    else if (v->kind == Kind::Map)
        *out = v->m->size;
    else
        return PTO_ERR_WRONG_KIND;
    return PTO_OK;
}

pto_status valueArrayAt(pto_run_context* ctx, pto_value value, size_t index, pto_value* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->kind == Kind::Array, PTO_ERR_WRONG_KIND);
    PTO_REQUIRE(index < v->a->size, PTO_ERR_OUT_OF_RANGE);
    return guarded([&] {
        *out = fromValue(ctx, ValueSlot{&v->a->items[index], v->a, nullptr, v->a->items});
        return PTO_OK;
    });
}

pto_status valueMapAt(pto_run_context* ctx, pto_value value, size_t index, pto_string* key, pto_value* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && key && out, PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        ir::Map* m = asMap(ctx, v);
        if (!m) return PTO_ERR_WRONG_KIND;
        if (index >= m->size) return PTO_ERR_OUT_OF_RANGE;
        *key = str(ctx->doc.keys().name(m->keyAt(index)));
        *out = fromValue(ctx, ValueSlot{&m->values[index], nullptr, m, m->values});
        return PTO_OK;
    });
}

pto_status valueMapFind(pto_run_context* ctx, pto_value value, pto_string key, pto_value* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out && (key.data || !key.size), PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        ir::Map* m = asMap(ctx, v);
        if (!m) return PTO_ERR_WRONG_KIND;
        for (ir::Member member : *m)
            if (ctx->doc.keys().name(member.key) == view(key)) {
                *out = fromValue(ctx, ValueSlot{&member.value, nullptr, m, m->values});
                return PTO_OK;
            }
        return PTO_ERR_NOT_FOUND;
    });
}

pto_status valueTypeKind(pto_run_context* ctx, pto_value value, pto_type_kind* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->kind == Kind::Map && v->m->find(K::type_kind), PTO_ERR_WRONG_KIND);
    *out = typeKindOf(v);
    return PTO_OK;
}

// --- rewriting -----------------------------------------------------------------------------------

pto_status makeSingletonType(pto_run_context* ctx, pto_type_kind kind, pto_value* out) {
    PTO_REQUIRE(ctx && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE_WHY(kind == PTO_TYPE_COMM_CTX || kind == PTO_TYPE_PTR, PTO_ERR_INVALID_ARGUMENT,
                    "the singleton types are PTO_TYPE_COMM_CTX and PTO_TYPE_PTR");
    const pto_type_desc desc{sizeof desc, kind, PTO_DTYPE_BOOL, nullptr, 0, nullptr, 0};
    return table::makeType(ctx, &desc, out);
}

pto_status createVar(pto_run_context* ctx, pto_string name, pto_value type, pto_node spanSource, pto_node* out) {
    Value* t = toValue(ctx, type);
    PTO_REQUIRE(t && out && (name.data || !name.size), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(pto_node_is_null(spanSource) || toNode(ctx, spanSource), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(t->kind == Kind::Map && t->m->find(K::type_kind), PTO_ERR_WRONG_KIND);
    return guarded([&] {
        *out = fromNode(ctx, ir::makeVar(ctx->doc, view(name), *t, spanOf(ctx, spanSource)));
        return PTO_OK;
    });
}

pto_status createOpCall(pto_run_context* ctx, pto_string op, const pto_node* args, size_t argCount, pto_value type,
                        pto_node spanSource, pto_node* out) {
    Value* t = toValue(ctx, type);
    PTO_REQUIRE(t && out && (args || !argCount) && (op.data || !op.size), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(pto_node_is_null(spanSource) || toNode(ctx, spanSource), PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        Scratch<Node*> nodes(argCount);
        for (size_t i = 0; i < argCount; ++i) {
            if (!(nodes[i] = toNode(ctx, args[i]))) return PTO_ERR_INVALID_HANDLE;
            if (!ir::nodeFitsClass(nodes[i]->type, ir::NodeClass::Expr)) return PTO_ERR_WRONG_KIND;
        }
        const Value* name = ctx->lastOp.kind == Kind::Map ? ctx->lastOp.m->find(K::name) : nullptr;
        if (!name || name->strView() != view(op)) ctx->lastOp = ir::makeOp(ctx->doc, view(op));
        *out = fromNode(ctx, ir::makeOpCall(ctx->doc, ctx->lastOp, nodes.span(), *t, spanOf(ctx, spanSource)));
        return PTO_OK;
    });
}

pto_status createAssign(pto_run_context* ctx, pto_node var, pto_node value, pto_node spanSource, pto_node* out) {
    Node* v = toNode(ctx, var);
    Node* x = toNode(ctx, value);
    PTO_REQUIRE(v && x && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(pto_node_is_null(spanSource) || toNode(ctx, spanSource), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(ir::nodeFitsClass(v->type, ir::NodeClass::Var) && ir::nodeFitsClass(x->type, ir::NodeClass::Expr),
                PTO_ERR_WRONG_KIND);
    return guarded([&] {
        *out = fromNode(ctx, ir::makeAssign(ctx->doc, v, x, spanOf(ctx, spanSource)));
        return PTO_OK;
    });
}

pto_status functionAppendParam(pto_run_context* ctx, pto_node function, pto_node param, pto_param_direction dir) {
    Node* f = toNode(ctx, function);
    Node* p = toNode(ctx, param);
    PTO_REQUIRE(f && p, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(dir >= PTO_PARAM_IN && dir <= PTO_PARAM_INOUT, PTO_ERR_INVALID_ARGUMENT);
    PTO_REQUIRE(f->type == K::Function, PTO_ERR_WRONG_KIND);
    if (pto_status s = checkPlacement(ctx, f, K::params, p); s != PTO_OK) return s;
    return guarded([&] {
        pto_status s = statusOf(ctx, ir::appendParam(ctx->doc, f, p, static_cast<ir::ParamDirectionCode>(dir)));
        if (s == PTO_OK) noteEdges(ctx, f, Value::node(p));
        return s;
    });
}

pto_status callAppendArg(pto_run_context* ctx, pto_node call, pto_node arg) {
    Node* c = toNode(ctx, call);
    Node* a = toNode(ctx, arg);
    PTO_REQUIRE(c && a, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(isCallLike(c), PTO_ERR_WRONG_KIND);
    if (pto_status s = checkPlacement(ctx, c, K::args, a); s != PTO_OK) return s;
    return guarded([&] {
        pto_status s = statusOf(ctx, ir::appendArg(ctx->doc, c, a));
        if (s == PTO_OK) noteEdges(ctx, c, Value::node(a));
        return s;
    });
}

pto_status callExtendArgDirections(pto_run_context* ctx, pto_node call, const pto_arg_direction* codes, size_t count,
                                   int* present) {
    Node* c = toNode(ctx, call);
    PTO_REQUIRE(c && present && (codes || !count), PTO_ERR_INVALID_HANDLE);
    for (size_t i = 0; i < count; ++i)
        PTO_REQUIRE(codes[i] >= PTO_ARG_INPUT && codes[i] <= PTO_ARG_SCALAR, PTO_ERR_INVALID_ARGUMENT);
    return guarded([&] {
        Scratch<uint8_t> raw(count);
        for (size_t i = 0; i < count; ++i) raw[i] = static_cast<uint8_t>(codes[i]);
        bool found = false;
        pto_status s = statusOf(ctx, ir::extendArgDirections(ctx->doc, c, raw.span(), &found));
        *present = found;
        return s;
    });
}

pto_status replaceChild(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, pto_node replacement) {
    Node* p = toNode(ctx, parent);
    Node* r = toNode(ctx, replacement);
    PTO_REQUIRE(p && r, PTO_ERR_INVALID_HANDLE);
    pto_status status = PTO_OK;
    Value* slot = childSlot(p, field, index, &status);
    PTO_REQUIRE(slot, status);
    if (pto_status s = checkPlacement(ctx, p, keyOf(field), r); s != PTO_OK) return s;
    *slot = Value::node(r);
    noteEdges(ctx, p, *slot);
    return PTO_OK;
}

pto_status flushInserts(pto_run_context* ctx) {
    PTO_REQUIRE(ctx, PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        applyEdits(ctx);
        return PTO_OK;
    });
}

// --- diagnostics ---------------------------------------------------------------------------------

pto_status emitDiagnostic(pto_run_context* ctx, const pto_diagnostic* d) {
    PTO_REQUIRE(ctx && d, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(d->struct_size >= sizeof(pto_diagnostic), PTO_ERR_INVALID_ARGUMENT);
    PTO_REQUIRE(d->severity >= PTO_SEVERITY_NOTE && d->severity <= PTO_SEVERITY_INTERNAL_ERROR,
                PTO_ERR_INVALID_ARGUMENT);
    PTO_REQUIRE((d->rule.data || !d->rule.size) && (d->message.data || !d->message.size), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(pto_node_is_null(d->node) || toNode(ctx, d->node), PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        Diagnostic diag;
        diag.severity = d->severity;
        diag.rule.assign(view(d->rule));
        diag.message.assign(view(d->message));
        if (!pto_node_is_null(d->node)) {
            pto_span s{};
            nodeSpan(ctx, d->node, &s);
            diag.file.assign(view(s.filename));
            diag.line = s.begin_line;
            diag.column = s.begin_column;
            diag.endLine = s.end_line;
            diag.endColumn = s.end_column;
        }
        if (d->severity >= PTO_SEVERITY_ERROR) ctx->hasErrors = true;
        ctx->diagnostics.push_back(std::move(diag));
        return PTO_OK;
    });
}

// Every table entry: a NULL or dead run context is an error status, not a crash; no exception unwinds
// into the plugin; a verifier's rewrite is refused; and a failing call leaves its last_error message.
enum class Access { Read, Write };

template <size_t N>
struct EntryName {
    char text[N];
    constexpr EntryName(const char (&s)[N]) { std::copy_n(s, N, text); }  // NOLINT(google-explicit-constructor)
};

const char* generalReason(pto_status s) {
    switch (s) {
        case PTO_ERR_INVALID_HANDLE:
            return "a pointer argument is NULL, or a handle is null, from another run, or stale";
        case PTO_ERR_OUT_OF_RANGE: return "an index is past the end of its list";
        case PTO_ERR_WRONG_KIND: return "the node or value is not of a kind this function takes";
        case PTO_ERR_NOT_FOUND: return "no such field, entry, option or function";
        case PTO_ERR_INVALID_ARGUMENT: return "an argument is invalid (a bad enum value, name or descriptor)";
        case PTO_ERR_UNSUPPORTED: return "not available here";
        default: return "the host failed (out of memory, or a host bug)";
    }
}

template <auto Fn, EntryName Name, Access A = Access::Read>
struct Entry;
template <class... Args, pto_status (*Fn)(pto_run_context*, Args...), EntryName Name, Access A>
struct Entry<Fn, Name, A> {
    static pto_status call(pto_run_context* ctx, Args... args) {
        if (!ctx || ctx->magic != pto_run_context::kMagic) return PTO_ERR_INVALID_HANDLE;
        ctx->errorDetailStatus = PTO_OK;
        pto_status s = PTO_OK;
        if (A == Access::Write && ctx->settings.readOnly)
            s = fail(ctx, PTO_ERR_UNSUPPORTED, "verifiers read the program and must not change it");
        else
            s = guarded([&] { return Fn(ctx, args...); });
        if (s != PTO_OK) {
            guarded([&] {
                ctx->lastError.assign(Name.text).append(": ").append(statusName(s)).append(": ");
                ctx->lastError.append(ctx->errorDetailStatus == s ? ctx->errorDetail : generalReason(s));
                return PTO_OK;
            });
        }
        return s;
    }
};

pto_status lastError(pto_run_context* ctx, pto_string* out) {
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    *out = str(ctx->lastError);
    return PTO_OK;
}

constexpr Access W = Access::Write;

// Designated: a slot given the wrong function (or out of order) does not compile.
const pto_host_api kApi = {
    .struct_size = sizeof(pto_host_api),
    .abi_major = PTO_ABI_MAJOR,
    .abi_minor = PTO_ABI_MINOR,
    .program = Entry<program, "program">::call,
    .program_function_count = Entry<programFunctionCount, "program_function_count">::call,
    .program_function_at = Entry<programFunctionAt, "program_function_at">::call,
    .program_find_function = Entry<programFindFunction, "program_find_function">::call,
    .node_kind = Entry<nodeKind, "node_kind">::call,
    .node_type_name = Entry<nodeTypeName, "node_type_name">::call,
    .node_name = Entry<nodeName, "node_name">::call,
    .node_span = Entry<nodeSpan, "node_span">::call,
    .node_type_kind = Entry<nodeTypeKind, "node_type_kind">::call,
    .node_child_count = Entry<nodeChildCount, "node_child_count">::call,
    .node_child = Entry<nodeChild, "node_child">::call,
    .node_field = Entry<nodeField, "node_field">::call,
    .field_from_name = Entry<fieldFromName, "field_from_name">::call,
    .function_info = Entry<functionInfo, "function_info">::call,
    .function_param_direction = Entry<functionParamDirection, "function_param_direction">::call,
    .call_op = Entry<callOp, "call_op">::call,
    .call_attr = Entry<callAttr, "call_attr">::call,
    .tuple_get_item_index = Entry<tupleGetItemIndex, "tuple_get_item_index">::call,
    .value_kind = Entry<valueKind, "value_kind">::call,
    .value_as_bool = Entry<valueAsBool, "value_as_bool">::call,
    .value_as_int64 = Entry<valueAsInt64, "value_as_int64">::call,
    .value_as_uint64 = Entry<valueAsUInt64, "value_as_uint64">::call,
    .value_as_double = Entry<valueAsDouble, "value_as_double">::call,
    .value_as_string = Entry<valueAsString, "value_as_string">::call,
    .value_as_node = Entry<valueAsNode, "value_as_node">::call,
    .value_size = Entry<valueSize, "value_size">::call,
    .value_array_at = Entry<valueArrayAt, "value_array_at">::call,
    .value_map_at = Entry<valueMapAt, "value_map_at">::call,
    .value_map_find = Entry<valueMapFind, "value_map_find">::call,
    .value_type_kind = Entry<valueTypeKind, "value_type_kind">::call,
    .walk = Entry<table::walk, "walk">::call,
    .make_singleton_type = Entry<makeSingletonType, "make_singleton_type">::call,
    .create_var = Entry<createVar, "create_var">::call,
    .create_op_call = Entry<createOpCall, "create_op_call">::call,
    .create_assign = Entry<createAssign, "create_assign">::call,
    .function_append_param = Entry<functionAppendParam, "function_append_param", W>::call,
    .call_append_arg = Entry<callAppendArg, "call_append_arg", W>::call,
    .call_extend_arg_directions = Entry<callExtendArgDirections, "call_extend_arg_directions", W>::call,
    .insert_before = Entry<table::insertBefore, "insert_before", W>::call,
    .replace_child = Entry<replaceChild, "replace_child", W>::call,
    .flush_inserts = Entry<flushInserts, "flush_inserts", W>::call,
    .emit_diagnostic = Entry<emitDiagnostic, "emit_diagnostic">::call,
    .last_error = Entry<lastError, "last_error">::call,
    .value_make_null = Entry<table::valueMakeNull, "value_make_null">::call,
    .value_make_bool = Entry<table::valueMakeBool, "value_make_bool">::call,
    .value_make_int = Entry<table::valueMakeInt, "value_make_int">::call,
    .value_make_double = Entry<table::valueMakeDouble, "value_make_double">::call,
    .value_make_string = Entry<table::valueMakeString, "value_make_string">::call,
    .value_make_node = Entry<table::valueMakeNode, "value_make_node">::call,
    .value_make_array = Entry<table::valueMakeArray, "value_make_array">::call,
    .value_make_map = Entry<table::valueMakeMap, "value_make_map">::call,
    .make_type = Entry<table::makeType, "make_type">::call,
    .type_dtype = Entry<table::typeDtype, "type_dtype">::call,
    .type_rank = Entry<table::typeRank, "type_rank">::call,
    .type_dim = Entry<table::typeDim, "type_dim">::call,
    .create_node = Entry<table::createNode, "create_node">::call,
    .node_set_field = Entry<table::nodeSetField, "node_set_field", W>::call,
    .insert_after = Entry<table::insertAfter, "insert_after", W>::call,
    .remove_stmt = Entry<table::removeStmt, "remove_stmt", W>::call,
    .move_stmt = Entry<table::moveStmt, "move_stmt", W>::call,
    .replace_uses = Entry<table::replaceUses, "replace_uses", W>::call,
    .attr_count = Entry<table::attrCount, "attr_count">::call,
    .attr_at = Entry<table::attrAt, "attr_at">::call,
    .attr_find = Entry<table::attrFind, "attr_find">::call,
    .attr_set = Entry<table::attrSet, "attr_set", W>::call,
    .attr_remove = Entry<table::attrRemove, "attr_remove", W>::call,
    .call_arg_directions = Entry<table::callArgDirections, "call_arg_directions">::call,
    .function_rename = Entry<table::functionRename, "function_rename", W>::call,
    .create_call = Entry<table::createCall, "create_call">::call,
    .call_set_op = Entry<table::callSetOp, "call_set_op", W>::call,
    .function_calls = Entry<table::functionCalls, "function_calls">::call,
    .node_set_fields = Entry<table::nodeSetFields, "node_set_fields", W>::call,
    .program_add_function = Entry<table::programAddFunction, "program_add_function", W>::call,
    .program_remove_function = Entry<table::programRemoveFunction, "program_remove_function", W>::call,
    .clone_node = Entry<table::cloneNode, "clone_node">::call,
    .pass_option = Entry<table::passOption, "pass_option">::call,
};

}  // namespace

const pto_host_api& hostApi() { return kApi; }

}  // namespace ptoplug::host
