#include "resolver.h"

#include "op_tables.h"
#include "rules.h"

namespace ptoplug::mdtc {

std::string describeValue(const Host& h, pto_node value) {
    return isVarLike(h, value) ? "'" + std::string(h.name(value)) + "'" : "a DistributedTensor value";
}

void userError(const char* id, std::string message, pto_node node) {
    throw plugin::PassError{PTO_SEVERITY_ERROR, ruleId(id), std::move(message), node};
}

void inputError(const char* id, std::string message, pto_node node) {
    throw plugin::PassError{PTO_SEVERITY_ERROR, ruleId(id), "MaterializeDistTensorCtx: " + std::move(message), node};
}

void internalError(const char* id, std::string message, pto_node node) {
    throw plugin::PassError{PTO_SEVERITY_INTERNAL_ERROR, ruleId(id), "MaterializeDistTensorCtx: " + std::move(message),
                            node};
}

void Resolver::reset(const Plan* plan) {
    plan_ = plan;
    // clear() costs the bucket count even when empty, and most functions record no alias.
    if (!alias_.empty()) alias_.clear();
    if (!tuple_.empty()) tuple_.clear();
}

// --- shared pieces of §4.2-§4.5 ----------------------------------------------------------------------

std::vector<MaybeCtx> Resolver::resultCtxs(pto_node e, const Lookup& lookup) const {
    pto_node_kind k = h_.kind(e);
    if (k != PTO_NODE_CALL && k != PTO_NODE_SUBMIT) return {};
    auto [name, global] = h_.callOp(e);
    if (!global) return {};
    const Plan* callee = plans_.find(name);
    if (!callee) return {};
    const auto& returned = callee->returnedParamIndices;
    std::vector<MaybeCtx> out(returned.size());
    size_t argCount = h_.count(e, PTO_FIELD_ARGS);
    for (size_t j = 0; j < returned.size(); ++j) {
        if (!returned[j] || *returned[j] >= argCount || *returned[j] >= callee->originalParamCount) continue;
        if (!callee->isDistParam(*returned[j])) continue;
        out[j] = lookup(h_.child(e, PTO_FIELD_ARGS, *returned[j]));
    }
    return out;
}

MaybeCtx Resolver::tupleEntry(pto_node tuple, int64_t index) const {
    auto it = tuple_.find(tuple);
    if (it == tuple_.end() || index >= static_cast<int64_t>(it->second.size())) return std::nullopt;
    return it->second[static_cast<size_t>(index)];
}

// The argument a context-inheriting builtin Call passes its context through, or null.
pto_node Resolver::inheritedArg(pto_node e) const {
    if (h_.kind(e) != PTO_NODE_CALL) return pto_node{};
    size_t argCount = h_.count(e, PTO_FIELD_ARGS);
    auto k = ctxInheritingArgIndex(h_.callOp(e).first, argCount);
    return k ? h_.child(e, PTO_FIELD_ARGS, *k) : pto_node{};
}

// §4.4 Resolve: no type guard.
MaybeCtx Resolver::resolve(pto_node e) const {
    if (isVarLike(h_, e)) {
        if (plan_)
            if (MaybeCtx c = plan_->ctxOfParam(e)) return c;
        auto a = alias_.find(e);
        return a == alias_.end() ? std::nullopt : MaybeCtx(a->second);
    }
    if (h_.kind(e) == PTO_NODE_TUPLE_GET_ITEM) {
        int64_t i = h_.tupleIndex(e);
        if (i >= 0) {
            pto_node t = h_.child(e, PTO_FIELD_TUPLE);
            if (isVarLike(h_, t)) return tupleEntry(t, i);
            std::vector<MaybeCtx> rs = returnedCtxs(t);
            return i < static_cast<int64_t>(rs.size()) ? rs[static_cast<size_t>(i)] : std::nullopt;
        }
    }
    if (pto_node inherited = inheritedArg(e); !pto_node_is_null(inherited)) return resolve(inherited);
    std::vector<MaybeCtx> rs = returnedCtxs(e);
    return rs.size() == 1 ? rs[0] : std::nullopt;
}

std::vector<MaybeCtx> Resolver::returnedCtxs(pto_node e) const {
    if (isVarLike(h_, e)) {
        auto it = tuple_.find(e);
        return it == tuple_.end() ? std::vector<MaybeCtx>{} : it->second;
    }
    return resultCtxs(e, [this](pto_node x) { return resolve(x); });
}

// §4.5: the type guard applies at every step.
MaybeCtx Resolver::lookupExisting(pto_node arg) const {
    if (!plan_ || !isDist(h_, arg)) return std::nullopt;
    if (isVarLike(h_, arg)) {
        if (MaybeCtx c = plan_->ctxOfParam(arg)) return c;
        auto a = alias_.find(arg);
        return a == alias_.end() ? std::nullopt : MaybeCtx(a->second);
    }
    auto lookup = [this](pto_node x) { return lookupExisting(x); };
    if (h_.kind(arg) == PTO_NODE_TUPLE_GET_ITEM) {
        int64_t i = h_.tupleIndex(arg);
        if (i >= 0) {
            pto_node t = h_.child(arg, PTO_FIELD_TUPLE);
            if (isVarLike(h_, t)) return tupleEntry(t, i);
            std::vector<MaybeCtx> rs = resultCtxs(t, lookup);
            return i < static_cast<int64_t>(rs.size()) ? rs[static_cast<size_t>(i)] : std::nullopt;
        }
    }
    if (pto_node inherited = inheritedArg(arg); !pto_node_is_null(inherited)) return lookupExisting(inherited);
    std::vector<MaybeCtx> rs = resultCtxs(arg, lookup);
    return rs.size() == 1 ? rs[0] : std::nullopt;
}

// --- the pre-pass walk ----------------------------------------------------------------------------

void Resolver::prepass(pto_node body) { stmt(body); }

void Resolver::stmt(pto_node s) {
    pto_node_kind k = h_.kind(s);
    switch (k) {
        case PTO_NODE_ASSIGN_STMT: {
            pto_node var = h_.child(s, PTO_FIELD_VAR);
            pto_node value = h_.child(s, PTO_FIELD_VALUE);
            pto_type_kind t = h_.typeKind(var);
            if (t == PTO_TYPE_DISTRIBUTED_TENSOR) {
                if (MaybeCtx c = resolve(value)) alias_[var] = *c;
            } else if (t == PTO_TYPE_TUPLE) {
                std::vector<MaybeCtx> rs = returnedCtxs(value);
                if (!rs.empty()) tuple_[var] = std::move(rs);
            }
            return;
        }
        case PTO_NODE_SEQ_STMTS:
            for (pto_node c : h_.children(s, PTO_FIELD_STMTS)) stmt(c);
            return;
        case PTO_NODE_FOR_STMT:
        case PTO_NODE_WHILE_STMT:
            seedLoop(s);
            stmt(h_.child(s, PTO_FIELD_BODY));
            return validateLoop(s);
        case PTO_NODE_IF_STMT:
            stmt(h_.child(s, PTO_FIELD_THEN_BODY));
            if (pto_node e = h_.optChild(s, PTO_FIELD_ELSE_BODY); !pto_node_is_null(e)) stmt(e);
            return mergeIf(s);
        default:
            if (pto_node_kind_is_scope(k)) stmt(h_.child(s, PTO_FIELD_BODY));
            return;
    }
}

void Resolver::seedLoop(pto_node loop) {
    std::vector<pto_node> iterArgs = h_.children(loop, PTO_FIELD_ITER_ARGS);
    std::vector<pto_node> returnVars = h_.children(loop, PTO_FIELD_RETURN_VARS);
    for (size_t i = 0; i < iterArgs.size(); ++i) {
        if (!isDist(h_, iterArgs[i])) continue;
        MaybeCtx c = resolve(h_.child(iterArgs[i], PTO_FIELD_INIT_VALUE));
        if (!c) continue;
        alias_[iterArgs[i]] = *c;
        if (i < returnVars.size() && isDist(h_, returnVars[i])) alias_[returnVars[i]] = *c;
    }
}

void Resolver::validateLoop(pto_node loop) {
    pto_node y = findBranchYield(h_.child(loop, PTO_FIELD_BODY));
    if (pto_node_is_null(y)) return;
    std::vector<pto_node> iterArgs = h_.children(loop, PTO_FIELD_ITER_ARGS);
    std::vector<pto_node> values = h_.children(y, PTO_FIELD_VALUE);
    for (size_t i = 0; i < std::min(iterArgs.size(), values.size()); ++i) {
        auto seeded = alias_.find(iterArgs[i]);
        if (seeded == alias_.end()) continue;
        MaybeCtx yc = resolve(values[i]);
        if (yc && *yc != seeded->second)
            userError("E2",
                      "Rebinding loop-carried DistributedTensor '" + std::string(h_.name(iterArgs[i])) +
                          "' to a different DistributedTensor inside the loop is not supported: it would enter the "
                          "loop with the communication context of its initial value and leave with another. Carry a "
                          "single DistributedTensor through the loop, and vary the data read from it instead (see "
                          "GitHub issue #2027).",
                      loop);
    }
}

void Resolver::mergeIf(pto_node s) {
    pto_node elseBody = h_.optChild(s, PTO_FIELD_ELSE_BODY);
    if (pto_node_is_null(elseBody)) return;
    pto_node ty = findBranchYield(h_.child(s, PTO_FIELD_THEN_BODY));
    pto_node ey = findBranchYield(elseBody);
    if (pto_node_is_null(ty) || pto_node_is_null(ey)) return;
    std::vector<pto_node> returnVars = h_.children(s, PTO_FIELD_RETURN_VARS);
    size_t thenCount = h_.count(ty, PTO_FIELD_VALUE);
    size_t elseCount = h_.count(ey, PTO_FIELD_VALUE);
    for (size_t i = 0; i < returnVars.size(); ++i) {
        if (!isDist(h_, returnVars[i]) || i >= thenCount || i >= elseCount) continue;
        MaybeCtx tc = resolve(h_.child(ty, PTO_FIELD_VALUE, i));
        MaybeCtx ec = resolve(h_.child(ey, PTO_FIELD_VALUE, i));
        if (!tc || !ec) continue;
        if (*tc != *ec)
            userError(
                "E1",
                "Assigning a different DistributedTensor in each branch of an `if` is not supported: '" +
                    std::string(h_.name(returnVars[i])) +
                    "' would take its data pointer from one allocation and its communication context from "
                    "another. Assign a single DistributedTensor before the `if`, and branch on the data read from it "
                    "instead (see GitHub issue #2027).",
                s);
        alias_[returnVars[i]] = *tc;
    }
}

pto_node Resolver::findBranchYield(pto_node s) const {
    pto_node_kind k = h_.kind(s);
    if (k == PTO_NODE_YIELD_STMT) return s;
    if (k == PTO_NODE_SEQ_STMTS) {
        std::vector<pto_node> stmts = h_.children(s, PTO_FIELD_STMTS);
        for (size_t i = stmts.size(); i-- > 0;)
            if (pto_node y = findBranchYield(stmts[i]); !pto_node_is_null(y)) return y;
        return pto_node{};
    }
    if (pto_node_kind_is_scope(k)) return findBranchYield(h_.child(s, PTO_FIELD_BODY));
    return pto_node{};
}

}  // namespace ptoplug::mdtc
