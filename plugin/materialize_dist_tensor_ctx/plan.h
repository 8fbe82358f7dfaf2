// Plans (docs/pass.md §3): which functions get ctx params and which return positions return which
// parameter. The ctx params themselves are created when their function has been read (§3.3 names
// depend on the whole body), so until then a context is known by its ordinal, a CtxId.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <ptoplug/sdk.hpp>

namespace ptoplug::mdtc {

using plugin::Host;
using plugin::NodeEq;
using plugin::NodeHash;

template <class V>
using NodeMap = std::unordered_map<pto_node, V, NodeHash, NodeEq>;

/// A context of the function being rewritten: the ordinal of one of its ctx params (the order of
/// Plan::distParams), or, past those, of a context synthesized in its body.
using CtxId = uint32_t;
/// A context found for a value, if any.
using MaybeCtx = std::optional<CtxId>;

struct DistParam {
    size_t index;  ///< position in the function's params
    pto_node param;
    std::string_view name;
};

/// Its spans point into ProgramPlans' flat lists: one allocation for all plans instead of two a plan.
struct Plan {
    size_t originalParamCount = 0;
    std::span<const DistParam> distParams;                        ///< ascending; CtxId k is distParams[k]'s
    std::span<const std::optional<size_t>> returnedParamIndices;  ///< §4.3

    /// The ctx of `param` if it is one of the dist params (a linear search: there are a few).
    MaybeCtx ctxOfParam(pto_node param) const {
        for (size_t k = 0; k < distParams.size(); ++k)
            if (pto_node_equal(distParams[k].param, param)) return static_cast<CtxId>(k);
        return std::nullopt;
    }
    /// Whether param `index` is a dist param.
    bool isDistParam(size_t index) const {
        for (const DistParam& d : distParams)
            if (d.index == index) return true;
        return false;
    }
};

/// What the rewrite needs to know of a function, read once while planning.
struct FunctionEntry {
    pto_node node;
    std::string_view name;   ///< borrowed from the IR, which outlives the pass
    bool hostOrchestration;  ///< §7
    const Plan* plan;        ///< nullptr if the function has no dist param
    bool materialized;       ///< a planned function that already ends with its contexts (materializedContexts)
    /// The param names that could clash with a ctx name (§3.3, §5.1; UniqueNamer::mayClash), usually
    /// none: read while planning so that the rewrite does not read the params again.
    std::vector<std::string_view> clashingParamNames;
};

/// Every function of the program, in program order, with its plan if it has dist params. Moved, never
/// copied: its entries point into its own lists.
struct ProgramPlans {
    ProgramPlans() = default;
    ProgramPlans(ProgramPlans&&) = default;
    ProgramPlans& operator=(ProgramPlans&&) = default;
    ProgramPlans(const ProgramPlans&) = delete;
    ProgramPlans& operator=(const ProgramPlans&) = delete;

    std::vector<FunctionEntry> functions;
    std::vector<Plan> plans;                                  ///< complete before functions and byName point into it
    std::vector<DistParam> distParams;                        ///< every plan's, in plan order
    std::vector<std::optional<size_t>> returnedParamIndices;  ///< every plan's, in plan order
    std::unordered_map<std::string_view, const Plan*> byName;
    const Plan* find(std::string_view name) const;
};

bool isVarLike(const Host& h, pto_node n);
bool isDist(const Host& h, pto_node n);
/// docs/pass.md §7.
bool isHostOrchestration(const Host& h, pto_node function);

/// §4.3 on the function as it is now.
std::vector<std::optional<size_t>> explicitReturnedParamIndices(const Host& h, pto_node function);

/// The contexts a planned function already has, as the pass appends them: its last params, one CommCtx
/// per dist param. Empty if it does not end that way.
std::vector<pto_node> materializedContexts(const Host& h, pto_node function, const Plan& plan);

/// §3: plans every function with a dist param.
ProgramPlans planProgram(const Host& h);

}  // namespace ptoplug::mdtc
