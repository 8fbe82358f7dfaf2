// What pypto's deserializer and node constructors refuse beyond the kinds of fields (ir/schema.h): the
// program's root and function names, direction lists, the launch of a Submit, a function's level and role,
// tuple access, the types of constants and operators, a few scope and type conditions, and the values of
// tagged attrs and layouts. One place for them, checked where the schema is: on reading (exit 3) and
// after every pass (exit 5). Unknown node types and attr tags stay accepted (docs/ir_format.md §11.3).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ir/document.h"

namespace ptoplug::ir {

/// A rule a program breaks: the value where (for its place), what is wrong, and what to do.
struct RuleBreak {
    const Value* where;
    std::string message;
    std::string hint;
    /// pypto's node constructor raises it as a TypeError (its other checks raise ValueError): what a pass
    /// building that node raises in pypto (the Python API raises the same).
    bool typeError = false;
};

/// The rules on one node's own fields, its kinds already checked (ir/validate.h). A node it refers to is
/// read only as far as its `type` (a tuple's), and only where that is well formed.
std::optional<RuleBreak> checkNodeRules(const Document& doc, const Node& node);

/// The first node of `doc`, in node order, that breaks a rule of checkNodeRules. For a program a pass
/// left: the structural check says where, this which rule, with pypto's own text.
std::optional<RuleBreak> firstNodeRuleBreak(const Document& doc);

/// The rules on one type map of kind `typeKind`, its keys' kinds already checked.
std::optional<RuleBreak> checkTypeRules(const Value& type, std::string_view typeKind);

/// The rules on the value of one attr (or kwarg) named `key`, its entry's shape already checked: what
/// pypto's kwargs reader takes (a tag it does not know stays accepted: docs/ir_format.md §11.3).
std::optional<RuleBreak> checkAttrRules(const Value& value, std::string_view key);

/// The rules on a program as a whole (a document whose root is a Program): its functions are named once
/// each, non-empty, with the key of each entry naming its Function. The nodes' own rules are checked already.
std::optional<RuleBreak> checkProgramRules(const Document& doc);

/// The root of a document read as a program is a Program node (ir/reader.h: Root::Program).
std::optional<RuleBreak> checkRootIsProgram(const Document& doc);

}  // namespace ptoplug::ir
