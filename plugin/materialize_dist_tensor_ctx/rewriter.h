// The rewriting phase for one function (docs/pass.md §5): ctx args for calls to planned functions,
// get_comm_ctx replacement outside host orchestration, and synthesized get_comm_ctx prefixes inside
// host orchestration.
//
// The body is read once. That walk collects the names of §3.5 and records every edit; the edits are
// made when it ends, because the names of the ctx params (§3.3) and of synthesized contexts (§5.4)
// depend on names anywhere in the body. Until then a context is a CtxId.
#pragma once

#include <deque>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "naming.h"
#include "plan.h"
#include "resolver.h"

namespace ptoplug::mdtc {

/// One per pass: its buffers are reused from function to function.
class FunctionRewriter {
public:
    FunctionRewriter(const Host& h, const ProgramPlans& plans, const Resolver& resolver);

    /// Walks the body of `function`, then edits the function. `resolver` must have been prepared for
    /// it. Throws plugin::PassError on the first error.
    void run(const FunctionEntry& function);

private:
    /// Where an expression sits, so that it can be replaced.
    struct Slot {
        pto_node parent;
        uint32_t field;
        size_t index;
        bool replaceable;  ///< false for a node addressed by itself (an attr), which only its parent could replace
    };
    /// A get_comm_ctx query to create in host orchestration (§5.4).
    struct Synthesis {
        std::string_view base;  ///< auto-name base of the tensor
        pto_node tensor;
        pto_node call;  ///< the call that needs it (its span is the new nodes' span)
    };
    /// Synthesized assignments [first, first + count) go before the statement at (parent, field, index).
    struct Prefix {
        pto_node parent;
        uint32_t field;
        size_t index;
        size_t first, count;
    };
    struct Replacement {
        Slot slot;
        CtxId ctx;
    };
    /// Contexts ctxArgs_[first, first + count) are appended to `call`'s args.
    struct CallEdit {
        pto_node call;
        size_t first, count;
        bool hasArgDirections;
    };

    // The walk. `rewrite_` off: the names of §3.5 only (inside types, assigned vars, IterArg uses).
    void stmt(pto_node parent, uint32_t field, size_t index);
    template <class F>
    void withPrefix(pto_node parent, uint32_t field, size_t index, F&& visitExprs);
    void exprAt(const Slot& slot);
    void exprs(pto_node parent, uint32_t field);
    void attrs(pto_node node);
    void callLike(pto_node call, pto_node_kind kind, const Slot& slot);
    /// True if `e`, a composite expression, was walked in place before; this occurrence then got its own
    /// rebuild (§12.4), and the walk does not descend again.
    bool metAgain(pto_node e, const Slot& slot);
    void callChildren(pto_node call, pto_node_kind kind);
    void namesOnly(pto_node node);
    void namesInShape(pto_node node);
    void useName(pto_node node);
    void queryHook(pto_node call, const Slot& slot);
    /// Records `prior` and then one context per dist param of `callee` to append to `call`; returns all.
    std::vector<CtxId> appendContexts(pto_node call, std::string_view op, const Plan& callee,
                                      const std::vector<CtxId>& prior);
    MaybeCtx ctxForArg(pto_node arg, pto_node call);
    [[noreturn]] void unresolvedQuery(pto_node arg, pto_node call) const;

    // pypto's copy-on-write for IterArgs whose init value the pass rewrites (docs/pass.md §12.4).
    /// What an expression becomes: itself, a rebuilt copy, or (a replaced get_comm_ctx) a context.
    struct Rebuilt {
        pto_node node;
        MaybeCtx ctx;
        bool changed;
    };
    /// pypto's VisitExpr_(IterArg) with its var_remap_: the node an occurrence of `ia` becomes.
    pto_node iterArgOccurrence(pto_node ia);
    /// pypto's mutator over an init value, building copies instead of editing in place.
    Rebuilt rebuild(pto_node e, bool parentIsCopy);
    Rebuilt rebuildCall(pto_node call, pto_node_kind kind, bool parentIsCopy);
    /// Rebuilds the children in `fields` of `e`; copies `e` if one changed (or `force`).
    Rebuilt rebuildChildren(pto_node e, std::initializer_list<uint32_t> fields, bool force);
    pto_node copyOf(pto_node node);

    /// Creates the contexts and makes the recorded edits.
    void apply();

    const Host& h_;
    const ProgramPlans& plans_;
    const Resolver& resolver_;
    std::optional<pto_value> commCtx_;  ///< the CommCtxType all new Vars share

    // The function being rewritten.
    pto_node function_{};
    const Plan* plan_ = nullptr;
    std::string_view functionName_;
    bool hostOrch_ = false;
    CtxId paramCtxCount_ = 0;
    bool needsNames_ = false;  ///< only functions that get ctx params or synthesize contexts name anything

    bool rewrite_ = true;
    bool collect_ = false;
    bool prefixAllowed_ = false;
    UniqueNamer names_;
    NodeMap<MaybeCtx> visited_;  ///< edited calls and their replacement (shared subtrees are edited once)
    NodeMap<bool> met_;          ///< the other composite expressions walked in place

    NodeMap<pto_node> remap_;               ///< pypto's var_remap_, for IterArgs
    NodeMap<bool> resolving_;               ///< its cycle guard
    NodeMap<bool> copies_;                  ///< nodes rebuild made (their queries are already contexts)
    NodeMap<std::vector<CtxId>> appended_;  ///< per copied planned call: every context it gets

    // The edits recorded by the walk. Deques: a host function records tens of thousands, and a vector
    // grown by doubling copied them into fresh pages each time (memory first-touch is time here).
    std::deque<Synthesis> syntheses_;
    std::deque<Prefix> prefixes_;
    std::deque<Replacement> replacements_;
    std::deque<CtxId> ctxArgs_;
    std::deque<CallEdit> callEdits_;

    // Scratch of apply().
    std::vector<pto_node> ctx_;
    std::vector<pto_node> stmts_;
    std::vector<pto_arg_direction> directions_;
};

}  // namespace ptoplug::mdtc
