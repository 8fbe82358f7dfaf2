// Reading the program: its functions, each node's kind, type name, name, span and type kind, its children
// and fields by ABI field id, a function's info and param directions, and what a call calls.
#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "ir/rewrite.h"

namespace ptoplug::host::table {

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
            Expected<ir::Span> read = ctx->doc.span(*v);
            if (!read) return fail(ctx, PTO_ERR_INTERNAL, read.error().message);
            const ir::Span& sp = *read;
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

}  // namespace ptoplug::host::table
