// Nodes built and edited field by field. Every change is checked by the reader's own rules for the node
// (ir::checkNodeShape), so a plugin cannot build what the host would refuse to read.
#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "ir/rewrite.h"
#include "ir/schema.h"
#include "ir/validate.h"

namespace ptoplug::host::table {
namespace {

// The nodes inside a value, for the cycle check of a field that will hold it.
void nodesIn(const Value& v, std::vector<Node*>& out) {
    if (v.isNode()) {
        out.push_back(v.n);
    } else if (v.kind == Kind::Array) {
        for (const Value& item : *v.a) nodesIn(item, out);
    } else if (v.kind == Kind::Map) {
        for (const ir::Member& m : *v.m) nodesIn(m.value, out);
    }
}

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
        const uint32_t key = doc.keys().intern(view(fields[i].name));
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

pto_status nodeSetField(pto_run_context* ctx, pto_node node, uint32_t field, pto_value value) {
    Node* n = toNode(ctx, node);
    Value* v = toValue(ctx, value);
    PTO_REQUIRE_WHY(n && v, PTO_ERR_INVALID_HANDLE, "the node or value handle is null, foreign or stale");
    const uint32_t key = keyOf(field);
    PTO_REQUIRE_WHY(key != UINT32_MAX, PTO_ERR_NOT_FOUND, "no such field id (use field_from_name)");
    PTO_REQUIRE_WHY(ir::schemaFor(n->type) && n->type != K::Program, PTO_ERR_WRONG_KIND,
                    "fields of a " + std::string(typeName(ctx, n)) + " cannot be set");
    PTO_REQUIRE_WHY(!(n->type == K::Function && key == K::name), PTO_ERR_INVALID_ARGUMENT,
                    "a function's name is changed with function_rename, which keeps the program and its calls "
                    "consistent");
    std::vector<Node*> inside;
    nodesIn(*v, inside);
    for (Node* child : inside)
        PTO_REQUIRE_WHY(!reaches(ctx, child, n), PTO_ERR_INVALID_ARGUMENT,
                        "the value holds a " + std::string(typeName(ctx, child)) + " that contains this " +
                            std::string(typeName(ctx, n)) + " (a cycle)");
    ir::Document& doc = ctx->doc;
    Value* old = n->field(key);
    const Value saved = old ? *old : Value::null();
    const bool existed = old != nullptr;
    doc.set(n->fields, key, ir::copyValue(doc, *v));
    if (Status s = ir::checkNodeShape(doc, n)) {
        if (existed)
            doc.set(n->fields, key, saved);
        else
            ir::eraseKey(doc, n->fields, key);
        return shapeFailure(ctx, s);
    }
    return PTO_OK;
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

}  // namespace ptoplug::host::table
