// Building nodes (a var, an op call, an assignment, any node by type name, a clone) and editing their fields
// (set by name, params and args appended, arg_directions extended). Every node built or edited by name is
// checked by the reader's own rules for the node (ir::checkNodeShape), so a plugin cannot build what the
// host would refuse to read.
#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "ir/rewrite.h"
#include "ir/schema.h"
#include "ir/validate.h"

namespace ptoplug::host::table {
namespace {

pto_status shapeFailure(pto_run_context* ctx, const Status& s) {
    return fail(ctx, PTO_ERR_INVALID_ARGUMENT, s->message + (s->hint.empty() ? "" : " (" + s->hint + ")"));
}

}  // namespace

pto_status createNode(pto_run_context* ctx, pto_string typeName, const pto_field_value* fields, size_t count,
                      pto_node* out) {
    PTO_REQUIRE_WHY(out && (fields || !count) && (typeName.data || !typeName.size), PTO_ERR_INVALID_HANDLE,
                    "NULL out or type name, or NULL fields with a count");
    ir::Document& doc = ctx->doc;
    const uint32_t type = doc.keys().intern(view(typeName));
    PTO_REQUIRE_WHY(ir::schemaFor(type) && type != K::Program, PTO_ERR_INVALID_ARGUMENT,
                    "'" + std::string(view(typeName)) +
                        "' is not a node type create_node builds (docs/ir_format.md §6 lists them; not Program)");
    Node* n = doc.newNode(type, static_cast<uint32_t>(count + 2));
    for (size_t i = 0; i < count; ++i) {
        Value* v = toValue(ctx, fields[i].value);
        if (!v || (!fields[i].name.data && fields[i].name.size))
            return fail(ctx, PTO_ERR_INVALID_HANDLE, "field " + std::to_string(i) + " has no live value or name");
        const uint32_t key = keyId(ctx, view(fields[i].name));
        if (key == ir::KeyTable::kFull) return PTO_ERR_INVALID_ARGUMENT;
        if (n->field(key))
            return fail(ctx, PTO_ERR_INVALID_ARGUMENT,
                        "field '" + std::string(view(fields[i].name)) + "' is given twice");
        doc.set(n->fields, key, ir::copyValue(doc, *v));
    }
    if (!n->field(K::span)) doc.set(n->fields, K::span, ir::makeUnknownSpan(doc));
    if (ir::isStmtType(type) && !n->field(K::leading_comments))
        doc.set(n->fields, K::leading_comments, Value::array(doc.newArray(0)));
    if (Status s = ir::checkNodeShape(doc, n)) return shapeFailure(ctx, s);
    *out = fromNode(ctx, n);
    return PTO_OK;
}

namespace {

// Sets `keys[i]` to `values[i]` on `n`, all checked together; on a failure restores every field.
pto_status setFields(pto_run_context* ctx, Node* n, const std::vector<uint32_t>& keys,
                     const std::vector<Value*>& values) {
    PTO_REQUIRE_WHY(ir::schemaFor(n->type) && n->type != K::Program, PTO_ERR_WRONG_KIND,
                    "fields of a " + std::string(typeName(ctx, n)) + " cannot be set");
    for (size_t i = 0; i < keys.size(); ++i) {
        PTO_REQUIRE_WHY(!(n->type == K::Function && keys[i] == K::name), PTO_ERR_INVALID_ARGUMENT,
                        "a function's name is changed with function_rename, which keeps the program and its calls "
                        "consistent");
        for (size_t j = 0; j < i; ++j)
            PTO_REQUIRE_WHY(keys[j] != keys[i], PTO_ERR_INVALID_ARGUMENT,
                            "field '" + std::string(ctx->doc.keys().name(keys[i])) + "' is given twice");
        const Node* cycle = nullptr;
        ir::forEachNodeSlot(*values[i], [&](const Value& child) {
            if (!cycle && ctx->containment.reaches(child.n, n)) cycle = child.n;
        });
        PTO_REQUIRE_WHY(!cycle, PTO_ERR_INVALID_ARGUMENT,
                        "the value holds a " + std::string(cycle ? typeName(ctx, cycle) : "") + " that contains this " +
                            std::string(typeName(ctx, n)) + " (a cycle)");
    }
    ir::Document& doc = ctx->doc;
    std::vector<std::pair<bool, Value>> saved;
    for (size_t i = 0; i < keys.size(); ++i) {
        const Value* old = n->field(keys[i]);
        saved.emplace_back(old != nullptr, old ? *old : Value::null());
        doc.set(n->fields, keys[i], ir::copyValue(doc, *values[i]));
    }
    if (Status s = ir::checkNodeShape(doc, n)) {
        for (size_t i = keys.size(); i-- > 0;) {
            if (saved[i].first)
                doc.set(n->fields, keys[i], saved[i].second);
            else
                ir::eraseKey(doc, n->fields, keys[i]);
        }
        return shapeFailure(ctx, s);
    }
    for (uint32_t key : keys) ctx->containment.noteEdges(n, *n->field(key));
    return PTO_OK;
}

}  // namespace

pto_status nodeSetField(pto_run_context* ctx, pto_node node, uint32_t field, pto_value value) {
    Node* n = toNode(ctx, node);
    Value* v = toValue(ctx, value);
    PTO_REQUIRE_WHY(n && v, PTO_ERR_INVALID_HANDLE, "the node or value handle is null, foreign or stale");
    const uint32_t key = keyOf(field);
    PTO_REQUIRE_WHY(key < ctx->doc.keys().size(), PTO_ERR_NOT_FOUND, "no such field id (use field_from_name)");
    return setFields(ctx, n, {key}, {v});
}

pto_status nodeSetFields(pto_run_context* ctx, pto_node node, const pto_field_value* fields, size_t count) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE_WHY(n && (fields || !count), PTO_ERR_INVALID_HANDLE, "null node, or NULL fields with a count");
    std::vector<uint32_t> keys;
    std::vector<Value*> values;
    for (size_t i = 0; i < count; ++i) {
        Value* v = toValue(ctx, fields[i].value);
        if (!v || (!fields[i].name.data && fields[i].name.size))
            return fail(ctx, PTO_ERR_INVALID_HANDLE, "field " + std::to_string(i) + " has no live value or name");
        keys.push_back(keyId(ctx, view(fields[i].name)));
        if (keys.back() == ir::KeyTable::kFull) return PTO_ERR_INVALID_ARGUMENT;
        values.push_back(v);
    }
    return setFields(ctx, n, keys, values);
}

pto_status cloneNode(pto_run_context* ctx, pto_node node, pto_node* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE_WHY(n && out, PTO_ERR_INVALID_HANDLE, "null node or out");
    PTO_REQUIRE_WHY(n->type != K::Program && n->type != K::Function, PTO_ERR_INVALID_ARGUMENT,
                    "a " + std::string(typeName(ctx, n)) + " cannot be cloned (functions are named, programs unique)");
    ir::Document& doc = ctx->doc;
    Node* copy = doc.newNode(n->type, n->fields.size);
    for (const ir::Member& m : n->fields) doc.set(copy->fields, m.key, ir::copyValue(doc, m.value));
    *out = fromNode(ctx, copy);
    return PTO_OK;
}

pto_status createVar(pto_run_context* ctx, pto_string name, pto_value type, pto_node spanSource, pto_node* out) {
    Value* t = toValue(ctx, type);
    PTO_REQUIRE(t && out && (name.data || !name.size), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(pto_node_is_null(spanSource) || toNode(ctx, spanSource), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(t->kind == Kind::Map && t->m->find(K::type_kind), PTO_ERR_WRONG_KIND);
    return guarded([&] {
        *out = fromNode(ctx, ir::makeVar(ctx->doc, view(name), ir::copyValue(ctx->doc, *t), spanOf(ctx, spanSource)));
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
        *out = fromNode(ctx, ir::makeOpCall(ctx->doc, ctx->lastOp, nodes.span(), ir::copyValue(ctx->doc, *t),
                                            spanOf(ctx, spanSource)));
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
        if (s == PTO_OK) ctx->containment.noteEdges(f, Value::node(p));
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
        if (s == PTO_OK) ctx->containment.noteEdges(c, Value::node(a));
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

}  // namespace ptoplug::host::table
