// The host table's helpers shared by its parts (declared in handles.h): where a node may go, spans,
// the program's functions, host-made values, messages.
#include "abi_host/handles.h"

#include "ir/rewrite.h"
#include "ir/schema.h"

namespace ptoplug::host::table {

std::string_view typeName(pto_run_context* ctx, const Node* n) { return ctx->doc.keys().name(n->type); }

pto_status checkPlacement(pto_run_context* ctx, Node* parent, uint32_t key, Node* child) {
    ir::NodeClass cls = ir::fieldNodeClass(parent->type, key);
    if (!ir::nodeFitsClass(child->type, cls))
        return fail(ctx, PTO_ERR_WRONG_KIND,
                    "field '" + std::string(ctx->doc.keys().name(key)) + "' of a " +
                        std::string(typeName(ctx, parent)) + " holds " + ir::nodeClassName(cls) + "; got a " +
                        std::string(typeName(ctx, child)));
    if (ctx->containment.reaches(child, parent))
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
