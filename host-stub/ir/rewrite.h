// Rewriting primitives over a Document: everything a pass needs to change a program, so that the ABI
// rewriter is a thin layer over these. Changes are made in place: a node changed here is changed at
// every occurrence (the IR is a DAG; pypto's own passes never share the Call/statement nodes that
// a pass changes, so in-place edits give the same program as pypto's copy-on-write).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.h"
#include "ir/document.h"

namespace ptoplug::ir {

/// Codes of docs/ir_format.md §7 the rewriter writes.
enum ParamDirectionCode : uint8_t { kParamIn = 0, kParamOut = 1, kParamInOut = 2 };
enum ArgDirectionCode : uint8_t {
    kArgInput = 0,
    kArgOutput = 1,
    kArgInOut = 2,
    kArgOutputExisting = 3,
    kArgNoDep = 4,
    kArgScalar = 5
};

/// A type map {"type_kind": kind} for the singleton types (CommCtxType, Ptr, UnknownType, ...).
Value makeSingletonType(Document& doc, std::string_view typeKind);
/// The unknown span ({"filename": "", lines and columns -1}).
Value makeUnknownSpan(Document& doc);

/// A deep copy of a non-node value (arrays and maps copied, nodes inside shared): a value a plugin
/// built can be stored in several places, and an in-place edit of one (extendArgDirections) must not
/// show in the others.
Value copyValue(Document& doc, const Value& v);
/// Removes the members/items `drop` selects, into a new buffer (so handles to the old slots go stale).
void eraseIf(Document& doc, Array& array, const std::function<bool(const Value&)>& drop);
void eraseKey(Document& doc, Map& map, uint32_t key);

/// A new Var node.
Node* makeVar(Document& doc, std::string_view nameHint, Value type, Value span);
/// The op map of a builtin op ({"is_global_var": false, "name": name}).
Value makeOp(Document& doc, std::string_view name);
/// A new Call of the builtin op `op` (a makeOp value) with empty attrs and kwargs. Calls may share
/// one op value: op maps are never edited in place.
Node* makeOpCall(Document& doc, Value op, std::span<Node* const> args, Value type, Value span);
/// A new AssignStmt `var = value` with no leading comments.
Node* makeAssign(Document& doc, Node* var, Node* value, Value span);
/// A new SeqStmts over `stmts` with no leading comments.
Node* makeSeq(Document& doc, std::span<Node* const> stmts, Value span);

/// Appends `param` to a Function's params and `direction` to its param_directions.
Status appendParam(Document& doc, Node* function, Node* param, ParamDirectionCode direction);
/// Appends `arg` to a Call's or Submit's args.
Status appendArg(Document& doc, Node* call, Node* arg);
/// Appends `codes` to the call's existing `arg_directions` attr, in place. Returns false in
/// `*present` (and changes nothing) if the call has no such attr.
Status extendArgDirections(Document& doc, Node* call, std::span<const uint8_t> codes, bool* present);

/// The slot of a node inside another node: `parent.fields[field]`, or element `index` of it when the
/// field is an array (index is ignored for a plain node field).
struct Slot {
    Node* parent = nullptr;
    uint32_t field = 0;
    uint32_t index = 0;
};

/// The value stored at `slot`, or nullptr if the slot does not exist.
Value* slotValue(const Slot& slot);
/// Puts `replacement` at `slot` (the occurrence there is replaced; other occurrences are untouched).
Status replaceAt(Document& doc, const Slot& slot, Node* replacement);

/// Statement edits applied together: insertions before or after statements and removals (one
/// rebuild per sequence, so thousands of edits to one body stay linear). Until applied, indices refer
/// to the sequences as they were.
class PendingStmtEdits {
public:
    enum class Side : uint8_t { Before, After };
    /// Queues `stmts` before or after the statement at `slot`. Inside a SeqStmts' `stmts` they are
    /// spliced into the sequence; a lone statement (a loop, branch, scope or function body) is wrapped
    /// in a new SeqStmts [before..., statement, after...] spanning the statement (docs/pass.md §5.5).
    Status insert(Document& doc, const Slot& slot, std::span<Node* const> stmts, Side side);
    /// Queues `stmts` at the end of SeqStmts `seq`'s statements (empty or not), after every statement
    /// inserted after its last one.
    void append(Node* seq, std::span<Node* const> stmts);
    /// Queues the removal of the statement at `slot`; a lone statement leaves an empty SeqStmts.
    Status remove(const Slot& slot);
    /// Applies every queued edit; `edited(parent, field)` is told of each field rebuilt.
    void apply(Document& doc, const std::function<void(const Node*, const Value&)>& edited = {});
    bool empty() const { return bySequence_.empty(); }

private:
    static constexpr uint32_t kEnd = UINT32_MAX;  ///< the index of an append
    struct Edit {
        uint32_t index;
        Side side;
        bool removal;
        size_t first, count;  ///< inserted statements: stmts_[first, first + count)
    };
    std::span<Node* const> statementsOf(const Edit& e) const { return {stmts_.data() + e.first, e.count}; }
    Status checkSlot(const Slot& slot, Value** field) const;
    std::map<std::pair<Node*, uint32_t>, std::vector<Edit>> bySequence_;
    std::vector<Node*> stmts_;
};

}  // namespace ptoplug::ir
