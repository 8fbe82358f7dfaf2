#include "rewriter.h"

namespace ptoplug::mdtc {
namespace {

constexpr std::string_view kGetCommCtx = "pld.system.get_comm_ctx";

// Runs `f` with `flag` set to `value`, restoring it afterwards.
template <class F>
void with(bool& flag, bool value, F&& f) {
    bool saved = flag;
    flag = value;
    f();
    flag = saved;
}

}  // namespace

FunctionRewriter::FunctionRewriter(const Host& h, const ProgramPlans& plans, const Resolver& resolver)
    : h_(h), plans_(plans), resolver_(resolver) {}

void FunctionRewriter::run(const FunctionEntry& function) {
    const Plan* plan = function.plan;
    function_ = function.node;
    plan_ = plan;
    functionName_ = function.name;
    hostOrch_ = function.hostOrchestration;
    paramCtxCount_ = plan ? static_cast<CtxId>(plan->distParams.size()) : 0;
    needsNames_ = plan || hostOrch_;
    rewrite_ = true;
    collect_ = needsNames_;
    prefixAllowed_ = false;
    names_.clear();
    if (!visited_.empty()) visited_.clear();  // clear() costs the bucket count even when empty
    if (!met_.empty()) met_.clear();
    syntheses_.clear();
    prefixes_.clear();
    replacements_.clear();
    ctxArgs_.clear();
    callEdits_.clear();
    remap_.clear();
    copies_.clear();
    appended_.clear();

    // §3.3 and §5.1: the original params count as used, and so does the body (collected by the walk).
    for (std::string_view name : function.clashingParamNames) names_.use(name);
    stmt(function_, PTO_FIELD_BODY, 0);
    apply();
}

// --- the walk ----------------------------------------------------------------------------------------

template <class F>
void FunctionRewriter::withPrefix(pto_node parent, uint32_t field, size_t index, F&& visitExprs) {
    size_t first = syntheses_.size();
    with(prefixAllowed_, true, visitExprs);
    if (syntheses_.size() > first) prefixes_.push_back({parent, field, index, first, syntheses_.size() - first});
}

void FunctionRewriter::stmt(pto_node parent, uint32_t field, size_t index) {
    pto_node s = h_.child(parent, field, index);
    pto_node_kind k = h_.kind(s);
    switch (k) {
        case PTO_NODE_ASSIGN_STMT: {
            // §3.5: the assigned var's name whatever its kind; a Var's own visit records it too.
            pto_node var = h_.child(s, PTO_FIELD_VAR);
            if (collect_ && h_.kind(var) != PTO_NODE_VAR) useName(var);
            namesOnly(var);
            return withPrefix(parent, field, index, [&] { exprAt({s, PTO_FIELD_VALUE, 0, true}); });
        }
        case PTO_NODE_EVAL_STMT: return withPrefix(parent, field, index, [&] { exprAt({s, PTO_FIELD_EXPR, 0, true}); });
        case PTO_NODE_RETURN_STMT: return withPrefix(parent, field, index, [&] { exprs(s, PTO_FIELD_VALUE); });
        case PTO_NODE_YIELD_STMT: return exprs(s, PTO_FIELD_VALUE);
        case PTO_NODE_SEQ_STMTS: {
            // Edits wait for the end of the walk, so indices stay those of the input sequence.
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
        case PTO_NODE_WHILE_STMT: {
            if (k == PTO_NODE_FOR_STMT)
                for (uint32_t f : {PTO_FIELD_LOOP_VAR, PTO_FIELD_START, PTO_FIELD_STOP, PTO_FIELD_STEP})
                    exprAt({s, f, 0, true});
            // §12.4: an iter_args entry whose init the pass rewrites becomes a rebuilt copy, and the
            // body's occurrences of the original map to it (pypto's var_remap_) until the body ends.
            std::vector<pto_node> iterArgs = h_.children(s, PTO_FIELD_ITER_ARGS);
            for (size_t i = 0; i < iterArgs.size(); ++i) {
                namesOnly(h_.child(iterArgs[i], PTO_FIELD_INIT_VALUE));
                namesInShape(iterArgs[i]);
                if (!rewrite_) continue;
                pto_node header = iterArgOccurrence(iterArgs[i]);
                if (!pto_node_equal(header, iterArgs[i])) h_.replaceChild(s, PTO_FIELD_ITER_ARGS, i, header);
            }
            if (k == PTO_NODE_WHILE_STMT) exprAt({s, PTO_FIELD_CONDITION, 0, true});
            stmt(s, PTO_FIELD_BODY, 0);
            if (rewrite_)
                for (pto_node ia : iterArgs) remap_.erase(ia);
            return exprs(s, PTO_FIELD_RETURN_VARS);
        }
        case PTO_NODE_SPMD_SCOPE_STMT:
            exprAt({s, PTO_FIELD_CORE_NUM, 0, true});
            stmt(s, PTO_FIELD_BODY, 0);
            return attrs(s);
        case PTO_NODE_COMM_DOMAIN_SCOPE_STMT:
            stmt(s, PTO_FIELD_BODY, 0);
            exprs(s, PTO_FIELD_SLOTS);
            return attrs(s);
        case PTO_NODE_CLUSTER_SCOPE_STMT:
        case PTO_NODE_RUNTIME_SCOPE_STMT:
            // Rewritten like any scope's attrs, but §3.5's walk does not read them.
            stmt(s, PTO_FIELD_BODY, 0);
            return with(collect_, false, [&] { attrs(s); });
        default:
            if (pto_node_kind_is_scope(k)) {
                stmt(s, PTO_FIELD_BODY, 0);
                attrs(s);
            }
            return;
    }
}

void FunctionRewriter::exprs(pto_node parent, uint32_t field) {
    size_t n = h_.count(parent, field);
    for (size_t i = 0; i < n; ++i) exprAt({parent, field, i, true});
}

void FunctionRewriter::attrs(pto_node node) {
    h_.forEachAttrNode(node, [&](pto_node x) { exprAt({x, 0, 0, false}); });
}

// Children first, then the node's own hook (§5.2).
void FunctionRewriter::exprAt(const Slot& slot) {
    pto_node e = slot.replaceable ? h_.child(slot.parent, slot.field, slot.index) : slot.parent;
    pto_node_kind k = h_.kind(e);
    switch (k) {
        case PTO_NODE_VAR: useName(e); return namesInShape(e);
        case PTO_NODE_ITER_ARG: {
            if (collect_) {
                namesOnly(h_.child(e, PTO_FIELD_INIT_VALUE));
                namesInShape(e);
            }
            if (!rewrite_) return;
            pto_node becomes = iterArgOccurrence(e);
            if (pto_node_equal(becomes, e)) return;
            if (!slot.replaceable)
                inputError("I6",
                           "an IterArg whose init value this pass rewrites is used inside an attribute, where its "
                           "copy cannot be placed",
                           e);
            return h_.replaceChild(slot.parent, slot.field, slot.index, becomes);
        }
        case PTO_NODE_CALL:
        case PTO_NODE_SUBMIT: return callLike(e, k, slot);
        case PTO_NODE_MAKE_TUPLE:
            if (metAgain(e, slot)) return;
            return exprs(e, PTO_FIELD_ELEMENTS);
        case PTO_NODE_TUPLE_GET_ITEM:
            if (metAgain(e, slot)) return;
            return exprAt({e, PTO_FIELD_TUPLE, 0, true});
        case PTO_NODE_BINARY:
            if (metAgain(e, slot)) return;
            exprAt({e, PTO_FIELD_LEFT, 0, true});
            return exprAt({e, PTO_FIELD_RIGHT, 0, true});
        case PTO_NODE_UNARY:
            if (metAgain(e, slot)) return;
            return exprAt({e, PTO_FIELD_OPERAND, 0, true});
        default: return;
    }
}

void FunctionRewriter::callLike(pto_node call, pto_node_kind kind, const Slot& slot) {
    auto [op, global] = h_.callOp(call);
    bool query = kind == PTO_NODE_CALL && op == kGetCommCtx;  // §5.3 A: by name, checked first
    const Plan* callee = !query && global ? plans_.find(op) : nullptr;
    if (rewrite_ && ((query && !hostOrch_) || callee)) {
        // A call met again (the IR is a DAG): pypto's mutator rebuilds every occurrence into its own node
        // (§12.4), so this one gets a rebuilt copy, and the first keeps the in-place edit.
        if (auto seen = visited_.find(call); seen != visited_.end()) {
            namesOnly(call);
            if (!slot.replaceable) {
                if (seen->second) inputError("I3", "cannot replace pld.system.get_comm_ctx inside an attribute", call);
                return;
            }
            Rebuilt r = rebuild(call, false);
            if (r.ctx)
                replacements_.push_back({slot, *r.ctx});
            else
                h_.replaceChild(slot.parent, slot.field, slot.index, r.node);
            return;
        }
    } else if (metAgain(call, slot)) {
        return;
    }
    callChildren(call, kind);
    if (!rewrite_) return;
    if (query) return queryHook(call, slot);
    if (callee) {
        appendContexts(call, op, *callee, {});
        visited_.emplace(call, std::nullopt);
    }
}

// The rule of shared calls (callLike), for every other composite: the first occurrence keeps the in-place
// edits below it, and one met again is rebuilt on its own, as pypto's mutator rebuilds each occurrence; an
// ancestor edited in place would carry the second occurrence's contexts into the first, before their
// definitions. Where nothing below changes, the rebuild is the node itself, still shared.
bool FunctionRewriter::metAgain(pto_node e, const Slot& slot) {
    if (!rewrite_ || !slot.replaceable || met_.emplace(e, true).second) return false;
    namesOnly(e);
    Rebuilt r = rebuild(e, false);
    if (r.ctx)
        replacements_.push_back({slot, *r.ctx});
    else if (r.changed)
        h_.replaceChild(slot.parent, slot.field, slot.index, r.node);
    return true;
}

void FunctionRewriter::callChildren(pto_node call, pto_node_kind kind) {
    exprs(call, PTO_FIELD_ARGS);
    if (kind == PTO_NODE_SUBMIT) {
        exprs(call, PTO_FIELD_DEPS);
        for (uint32_t f : {PTO_FIELD_CORE_NUM, PTO_FIELD_PREDICATE})
            if (h_.count(call, f)) exprAt({call, f, 0, true});
    }
    attrs(call);
}

void FunctionRewriter::namesOnly(pto_node node) {
    if (collect_) with(rewrite_, false, [&] { exprAt({node, 0, 0, false}); });
}

// §3.5: the shape of a type of kind exactly TensorType.
void FunctionRewriter::namesInShape(pto_node node) {
    if (!collect_) return;
    for (pto_node d : h_.shapeDims(node, PTO_TYPE_TENSOR)) namesOnly(d);
}

void FunctionRewriter::useName(pto_node node) {
    if (collect_) names_.use(h_.name(node));
}

void FunctionRewriter::unresolvedQuery(pto_node arg, pto_node call) const {
    std::string desc = describeValue(h_, arg);
    userError("E3",
              "Cannot resolve pld.system.get_comm_ctx(" + desc + ") in '" + std::string(functionName_) +
                  "'. Outside host orchestration the query has no runtime representation, so the context must "
                  "be reachable from a parameter of this function. Take " +
                  desc + " as a parameter (or return it from a callee that does) instead of producing it locally.",
              call);
}

void FunctionRewriter::queryHook(pto_node call, const Slot& slot) {
    if (h_.count(call, PTO_FIELD_ARGS) != 1)
        inputError("I1", "pld.system.get_comm_ctx expects exactly one argument", call);
    if (hostOrch_) return;
    pto_node arg = h_.child(call, PTO_FIELD_ARGS, 0);
    MaybeCtx c = resolver_.lookupExisting(arg);
    if (!c) unresolvedQuery(arg, call);
    if (!slot.replaceable) inputError("I3", "cannot replace pld.system.get_comm_ctx inside an attribute", call);
    replacements_.push_back({slot, *c});
    visited_.emplace(call, c);
}

std::vector<CtxId> FunctionRewriter::appendContexts(pto_node call, std::string_view op, const Plan& callee,
                                                    const std::vector<CtxId>& prior) {
    size_t argCount = h_.count(call, PTO_FIELD_ARGS);
    std::vector<CtxId> all = prior;
    for (const DistParam& dist : callee.distParams) {
        size_t p = dist.index;
        if (p >= argCount)
            inputError("I4",
                       "call-like expression does not provide DistributedTensor arg at callee param index " +
                           std::to_string(p),
                       call);
        MaybeCtx c = ctxForArg(h_.child(call, PTO_FIELD_ARGS, p), call);
        if (!c) inputError("I5", "expected DistributedTensor arg at callee param index " + std::to_string(p), call);
        all.push_back(*c);
    }
    int64_t directions = h_.attrListLength(call, "arg_directions");
    bool hasDirections = directions >= 0 || h_.hasAttr(call, "arg_directions");
    if (hasDirections && directions == 0)
        inputError("B3",
                   "arg_directions of the call to '" + std::string(op) + "' is empty, so it cannot describe the " +
                       std::to_string(argCount + all.size()) + " args after adding contexts",
                   call);
    callEdits_.push_back({call, ctxArgs_.size(), all.size(), hasDirections});
    ctxArgs_.insert(ctxArgs_.end(), all.begin(), all.end());
    return all;
}

// --- IterArgs whose init value the pass rewrites (docs/pass.md §12.4) ---------------------------------

pto_node FunctionRewriter::copyOf(pto_node node) {
    pto_node copy{};
    Host::check("clone_node", h_.api()->clone_node(h_.ctx(), node, &copy));
    copies_.emplace(copy, true);
    return copy;
}

pto_node FunctionRewriter::iterArgOccurrence(pto_node ia) {
    if (auto it = remap_.find(ia); it != remap_.end()) {
        pto_node mapped = it->second;
        if (pto_node_equal(mapped, ia) || resolving_.count(ia)) return mapped;
        resolving_.emplace(ia, true);
        pto_node resolved = iterArgOccurrence(mapped);  // a copy is visited again: its init rewritten again
        resolving_.erase(ia);
        if (!pto_node_equal(resolved, mapped)) remap_[ia] = resolved;
        return resolved;
    }
    Rebuilt init = rebuild(h_.child(ia, PTO_FIELD_INIT_VALUE), copies_.count(ia) > 0);
    if (!init.changed) return ia;
    pto_node fresh = copyOf(ia);
    if (init.ctx)
        replacements_.push_back({{fresh, PTO_FIELD_INIT_VALUE, 0, true}, *init.ctx});
    else
        h_.replaceChild(fresh, PTO_FIELD_INIT_VALUE, 0, init.node);
    remap_[ia] = fresh;
    return fresh;
}

FunctionRewriter::Rebuilt FunctionRewriter::rebuild(pto_node e, bool parentIsCopy) {
    switch (pto_node_kind k = h_.kind(e)) {
        case PTO_NODE_ITER_ARG: {
            pto_node becomes = iterArgOccurrence(e);
            return {becomes, std::nullopt, !pto_node_equal(becomes, e)};
        }
        case PTO_NODE_CALL:
        case PTO_NODE_SUBMIT: return rebuildCall(e, k, parentIsCopy);
        case PTO_NODE_TUPLE_GET_ITEM: return rebuildChildren(e, {PTO_FIELD_TUPLE}, false);
        case PTO_NODE_MAKE_TUPLE: return rebuildChildren(e, {PTO_FIELD_ELEMENTS}, false);
        case PTO_NODE_BINARY: return rebuildChildren(e, {PTO_FIELD_LEFT, PTO_FIELD_RIGHT}, false);
        case PTO_NODE_UNARY: return rebuildChildren(e, {PTO_FIELD_OPERAND}, false);
        default: return {e, std::nullopt, false};
    }
}

FunctionRewriter::Rebuilt FunctionRewriter::rebuildChildren(pto_node e, std::initializer_list<uint32_t> fields,
                                                            bool force) {
    struct Edit {
        uint32_t field;
        size_t index;
        Rebuilt to;
    };
    const bool isCopy = copies_.count(e) > 0;
    std::vector<Edit> edits;
    bool changed = force;
    for (uint32_t f : fields) {
        size_t n = h_.count(e, f);
        for (size_t i = 0; i < n; ++i) {
            Rebuilt r = rebuild(h_.child(e, f, i), isCopy);
            changed = changed || r.changed;
            if (r.changed || r.ctx) edits.push_back({f, i, r});
        }
    }
    if (!changed) return {e, std::nullopt, false};
    pto_node copy = copyOf(e);
    for (const Edit& x : edits) {
        if (x.to.ctx)
            replacements_.push_back({{copy, x.field, x.index, true}, *x.to.ctx});
        else
            h_.replaceChild(copy, x.field, x.index, x.to.node);
    }
    return {copy, std::nullopt, true};
}

FunctionRewriter::Rebuilt FunctionRewriter::rebuildCall(pto_node call, pto_node_kind kind, bool parentIsCopy) {
    auto [op, global] = h_.callOp(call);
    const bool query = kind == PTO_NODE_CALL && op == kGetCommCtx;
    const Plan* callee = !query && global ? plans_.find(op) : nullptr;
    const std::initializer_list<uint32_t> callFields = {PTO_FIELD_ARGS, PTO_FIELD_DEPS, PTO_FIELD_CORE_NUM,
                                                        PTO_FIELD_PREDICATE};
    if (query && !hostOrch_) {
        // Replaced by the context of its argument; in a copy it already was, and stays so.
        if (h_.count(call, PTO_FIELD_ARGS) != 1)
            inputError("I1", "pld.system.get_comm_ctx expects exactly one argument", call);
        pto_node arg = h_.child(call, PTO_FIELD_ARGS, 0);
        if (!parentIsCopy) arg = rebuild(arg, false).node;
        MaybeCtx c = resolver_.lookupExisting(arg);
        if (!c) unresolvedQuery(arg, call);
        return {call, c, !parentIsCopy};
    }
    if (!callee) return rebuildChildren(call, callFields, false);
    // A planned call gains one more set of contexts at every rebuild.
    Rebuilt copy = rebuildChildren(call, callFields, true);
    auto prior = appended_.find(call);
    std::vector<CtxId> all =
        appendContexts(copy.node, op, *callee, prior == appended_.end() ? std::vector<CtxId>{} : prior->second);
    appended_[copy.node] = std::move(all);
    return copy;
}

MaybeCtx FunctionRewriter::ctxForArg(pto_node arg, pto_node call) {
    if (!isDist(h_, arg)) return std::nullopt;
    if (MaybeCtx c = resolver_.lookupExisting(arg)) return c;
    if (!hostOrch_) {
        std::string desc = describeValue(h_, arg);
        userError("E4",
                  "Cannot determine the communication context of DistributedTensor " + desc + " passed from '" +
                      std::string(functionName_) +
                      "'. Only host orchestration can query a context at runtime; a chip-orchestration or device "
                      "function must reach its DistributedTensor from one of its own parameters. Take " +
                      desc +
                      " as a parameter of this function (or return it from a callee that does) instead of producing it "
                      "locally.",
                  call);
    }
    if (!prefixAllowed_) inputError("I3", "cannot synthesize get_comm_ctx prefix in this expression context", call);
    syntheses_.push_back({isVarLike(h_, arg) ? autoNameBase(h_.name(arg)) : "dist", arg, call});
    return paramCtxCount_ + static_cast<CtxId>(syntheses_.size() - 1);
}

// --- the edits ---------------------------------------------------------------------------------------

void FunctionRewriter::apply() {
    size_t prefixed = 0;
    for (const Prefix& p : prefixes_) prefixed += p.count;
    if (prefixed != syntheses_.size())
        internalError("I2", "generated get_comm_ctx prefix was not attached to a statement", function_);
    if (paramCtxCount_ == 0 && syntheses_.empty()) return;

    // The ctx params are named first (§3.3), then the synthesized contexts in the order of the walk (§5.4).
    if (!commCtx_) commCtx_ = h_.singletonType(PTO_TYPE_COMM_CTX);
    ctx_.clear();
    ctx_.reserve(paramCtxCount_ + syntheses_.size());
    for (CtxId k = 0; k < paramCtxCount_; ++k) {
        const DistParam& dist = plan_->distParams[k];
        ctx_.push_back(h_.createVar(names_.make(autoNameBase(dist.name)), *commCtx_, dist.param));
    }
    for (CtxId k = 0; k < paramCtxCount_; ++k) h_.appendParam(function_, ctx_[k], PTO_PARAM_IN);
    for (const Synthesis& s : syntheses_) ctx_.push_back(h_.createVar(names_.make(s.base), *commCtx_, s.call));

    for (const Prefix& p : prefixes_) {
        stmts_.clear();
        for (size_t j = p.first; j < p.first + p.count; ++j) {
            const Synthesis& s = syntheses_[j];
            pto_node query = h_.createOpCall(kGetCommCtx, {&s.tensor, 1}, *commCtx_, s.call);
            stmts_.push_back(h_.createAssign(ctx_[paramCtxCount_ + j], query, s.call));
        }
        h_.insertBefore(p.parent, p.field, p.index, stmts_);
    }
    for (const Replacement& r : replacements_) h_.replaceChild(r.slot.parent, r.slot.field, r.slot.index, ctx_[r.ctx]);
    for (const CallEdit& e : callEdits_) {
        for (size_t i = e.first; i < e.first + e.count; ++i) h_.appendArg(e.call, ctx_[ctxArgs_[i]]);
        if (e.hasArgDirections) {
            directions_.assign(e.count, PTO_ARG_SCALAR);
            h_.extendArgDirections(e.call, directions_);
        }
    }
}

}  // namespace ptoplug::mdtc
