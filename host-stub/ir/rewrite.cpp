#include "ir/rewrite.h"

#include <algorithm>

namespace ptoplug::ir {
namespace {

Value nodeList(Document& doc, std::span<Node* const> nodes) {
    Array* a = doc.newArray(static_cast<uint32_t>(nodes.size()));
    for (Node* n : nodes) doc.push(*a, Value::node(n));
    return Value::array(a);
}

Value emptyArray(Document& doc) { return Value::array(doc.newArray(0)); }

Error rewriteError(std::string message) {
    Error e;
    e.message = std::move(message);
    return e;
}

Value* arrayField(Node* node, uint32_t key) {
    Value* v = node ? node->field(key) : nullptr;
    return v && v->kind == Kind::Array ? v : nullptr;
}

}  // namespace

Value makeSingletonType(Document& doc, std::string_view typeKind) {
    Map* m = doc.newMap(1);
    doc.set(*m, K::type_kind, doc.newString(typeKind));
    return Value::map(m);
}

Value makeUnknownSpan(Document& doc) { return doc.makeSpan(Span{"", -1, -1, -1, -1}); }

Value copyValue(Document& doc, const Value& v) {
    if (v.kind == Kind::Array) {
        Array* a = doc.newArray(v.a->size);
        for (const Value& item : *v.a) doc.push(*a, copyValue(doc, item));
        return Value::array(a);
    }
    if (v.kind == Kind::Map) {
        Map* m = doc.newMap(v.m->size);
        for (const Member& member : *v.m) doc.set(*m, member.key, copyValue(doc, member.value));
        return Value::map(m);
    }
    return v;
}

void eraseIf(Document& doc, Array& array, const std::function<bool(const Value&)>& drop) {
    Array* kept = doc.newArray(array.size);
    for (const Value& item : array)
        if (!drop(item)) doc.push(*kept, item);
    array = *kept;
}

void eraseKey(Document& doc, Map& map, uint32_t key) {
    Map* kept = doc.newMap(map.size);
    for (const Member& m : map)
        if (m.key != key) doc.set(*kept, m.key, m.value);
    map = *kept;
}

Node* makeVar(Document& doc, std::string_view nameHint, Value type, Value span) {
    Node* var = doc.newNode(K::Var, 3);
    doc.set(var->fields, K::name_hint, doc.newString(nameHint));
    doc.set(var->fields, K::span, span);
    doc.set(var->fields, K::type, type);
    return var;
}

Value makeOp(Document& doc, std::string_view name) {
    Map* op = doc.newMap(2);
    doc.set(*op, K::is_global_var, Value::boolean(false));
    doc.set(*op, K::name, doc.newString(name));
    return Value::map(op);
}

Node* makeOpCall(Document& doc, Value op, std::span<Node* const> args, Value type, Value span) {
    Node* call = doc.newNode(K::Call, 6);
    doc.set(call->fields, K::args, nodeList(doc, args));
    doc.set(call->fields, K::attrs, emptyArray(doc));
    doc.set(call->fields, K::kwargs, emptyArray(doc));
    doc.set(call->fields, K::op, op);
    doc.set(call->fields, K::span, span);
    doc.set(call->fields, K::type, type);
    return call;
}

Node* makeAssign(Document& doc, Node* var, Node* value, Value span) {
    Node* assign = doc.newNode(K::AssignStmt, 4);
    doc.set(assign->fields, K::leading_comments, emptyArray(doc));
    doc.set(assign->fields, K::span, span);
    doc.set(assign->fields, K::value, Value::node(value));
    doc.set(assign->fields, K::var, Value::node(var));
    return assign;
}

Node* makeSeq(Document& doc, std::span<Node* const> stmts, Value span) {
    Node* seq = doc.newNode(K::SeqStmts, 3);
    doc.set(seq->fields, K::leading_comments, emptyArray(doc));
    doc.set(seq->fields, K::span, span);
    doc.set(seq->fields, K::stmts, nodeList(doc, stmts));
    return seq;
}

Status appendParam(Document& doc, Node* function, Node* param, ParamDirectionCode direction) {
    Value* params = arrayField(function, K::params);
    if (!params || function->type != K::Function) return rewriteError("appendParam: not a Function node");
    Value* dirs = function->field(K::param_directions);
    if (dirs && dirs->kind != Kind::Array) return rewriteError("appendParam: malformed param_directions");
    if (!dirs) {
        // pypto's default for an absent list is all In; make it explicit before extending it.
        Array* a = doc.newArray(params->a->size + 1);
        for (uint32_t i = 0; i < params->a->size; ++i) doc.push(*a, Value::uinteger(kParamIn));
        doc.set(function->fields, K::param_directions, Value::array(a));
        dirs = function->field(K::param_directions);
    }
    doc.push(*params->a, Value::node(param));
    doc.push(*dirs->a, Value::uinteger(direction));
    return std::nullopt;
}

Status appendArg(Document& doc, Node* call, Node* arg) {
    Value* args = arrayField(call, K::args);
    if (!args || (call->type != K::Call && call->type != K::Submit))
        return rewriteError("appendArg: not a Call or Submit node");
    doc.push(*args->a, Value::node(arg));
    return std::nullopt;
}

Status extendArgDirections(Document& doc, Node* call, std::span<const uint8_t> codes, bool* present) {
    *present = false;
    if (!call || (call->type != K::Call && call->type != K::Submit))
        return rewriteError("extendArgDirections: not a Call or Submit node");
    Map* entry = findAttrEntry(call->field(K::attrs), "arg_directions");
    if (!entry) return std::nullopt;
    Value* tagged = entry->find(K::value);
    Value* list = tagged->kind == Kind::Map ? tagged->m->find(K::value) : nullptr;
    if (!list || list->kind != Kind::Array)
        return rewriteError("extendArgDirections: arg_directions is not an ArgDirectionVector");
    for (uint8_t c : codes) doc.push(*list->a, Value::uinteger(c));
    *present = true;
    return std::nullopt;
}

Value* slotValue(const Slot& slot) {
    if (!slot.parent) return nullptr;
    Value* v = slot.parent->field(slot.field);
    if (!v) return nullptr;
    if (v->kind == Kind::Array) return slot.index < v->a->size ? &v->a->items[slot.index] : nullptr;
    return v;
}

Status replaceAt(Document& /*doc*/, const Slot& slot, Node* replacement) {
    Value* v = slotValue(slot);
    if (!v || !v->isNode()) return rewriteError("replace: the slot does not hold a node");
    *v = Value::node(replacement);
    return std::nullopt;
}

Status PendingStmtEdits::checkSlot(const Slot& slot, Value** field) const {
    Value* target = slotValue(slot);
    if (!target || !target->isNode() || !isStmtType(target->n->type))
        return rewriteError("the slot does not hold a statement");
    *field = slot.parent->field(slot.field);
    if ((*field)->kind == Kind::Array && slot.parent->type != K::SeqStmts)
        return rewriteError("statements can be inserted or removed only in a SeqStmts or a body slot");
    return std::nullopt;
}

Status PendingStmtEdits::insert(Document& /*doc*/, const Slot& slot, std::span<Node* const> stmts, Side side) {
    Value* field = nullptr;
    if (Status s = checkSlot(slot, &field)) return s;
    bySequence_[{slot.parent, slot.field}].push_back(
        Edit{field->kind == Kind::Array ? slot.index : 0, side, false, stmts_.size(), stmts.size()});
    stmts_.insert(stmts_.end(), stmts.begin(), stmts.end());
    return std::nullopt;
}

void PendingStmtEdits::append(Node* seq, std::span<Node* const> stmts) {
    bySequence_[{seq, K::stmts}].push_back(Edit{kEnd, Side::Before, false, stmts_.size(), stmts.size()});
    stmts_.insert(stmts_.end(), stmts.begin(), stmts.end());
}

Status PendingStmtEdits::remove(const Slot& slot) {
    Value* field = nullptr;
    if (Status s = checkSlot(slot, &field)) return s;
    bySequence_[{slot.parent, slot.field}].push_back(
        Edit{field->kind == Kind::Array ? slot.index : 0, Side::Before, true, 0, 0});
    return std::nullopt;
}

void PendingStmtEdits::apply(Document& doc, const std::function<void(const Node*, const Value&)>& edited) {
    for (auto& entry : bySequence_) {  // not a structured binding: clang 14 cannot capture one in a lambda
        const std::pair<Node*, uint32_t>& where = entry.first;
        std::vector<Edit>& edits = entry.second;
        std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.index < b.index; });
        Value* field = where.first->field(where.second);
        const bool lone = field->kind != Kind::Array;
        const uint32_t size = lone ? 1 : field->a->size;
        std::vector<Node*> rebuilt;
        rebuilt.reserve(size + stmts_.size());
        size_t next = 0;
        for (uint32_t i = 0; i < size; ++i) {
            size_t end = next;
            bool removed = false;
            for (; end < edits.size() && edits[end].index == i; ++end) removed = removed || edits[end].removal;
            auto emit = [&](Side side) {
                for (size_t k = next; k < end; ++k)
                    if (!edits[k].removal && edits[k].side == side)
                        for (Node* s : statementsOf(edits[k])) rebuilt.push_back(s);
            };
            emit(Side::Before);
            if (!removed) rebuilt.push_back(lone ? field->n : field->a->items[i].n);
            emit(Side::After);
            next = end;
        }
        for (size_t k = next; k < edits.size(); ++k)  // appended: index kEnd, past every statement
            for (Node* s : statementsOf(edits[k])) rebuilt.push_back(s);
        if (!lone) {
            Array* seq = doc.newArray(static_cast<uint32_t>(rebuilt.size()));
            for (Node* s : rebuilt) doc.push(*seq, Value::node(s));
            *field->a = *seq;
        } else if (rebuilt.size() != 1 || rebuilt[0] != field->n) {
            Value* span = field->n->field(K::span);
            *field = Value::node(makeSeq(doc, rebuilt, span ? *span : makeUnknownSpan(doc)));
        }
        if (edited) edited(where.first, *field);
    }
    bySequence_.clear();
    stmts_.clear();
}

}  // namespace ptoplug::ir
