#include "pass.h"

#include "plan.h"
#include "resolver.h"
#include "rewriter.h"
#include "rules.h"

namespace ptoplug::mdtc {

void materializeDistTensorCtx(const Host& h) {
    ProgramPlans plans = planProgram(h);
    if (plans.plans.empty()) return;  // §2.2: the program is returned unchanged
    // Likely the output of an earlier run: the pass adds another set, as pypto's does (§11).
    for (const FunctionEntry& fn : plans.functions)
        if (fn.materialized)
            h.emit(PTO_SEVERITY_WARNING, ruleId("W1"),
                   "function '" + std::string(fn.name) +
                       "' already ends with one CommCtx parameter per DistributedTensor parameter; "
                       "MaterializeDistTensorCtx adds another set (the pass is not idempotent)",
                   fn.node);

    // §5: every function in program order; the pre-pass of a function runs just before its rewrite.
    Resolver resolver(h, plans);
    FunctionRewriter rewriter(h, plans, resolver);
    for (const FunctionEntry& fn : plans.functions) {
        resolver.reset(fn.plan);
        if (fn.plan) resolver.prepass(h.child(fn.node, PTO_FIELD_BODY));
        rewriter.run(fn);
    }
}

namespace {

struct VerifyState {
    const Host* h;
    std::string function;
};

pto_walk_result findQueries(pto_run_context*, pto_node node, const pto_walk_position*, void* userData) {
    auto* state = static_cast<VerifyState*>(userData);
    const Host& h = *state->h;
    if (h.kind(node) == PTO_NODE_CALL && h.callOp(node).first == "pld.system.get_comm_ctx")
        h.emit(PTO_SEVERITY_ERROR, "DistTensorCtxMaterialized",
               "Function '" + state->function +
                   "' still calls pld.system.get_comm_ctx. Only host orchestration may query a communication "
                   "context at runtime; everywhere else MaterializeDistTensorCtx must have replaced it with the "
                   "explicit CommCtx parameter, and device codegen cannot lower the query.",
               node);
    return PTO_WALK_ADVANCE;
}

}  // namespace

void verifyDistTensorCtxMaterialized(const Host& h) {
    size_t n = h.functionCount();
    for (size_t i = 0; i < n; ++i) {
        pto_node fn = h.functionAt(i);
        if (isHostOrchestration(h, fn) || !h.count(fn, PTO_FIELD_BODY)) continue;
        VerifyState state{&h, std::string(h.name(fn))};
        pto_walk_callbacks callbacks{sizeof(pto_walk_callbacks), findQueries, nullptr, &state, 0};
        Host::check("walk", h.api()->walk(h.ctx(), h.child(fn, PTO_FIELD_BODY), &callbacks));
    }
}

}  // namespace ptoplug::mdtc
