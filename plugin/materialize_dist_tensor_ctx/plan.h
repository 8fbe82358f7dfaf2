// Plans (PASS_SPEC §3): which functions get ctx params and which return positions return which
// parameter. The ctx params themselves are created when their function has been read (§3.3 names
// depend on the whole body), so until then a context is known by its ordinal, a CtxId.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "support/host.h"

namespace ptoplug::mdtc {

using plugin::Host;
using plugin::NodeEq;
using plugin::NodeHash;

template <class V>
using NodeMap = std::unordered_map<pto_node, V, NodeHash, NodeEq>;

/// A context of the function being rewritten: the ordinal of one of its ctx params (the order of
/// Plan::distParamIndices), or, past those, of a context synthesized in its body.
using CtxId = uint32_t;
/// A context found for a value, if any.
using MaybeCtx = std::optional<CtxId>;

struct Plan {
    pto_node function{};
    size_t originalParamCount = 0;
    std::vector<size_t> distParamIndices;                     ///< ascending
    std::vector<pto_node> distParams;                         ///< the params of distParamIndices
    std::vector<std::optional<size_t>> returnedParamIndices;  ///< §4.3

    /// The ctx of `param` if it is one of the dist params (a linear search: there are a few).
    MaybeCtx ctxOfParam(pto_node param) const {
        for (size_t k = 0; k < distParams.size(); ++k)
            if (pto_node_equal(distParams[k], param)) return static_cast<CtxId>(k);
        return std::nullopt;
    }
};

/// Hashes std::string and std::string_view alike, so lookups by a borrowed name allocate nothing.
struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

/// Every function of the program, in program order, with its plan if it has dist params.
struct ProgramPlans {
    std::vector<pto_node> functions;
    std::unordered_map<std::string, Plan, NameHash, std::equal_to<>> byName;
    const Plan* find(std::string_view name) const;
};

bool isVarLike(const Host& h, pto_node n);
/// Any of the scope statements (InCore ... CommDomain).
inline bool isScope(pto_node_kind k) {
    return k >= PTO_NODE_IN_CORE_SCOPE_STMT && k <= PTO_NODE_COMM_DOMAIN_SCOPE_STMT;
}
bool isDist(const Host& h, pto_node n);
/// PASS_SPEC §7.
bool isHostOrchestration(const Host& h, pto_node function);

/// §4.3 on the function as it is now.
std::vector<std::optional<size_t>> explicitReturnedParamIndices(const Host& h, pto_node function);

/// §3: plans every function with a dist param.
ProgramPlans planProgram(const Host& h);

}  // namespace ptoplug::mdtc
