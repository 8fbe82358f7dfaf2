// Functions by name and the calls that name them: a GlobalVar op is {is_global_var: true, name}, so a
// rename touches the function, its entry in Program.functions (kept sorted by name, as pypto stores
// them) and every Call/Submit naming it.
#include <algorithm>
#include <array>

#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "ir/rewrite.h"
#include "ir/schema.h"

namespace ptoplug::host::table {
namespace {

Value globalVarOp(ir::Document& doc, std::string_view name) {
    ir::Map* op = doc.newMap(2);
    doc.set(*op, K::is_global_var, Value::boolean(true));
    doc.set(*op, K::name, doc.newString(name));
    return Value::map(op);
}

std::string_view functionName(const Node* fn) {
    const Value* v = fn->field(K::name);
    return v && v->kind == Kind::Str ? v->strView() : std::string_view();
}

// The index of `fn` in the program's function list, or SIZE_MAX.
size_t indexInProgram(pto_run_context* ctx, const Node* fn) {
    const Value* fns = functionsOf(ctx);
    for (size_t i = 0; fns && i < fns->a->size; ++i)
        if (functionAt(fns, i) == fn) return i;
    return SIZE_MAX;
}

// The user function a call names, or "" for a builtin op.
std::string_view calleeName(const Node* call) {
    const Value* op = call->field(K::op);
    if (!op || op->kind != Kind::Map) return {};
    const Value* global = op->m->find(K::is_global_var);
    const Value* name = op->m->find(K::name);
    if (!global || global->kind != Kind::Bool || !global->b || !name || name->kind != Kind::Str) return {};
    return name->strView();
}

// A name `def NAME(` prints as Python, and pypto's parser reads back: an ASCII identifier that is no
// Python keyword.
bool isFunctionName(std::string_view name) {
    static constexpr std::array<std::string_view, 35> kKeywords{
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    if (name.empty() || !letter(name[0])) return false;
    for (char c : name)
        if (!letter(c) && !(c >= '0' && c <= '9')) return false;
    return std::find(kKeywords.begin(), kKeywords.end(), name) == kKeywords.end();
}

}  // namespace

pto_status functionRename(pto_run_context* ctx, pto_node function, pto_string name) {
    Node* fn = toNode(ctx, function);
    PTO_REQUIRE_WHY(fn && (name.data || !name.size), PTO_ERR_INVALID_HANDLE, "null function, or NULL name data");
    PTO_REQUIRE_WHY(fn->type == K::Function, PTO_ERR_WRONG_KIND,
                    "a " + std::string(typeName(ctx, fn)) + " is not a Function");
    Value* fns = functionsOf(ctx);
    const size_t at = indexInProgram(ctx, fn);
    PTO_REQUIRE_WHY(at != SIZE_MAX, PTO_ERR_INVALID_ARGUMENT, "the function is not in the program");
    const std::string_view wanted = view(name);
    PTO_REQUIRE_WHY(!wanted.empty(), PTO_ERR_INVALID_ARGUMENT, "the new name is empty");
    PTO_REQUIRE_WHY(isFunctionName(wanted), PTO_ERR_INVALID_ARGUMENT,
                    "the new name is not an identifier (ASCII letters, digits and '_', not starting with a digit, "
                    "no Python keyword)");
    const std::string old(functionName(fn));
    if (wanted == old) return PTO_OK;
    for (size_t i = 0; i < fns->a->size; ++i)
        PTO_REQUIRE_WHY(functionName(functionAt(fns, i)) != wanted, PTO_ERR_INVALID_ARGUMENT,
                        "the program already has a function '" + std::string(wanted) + "'");
    ir::Document& doc = ctx->doc;
    const Value newName = doc.newString(wanted);
    const Value op = globalVarOp(doc, wanted);  // shared by the calls: op maps are never edited in place
    doc.set(fn->fields, K::name, newName);
    doc.set(*fns->a->items[at].m, K::key, op);
    // Keep the list sorted by name, in a new buffer (handles into the old one go stale).
    std::vector<Value> entries(fns->a->begin(), fns->a->end());
    std::stable_sort(entries.begin(), entries.end(), [&](const Value& a, const Value& b) {
        return functionName(a.m->find(K::value)->n) < functionName(b.m->find(K::value)->n);
    });
    ir::Array* sorted = doc.newArray(static_cast<uint32_t>(entries.size()));
    for (const Value& e : entries) doc.push(*sorted, e);
    *fns->a = *sorted;
    for (Node* n : doc.nodes())
        if (isCallLike(n) && calleeName(n) == old) doc.set(n->fields, K::op, op);
    return PTO_OK;
}

pto_status createCall(pto_run_context* ctx, pto_node_kind kind, pto_node callee, const pto_node* args, size_t argCount,
                      pto_value type, pto_node spanSource, pto_node* out) {
    Node* fn = toNode(ctx, callee);
    Value* t = toValue(ctx, type);
    PTO_REQUIRE_WHY(fn && t && out && (args || !argCount), PTO_ERR_INVALID_HANDLE,
                    "null callee, type or out, or NULL args with a count");
    PTO_REQUIRE_WHY(pto_node_is_null(spanSource) || toNode(ctx, spanSource), PTO_ERR_INVALID_HANDLE,
                    "span_source is not a live node");
    PTO_REQUIRE_WHY(kind == PTO_NODE_CALL || kind == PTO_NODE_SUBMIT, PTO_ERR_INVALID_ARGUMENT,
                    "kind must be PTO_NODE_CALL or PTO_NODE_SUBMIT");
    PTO_REQUIRE_WHY(fn->type == K::Function, PTO_ERR_WRONG_KIND,
                    "the callee is a " + std::string(typeName(ctx, fn)) + ", not a Function");
    PTO_REQUIRE_WHY(indexInProgram(ctx, fn) != SIZE_MAX, PTO_ERR_INVALID_ARGUMENT,
                    "the callee is not in the program (a call names a function of the program)");
    PTO_REQUIRE_WHY(t->kind == Kind::Map && t->m->find(K::type_kind), PTO_ERR_WRONG_KIND, "`type` is not a type");
    ir::Document& doc = ctx->doc;
    Node* call = doc.newNode(kind == PTO_NODE_CALL ? K::Call : K::Submit, 12);
    ir::Array* list = doc.newArray(static_cast<uint32_t>(argCount));
    for (size_t i = 0; i < argCount; ++i) {
        Node* a = toNode(ctx, args[i]);
        if (!a) return fail(ctx, PTO_ERR_INVALID_HANDLE, "args[" + std::to_string(i) + "] is not a live node");
        if (!ir::nodeFitsClass(a->type, ir::NodeClass::Expr))
            return fail(ctx, PTO_ERR_WRONG_KIND, "args[" + std::to_string(i) + "] is not an expression");
        doc.push(*list, Value::node(a));
    }
    doc.set(call->fields, K::args, Value::array(list));
    doc.set(call->fields, K::attrs, Value::array(doc.newArray(0)));
    doc.set(call->fields, K::kwargs, Value::array(doc.newArray(0)));
    doc.set(call->fields, K::op, globalVarOp(doc, functionName(fn)));
    doc.set(call->fields, K::span, spanOf(ctx, spanSource));
    doc.set(call->fields, K::type, ir::copyValue(doc, *t));
    if (kind == PTO_NODE_SUBMIT) {  // what pypto writes for a Submit without dependencies
        doc.set(call->fields, K::allow_early_resolve, Value::boolean(false));
        doc.set(call->fields, K::core_num, Value::null());
        doc.set(call->fields, K::deps, Value::array(doc.newArray(0)));
        doc.set(call->fields, K::predicate, Value::null());
        doc.set(call->fields, K::sync_start, Value::boolean(false));
    }
    *out = fromNode(ctx, call);
    return PTO_OK;
}

pto_status callSetOp(pto_run_context* ctx, pto_node call, pto_string name, int isGlobalVar) {
    Node* c = toNode(ctx, call);
    PTO_REQUIRE_WHY(c && (name.data || !name.size), PTO_ERR_INVALID_HANDLE, "null call, or NULL name data");
    PTO_REQUIRE_WHY(isCallLike(c), PTO_ERR_WRONG_KIND,
                    "a " + std::string(typeName(ctx, c)) + " is not a Call or Submit");
    const std::string_view wanted = view(name);
    PTO_REQUIRE_WHY(!wanted.empty(), PTO_ERR_INVALID_ARGUMENT, "the op name is empty");
    if (isGlobalVar) {
        const Value* fns = functionsOf(ctx);
        bool found = false;
        for (size_t i = 0; fns && i < fns->a->size && !found; ++i) found = functionName(functionAt(fns, i)) == wanted;
        PTO_REQUIRE_WHY(found, PTO_ERR_NOT_FOUND, "the program has no function '" + std::string(wanted) + "'");
        ctx->doc.set(c->fields, K::op, globalVarOp(ctx->doc, wanted));
    } else {
        ctx->doc.set(c->fields, K::op, ir::makeOp(ctx->doc, wanted));
    }
    return PTO_OK;
}

namespace {

struct CallCollector {
    std::string_view name;
    std::vector<uint8_t> seen;
    std::vector<pto_node> found;
};

pto_walk_result collectCall(pto_run_context* ticket, pto_node node, const pto_walk_position* /*position*/,
                            void* userData) {
    auto* c = static_cast<CallCollector*>(userData);
    Node* n = toNode(pto_run_context::live(ticket), node);
    if (n && isCallLike(n) && !c->seen[n->index] && calleeName(n) == c->name) {
        c->seen[n->index] = 1;
        c->found.push_back(node);
    }
    return PTO_WALK_ADVANCE;
}

}  // namespace

pto_status functionCalls(pto_run_context* ctx, pto_node function, pto_node* out, size_t capacity, size_t* count) {
    Node* fn = toNode(ctx, function);
    PTO_REQUIRE_WHY(fn && count && (out || !capacity), PTO_ERR_INVALID_HANDLE,
                    "null function, NULL count, or NULL out with a capacity");
    PTO_REQUIRE_WHY(fn->type == K::Function, PTO_ERR_WRONG_KIND,
                    "a " + std::string(typeName(ctx, fn)) + " is not a Function");
    CallCollector collector{functionName(fn), std::vector<uint8_t>(ctx->doc.nodes().size(), 0), {}};
    pto_walk_callbacks callbacks{sizeof(pto_walk_callbacks), collectCall, nullptr, &collector, 0};
    pto_node program = fromNode(ctx, ctx->doc.root().asNode());
    if (pto_status s = walk(ctx, program, &callbacks); s != PTO_OK) return s;
    std::copy_n(collector.found.begin(), std::min(capacity, collector.found.size()), out);
    *count = collector.found.size();
    return PTO_OK;
}

pto_status programAddFunction(pto_run_context* ctx, pto_node function) {
    Node* fn = toNode(ctx, function);
    PTO_REQUIRE_WHY(fn, PTO_ERR_INVALID_HANDLE, "the function handle is null, foreign or stale");
    PTO_REQUIRE_WHY(fn->type == K::Function, PTO_ERR_WRONG_KIND,
                    "a " + std::string(typeName(ctx, fn)) + " is not a Function");
    Value* fns = functionsOf(ctx);
    PTO_REQUIRE_WHY(fns, PTO_ERR_WRONG_KIND, "the document is not a Program");
    PTO_REQUIRE_WHY(indexInProgram(ctx, fn) == SIZE_MAX, PTO_ERR_INVALID_ARGUMENT,
                    "the function is already in the program");
    const std::string_view name = functionName(fn);
    PTO_REQUIRE_WHY(!name.empty(), PTO_ERR_INVALID_ARGUMENT, "the function has no name");
    for (size_t i = 0; i < fns->a->size; ++i)
        PTO_REQUIRE_WHY(functionName(functionAt(fns, i)) != name, PTO_ERR_INVALID_ARGUMENT,
                        "the program already has a function '" + std::string(name) + "'");
    size_t at = 0;  // pypto stores functions in name order
    while (at < fns->a->size && functionName(functionAt(fns, at)) < name) ++at;
    ir::Document& doc = ctx->doc;
    ir::Map* entry = doc.newMap(2);
    doc.set(*entry, K::key, globalVarOp(doc, name));
    doc.set(*entry, K::value, Value::node(fn));
    const Value item = Value::map(entry);
    doc.insert(*fns->a, static_cast<uint32_t>(at), &item, 1);
    ctx->containment.noteEdges(doc.root().n, item);
    return PTO_OK;
}

pto_status programRemoveFunction(pto_run_context* ctx, pto_node function) {
    Node* fn = toNode(ctx, function);
    PTO_REQUIRE_WHY(fn, PTO_ERR_INVALID_HANDLE, "the function handle is null, foreign or stale");
    PTO_REQUIRE_WHY(fn->type == K::Function, PTO_ERR_WRONG_KIND,
                    "a " + std::string(typeName(ctx, fn)) + " is not a Function");
    const size_t at = indexInProgram(ctx, fn);
    PTO_REQUIRE_WHY(at != SIZE_MAX, PTO_ERR_INVALID_ARGUMENT, "the function is not in the program");
    size_t calls = 0;
    if (pto_status s = functionCalls(ctx, function, nullptr, 0, &calls); s != PTO_OK) return s;
    PTO_REQUIRE_WHY(calls == 0, PTO_ERR_INVALID_ARGUMENT,
                    std::to_string(calls) + " call(s) still name '" + std::string(functionName(fn)) +
                        "'; remove or re-point them first (function_calls lists them)");
    size_t index = 0;
    ir::eraseIf(ctx->doc, *functionsOf(ctx)->a, [&](const Value&) { return index++ == at; });
    return PTO_OK;
}

}  // namespace ptoplug::host::table
