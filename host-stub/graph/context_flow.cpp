#include "graph/context_flow.h"

#include <span>
#include <unordered_map>
#include <unordered_set>

#include "ir/enum_names.h"

namespace ptoplug::graph {
namespace {

using ir::itemsOf;
using ir::Kind;
using ir::Node;
using ir::Value;
namespace K = ir::K;

constexpr std::string_view kGetCommCtx = "pld.system.get_comm_ctx";

std::string_view strField(const Node& n, uint32_t key) {
    const Value* v = n.field(key);
    return v && v->kind == Kind::Str ? v->strView() : std::string_view();
}

std::string_view typeKindOf(const Node& n) {
    const Value* type = n.field(K::type);
    const Value* kind = type && type->kind == Kind::Map ? type->m->find(K::type_kind) : nullptr;
    return kind && kind->kind == Kind::Str ? kind->strView() : std::string_view();
}

bool isVarLike(const Node& n) { return n.type == K::Var || n.type == K::IterArg; }

// The op a call names, and whether it is a program function (a GlobalVar) rather than a builtin op.
std::string_view opName(const Node& call, bool* global) {
    const Value* op = call.field(K::op);
    if (!op || op->kind != Kind::Map) return {};
    const Value* isGlobal = op->m->find(K::is_global_var);
    *global = isGlobal && isGlobal->kind == Kind::Bool && isGlobal->b;
    const Value* name = op->m->find(K::name);
    return name && name->kind == Kind::Str ? name->strView() : std::string_view();
}

// An argument as a reader of the printed program would name it.
std::string shown(const Value& v) {
    if (!v.isNode()) return "?";
    const Node& n = *v.n;
    if (isVarLike(n)) return std::string(strField(n, K::name_hint));
    if (n.type == K::TupleGetItemExpr) {
        const Value* index = n.field(K::index);
        const Value* tuple = n.field(K::tuple);
        return (tuple ? shown(*tuple) : "?") + "[" +
               (index && index->kind == Kind::UInt ? std::to_string(index->u) : std::string("?")) + "]";
    }
    if (n.type == K::Call || n.type == K::Submit) {
        bool global = false;
        return std::string(opName(n, &global)) + "(...)";
    }
    return "...";
}

// Every node in `root`, in pre-order over the fields (each node once; types hold no nodes of the program).
template <class F>
void forEachNode(const Value* root, std::unordered_set<const Node*>& seen, F&& f) {
    if (!root || !root->isNode() || !seen.insert(root->n).second) return;
    const Node& n = *root->n;
    f(n);
    for (auto member : n.fields) {
        if (member.key == K::type) continue;
        ir::forEachNodeSlot(member.value, [&](const Value& child) { forEachNode(&child, seen, f); });
    }
}

// Calls `f(node)` for every node below `root` (types left out: they hold no calls or assignments), each
// once, in pre-order over the fields.
template <class F>
void forEachNodeOnce(const Value* root, std::unordered_set<const Node*>& seen, F&& f) {
    if (!root || !root->isNode() || !seen.insert(root->n).second) return;
    f(*root->n);
    for (auto member : root->n->fields)
        if (member.key != K::type)
            ir::forEachNodeSlot(member.value, [&](const Value& child) { forEachNodeOnce(&child, seen, f); });
}

// Every call and submit of a program function in `root`, in pre-order (each node once).
template <class F>
void forEachCall(const Value* root, F&& f) {
    std::unordered_set<const Node*> seen;
    forEachNodeOnce(root, seen, [&](const Node& n) {
        bool global = false;
        if (n.type != K::Call && n.type != K::Submit) return;
        if (std::string_view callee = opName(n, &global); global) f(n, callee);
    });
}

// What each variable of a function is bound to by an assignment (the first binding).
std::unordered_map<const Node*, const Node*> bindingsOf(const Value* root) {
    std::unordered_map<const Node*, const Node*> bound;
    std::unordered_set<const Node*> seen;
    forEachNodeOnce(root, seen, [&](const Node& n) {
        if (n.type != K::AssignStmt) return;
        const Value* var = n.field(K::var);
        const Value* value = n.field(K::value);
        if (var && var->isNode() && value && value->isNode()) bound.emplace(var->n, value->n);
    });
    return bound;
}

std::string kindOf(const Node& fn) {
    std::string kind;
    auto add = [&](const std::string& part) { kind += (kind.empty() ? "" : " ") + part; };
    if (const Value* level = fn.field(K::level); level && level->kind == Kind::UInt)
        if (const char* name = ir::levelName(level->u)) add(name);
    if (const Value* role = fn.field(K::role); role && role->kind == Kind::UInt)
        add(role->u == 0 ? "Orchestrator" : "SubWorker");
    if (const Value* type = fn.field(K::func_type); type && type->kind == Kind::UInt && type->u != 0)
        if (const char* name = ir::functionTypeName(type->u)) add(name);
    return kind.empty() ? "Opaque" : kind;
}

struct FunctionFacts {
    const Value* value;  ///< the function, as the program holds it
    const Node* node;
    std::vector<size_t> distParams;  ///< indices of the DistributedTensor params
};

class Builder {
public:
    Builder(const ir::Document& doc, const Snapshot* before) : doc_(doc), before_(before) {}

    ContextFlow build(const std::vector<host::Diagnostic>& diagnostics) {
        const Value& root = doc_.root();
        if (!root.isNode() || root.n->type != K::Program) return flow_;
        for (const Value& entry : itemsOf(root.n->field(K::functions))) {
            const Value* fn = entry.kind == Kind::Map ? entry.m->find(K::value) : nullptr;
            if (!fn || !fn->isNode()) continue;
            FunctionFacts facts{fn, fn->n, {}};
            const std::span<const Value> params = itemsOf(fn->n->field(K::params));
            for (size_t i = 0; i < params.size(); ++i)
                if (params[i].isNode() && typeKindOf(*params[i].n) == "DistributedTensorType")
                    facts.distParams.push_back(i);
            byName_.emplace(strField(*fn->n, K::name), facts);
            order_.push_back(facts);
        }
        for (const FunctionFacts& f : order_) function(f);
        for (const host::Diagnostic& d : diagnostics)
            if (d.severity >= PTO_SEVERITY_ERROR) place(d);
        return flow_;
    }

private:
    void function(const FunctionFacts& f) {
        const Node& fn = *f.node;
        const std::string name(strField(fn, K::name));
        FunctionNode node{name, kindOf(fn), static_cast<int>(f.distParams.size()), 0, 0, {}};
        const std::span<const Value> params = itemsOf(fn.field(K::params));
        std::unordered_set<const Node*> paramSet;
        for (const Value& p : params)
            if (p.isNode()) {
                paramSet.insert(p.n);
                node.ctxParams += typeKindOf(*p.n) == "CommCtxType";
            }
        if (before_)
            if (auto was = before_->params.find(name); was != before_->params.end() && params.size() > was->second)
                node.addedParams = static_cast<int>(params.size() - was->second);
        flow_.functions.push_back(node);

        const std::unordered_map<const Node*, const Node*> bound = bindingsOf(fn.field(K::body));
        const std::vector<size_t>* argsBefore = nullptr;
        if (before_)
            if (auto was = before_->callArgs.find(name); was != before_->callArgs.end()) argsBefore = &was->second;
        size_t index = 0;
        forEachCall(fn.field(K::body), [&](const Node& call, std::string_view callee) {
            const size_t argCountBefore = argsBefore && index < argsBefore->size() ? (*argsBefore)[index] : SIZE_MAX;
            ++index;
            edge(name, call, callee, paramSet, bound, argCountBefore);
        });
    }

    void edge(const std::string& caller, const Node& call, std::string_view callee,
              const std::unordered_set<const Node*>& params, const std::unordered_map<const Node*, const Node*>& bound,
              size_t argCountBefore) {
        CallEdge e{caller, std::string(callee), call.type == K::Submit, {}, {}};
        const std::span<const Value> args = itemsOf(call.field(K::args));
        // The trailing CommCtx arguments, one per DistributedTensor parameter of the callee, in order.
        size_t firstCtx = args.size();
        while (firstCtx > 0 && args[firstCtx - 1].isNode() && typeKindOf(*args[firstCtx - 1].n) == "CommCtxType")
            --firstCtx;
        auto target = byName_.find(callee);
        const std::vector<size_t> none;
        const std::vector<size_t>& dist = target == byName_.end() ? none : target->second.distParams;
        for (size_t j = 0; j < dist.size(); ++j) {
            if (dist[j] >= args.size()) break;
            PassedTensor p;
            p.tensor = shown(args[dist[j]]);
            p.aliasOf = aliasOrigin(args[dist[j]], params, bound);
            const size_t at = firstCtx + j;
            if (at < args.size() && args[at].isNode()) {
                p.ctx = shown(args[at]);
                p.added = at >= argCountBefore;
                source(*args[at].n, params, bound, p);
            }
            e.passed.push_back(std::move(p));
        }
        calls_.emplace_back(&call, flow_.calls.size());
        flow_.calls.push_back(std::move(e));
    }

    // The variable a chain of plain variable bindings (`alias = data`) from `arg` ends at, or "".
    static std::string aliasOrigin(const Value& arg, const std::unordered_set<const Node*>& params,
                                   const std::unordered_map<const Node*, const Node*>& bound) {
        if (!arg.isNode()) return {};
        const Node* at = arg.n;
        int steps = 0;
        for (; steps < 16 && !params.count(at); ++steps) {
            auto value = bound.find(at);
            if (value == bound.end() || !isVarLike(*value->second)) break;
            at = value->second;
        }
        return steps == 0 ? std::string() : std::string(strField(*at, K::name_hint));
    }

    static void source(const Node& ctx, const std::unordered_set<const Node*>& params,
                       const std::unordered_map<const Node*, const Node*>& bound, PassedTensor& p) {
        const Node* at = &ctx;
        for (int step = 0; step < 16; ++step) {
            if (params.count(at)) {
                p.source = step == 0 ? CtxSource::Param : CtxSource::Alias;
                if (step > 0) p.origin = std::string(strField(*at, K::name_hint));
                return;
            }
            auto value = bound.find(at);
            if (value == bound.end()) return;
            const Node& v = *value->second;
            bool global = false;
            if ((v.type == K::Call) && opName(v, &global) == kGetCommCtx && !global) {
                p.source = step == 0 ? CtxSource::Synthesized : CtxSource::Alias;
                const std::span<const Value> args = itemsOf(v.field(K::args));
                p.origin = std::string(kGetCommCtx) + "(" + (args.empty() ? "" : shown(args[0])) + ")";
                return;
            }
            if (!isVarLike(v)) return;
            at = &v;
        }
    }

    // An error diagnostic goes on the call whose span starts where it does, else on the function that is or
    // holds a node whose span starts there (a loop or branch the pass refuses: pypto's function spans give
    // only the line of the `def`, so the place is found among the function's nodes, not within its span).
    void place(const host::Diagnostic& d) {
        // As the diagnostic prints, so that the drawing and the terminal name the same place.
        const std::string error = (d.line >= 0 ? (d.file.empty() ? "line " : d.file + ":") + std::to_string(d.line) +
                                                     ":" + std::to_string(d.column) + ": "
                                               : std::string()) +
                                  "error: " + d.message;
        auto startsThere = [&](const Node& n) {
            // (A plugin may have read a span as a map, which it then is.)
            const Value* span = n.field(K::span);
            if (!span || span->kind != Kind::Span) return false;
            Expected<ir::Span> s = doc_.span(*span);
            return s && s->file == d.file && s->beginLine == d.line && s->beginColumn == d.column;
        };
        if (d.line >= 0) {
            for (const auto& [call, index] : calls_)
                if (startsThere(*call)) {
                    flow_.calls[index].error = error;
                    return;
                }
            for (size_t i = 0; i < order_.size(); ++i) {
                bool found = false;
                std::unordered_set<const Node*> seen;
                forEachNode(order_[i].value, seen, [&](const Node& n) { found = found || startsThere(n); });
                if (found) {
                    flow_.functions[i].error = error;
                    return;
                }
            }
        }
        flow_.unplaced.push_back(error);
    }

    const ir::Document& doc_;
    const Snapshot* before_;
    std::unordered_map<std::string_view, FunctionFacts> byName_;
    std::vector<FunctionFacts> order_;
    std::vector<std::pair<const Node*, size_t>> calls_;  ///< each edge's call, for placing errors
    ContextFlow flow_;
};

}  // namespace

Snapshot snapshotOf(const ir::Document& doc) {
    Snapshot s;
    const Value& root = doc.root();
    if (!root.isNode() || root.n->type != K::Program) return s;
    for (const Value& entry : itemsOf(root.n->field(K::functions))) {
        const Value* fn = entry.kind == Kind::Map ? entry.m->find(K::value) : nullptr;
        if (!fn || !fn->isNode()) continue;
        const std::string name(strField(*fn->n, K::name));
        s.params[name] = itemsOf(fn->n->field(K::params)).size();
        std::vector<size_t>& args = s.callArgs[name];
        forEachCall(fn->n->field(K::body),
                    [&](const Node& call, std::string_view) { args.push_back(itemsOf(call.field(K::args)).size()); });
    }
    return s;
}

ContextFlow contextFlowOf(const ir::Document& doc, const Snapshot* before,
                          const std::vector<host::Diagnostic>& diagnostics) {
    return Builder(doc, before).build(diagnostics);
}

}  // namespace ptoplug::graph
