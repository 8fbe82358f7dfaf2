// Every field name and node type name the host interprets, interned first in every document so
// that they are compile-time constants (K::fields, K::Call, ...). Names not listed here (unknown
// fields, unknown node types) are interned on first sight and kept as they are.
#pragma once

#include <cstdint>
#include <string_view>

// clang-format off
#define PTOPLUG_KNOWN_NAMES(X)                                                                      \
    /* node envelope and common inline maps */                                                     \
    X(fields) X(id) X(type) X(ref) X(key) X(value) X(name) X(span) X(filename) X(begin_line)        \
    X(begin_column) X(end_line) X(end_column) X(is_global_var) X(code)                             \
    /* types */                                                                                     \
    X(type_kind) X(dtype) X(shape) X(memref) X(tensor_view) X(tile_view) X(window_buffer)          \
    X(memory_space) X(types) X(base) X(base_node) X(byte_offset) X(size) X(is_pinned)              \
    X(slot_count) X(slot_index) X(stride) X(layout) X(valid_shape) X(pad) X(start_offset)          \
    X(blayout) X(slayout) X(fractal) X(compact)                                                     \
    /* node fields */                                                                               \
    X(functions) X(params) X(param_directions) X(func_type) X(level) X(role) X(attrs)              \
    X(requires_runtime_binding) X(return_types) X(body) X(name_hint) X(initValue)                  \
    X(load_from_host) X(store_to_host) X(op) X(args) X(kwargs) X(deps) X(core_num) X(sync_start)   \
    X(allow_early_resolve) X(predicate) X(elements) X(tuple) X(index) X(left) X(right) X(operand)  \
    X(var) X(expr) X(leading_comments) X(stmts) X(condition) X(then_body) X(else_body)             \
    X(return_vars) X(loop_var) X(start) X(stop) X(step) X(iter_args) X(kind) X(chunk_config)       \
    X(language) X(split) X(count) X(manual) X(devices) X(slots)                                    \
    /* node types */                                                                                \
    X(Program) X(Function) X(Var) X(IterArg) X(MemRef) X(WindowBuffer) X(ConstInt) X(ConstFloat)   \
    X(ConstBool) X(Call) X(Submit) X(MakeTuple) X(TupleGetItemExpr) X(AssignStmt) X(EvalStmt)      \
    X(ReturnStmt) X(YieldStmt) X(SeqStmts) X(IfStmt) X(ForStmt) X(WhileStmt) X(BreakStmt)          \
    X(ContinueStmt) X(InlineStmt) X(InCoreScopeStmt) X(ClusterScopeStmt) X(HierarchyScopeStmt)     \
    X(SpmdScopeStmt) X(SplitAivScopeStmt) X(RuntimeScopeStmt) X(CommDomainScopeStmt)              \
    /* binary and unary expression nodes */                                                         \
    X(Add) X(Sub) X(Mul) X(FloorDiv) X(FloorMod) X(FloatDiv) X(Min) X(Max) X(Pow) X(Eq) X(Ne) X(Lt) \
    X(Le) X(Gt) X(Ge) X(And) X(Or) X(Xor) X(BitAnd) X(BitOr) X(BitXor) X(BitShiftLeft)             \
    X(BitShiftRight) X(Abs) X(Neg) X(Not) X(BitNot) X(Cast)
// clang-format on

namespace ptoplug::ir {

/// Interned ids of the known names; the first ids of every document's KeyTable.
namespace K {
enum : uint32_t {
#define PTOPLUG_ENUM_ENTRY(n) n,
    PTOPLUG_KNOWN_NAMES(PTOPLUG_ENUM_ENTRY)
#undef PTOPLUG_ENUM_ENTRY
        kCount
};
}  // namespace K

inline constexpr std::string_view kKnownNames[] = {
#define PTOPLUG_NAME_ENTRY(n) #n,
    PTOPLUG_KNOWN_NAMES(PTOPLUG_NAME_ENTRY)
#undef PTOPLUG_NAME_ENTRY
};

inline bool isBinaryOpType(uint32_t t) { return t >= K::Add && t <= K::BitShiftRight; }
inline bool isUnaryOpType(uint32_t t) { return t >= K::Abs && t <= K::Cast; }
inline bool isScopeStmtType(uint32_t t) { return t >= K::InCoreScopeStmt && t <= K::CommDomainScopeStmt; }
inline bool isStmtType(uint32_t t) { return t >= K::AssignStmt && t <= K::CommDomainScopeStmt; }

}  // namespace ptoplug::ir
