#include "rewriter.h"

namespace ptoplug::mdtc {
namespace {

constexpr std::string_view kGetCommCtx = "pld.system.get_comm_ctx";

}  // namespace

FunctionRewriter::FunctionRewriter(const Host& h, const ProgramPlans& plans, const Resolver& resolver,
                                   pto_node function, NameSet bodyNames)
    : h_(h),
      plans_(plans),
      resolver_(resolver),
      function_(function),
      functionName_(h.name(function)),
      hostOrch_(isHostOrchestration(h, function)),
      names_(std::move(bodyNames)),
      commCtxType_(h.singletonType(PTO_TYPE_COMM_CTX)) {
    // §5.1: every param of the extended function, and the input body's names.
    for (pto_node p : h.children(function, PTO_FIELD_PARAMS)) names_.use(h.name(p));
}

void FunctionRewriter::run() {
    stmt(function_, PTO_FIELD_BODY, 0);
    if (!pending_.empty())
        internalError("I2", "generated get_comm_ctx prefix was not attached to a statement", function_);
}

template <class F>
void FunctionRewriter::withPrefix(pto_node parent, uint32_t field, size_t index, F&& visitExprs) {
    pending_.clear();
    bool saved = prefixAllowed_;
    prefixAllowed_ = true;
    visitExprs();
    prefixAllowed_ = saved;
    if (!pending_.empty()) {
        h_.insertBefore(parent, field, index, pending_);
        pending_.clear();
    }
}

void FunctionRewriter::stmt(pto_node parent, uint32_t field, size_t index) {
    pto_node s = h_.child(parent, field, index);
    pto_node_kind k = h_.kind(s);
    switch (k) {
        case PTO_NODE_ASSIGN_STMT:
            return withPrefix(parent, field, index, [&] { exprAt({s, PTO_FIELD_VALUE, 0, true}); });
        case PTO_NODE_EVAL_STMT: return withPrefix(parent, field, index, [&] { exprAt({s, PTO_FIELD_EXPR, 0, true}); });
        case PTO_NODE_RETURN_STMT: return withPrefix(parent, field, index, [&] { exprs(s, PTO_FIELD_VALUE); });
        case PTO_NODE_YIELD_STMT: return exprs(s, PTO_FIELD_VALUE);
        case PTO_NODE_SEQ_STMTS: {
            // Insertions are deferred by the host, so indices stay those of the input sequence.
            size_t n = h_.count(s, PTO_FIELD_STMTS);
            for (size_t i = 0; i < n; ++i) stmt(s, PTO_FIELD_STMTS, i);
            return;
        }
        case PTO_NODE_IF_STMT:
            exprAt({s, PTO_FIELD_CONDITION, 0, true});
            stmt(s, PTO_FIELD_THEN_BODY, 0);
            if (h_.count(s, PTO_FIELD_ELSE_BODY)) stmt(s, PTO_FIELD_ELSE_BODY, 0);
            return exprs(s, PTO_FIELD_RETURN_VARS);
        case PTO_NODE_FOR_STMT:
            for (uint32_t f : {PTO_FIELD_LOOP_VAR, PTO_FIELD_START, PTO_FIELD_STOP, PTO_FIELD_STEP})
                exprAt({s, f, 0, true});
            for (pto_node ia : h_.children(s, PTO_FIELD_ITER_ARGS)) exprAt({ia, PTO_FIELD_INIT_VALUE, 0, true});
            stmt(s, PTO_FIELD_BODY, 0);
            return exprs(s, PTO_FIELD_RETURN_VARS);
        case PTO_NODE_WHILE_STMT:
            for (pto_node ia : h_.children(s, PTO_FIELD_ITER_ARGS)) exprAt({ia, PTO_FIELD_INIT_VALUE, 0, true});
            exprAt({s, PTO_FIELD_CONDITION, 0, true});
            stmt(s, PTO_FIELD_BODY, 0);
            return exprs(s, PTO_FIELD_RETURN_VARS);
        case PTO_NODE_SPMD_SCOPE_STMT:
            exprAt({s, PTO_FIELD_CORE_NUM, 0, true});
            stmt(s, PTO_FIELD_BODY, 0);
            return attrNodes(s);
        case PTO_NODE_COMM_DOMAIN_SCOPE_STMT:
            stmt(s, PTO_FIELD_BODY, 0);
            exprs(s, PTO_FIELD_SLOTS);
            return attrNodes(s);
        default:
            if (isScope(k)) {
                stmt(s, PTO_FIELD_BODY, 0);
                attrNodes(s);
            }
            return;
    }
}

void FunctionRewriter::exprs(pto_node parent, uint32_t field) {
    size_t n = h_.count(parent, field);
    for (size_t i = 0; i < n; ++i) exprAt({parent, field, i, true});
}

void FunctionRewriter::attrNodes(pto_node node) {
    h_.forEachAttrNode(node, [&](pto_node x) {
        if (h_.kind(x) == PTO_NODE_CALL || h_.kind(x) == PTO_NODE_SUBMIT) exprAt({x, 0, 0, false});
    });
}

// Children first, then the node's own hook (§5.2).
void FunctionRewriter::exprAt(const Slot& slot) {
    // An attr-held call is addressed by itself (field 0): it cannot be replaced, only rewritten.
    pto_node e = slot.replaceable ? h_.child(slot.parent, slot.field, slot.index) : slot.parent;
    switch (h_.kind(e)) {
        case PTO_NODE_CALL:
        case PTO_NODE_SUBMIT: {
            if (rewritten_.count(e)) return;
            exprs(e, PTO_FIELD_ARGS);
            if (h_.kind(e) == PTO_NODE_SUBMIT) {
                exprs(e, PTO_FIELD_DEPS);
                for (uint32_t f : {PTO_FIELD_CORE_NUM, PTO_FIELD_PREDICATE})
                    if (h_.count(e, f)) exprAt({e, f, 0, true});
            }
            attrNodes(e);
            rewritten_.emplace(e, true);
            return callHook(e, slot);
        }
        case PTO_NODE_MAKE_TUPLE: return exprs(e, PTO_FIELD_ELEMENTS);
        case PTO_NODE_TUPLE_GET_ITEM: return exprAt({e, PTO_FIELD_TUPLE, 0, true});
        case PTO_NODE_BINARY: exprAt({e, PTO_FIELD_LEFT, 0, true}); return exprAt({e, PTO_FIELD_RIGHT, 0, true});
        case PTO_NODE_UNARY: return exprAt({e, PTO_FIELD_OPERAND, 0, true});
        default: return;
    }
}

void FunctionRewriter::callHook(pto_node call, const Slot& slot) {
    auto [op, global] = h_.callOp(call);
    (void)global;
    if (h_.kind(call) == PTO_NODE_CALL && op == kGetCommCtx) {
        if (h_.count(call, PTO_FIELD_ARGS) != 1)
            internalError("I1", "pld.system.get_comm_ctx expects exactly one argument", call);
        if (hostOrch_) return;
        pto_node arg = h_.child(call, PTO_FIELD_ARGS, 0);
        pto_node c = resolver_.lookupExisting(arg);
        if (pto_node_is_null(c)) {
            std::string desc = describeValue(h_, arg);
            userError("E3",
                      "Cannot resolve pld.system.get_comm_ctx(" + desc + ") in '" + functionName_ +
                          "'. Outside host orchestration the query has no runtime representation, so the context "
                          "must be reachable from a parameter of this function. Take " +
                          desc +
                          " as a parameter (or return it from a callee that does) instead of producing it locally.",
                      call);
        }
        if (!slot.replaceable) internalError("I3", "cannot replace pld.system.get_comm_ctx inside an attribute", call);
        h_.replaceChild(slot.parent, slot.field, slot.index, c);
        return;
    }
    plannedCalleeHook(call);
}

void FunctionRewriter::plannedCalleeHook(pto_node call) {
    auto [op, global] = h_.callOp(call);
    if (!global) return;
    const Plan* callee = plans_.find(op);
    if (!callee) return;
    size_t argCount = h_.count(call, PTO_FIELD_ARGS);
    std::vector<pto_node> ctxs;
    for (size_t p : callee->distParamIndices) {
        if (p >= argCount)
            internalError("I4",
                          "call-like expression does not provide DistributedTensor arg at callee param index " +
                              std::to_string(p),
                          call);
        pto_node c = ctxForArg(h_.child(call, PTO_FIELD_ARGS, p), call);
        if (pto_node_is_null(c))
            internalError("I5", "expected DistributedTensor arg at callee param index " + std::to_string(p), call);
        ctxs.push_back(c);
    }
    for (pto_node c : ctxs) h_.appendArg(call, c);
    int64_t directions = h_.attrListLength(call, "arg_directions");
    if (h_.extendArgDirections(call, std::vector<pto_arg_direction>(ctxs.size(), PTO_ARG_SCALAR)) && directions == 0)
        internalError("B3",
                      "arg_directions of the call to '" + std::string(op) + "' is empty, so it cannot describe the " +
                          std::to_string(argCount + ctxs.size()) + " args after adding contexts",
                      call);
}

pto_node FunctionRewriter::ctxForArg(pto_node arg, pto_node call) {
    if (!isDist(h_, arg)) return pto_node{};
    if (pto_node c = resolver_.lookupExisting(arg); !pto_node_is_null(c)) return c;
    if (!hostOrch_) {
        std::string desc = describeValue(h_, arg);
        userError("E4",
                  "Cannot determine the communication context of DistributedTensor " + desc + " passed from '" +
                      functionName_ +
                      "'. Only host orchestration can query a context at runtime; a chip-orchestration or device "
                      "function must reach its DistributedTensor from one of its own parameters. Take " +
                      desc +
                      " as a parameter of this function (or return it from a callee that does) instead of producing it "
                      "locally.",
                  call);
    }
    if (!prefixAllowed_) internalError("I3", "cannot synthesize get_comm_ctx prefix in this expression context", call);
    std::string base = isVarLike(h_, arg) ? std::string(autoNameBase(h_.name(arg))) : "dist";
    pto_node var = h_.createVar(names_.make(base + "_ctx"), commCtxType_, call);
    pto_node query = h_.createOpCall(kGetCommCtx, {arg}, commCtxType_, call);
    pending_.push_back(h_.createAssign(var, query, call));
    return var;
}

}  // namespace ptoplug::mdtc
