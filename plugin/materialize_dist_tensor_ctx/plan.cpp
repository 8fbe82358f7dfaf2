#include "plan.h"

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
    plans.functions.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        pto_node fn = h.functionAt(i);
        plans.functions.push_back(fn);
        Plan plan;
        plan.originalParamCount = h.count(fn, PTO_FIELD_PARAMS);
        for (size_t p = 0; p < plan.originalParamCount; ++p) {
            pto_node param = h.child(fn, PTO_FIELD_PARAMS, p);
            if (!isDist(h, param)) continue;
            plan.distParams.push_back(param);
            plan.distParamIndices.push_back(p);
        }
        if (plan.distParamIndices.empty()) continue;
        plan.function = fn;
        plan.returnedParamIndices = explicitReturnedParamIndices(h, fn);
        plans.byName.emplace(std::string(h.name(fn)), std::move(plan));
    }
    return plans;
}

}  // namespace ptoplug::mdtc
