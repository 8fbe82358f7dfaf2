// Plans (PASS_SPEC §3): which functions get ctx params, their names, and which return positions
// return which parameter.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "naming.h"
#include "support/host.h"

namespace ptoplug::mdtc {

using plugin::Host;
using plugin::NodeEq;
using plugin::NodeHash;

template <class V>
using NodeMap = std::unordered_map<pto_node, V, NodeHash, NodeEq>;

struct Plan {
    pto_node function{};
    size_t originalParamCount = 0;
    std::vector<size_t> distParamIndices;                     ///< ascending
    std::vector<pto_node> ctxParams;                          ///< one per dist param, same order
    NodeMap<pto_node> paramToCtx;                             ///< dist param -> its ctx param
    std::vector<std::optional<size_t>> returnedParamIndices;  ///< §4.3
};

/// Hashes std::string and std::string_view alike, so lookups by a borrowed name allocate nothing.
struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

/// Every function of the program, in program order, with its plan if it has dist params.
struct ProgramPlans {
    std::vector<pto_node> functions;
    std::vector<NameSet> bodyNames;  ///< §3.5, per function, of the input bodies
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

/// The name_hints of §3.5 (assigned vars and every Var the standard walk reaches) in `body`.
NameSet bodyNameSet(const Host& h, pto_node body);

/// §4.3 on the function as it is now.
std::vector<std::optional<size_t>> explicitReturnedParamIndices(const Host& h, pto_node function);

/// §3: plans every function with a dist param (creating its ctx Vars, not yet appended).
ProgramPlans planProgram(const Host& h);

}  // namespace ptoplug::mdtc
