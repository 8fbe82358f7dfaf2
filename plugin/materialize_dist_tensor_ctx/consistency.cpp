#include "consistency.h"

#include "plan.h"
#include "resolver.h"

namespace ptoplug::mdtc {
namespace {

constexpr const char* kRule = "DistTensorCtxConsistent";

// What one walk of a caller's body collects: its calls, and what each assigned variable holds.
struct Body {
    const Host* h;
    std::vector<pto_node> calls;
    NodeMap<pto_node> assigned;
};

pto_walk_result collect(pto_run_context*, pto_node node, const pto_walk_position*, void* userData) {
    auto* body = static_cast<Body*>(userData);
    const Host& h = *body->h;
    pto_node_kind k = h.kind(node);
    if (k == PTO_NODE_CALL || k == PTO_NODE_SUBMIT) body->calls.push_back(node);
    if (k == PTO_NODE_ASSIGN_STMT) body->assigned[h.child(node, PTO_FIELD_VAR)] = h.child(node, PTO_FIELD_VALUE);
    return PTO_WALK_ADVANCE;
}

class CallerCheck {
public:
    CallerCheck(const Host& h, const ProgramPlans& plans, Resolver& resolver)
        : h_(h), plans_(plans), resolver_(resolver) {}

    void function(const FunctionEntry& fn) {
        resolver_.reset(fn.plan);
        callerCtx_ = fn.plan ? materializedContexts(h_, fn.node, *fn.plan) : std::vector<pto_node>{};
        pto_node bodyNode = h_.child(fn.node, PTO_FIELD_BODY);
        if (fn.plan) {
            // The merges of §4.4 must agree here too; a conflict is an inconsistency, not the end.
            try {
                resolver_.prepass(bodyNode);
            } catch (const plugin::PassError& e) {
                h_.emit(PTO_SEVERITY_ERROR, kRule, e.message, e.node);
                resolver_.reset(fn.plan);
            }
        }
        body_ = Body{&h_, {}, {}};
        pto_walk_callbacks callbacks{sizeof(pto_walk_callbacks), collect, nullptr, &body_, 0};
        Host::check("walk", h_.api()->walk(h_.ctx(), bodyNode, &callbacks));
        for (pto_node call : body_.calls) this->call(fn, call);
    }

private:
    void call(const FunctionEntry& caller, pto_node call) {
        auto [op, global] = h_.callOp(call);
        const Plan* plan = global ? plans_.find(op) : nullptr;
        pto_node callee = plan ? h_.findFunction(op) : pto_node{};
        std::vector<pto_node> calleeCtx = plan ? materializedContexts(h_, callee, *plan) : std::vector<pto_node>{};
        if (calleeCtx.empty()) return;  // not materialized: nothing to be consistent with
        std::vector<pto_node> args = h_.children(call, PTO_FIELD_ARGS);
        const size_t n = args.size(), m = calleeCtx.size(), params = h_.count(callee, PTO_FIELD_PARAMS);
        const std::string to = "the call to '" + std::string(op) + "' in '" + std::string(caller.name) + "'";
        // A Submit may leave out trailing Out params (allocated at run time); a Call passes every param.
        if (h_.kind(call) == PTO_NODE_CALL && n != params)
            return report(to + " passes " + std::to_string(n) + " arguments for the " + std::to_string(params) +
                              " parameters of '" + std::string(op) + "' (" + std::to_string(m) +
                              " of them contexts): it is missing or has extra context arguments",
                          call);
        for (size_t j = 0; j < m; ++j)
            if (n < m || h_.typeKind(args[n - m + j]) != PTO_TYPE_COMM_CTX)
                return report(to + " does not end with one CommCtx argument per DistributedTensor parameter of '" +
                                  std::string(op) + "' (" + std::to_string(m) + ")",
                              call);
        for (size_t j = 0; j < m; ++j) {
            const DistParam& param = plan->distParams[j];
            if (param.index >= n - m) {
                report(to + " passes no DistributedTensor for parameter '" + std::string(param.name) + "'", call);
                continue;
            }
            pto_node dist = args[param.index], ctx = args[n - m + j];
            MaybeCtx traced = resolver_.lookupExisting(dist);
            pto_node expected = traced && *traced < callerCtx_.size() ? callerCtx_[*traced] : pto_node{};
            if (sameContext(ctx, expected) || isQueryOf(ctx, dist, traced)) continue;
            report(to + " passes '" + std::string(h_.name(ctx)) + "' as the context of " + describeValue(h_, dist) +
                       " (parameter '" + std::string(param.name) + "'), but " +
                       (pto_node_is_null(expected) ? std::string("that context cannot be traced to a parameter or to a "
                                                                 "pld.system.get_comm_ctx of it")
                                                   : "its context is '" + std::string(h_.name(expected)) + "'"),
                   call);
        }
    }

    // `ctx` is `expected`, or a variable assigned from it (`c = data_ctx`), however many times.
    bool sameContext(pto_node ctx, pto_node expected) const {
        for (int hops = 0; hops < 64 && !pto_node_is_null(ctx); ++hops) {
            if (pto_node_equal(ctx, expected)) return true;
            auto it = body_.assigned.find(ctx);
            if (it == body_.assigned.end() || !isVarLike(h_, it->second)) return false;
            ctx = it->second;
        }
        return false;
    }

    // `ctx` holds pld.system.get_comm_ctx(x) (through aliases) where x is `dist`, or has its context.
    bool isQueryOf(pto_node ctx, pto_node dist, MaybeCtx traced) const {
        for (int hops = 0; hops < 64; ++hops) {
            auto it = body_.assigned.find(ctx);
            if (it == body_.assigned.end()) return false;
            pto_node value = it->second;
            if (isVarLike(h_, value)) {
                ctx = value;
                continue;
            }
            if (h_.kind(value) != PTO_NODE_CALL || h_.callOp(value).first != "pld.system.get_comm_ctx" ||
                h_.count(value, PTO_FIELD_ARGS) != 1)
                return false;
            pto_node queried = h_.child(value, PTO_FIELD_ARGS);
            return pto_node_equal(queried, dist) || (traced && resolver_.lookupExisting(queried) == traced);
        }
        return false;
    }

    void report(const std::string& message, pto_node node) const { h_.emit(PTO_SEVERITY_ERROR, kRule, message, node); }

    const Host& h_;
    const ProgramPlans& plans_;
    Resolver& resolver_;
    std::vector<pto_node> callerCtx_;
    Body body_;
};

}  // namespace

void verifyDistTensorCtxConsistent(const Host& h) {
    ProgramPlans plans = planProgram(h);
    if (plans.plans.empty()) return;
    Resolver resolver(h, plans);
    CallerCheck check(h, plans, resolver);
    for (const FunctionEntry& fn : plans.functions)
        if (h.count(fn.node, PTO_FIELD_BODY)) check.function(fn);
}

}  // namespace ptoplug::mdtc
