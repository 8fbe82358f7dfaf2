// Context resolution inside one function (docs/pass.md §4): the alias pre-pass that follows contexts
// through SSA aliases, tuples, loop carries and if merges, and the use-time lookup of §4.5.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "plan.h"

namespace ptoplug::mdtc {

/// Diagnostic texts (docs/pass.md §8); `desc` is "'name'" or "a DistributedTensor value".
std::string describeValue(const Host& h, pto_node value);
[[noreturn]] void userError(const char* id, std::string message, pto_node node);
/// A condition pypto reports as an internal error (docs/pass.md: I1, I3 to I6, B3) that a malformed or unusual
/// input can cause: a user error here, with pypto's message, never "report a bug".
[[noreturn]] void inputError(const char* id, std::string message, pto_node node);
[[noreturn]] void internalError(const char* id, std::string message, pto_node node);

class Resolver {
public:
    Resolver(const Host& h, const ProgramPlans& plans) : h_(h), plans_(plans) {}

    /// Starts a function: `plan` is its plan or nullptr.
    void reset(const Plan* plan);

    /// §4.4: walks the (unrewritten) body recording aliases; raises E1/E2.
    void prepass(pto_node body);

    /// §4.5, with the final maps: the context of a ctx param of the function, if resolvable.
    MaybeCtx lookupExisting(pto_node arg) const;

private:
    using Lookup = std::function<MaybeCtx(pto_node)>;

    MaybeCtx resolve(pto_node e) const;
    std::vector<MaybeCtx> returnedCtxs(pto_node e) const;
    std::vector<MaybeCtx> resultCtxs(pto_node e, const Lookup& lookup) const;
    MaybeCtx tupleEntry(pto_node tuple, int64_t index) const;
    pto_node inheritedArg(pto_node e) const;

    void stmt(pto_node s);
    void seedLoop(pto_node loop);
    void validateLoop(pto_node loop);
    void mergeIf(pto_node s);
    pto_node findBranchYield(pto_node s) const;

    const Host& h_;
    const ProgramPlans& plans_;
    const Plan* plan_ = nullptr;
    NodeMap<CtxId> alias_;
    NodeMap<std::vector<MaybeCtx>> tuple_;
};

}  // namespace ptoplug::mdtc
