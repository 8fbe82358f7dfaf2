#include "plan.h"

#include "naming.h"

namespace ptoplug::mdtc {

const Plan* ProgramPlans::find(std::string_view name) const {
    auto it = byName.find(name);
    return it == byName.end() ? nullptr : &it->second;
}

bool isVarLike(const Host& h, pto_node n) {
    pto_node_kind k = h.kind(n);
    return k == PTO_NODE_VAR || k == PTO_NODE_ITER_ARG;
}

bool isDist(const Host& h, pto_node n) { return h.typeKind(n) == PTO_TYPE_DISTRIBUTED_TENSOR; }

bool isHostOrchestration(const Host& h, pto_node function) {
    pto_function_info info = h.functionInfo(function);
    constexpr int32_t kHost = 5, kOrchestration = 1, kOrchestrator = 0;
    return info.level == kHost && (info.func_type == kOrchestration || info.role == kOrchestrator);
}

namespace {

// The standard walk of §3.5, recording names.
class NameCollector {
public:
    NameCollector(const Host& h, NameSet& names) : h_(h), names_(names) {}

    void stmt(pto_node s) {
        pto_node_kind k = h_.kind(s);
        switch (k) {
            case PTO_NODE_ASSIGN_STMT: {
                pto_node var = h_.child(s, PTO_FIELD_VAR);
                names_.emplace(h_.name(var));
                expr(var);
                expr(h_.child(s, PTO_FIELD_VALUE));
                return;
            }
            case PTO_NODE_EVAL_STMT: return expr(h_.child(s, PTO_FIELD_EXPR));
            case PTO_NODE_RETURN_STMT:
            case PTO_NODE_YIELD_STMT: return exprs(s, PTO_FIELD_VALUE);
            case PTO_NODE_SEQ_STMTS: {
                size_t count = h_.count(s, PTO_FIELD_STMTS);
                for (size_t i = 0; i < count; ++i) stmt(h_.child(s, PTO_FIELD_STMTS, i));
                return;
            }
            case PTO_NODE_IF_STMT:
                expr(h_.child(s, PTO_FIELD_CONDITION));
                stmt(h_.child(s, PTO_FIELD_THEN_BODY));
                if (pto_node e = h_.optChild(s, PTO_FIELD_ELSE_BODY); !pto_node_is_null(e)) stmt(e);
                return exprs(s, PTO_FIELD_RETURN_VARS);
            case PTO_NODE_FOR_STMT:
                for (uint32_t f : {PTO_FIELD_LOOP_VAR, PTO_FIELD_START, PTO_FIELD_STOP, PTO_FIELD_STEP})
                    expr(h_.child(s, f));
                exprs(s, PTO_FIELD_ITER_ARGS);
                stmt(h_.child(s, PTO_FIELD_BODY));
                return exprs(s, PTO_FIELD_RETURN_VARS);
            case PTO_NODE_WHILE_STMT:
                expr(h_.child(s, PTO_FIELD_CONDITION));
                exprs(s, PTO_FIELD_ITER_ARGS);
                stmt(h_.child(s, PTO_FIELD_BODY));
                return exprs(s, PTO_FIELD_RETURN_VARS);
            case PTO_NODE_IN_CORE_SCOPE_STMT:
            case PTO_NODE_HIERARCHY_SCOPE_STMT:
            case PTO_NODE_SPLIT_AIV_SCOPE_STMT: attrs(s); return stmt(h_.child(s, PTO_FIELD_BODY));
            case PTO_NODE_SPMD_SCOPE_STMT:
                expr(h_.child(s, PTO_FIELD_CORE_NUM));
                attrs(s);
                return stmt(h_.child(s, PTO_FIELD_BODY));
            case PTO_NODE_COMM_DOMAIN_SCOPE_STMT:
                attrs(s);
                exprs(s, PTO_FIELD_SLOTS);
                return stmt(h_.child(s, PTO_FIELD_BODY));
            case PTO_NODE_CLUSTER_SCOPE_STMT:
            case PTO_NODE_RUNTIME_SCOPE_STMT: return stmt(h_.child(s, PTO_FIELD_BODY));
            default: return;
        }
    }

private:
    void exprs(pto_node n, uint32_t field) {
        size_t count = h_.count(n, field);
        for (size_t i = 0; i < count; ++i) expr(h_.child(n, field, i));
    }
    void attrs(pto_node n) {
        h_.forEachAttrNode(n, [&](pto_node x) { expr(x); });
    }
    void expr(pto_node e) {
        switch (h_.kind(e)) {
            case PTO_NODE_VAR:
                names_.emplace(h_.name(e));
                for (pto_node d : h_.shapeDims(e, PTO_TYPE_TENSOR)) expr(d);
                return;
            case PTO_NODE_ITER_ARG:
                expr(h_.child(e, PTO_FIELD_INIT_VALUE));
                for (pto_node d : h_.shapeDims(e, PTO_TYPE_TENSOR)) expr(d);
                return;
            case PTO_NODE_CALL: exprs(e, PTO_FIELD_ARGS); return attrs(e);
            case PTO_NODE_SUBMIT:
                exprs(e, PTO_FIELD_ARGS);
                exprs(e, PTO_FIELD_DEPS);
                for (uint32_t f : {PTO_FIELD_CORE_NUM, PTO_FIELD_PREDICATE})
                    if (pto_node x = h_.optChild(e, f); !pto_node_is_null(x)) expr(x);
                return attrs(e);
            case PTO_NODE_MAKE_TUPLE: return exprs(e, PTO_FIELD_ELEMENTS);
            case PTO_NODE_TUPLE_GET_ITEM: return expr(h_.child(e, PTO_FIELD_TUPLE));
            case PTO_NODE_BINARY: expr(h_.child(e, PTO_FIELD_LEFT)); return expr(h_.child(e, PTO_FIELD_RIGHT));
            case PTO_NODE_UNARY: return expr(h_.child(e, PTO_FIELD_OPERAND));
            default: return;
        }
    }

    const Host& h_;
    NameSet& names_;
};

// The first ReturnStmt of a pre-order walk over statements (not into expressions).
pto_node firstReturn(const Host& h, pto_node s) {
    pto_node_kind k = h.kind(s);
    if (k == PTO_NODE_RETURN_STMT) return s;
    std::vector<pto_node> next;
    if (k == PTO_NODE_SEQ_STMTS)
        next = h.children(s, PTO_FIELD_STMTS);
    else if (k == PTO_NODE_IF_STMT) {
        next.push_back(h.child(s, PTO_FIELD_THEN_BODY));
        if (pto_node e = h.optChild(s, PTO_FIELD_ELSE_BODY); !pto_node_is_null(e)) next.push_back(e);
    } else if (k == PTO_NODE_FOR_STMT || k == PTO_NODE_WHILE_STMT || isScope(k)) {
        next.push_back(h.child(s, PTO_FIELD_BODY));
    }
    for (pto_node c : next)
        if (pto_node r = firstReturn(h, c); !pto_node_is_null(r)) return r;
    return pto_node{};
}

}  // namespace

NameSet bodyNameSet(const Host& h, pto_node body) {
    NameSet names;
    NameCollector(h, names).stmt(body);
    return names;
}

std::vector<std::optional<size_t>> explicitReturnedParamIndices(const Host& h, pto_node function) {
    pto_node body = h.child(function, PTO_FIELD_BODY);
    pto_node ret{};
    if (h.kind(body) == PTO_NODE_SEQ_STMTS) {
        size_t n = h.count(body, PTO_FIELD_STMTS);
        if (n > 0) {
            pto_node last = h.child(body, PTO_FIELD_STMTS, n - 1);
            if (h.kind(last) == PTO_NODE_RETURN_STMT) ret = last;
        }
    }
    if (pto_node_is_null(ret)) ret = firstReturn(h, body);
    std::vector<std::optional<size_t>> out;
    if (pto_node_is_null(ret)) return out;
    std::vector<pto_node> params = h.children(function, PTO_FIELD_PARAMS);
    for (pto_node v : h.children(ret, PTO_FIELD_VALUE)) {
        std::optional<size_t> index;
        if (isVarLike(h, v))
            for (size_t i = 0; i < params.size() && !index; ++i)
                if (pto_node_equal(params[i], v)) index = i;
        out.push_back(index);
    }
    return out;
}

ProgramPlans planProgram(const Host& h) {
    ProgramPlans plans;
    size_t n = h.functionCount();
    pto_value commCtx = h.singletonType(PTO_TYPE_COMM_CTX);
    for (size_t i = 0; i < n; ++i) {
        pto_node fn = h.functionAt(i);
        plans.functions.push_back(fn);
        plans.bodyNames.push_back(bodyNameSet(h, h.child(fn, PTO_FIELD_BODY)));
        std::vector<pto_node> params = h.children(fn, PTO_FIELD_PARAMS);
        Plan plan;
        for (size_t p = 0; p < params.size(); ++p)
            if (isDist(h, params[p])) plan.distParamIndices.push_back(p);
        if (plan.distParamIndices.empty()) continue;
        plan.function = fn;
        plan.originalParamCount = params.size();
        UniqueNamer used(plans.bodyNames.back());
        for (pto_node p : params) used.use(h.name(p));
        for (size_t p : plan.distParamIndices) {
            std::string name = used.make(std::string(autoNameBase(h.name(params[p]))) + "_ctx");
            pto_node ctx = h.createVar(name, commCtx, params[p]);
            plan.ctxParams.push_back(ctx);
            plan.paramToCtx.emplace(params[p], ctx);
        }
        plan.returnedParamIndices = explicitReturnedParamIndices(h, fn);
        plans.byName.emplace(std::string(h.name(fn)), std::move(plan));
    }
    return plans;
}

}  // namespace ptoplug::mdtc
