// Definition before use within scope: pypto's structural property UseAfterDef and, where the program
// claims SSA form, the scope rule of its SSAVerify (docs/ir_format.md §11.14). A program whose schema
// and graph hold can still use a variable before the statement that binds it, or outside the loop or
// branch that binds it; pypto's verifiers refuse such a program, and its code generator would read a
// value never computed. Checked after every plugin pass (exit 5) and by `verify --property UseAfterDef`.
#pragma once

#include <cstddef>
#include <optional>

#include "ir/document.h"
#include "ir/program_rules.h"

namespace ptoplug::ir {

enum class ScopeRule {
    /// pypto's UseAfterDef: a definition in an if-branch or loop body without return_vars stays visible
    /// after it (the "leak" form before SSA); loop variables and iter_args only inside their loop.
    UseAfterDef,
    /// UseAfterDef and besides SSAVerify's scopes: nothing bound in a branch or loop body is visible after
    /// it; what leaves one leaves through its return_vars.
    SsaScopes,
};

/// The name of the property the host verifies itself, as `--verify` and `verify --property` take it.
inline constexpr const char* kUseAfterDefProperty = "UseAfterDef";

/// What checkUseAfterDef found.
struct ScopeCheck {
    /// The first use, in each function's walk order (functions in program order), of a Var or IterArg that
    /// no definition reaches, with pypto's text.
    std::optional<RuleBreak> broken;
    /// With `iterArgCopiesBound`: the first use of an IterArg copy taken as bound, and how many there were.
    std::optional<RuleBreak> firstCopy;
    size_t copyUses = 0;
};

/// Checks `doc` (its schema and graph holding: checkStructure) under `rule`; nothing to find if it is no
/// Program. With `iterArgCopiesBound`, an IterArg no loop binds counts as bound where an IterArg of the
/// same name is: pypto's mutator rebuilds an IterArg whose init it rewrites into such a copy, and its own
/// MaterializeDistTensorCtx leaves uses of them in loop bodies (docs/pass.md §12.4), which pypto's
/// UseAfterDef (by identity) reports and its pipeline never checks. A node shared by several expressions of
/// one statement is checked once there, so the cost stays linear in the nodes the statements hold.
ScopeCheck checkUseAfterDef(const Document& doc, ScopeRule rule, bool iterArgCopiesBound = false);
}  // namespace ptoplug::ir
