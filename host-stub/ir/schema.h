// What the host knows about each pypto node type (docs/ir_format.md §6): the kind of every field (for
// validation), and the order in which pypto's writer emits and its reader reads the node-bearing
// fields (for id assignment and full-node placement, §11.4-11.5). One table, used by the reader, the
// writer and the printer alike.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace ptoplug::ir {

enum class FieldKind : uint8_t {
    Any,
    Node,      ///< a node (full or ref)
    OptNode,   ///< a node or nil
    NodeList,  ///< array of nodes
    Type,      ///< inline type map (§4)
    TypeList,  ///< array of type maps
    Span,      ///< inline span map (§3.1)
    Str,
    StrList,
    Bool,
    Int64,      ///< signed 64-bit integer
    UInt64,     ///< unsigned 64-bit integer
    Int32,      ///< signed 32-bit integer
    Float,      ///< float64 (an integer is accepted: pypto packs integral doubles as integers)
    Attrs,      ///< kwargs-style array of {key, value} (§5)
    Op,         ///< {is_global_var, name} (§3.2)
    Functions,  ///< Program.functions: array of {key: Op, value: Function node}
    Int64List,
    Enum,      ///< an enum code, range-checked by `enumSet`
    EnumList,  ///< array of enum codes
};

/// The enums of docs/ir_format.md §7 that appear as bare codes.
enum class EnumSet : uint8_t {
    None,
    DataType,
    FunctionType,
    Level,
    Role,
    ParamDirection,
    ArgDirection,
    ForKind,
    SplitMode,
    MemorySpace,
    InlineLanguage
};

/// Which node types a node-bearing field accepts (docs/ir_format.md §6). Node types the host does not know
/// are kept losslessly, but only where any expression or any statement may stand.
enum class NodeClass : uint8_t {
    Any,           ///< not a node field, or anything
    Expr,          ///< an expression (or an unknown type)
    Stmt,          ///< a statement (or an unknown type)
    Var,           ///< a Var, or one of its subclasses IterArg and MemRef
    IterArg,       ///< an IterArg
    WindowBuffer,  ///< a WindowBuffer
};

struct FieldSpec {
    uint32_t key;
    FieldKind kind;
    bool required;
    bool nullable;  ///< nil is accepted in place of the value
    EnumSet enumSet;
    NodeClass nodeClass = NodeClass::Any;  ///< for Node, OptNode and NodeList fields
};

/// The class of node field `key` of a node of type `nodeType` (Any for unknown types and fields).
NodeClass fieldNodeClass(uint32_t nodeType, uint32_t key);
/// True if a node of type `nodeType` may stand where `cls` is required.
bool nodeFitsClass(uint32_t nodeType, NodeClass cls);
/// "an expression", "a statement", "a Var", ...
const char* nodeClassName(NodeClass cls);
/// True for the type_kind names of docs/ir_format.md §4.
bool isKnownTypeKind(std::string_view typeKind);

/// Position of a field in an emit/read order: an index into the order, or one of these.
inline constexpr uint8_t kRankUnlisted = 255;
inline constexpr uint8_t kRankUnread = 254;

struct NodeSchema {
    uint32_t type = 0;
    std::vector<FieldSpec> fields;
    /// Per known key id: its place among the node-bearing fields in pypto's writer order / reader order
    /// (kRankUnlisted after them; kRankUnread in readRank: a field pypto's reader never reads).
    std::vector<uint8_t> emitRank;
    std::vector<uint8_t> readRank;
    /// Both orders as one sequence, for a type whose orders differ (empty when they agree): the Both and
    /// EmitOnly steps list the emit order, the Both and ReadOnly steps the read order, with as many Both
    /// steps as can be (so that one walk can follow both orders). Unlisted fields follow in both orders.
    struct OrderStep {
        enum class In : uint8_t { Both, EmitOnly, ReadOnly };
        uint32_t key;
        In in;
    };
    std::vector<OrderStep> mergedOrder;
};

/// The schema of a known node type; nullptr for unknown types (kept generically).
const NodeSchema* schemaFor(uint32_t nodeType);

/// True if `code` is a valid code of `set` (docs/ir_format.md §7).
bool enumCodeValid(EnumSet set, uint64_t code);
const char* enumSetName(EnumSet set);

}  // namespace ptoplug::ir
