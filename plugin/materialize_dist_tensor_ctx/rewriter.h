// The rewriting phase for one function (PASS_SPEC §5): ctx args for calls to planned functions,
// get_comm_ctx replacement outside host orchestration, and synthesized get_comm_ctx prefixes inside
// host orchestration.
#pragma once

#include <unordered_set>
#include <vector>

#include "naming.h"
#include "plan.h"
#include "resolver.h"

namespace ptoplug::mdtc {

class FunctionRewriter {
public:
    /// `bodyNames`: the §3.5 names of the function's input body.
    FunctionRewriter(const Host& h, const ProgramPlans& plans, const Resolver& resolver, pto_node function,
                     NameSet bodyNames);

    void run();

private:
    /// Where an expression sits, so that it can be replaced.
    struct Slot {
        pto_node parent;
        uint32_t field;
        size_t index;
        bool replaceable;  ///< false inside attrs, where no replacement is possible
    };

    void stmt(pto_node parent, uint32_t field, size_t index);
    template <class F>
    void withPrefix(pto_node parent, uint32_t field, size_t index, F&& visitExprs);
    void exprAt(const Slot& slot);
    void exprs(pto_node parent, uint32_t field);
    void attrNodes(pto_node node);
    void callHook(pto_node call, const Slot& slot);
    void plannedCalleeHook(pto_node call);
    pto_node ctxForArg(pto_node arg, pto_node call);

    const Host& h_;
    const ProgramPlans& plans_;
    const Resolver& resolver_;
    pto_node function_;
    std::string functionName_;
    bool hostOrch_;
    UniqueNamer names_;
    pto_value commCtxType_;
    std::vector<pto_node> pending_;
    bool prefixAllowed_ = false;
    NodeMap<bool> rewritten_;  ///< calls already given their ctx args (shared subtrees are visited once)
};

}  // namespace ptoplug::mdtc
