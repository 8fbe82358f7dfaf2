// Statement edits: insert before and after, append, remove and move (deferred, applied together when the pass
// returns or at flush_inserts), and replacing a child or a variable's uses (immediate).
#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "ir/schema.h"

namespace ptoplug::host::table {
namespace {

using Side = ir::PendingStmtEdits::Side;

// The statement at (parent, field, index), or nullptr with the status in *status and last_error's reason.
Node* statementAt(pto_run_context* ctx, Node* parent, uint32_t field, size_t index, pto_status* status) {
    *status = PTO_OK;
    Value* slot = childSlot(parent, field, index, status);
    if (!slot) {
        fail(ctx, *status, "no node at that field and index");
        return nullptr;
    }
    if (!ir::isStmtType(slot->n->type)) {
        *status = fail(ctx, PTO_ERR_WRONG_KIND,
                       "the slot holds a " + std::string(typeName(ctx, slot->n)) + ", not a statement");
        return nullptr;
    }
    return slot->n;
}

// The statements to put into `into`, each checked: a live statement that does not contain `into`.
pto_status statementsToInsert(pto_run_context* ctx, Node* into, const pto_node* stmts, size_t count,
                              Scratch<Node*>& nodes) {
    for (size_t i = 0; i < count; ++i) {
        if (!(nodes[i] = toNode(ctx, stmts[i])))
            return fail(ctx, PTO_ERR_INVALID_HANDLE, "stmts[" + std::to_string(i) + "] is not a live node");
        if (!ir::isStmtType(nodes[i]->type))
            return fail(
                ctx, PTO_ERR_WRONG_KIND,
                "stmts[" + std::to_string(i) + "] is a " + std::string(typeName(ctx, nodes[i])) + ", not a statement");
        if (ctx->containment.reaches(nodes[i], into))
            return fail(ctx, PTO_ERR_INVALID_ARGUMENT,
                        "stmts[" + std::to_string(i) + "] contains the statement it would be put in (a cycle)");
    }
    return PTO_OK;
}

pto_status queueInsert(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, const pto_node* stmts,
                       size_t count, Side side) {
    Node* p = toNode(ctx, parent);
    PTO_REQUIRE_WHY(p && (stmts || !count), PTO_ERR_INVALID_HANDLE, "null parent, or NULL stmts with a count");
    pto_status status = PTO_OK;
    if (!statementAt(ctx, p, field, index, &status)) return status;
    Scratch<Node*> nodes(count);
    if (pto_status s = statementsToInsert(ctx, p, stmts, count, nodes); s != PTO_OK) return s;
    ir::Slot slot{p, keyOf(field), static_cast<uint32_t>(index)};
    return statusOf(ctx, ctx->edits.insert(ctx->doc, slot, nodes.span(), side));
}

}  // namespace

pto_status insertBefore(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, const pto_node* stmts,
                        size_t count) {
    return queueInsert(ctx, parent, field, index, stmts, count, Side::Before);
}

pto_status insertAfter(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, const pto_node* stmts,
                       size_t count) {
    return queueInsert(ctx, parent, field, index, stmts, count, Side::After);
}

pto_status appendStmts(pto_run_context* ctx, pto_node seq, const pto_node* stmts, size_t count) {
    Node* p = toNode(ctx, seq);
    PTO_REQUIRE_WHY(p && (stmts || !count), PTO_ERR_INVALID_HANDLE, "null seq, or NULL stmts with a count");
    PTO_REQUIRE_WHY(p->type == K::SeqStmts, PTO_ERR_WRONG_KIND,
                    "`seq` is a " + std::string(typeName(ctx, p)) + ", not a SeqStmts");
    Scratch<Node*> nodes(count);
    if (pto_status s = statementsToInsert(ctx, p, stmts, count, nodes); s != PTO_OK) return s;
    ctx->edits.append(p, nodes.span());
    return PTO_OK;
}

pto_status removeStmt(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index) {
    Node* p = toNode(ctx, parent);
    PTO_REQUIRE_WHY(p, PTO_ERR_INVALID_HANDLE, "the parent handle is null, foreign or stale");
    pto_status status = PTO_OK;
    if (!statementAt(ctx, p, field, index, &status)) return status;
    return statusOf(ctx, ctx->edits.remove(ir::Slot{p, keyOf(field), static_cast<uint32_t>(index)}));
}

pto_status moveStmt(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, pto_node toParent,
                    uint32_t toField, size_t toIndex) {
    Node* p = toNode(ctx, parent);
    Node* to = toNode(ctx, toParent);
    PTO_REQUIRE_WHY(p && to, PTO_ERR_INVALID_HANDLE, "a parent handle is null, foreign or stale");
    pto_status status = PTO_OK;
    Node* moved = statementAt(ctx, p, field, index, &status);
    if (!moved) return status;
    if (!statementAt(ctx, to, toField, toIndex, &status)) return status;
    PTO_REQUIRE_WHY(!ctx->containment.reaches(moved, to), PTO_ERR_INVALID_ARGUMENT,
                    "the destination lies inside the statement moved");
    ir::Slot from{p, keyOf(field), static_cast<uint32_t>(index)};
    ir::Slot dest{to, keyOf(toField), static_cast<uint32_t>(toIndex)};
    // Both checked above, so neither edit can fail half way.
    if (pto_status s = statusOf(ctx, ctx->edits.remove(from)); s != PTO_OK) return s;
    Node* const one[] = {moved};
    return statusOf(ctx, ctx->edits.insert(ctx->doc, dest, one, Side::Before));
}

pto_status replaceUses(pto_run_context* ctx, pto_node root, pto_node var, pto_node replacement, size_t* count) {
    Node* r = toNode(ctx, root);
    Node* v = toNode(ctx, var);
    Node* with = toNode(ctx, replacement);
    PTO_REQUIRE_WHY(r && v && with, PTO_ERR_INVALID_HANDLE, "a node handle is null, foreign or stale");
    PTO_REQUIRE_WHY(v->type == K::Var || v->type == K::IterArg || v->type == K::MemRef, PTO_ERR_WRONG_KIND,
                    "`var` is a " + std::string(typeName(ctx, v)) + ", not a Var, IterArg or MemRef");
    PTO_REQUIRE_WHY(ir::nodeFitsClass(with->type, ir::NodeClass::Expr), PTO_ERR_WRONG_KIND,
                    "`replacement` is a " + std::string(typeName(ctx, with)) + ", not an expression");
    // Where the variable stands in a Var-only place (a param, a loop variable), the replacement must be a
    // Var-class node too: checked up front so that nothing is half replaced.
    const bool varLike = ir::nodeFitsClass(with->type, ir::NodeClass::Var);
    PTO_REQUIRE_WHY(r != v, PTO_ERR_INVALID_ARGUMENT, "`root` is the variable itself");
    PTO_REQUIRE_WHY(!ctx->containment.reaches(with, r), PTO_ERR_INVALID_ARGUMENT,
                    "`replacement` contains `root` (a cycle)");
    // Nodes inside the replacement keep their uses: marking them visited means the walk never enters them,
    // so the replacement never ends up inside itself.
    ctx->containment.clearMarks();
    std::vector<Node*> work;
    auto enter = [&](Node* n) {
        if (ctx->containment.mark(n)) work.push_back(n);
    };
    enter(with);
    while (!work.empty()) {
        Node* n = work.back();
        work.pop_back();
        for (ir::Member m : n->fields) ir::forEachNodeSlot(m.value, [&](Value& edge) { enter(edge.n); });
    }
    // Find the slots first; refuse before changing anything if one of them only takes a Var.
    std::vector<Value*> slots;
    std::string refusal;
    enter(r);
    while (!work.empty() && refusal.empty()) {
        Node* n = work.back();
        work.pop_back();
        for (ir::Member m : n->fields) {
            const ir::NodeClass cls = ir::fieldNodeClass(n->type, m.key);
            ir::forEachNodeSlot(m.value, [&](Value& edge) {
                if (edge.n != v) return enter(edge.n);
                if (!varLike && (cls == ir::NodeClass::Var || cls == ir::NodeClass::IterArg))
                    refusal = "the variable is bound in field '" + std::string(ctx->doc.keys().name(m.key)) +
                              "' of a " + std::string(typeName(ctx, n)) + ", which takes a Var, not a " +
                              std::string(typeName(ctx, with));
                else if (cls == ir::NodeClass::IterArg && with->type != K::IterArg)
                    refusal = "an iter_args entry takes an IterArg";
                slots.push_back(&edge);
            });
        }
    }
    if (!refusal.empty()) return fail(ctx, PTO_ERR_WRONG_KIND, refusal);
    for (Value* slot : slots) *slot = Value::node(with);
    if (!slots.empty()) ctx->containment.noteReplaced(v, with);
    if (count) *count = slots.size();
    return PTO_OK;
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
    ctx->containment.noteEdges(p, *slot);
    return PTO_OK;
}

pto_status flushInserts(pto_run_context* ctx) {
    PTO_REQUIRE(ctx, PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        applyEdits(ctx);
        return PTO_OK;
    });
}

void applyEdits(pto_run_context* ctx) {
    ctx->edits.apply(ctx->doc,
                     [&](const Node* parent, const Value& field) { ctx->containment.noteEdges(parent, field); });
}

}  // namespace ptoplug::host::table
