#include "plan.h"

#include "naming.h"

namespace ptoplug::mdtc {

const Plan* ProgramPlans::find(std::string_view name) const {
    auto it = byName.find(name);
    return it == byName.end() ? nullptr : it->second;
}

bool isVarLike(const Host& h, pto_node n) {
    pto_node_kind k = h.kind(n);
    return k == PTO_NODE_VAR || k == PTO_NODE_ITER_ARG;
}

bool isDist(const Host& h, pto_node n) { return h.typeKind(n) == PTO_TYPE_DISTRIBUTED_TENSOR; }

bool isHostOrchestration(const Host& h, pto_node function) {
    pto_function_info info = h.functionInfo(function);
    return info.level == PTO_LEVEL_HOST &&
           (info.func_type == PTO_FUNCTION_ORCHESTRATION || info.role == PTO_ROLE_ORCHESTRATOR);
}

namespace {

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
    } else if (k == PTO_NODE_FOR_STMT || k == PTO_NODE_WHILE_STMT || pto_node_kind_is_scope(k)) {
        next.push_back(h.child(s, PTO_FIELD_BODY));
    }
    for (pto_node c : next)
        if (pto_node r = firstReturn(h, c); !pto_node_is_null(r)) return r;
    return pto_node{};
}

}  // namespace

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
    size_t values = h.count(ret, PTO_FIELD_VALUE);
    size_t params = h.count(function, PTO_FIELD_PARAMS);
    out.resize(values);
    for (size_t j = 0; j < values; ++j) {
        pto_node v = h.child(ret, PTO_FIELD_VALUE, j);
        if (!isVarLike(h, v)) continue;
        for (size_t i = 0; i < params && !out[j]; ++i)
            if (pto_node_equal(h.child(function, PTO_FIELD_PARAMS, i), v)) out[j] = i;
    }
    return out;
}

std::vector<pto_node> materializedContexts(const Host& h, pto_node fn, const Plan& plan) {
    const size_t n = h.count(fn, PTO_FIELD_PARAMS), m = plan.distParams.size();
    if (m == 0 || n < 2 * m) return {};
    std::vector<pto_node> ctx;
    for (size_t i = n - m; i < n; ++i) {
        pto_node p = h.child(fn, PTO_FIELD_PARAMS, i);
        if (h.typeKind(p) != PTO_TYPE_COMM_CTX) return {};
        ctx.push_back(p);
    }
    return ctx;
}

ProgramPlans planProgram(const Host& h) {
    ProgramPlans plans;
    size_t n = h.functionCount();
    plans.functions.reserve(n);
    plans.plans.reserve(n);
    // Bounded by all params: reserved, the list is written once (grown, it was copied into fresh pages,
    // which are time here) and never moves, so a plan's span of it is final when made; the pages beyond
    // the dist params are never touched.
    size_t params = 0;
    for (size_t i = 0; i < n; ++i) params += h.count(h.functionAt(i), PTO_FIELD_PARAMS);
    plans.distParams.reserve(params);
    struct Planned {
        size_t function;  // index in plans.functions
        size_t returnedFirst, returnedCount;
    };
    std::vector<Planned> planned;
    for (size_t i = 0; i < n; ++i) {
        pto_node fn = h.functionAt(i);
        FunctionEntry& entry =
            plans.functions.emplace_back(FunctionEntry{fn, h.name(fn), isHostOrchestration(h, fn), nullptr, false, {}});
        Plan plan;
        plan.originalParamCount = h.count(fn, PTO_FIELD_PARAMS);
        const size_t distFirst = plans.distParams.size();
        for (size_t p = 0; p < plan.originalParamCount; ++p) {
            pto_node param = h.child(fn, PTO_FIELD_PARAMS, p);
            std::string_view name = h.name(param);
            if (UniqueNamer::mayClash(name)) entry.clashingParamNames.push_back(name);
            if (isDist(h, param)) plans.distParams.push_back({p, param, name});
        }
        if (plans.distParams.size() == distFirst) continue;
        plan.distParams = std::span(plans.distParams).subspan(distFirst);
        entry.materialized = !materializedContexts(h, fn, plan).empty();
        std::vector<std::optional<size_t>> returned = explicitReturnedParamIndices(h, fn);
        planned.push_back({i, plans.returnedParamIndices.size(), returned.size()});
        plans.returnedParamIndices.insert(plans.returnedParamIndices.end(), returned.begin(), returned.end());
        plans.plans.push_back(plan);
    }
    // Pointers and the spans of returned indices into `plans` are taken once it is complete.
    plans.byName.reserve(plans.plans.size());
    for (size_t k = 0; k < plans.plans.size(); ++k) {
        const Planned& p = planned[k];
        Plan& plan = plans.plans[k];
        plan.returnedParamIndices = std::span(plans.returnedParamIndices).subspan(p.returnedFirst, p.returnedCount);
        FunctionEntry& entry = plans.functions[p.function];
        entry.plan = &plan;
        plans.byName.emplace(entry.name, entry.plan);
    }
    return plans;
}

}  // namespace ptoplug::mdtc
