// The host table's internals shared by its parts (reading.cpp, walk.cpp, values.cpp, construction.cpp,
// statements.cpp, attributes.cpp, symbols.cpp, options.cpp, diagnostics.cpp; runner.cpp applies the
// queued edits): handles to and from IR nodes and values, ABI field ids, and helpers several entries need.
// Not part of the ABI.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <span>
#include <string_view>
#include <vector>

#include "abi_host/guard.h"
#include "abi_host/run_context.h"
#include "ir/graph.h"
#include "ir/known_names.h"

namespace ptoplug::host::table {

using ir::Kind;
using ir::Node;
using ir::Value;
namespace K = ir::K;

/// Field ids at and above this name interned keys the ABI has no pto_field for (field_from_name).
inline constexpr uint32_t kDynamicFieldBase = 0x10000;

// --- keys ----------------------------------------------------------------------------------------

/// The key id of `name` in `ctx`'s document; KeyTable::kFull, with the failure recorded, when the name is
/// new and the table is full (it holds 65535 names; pypto IR uses a few hundred).
inline uint32_t keyId(pto_run_context* ctx, std::string_view name) {
    uint32_t id = ctx->doc.keys().intern(name);
    if (id == ir::KeyTable::kFull)
        fail(ctx, PTO_ERR_INVALID_ARGUMENT, "more than 65535 distinct field, key and node type names in one program");
    return id;
}

// --- handle conversion ------------------------------------------------------------------------------

inline Node* toNode(pto_run_context* ctx, pto_node h) {
    if (!ctx || h.opaque[0] != ctx->token || h.opaque[1] == 0) return nullptr;
    uint64_t index = h.opaque[1] - 1;
    return index < ctx->doc.nodes().size() ? ctx->doc.nodes()[index] : nullptr;
}

// The handle of the node a Node/Ref value holds, without reading the node (Value::aux is its index).
inline pto_node fromSlot(pto_run_context* ctx, const Value& v) {
    assert(v.isNode() && v.aux == v.n->index);
    pto_node h{};
    h.opaque[0] = ctx->token;
    h.opaque[1] = uint64_t{v.aux} + 1;
    return h;
}

inline pto_node fromNode(pto_run_context* ctx, const Node* n) {
    pto_node h{};
    if (n) {
        h.opaque[0] = ctx->token;
        h.opaque[1] = uint64_t{n->index} + 1;
    }
    return h;
}

// nullptr for a null, foreign or stale handle (ValueSlot).
inline Value* toValue(pto_run_context* ctx, pto_value h) {
    if (!ctx || h.opaque[0] != ctx->token || h.opaque[1] == 0 || h.opaque[1] > ctx->values.size()) return nullptr;
    const ValueSlot& slot = ctx->values[h.opaque[1] - 1];
    if (!slot.stale()) return slot.value;
    fail(ctx, PTO_ERR_INVALID_HANDLE,
         "a pto_value is stale: a rewrite moved its slot (its list grew or was edited); read the value again");
    return nullptr;
}

inline pto_value fromValue(pto_run_context* ctx, ValueSlot slot) {
    ctx->values.push_back(slot);
    pto_value h{};
    h.opaque[0] = ctx->token;
    h.opaque[1] = ctx->values.size();
    return h;
}

inline std::string_view view(pto_string s) { return s.data ? std::string_view(s.data, s.size) : std::string_view(); }
inline pto_string str(std::string_view s) { return pto_string{s.data(), s.size()}; }

// The interned key of each pto_field, by name: an entry in the wrong place cannot compile silently,
// and a field the ABI names but this table misses fails the static_assert below.
inline constexpr auto kFieldKeys = [] {
    std::array<uint32_t, PTO_FIELD_NAME_HINT + 1> k{};
    k.fill(UINT32_MAX);
    k[PTO_FIELD_PARAMS] = K::params;
    k[PTO_FIELD_BODY] = K::body;
    k[PTO_FIELD_ARGS] = K::args;
    k[PTO_FIELD_DEPS] = K::deps;
    k[PTO_FIELD_CORE_NUM] = K::core_num;
    k[PTO_FIELD_PREDICATE] = K::predicate;
    k[PTO_FIELD_VAR] = K::var;
    k[PTO_FIELD_VALUE] = K::value;
    k[PTO_FIELD_EXPR] = K::expr;
    k[PTO_FIELD_STMTS] = K::stmts;
    k[PTO_FIELD_CONDITION] = K::condition;
    k[PTO_FIELD_THEN_BODY] = K::then_body;
    k[PTO_FIELD_ELSE_BODY] = K::else_body;
    k[PTO_FIELD_RETURN_VARS] = K::return_vars;
    k[PTO_FIELD_LOOP_VAR] = K::loop_var;
    k[PTO_FIELD_START] = K::start;
    k[PTO_FIELD_STOP] = K::stop;
    k[PTO_FIELD_STEP] = K::step;
    k[PTO_FIELD_ITER_ARGS] = K::iter_args;
    k[PTO_FIELD_INIT_VALUE] = K::initValue;
    k[PTO_FIELD_TUPLE] = K::tuple;
    k[PTO_FIELD_ELEMENTS] = K::elements;
    k[PTO_FIELD_LEFT] = K::left;
    k[PTO_FIELD_RIGHT] = K::right;
    k[PTO_FIELD_OPERAND] = K::operand;
    k[PTO_FIELD_BASE] = K::base;
    k[PTO_FIELD_SIZE] = K::size;
    k[PTO_FIELD_BYTE_OFFSET] = K::byte_offset;
    k[PTO_FIELD_SLOT_INDEX] = K::slot_index;
    k[PTO_FIELD_SLOTS] = K::slots;
    k[PTO_FIELD_TYPE] = K::type;
    k[PTO_FIELD_ATTRS] = K::attrs;
    k[PTO_FIELD_KWARGS] = K::kwargs;
    k[PTO_FIELD_SPAN] = K::span;
    k[PTO_FIELD_NAME] = K::name;
    k[PTO_FIELD_NAME_HINT] = K::name_hint;
    return k;
}();
static_assert(std::count(kFieldKeys.begin() + 1, kFieldKeys.end(), UINT32_MAX) == 0, "every pto_field has a key");

// Maps an ABI field id to an interned key; UINT32_MAX if unknown.
inline uint32_t keyOf(uint32_t field) {
    if (field < kFieldKeys.size()) return kFieldKeys[field];
    if (field >= kDynamicFieldBase) return field - kDynamicFieldBase;
    return UINT32_MAX;
}

// kFieldKeys inverted: the pto_field of each known key (0 if the ABI names none). A walk asks for the
// field id of every field it enters; the search through kFieldKeys was a tenth of the walk's time.
inline constexpr auto kKeyFields = [] {
    std::array<uint8_t, K::kCount> f{};
    for (uint32_t field = 1; field < kFieldKeys.size(); ++field) f[kFieldKeys[field]] = static_cast<uint8_t>(field);
    return f;
}();
static_assert(PTO_FIELD_NAME_HINT <= UINT8_MAX);
static_assert(
    [] {
        for (uint32_t field = 1; field < kFieldKeys.size(); ++field)
            if (kKeyFields[kFieldKeys[field]] != field) return false;
        return true;
    }(),
    "each pto_field has a key of its own");

// The ABI field id of an interned key: its pto_field value if the ABI names it, else a dynamic id.
inline uint32_t fieldIdOf(uint32_t key) {
    if (key < kKeyFields.size() && kKeyFields[key] != 0) return kKeyFields[key];
    return kDynamicFieldBase + key;
}

// An array the caller's array is converted into (nodes from handles, codes narrowed), on the stack
// when small: create_op_call and insert_before run once per synthesized node, and a heap allocation
// each was a visible share of a pass's time.
template <class T, size_t N = 8>
class Scratch {
public:
    explicit Scratch(size_t n) : data_(n <= N ? local_.data() : (heap_.resize(n), heap_.data())), size_(n) {}
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    T& operator[](size_t i) { return data_[i]; }
    std::span<T> span() const { return {data_, size_}; }

private:
    std::array<T, N> local_{};
    std::vector<T> heap_;
    T* data_;
    size_t size_;
};

inline pto_node_kind kindOf(uint32_t type) {
    switch (type) {
        case K::Program: return PTO_NODE_PROGRAM;
        case K::Function: return PTO_NODE_FUNCTION;
        case K::Var: return PTO_NODE_VAR;
        case K::IterArg: return PTO_NODE_ITER_ARG;
        case K::MemRef: return PTO_NODE_MEM_REF;
        case K::WindowBuffer: return PTO_NODE_WINDOW_BUFFER;
        case K::ConstInt: return PTO_NODE_CONST_INT;
        case K::ConstFloat: return PTO_NODE_CONST_FLOAT;
        case K::ConstBool: return PTO_NODE_CONST_BOOL;
        case K::Call: return PTO_NODE_CALL;
        case K::Submit: return PTO_NODE_SUBMIT;
        case K::MakeTuple: return PTO_NODE_MAKE_TUPLE;
        case K::TupleGetItemExpr: return PTO_NODE_TUPLE_GET_ITEM;
        case K::AssignStmt: return PTO_NODE_ASSIGN_STMT;
        case K::EvalStmt: return PTO_NODE_EVAL_STMT;
        case K::ReturnStmt: return PTO_NODE_RETURN_STMT;
        case K::YieldStmt: return PTO_NODE_YIELD_STMT;
        case K::SeqStmts: return PTO_NODE_SEQ_STMTS;
        case K::IfStmt: return PTO_NODE_IF_STMT;
        case K::ForStmt: return PTO_NODE_FOR_STMT;
        case K::WhileStmt: return PTO_NODE_WHILE_STMT;
        case K::BreakStmt: return PTO_NODE_BREAK_STMT;
        case K::ContinueStmt: return PTO_NODE_CONTINUE_STMT;
        case K::InlineStmt: return PTO_NODE_INLINE_STMT;
        case K::InCoreScopeStmt: return PTO_NODE_IN_CORE_SCOPE_STMT;
        case K::ClusterScopeStmt: return PTO_NODE_CLUSTER_SCOPE_STMT;
        case K::HierarchyScopeStmt: return PTO_NODE_HIERARCHY_SCOPE_STMT;
        case K::SpmdScopeStmt: return PTO_NODE_SPMD_SCOPE_STMT;
        case K::SplitAivScopeStmt: return PTO_NODE_SPLIT_AIV_SCOPE_STMT;
        case K::RuntimeScopeStmt: return PTO_NODE_RUNTIME_SCOPE_STMT;
        case K::CommDomainScopeStmt: return PTO_NODE_COMM_DOMAIN_SCOPE_STMT;
        default: break;
    }
    if (ir::isBinaryOpType(type)) return PTO_NODE_BINARY;
    if (ir::isUnaryOpType(type)) return PTO_NODE_UNARY;
    return PTO_NODE_OTHER;
}

inline pto_type_kind typeKindOf(const Value* type) {
    if (!type) return PTO_TYPE_NONE;
    if (type->kind != Kind::Map) return PTO_TYPE_OTHER;
    const Value* k = type->m->find(K::type_kind);
    if (!k || k->kind != Kind::Str) return PTO_TYPE_OTHER;
    std::string_view s = k->strView();
    if (s == "ScalarType") return PTO_TYPE_SCALAR;
    if (s == "TensorType") return PTO_TYPE_TENSOR;
    if (s == "DistributedTensorType") return PTO_TYPE_DISTRIBUTED_TENSOR;
    if (s == "TileType") return PTO_TYPE_TILE;
    if (s == "ArrayType") return PTO_TYPE_ARRAY;
    if (s == "TupleType") return PTO_TYPE_TUPLE;
    if (s == "CommCtxType") return PTO_TYPE_COMM_CTX;
    if (s == "Ptr") return PTO_TYPE_PTR;
    return PTO_TYPE_OTHER;
}

inline bool isCallLike(const Node* n) { return n && (n->type == K::Call || n->type == K::Submit); }

// The direct node occupying (field, index): element of a node list, or the single node field.
inline Value* childSlot(Node* n, uint32_t field, size_t index, pto_status* status) {
    uint32_t key = keyOf(field);
    Value* v = key == UINT32_MAX ? nullptr : n->field(key);
    if (!v) {
        *status = PTO_ERR_NOT_FOUND;
        return nullptr;
    }
    if (v->kind == Kind::Array) {
        if (index >= v->a->size) {
            *status = PTO_ERR_OUT_OF_RANGE;
            return nullptr;
        }
        Value* item = &v->a->items[index];
        // Lists are mostly read in order: start loading the next element's node while this one's
        // subtree is visited (a walk's time is mostly waiting for memory).
        if (index + 1 < v->a->size && item[1].isNode()) {
            __builtin_prefetch(item[1].n);
            __builtin_prefetch(reinterpret_cast<const char*>(item[1].n) + 64);
        }
        if (!item->isNode()) {
            *status = PTO_ERR_WRONG_KIND;
            return nullptr;
        }
        return item;
    }
    if (v->isNode()) {
        if (index != 0) {
            *status = PTO_ERR_OUT_OF_RANGE;
            return nullptr;
        }
        return v;
    }
    *status = v->kind == Kind::Null ? PTO_ERR_OUT_OF_RANGE : PTO_ERR_WRONG_KIND;
    return nullptr;
}

// --- shared by the table's parts (defined in handles.cpp; applyEdits in statements.cpp) -------------

/// May `child` stand in field `key` of `parent`? WRONG_KIND for a node of the wrong class (an
/// expression where a statement goes), INVALID_ARGUMENT if it would make `parent` contain itself.
pto_status checkPlacement(pto_run_context* ctx, Node* parent, uint32_t key, Node* child);
/// Makes the queued statement edits (insert_before and the like), keeping the heights true.
void applyEdits(pto_run_context* ctx);
/// The span of `source`, or the unknown span for the null handle.
Value spanOf(pto_run_context* ctx, pto_node source);
/// The Program's functions list, or nullptr.
Value* functionsOf(pto_run_context* ctx);
/// The Function of entry `i` of that list.
Node* functionAt(const Value* functions, size_t i);
/// A host-made value: never stale.
pto_value madeValue(pto_run_context* ctx, Value v);
/// The node's type name, for messages.
std::string_view typeName(pto_run_context* ctx, const Node* n);
/// A Status from the IR core as a pto_status, its message kept for last_error.
pto_status statusOf(pto_run_context* ctx, const Status& s, pto_status failure = PTO_ERR_WRONG_KIND);

}  // namespace ptoplug::host::table
