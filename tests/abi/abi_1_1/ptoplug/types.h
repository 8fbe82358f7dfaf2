/*
 * ptoplug ABI: basic types shared by hosts and plugins.
 *
 * C99, no dependencies beyond <stddef.h> and <stdint.h>. Every struct that may grow starts with
 * `struct_size`; enums are append-only and their values are pinned.
 */
#ifndef PTOPLUG_TYPES_H
#define PTOPLUG_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Versions                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/** ABI version of this header. Major = breaking change, minor = additions only (see CHANGELOG.md). */
#define PTO_ABI_MAJOR 1
#define PTO_ABI_MINOR 1

/**
 * Every ABI enum ends with a *_MAX_ENUM = 0x7FFFFFFF enumerator (as Vulkan's do). It pins the enum to 32
 * bits in C and C++ alike, and makes every non-negative 32-bit value a valid value of the enum type,
 * so that a value outside the enum crossing the ABI (which the receiver then rejects) is never
 * undefined behaviour in C++. It is not a value: never pass it.
 */

/** Compile-time assertion usable in C99 and C++ (a negative array size fails the build). */
#define PTO_STATIC_ASSERT(cond, name) typedef char pto_static_assert_##name[(cond) ? 1 : -1]

/* ---------------------------------------------------------------------------------------------- */
/* Status codes                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/** Result of every host function and of every plugin entry point. Values are pinned. */
typedef enum pto_status {
    PTO_OK = 0,
    /** A NULL pointer, a null handle, or a handle from another run context. */
    PTO_ERR_INVALID_HANDLE = 1,
    /** An index past the end of a list. */
    PTO_ERR_OUT_OF_RANGE = 2,
    /** The node or value is not of the kind the function works on (e.g. args of a Var). */
    PTO_ERR_WRONG_KIND = 3,
    /** The field, attribute or function does not exist. Not an error for "find" style lookups. */
    PTO_ERR_NOT_FOUND = 4,
    /** Another invalid argument (bad enum value, malformed string). */
    PTO_ERR_INVALID_ARGUMENT = 5,
    /** The host does not implement this (slot present but feature unavailable). */
    PTO_ERR_UNSUPPORTED = 6,
    /** Returned by a pass: the input program is wrong; error diagnostics say why. */
    PTO_ERR_USER = 7,
    /** Returned by a pass or the host: a broken invariant, a bug. */
    PTO_ERR_INTERNAL = 8,
    PTO_STATUS_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_status;

/* ---------------------------------------------------------------------------------------------- */
/* Strings                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/**
 * A byte string: pointer plus length, not necessarily NUL-terminated, not necessarily UTF-8 (pypto
 * does not validate its strings). `data` may be NULL only when `size` is 0.
 * Ownership is stated by the function that produces or takes one.
 */
typedef struct pto_string {
    const char* data;
    size_t size;
} pto_string;

/* ---------------------------------------------------------------------------------------------- */
/* Handles                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/**
 * An IR node (expression, statement, function, program). Opaque, 16 bytes, passed by value.
 * A handle names one node for the whole run context it came from: two handles to the same node
 * are equal (pto_node_equal), whichever call produced them. All zero is the null handle.
 * A handle is valid only with the run context that produced it; elsewhere functions return
 * PTO_ERR_INVALID_HANDLE.
 */
typedef struct pto_node {
    uint64_t opaque[2];
} pto_node;

/**
 * A non-node value inside the IR (a type, an attribute value, a list, a map, a number ...), for
 * generic access. Same rules as pto_node; values have no identity beyond their place in the IR.
 */
typedef struct pto_value {
    uint64_t opaque[2];
} pto_value;

/** [thread-safe] True if `node` is the null handle. */
static inline int pto_node_is_null(pto_node node) { return node.opaque[0] == 0 && node.opaque[1] == 0; }
/** [thread-safe] True if both handles name the same node (or both are null). */
static inline int pto_node_equal(pto_node a, pto_node b) {
    return a.opaque[0] == b.opaque[0] && a.opaque[1] == b.opaque[1];
}
/** [thread-safe] True if `value` is the null handle. */
static inline int pto_value_is_null(pto_value value) { return value.opaque[0] == 0 && value.opaque[1] == 0; }

PTO_STATIC_ASSERT(sizeof(pto_node) == 16, pto_node_size);
PTO_STATIC_ASSERT(sizeof(pto_status) == 4, pto_status_size);
PTO_STATIC_ASSERT(sizeof(pto_value) == 16, pto_value_size);

/* ---------------------------------------------------------------------------------------------- */
/* Kinds                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/** Node kinds (pypto IR node types). PTO_NODE_OTHER: a type this ABI version does not name; use
 *  pto_host_api.node_type_name. Values are pinned. */
typedef enum pto_node_kind {
    PTO_NODE_OTHER = 0,
    PTO_NODE_PROGRAM = 1,
    PTO_NODE_FUNCTION = 2,
    PTO_NODE_VAR = 3,
    PTO_NODE_ITER_ARG = 4,
    PTO_NODE_MEM_REF = 5,
    PTO_NODE_WINDOW_BUFFER = 6,
    PTO_NODE_CONST_INT = 7,
    PTO_NODE_CONST_FLOAT = 8,
    PTO_NODE_CONST_BOOL = 9,
    PTO_NODE_CALL = 10,
    PTO_NODE_SUBMIT = 11,
    PTO_NODE_MAKE_TUPLE = 12,
    PTO_NODE_TUPLE_GET_ITEM = 13,
    PTO_NODE_BINARY = 14, /**< Add, Sub, ... (the exact operator: node_type_name) */
    PTO_NODE_UNARY = 15,  /**< Abs, Neg, Not, BitNot, Cast */
    PTO_NODE_ASSIGN_STMT = 16,
    PTO_NODE_EVAL_STMT = 17,
    PTO_NODE_RETURN_STMT = 18,
    PTO_NODE_YIELD_STMT = 19,
    PTO_NODE_SEQ_STMTS = 20,
    PTO_NODE_IF_STMT = 21,
    PTO_NODE_FOR_STMT = 22,
    PTO_NODE_WHILE_STMT = 23,
    PTO_NODE_BREAK_STMT = 24,
    PTO_NODE_CONTINUE_STMT = 25,
    PTO_NODE_INLINE_STMT = 26,
    PTO_NODE_IN_CORE_SCOPE_STMT = 27,
    PTO_NODE_CLUSTER_SCOPE_STMT = 28,
    PTO_NODE_HIERARCHY_SCOPE_STMT = 29,
    PTO_NODE_SPMD_SCOPE_STMT = 30,
    PTO_NODE_SPLIT_AIV_SCOPE_STMT = 31,
    PTO_NODE_RUNTIME_SCOPE_STMT = 32,
    PTO_NODE_COMM_DOMAIN_SCOPE_STMT = 33,
    PTO_NODE_KIND_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_node_kind;

/* Kind categories. Spelled out kind by kind, never as a range: a later minor appends kinds at the end,
 * whatever their category, and a range test would then misclassify them. [thread-safe, pure] */

/** True for the scope statements (InCore, Cluster, Hierarchy, Spmd, SplitAiv, Runtime, CommDomain). */
static inline int pto_node_kind_is_scope(pto_node_kind k) {
    switch (k) {
        case PTO_NODE_IN_CORE_SCOPE_STMT:
        case PTO_NODE_CLUSTER_SCOPE_STMT:
        case PTO_NODE_HIERARCHY_SCOPE_STMT:
        case PTO_NODE_SPMD_SCOPE_STMT:
        case PTO_NODE_SPLIT_AIV_SCOPE_STMT:
        case PTO_NODE_RUNTIME_SCOPE_STMT:
        case PTO_NODE_COMM_DOMAIN_SCOPE_STMT: return 1;
        default: return 0;
    }
}

/** True for every statement kind, scopes included. */
static inline int pto_node_kind_is_stmt(pto_node_kind k) {
    switch (k) {
        case PTO_NODE_ASSIGN_STMT:
        case PTO_NODE_EVAL_STMT:
        case PTO_NODE_RETURN_STMT:
        case PTO_NODE_YIELD_STMT:
        case PTO_NODE_SEQ_STMTS:
        case PTO_NODE_IF_STMT:
        case PTO_NODE_FOR_STMT:
        case PTO_NODE_WHILE_STMT:
        case PTO_NODE_BREAK_STMT:
        case PTO_NODE_CONTINUE_STMT:
        case PTO_NODE_INLINE_STMT: return 1;
        default: return pto_node_kind_is_scope(k);
    }
}

/** True for every expression kind (variables, constants, calls, tuples, arithmetic). */
static inline int pto_node_kind_is_expr(pto_node_kind k) {
    switch (k) {
        case PTO_NODE_VAR:
        case PTO_NODE_ITER_ARG:
        case PTO_NODE_MEM_REF:
        case PTO_NODE_WINDOW_BUFFER:
        case PTO_NODE_CONST_INT:
        case PTO_NODE_CONST_FLOAT:
        case PTO_NODE_CONST_BOOL:
        case PTO_NODE_CALL:
        case PTO_NODE_SUBMIT:
        case PTO_NODE_MAKE_TUPLE:
        case PTO_NODE_TUPLE_GET_ITEM:
        case PTO_NODE_BINARY:
        case PTO_NODE_UNARY: return 1;
        default: return 0;
    }
}

/** Kinds of pypto types (docs/ir_format.md §4). PTO_TYPE_NONE: the node has no type. Values are pinned. */
typedef enum pto_type_kind {
    PTO_TYPE_NONE = 0,
    PTO_TYPE_OTHER = 1, /**< a type kind this ABI version does not name */
    PTO_TYPE_SCALAR = 2,
    PTO_TYPE_TENSOR = 3,
    PTO_TYPE_DISTRIBUTED_TENSOR = 4,
    PTO_TYPE_TILE = 5,
    PTO_TYPE_ARRAY = 6,
    PTO_TYPE_TUPLE = 7,
    PTO_TYPE_COMM_CTX = 8,
    PTO_TYPE_PTR = 9,
    PTO_TYPE_KIND_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_type_kind;

/**
 * Fields of nodes that hold nodes or lists of nodes (the names of docs/ir_format.md §6). Any other field,
 * including ones a future pypto adds, is reached by name through pto_host_api.field_from_name.
 * Values are pinned.
 */
typedef enum pto_field {
    PTO_FIELD_PARAMS = 1,
    PTO_FIELD_BODY = 2,
    PTO_FIELD_ARGS = 3,
    PTO_FIELD_DEPS = 4,
    PTO_FIELD_CORE_NUM = 5,
    PTO_FIELD_PREDICATE = 6,
    PTO_FIELD_VAR = 7,
    PTO_FIELD_VALUE = 8, /**< AssignStmt value; ReturnStmt/YieldStmt value list */
    PTO_FIELD_EXPR = 9,
    PTO_FIELD_STMTS = 10,
    PTO_FIELD_CONDITION = 11,
    PTO_FIELD_THEN_BODY = 12,
    PTO_FIELD_ELSE_BODY = 13,
    PTO_FIELD_RETURN_VARS = 14,
    PTO_FIELD_LOOP_VAR = 15,
    PTO_FIELD_START = 16,
    PTO_FIELD_STOP = 17,
    PTO_FIELD_STEP = 18,
    PTO_FIELD_ITER_ARGS = 19,
    PTO_FIELD_INIT_VALUE = 20,
    PTO_FIELD_TUPLE = 21,
    PTO_FIELD_ELEMENTS = 22,
    PTO_FIELD_LEFT = 23,
    PTO_FIELD_RIGHT = 24,
    PTO_FIELD_OPERAND = 25,
    PTO_FIELD_BASE = 26,
    PTO_FIELD_SIZE = 27,
    PTO_FIELD_BYTE_OFFSET = 28,
    PTO_FIELD_SLOT_INDEX = 29,
    PTO_FIELD_SLOTS = 30,
    PTO_FIELD_TYPE = 31,     /**< the node's type (a value: see pto_host_api.value_*) */
    PTO_FIELD_ATTRS = 32,    /**< attrs list (value) */
    PTO_FIELD_KWARGS = 33,   /**< kwargs list (value) */
    PTO_FIELD_SPAN = 34,     /**< span (value) */
    PTO_FIELD_NAME = 35,     /**< Program/Function name (value) */
    PTO_FIELD_NAME_HINT = 36 /**< Var name (value) */
    /* Ids from pto_host_api.field_from_name for other names are >= 0x10000. */,
    PTO_FIELD_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_field;

/** Kinds of generic values. Values are pinned. */
typedef enum pto_value_kind {
    PTO_VALUE_NULL = 0,
    PTO_VALUE_BOOL = 1,
    PTO_VALUE_INT = 2,   /**< an integer (read with value_as_int64 or value_as_uint64) */
    PTO_VALUE_FLOAT = 3, /**< float64 or float32 (read with value_as_double) */
    PTO_VALUE_STRING = 4,
    PTO_VALUE_ARRAY = 5,
    PTO_VALUE_MAP = 6,
    PTO_VALUE_NODE = 7 /**< read the node with value_as_node */,
    PTO_VALUE_KIND_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_value_kind;

/** Parameter directions of a function (docs/ir_format.md §7, ParamDirection). */
typedef enum pto_param_direction {
    PTO_PARAM_IN = 0,
    PTO_PARAM_OUT = 1,
    PTO_PARAM_INOUT = 2,
    PTO_PARAM_DIRECTION_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_param_direction;

/** Argument directions in a call's `arg_directions` attribute (docs/ir_format.md §7, ArgDirection). */
typedef enum pto_arg_direction {
    PTO_ARG_INPUT = 0,
    PTO_ARG_OUTPUT = 1,
    PTO_ARG_INOUT = 2,
    PTO_ARG_OUTPUT_EXISTING = 3,
    PTO_ARG_NO_DEP = 4,
    PTO_ARG_SCALAR = 5,
    PTO_ARG_DIRECTION_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_arg_direction;

/** pypto DataType codes (docs/ir_format.md §7), as types and DataType attrs carry them. [1.1] */
typedef enum pto_data_type {
    PTO_DTYPE_BOOL = 0,
    PTO_DTYPE_INT4 = 16,
    PTO_DTYPE_INT8 = 17,
    PTO_DTYPE_INT16 = 18,
    PTO_DTYPE_INT32 = 19,
    PTO_DTYPE_INT64 = 20,
    PTO_DTYPE_INDEX = 21,
    PTO_DTYPE_UINT4 = 32,
    PTO_DTYPE_UINT8 = 33,
    PTO_DTYPE_UINT16 = 34,
    PTO_DTYPE_UINT32 = 35,
    PTO_DTYPE_UINT64 = 36,
    PTO_DTYPE_FP4 = 48,
    PTO_DTYPE_FP8E4M3FN = 49,
    PTO_DTYPE_FP8E5M2 = 50,
    PTO_DTYPE_FP16 = 51,
    PTO_DTYPE_FP32 = 52,
    PTO_DTYPE_FP8E8M0 = 54,
    PTO_DTYPE_BF16 = 64,
    PTO_DTYPE_HF4 = 65,
    PTO_DTYPE_HF8 = 66,
    PTO_DTYPE_TASK_ID = 80,
    PTO_DATA_TYPE_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_data_type;

/** The two keyed lists of a node (docs/ir_format.md §5): `attrs` (Call, Submit, Function, scopes) and
 *  `kwargs` (Call, Submit). [1.1] */
typedef enum pto_attr_list {
    PTO_ATTR_LIST_ATTRS = 0,
    PTO_ATTR_LIST_KWARGS = 1,
    PTO_ATTR_LIST_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_attr_list;

/** Types of pass options (pto_option_desc). [1.1] */
typedef enum pto_option_type {
    PTO_OPTION_BOOL = 0,                  /**< "true" / "false" */
    PTO_OPTION_INT = 1,                   /**< a decimal int64 */
    PTO_OPTION_FLOAT = 2,                 /**< a decimal double */
    PTO_OPTION_STRING = 3,                /**< any UTF-8 text */
    PTO_OPTION_TYPE_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_option_type;

/** A source span. `filename` is borrowed from the IR (valid for the run context). Unknown: -1. */
typedef struct pto_span {
    pto_string filename;
    int64_t begin_line;
    int64_t begin_column;
    int64_t end_line;
    int64_t end_column;
} pto_span;

/** Diagnostic severities. Errors make the pass fail; NOTE and WARNING are informative. */
typedef enum pto_severity {
    PTO_SEVERITY_NOTE = 0,
    PTO_SEVERITY_WARNING = 1,
    PTO_SEVERITY_ERROR = 2, /**< a user error: the input program is wrong */
    PTO_SEVERITY_INTERNAL_ERROR = 3 /**< a broken invariant in the pass or host */,
    PTO_SEVERITY_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_severity;

/** Result of a walk callback. */
typedef enum pto_walk_result {
    PTO_WALK_ADVANCE = 0,       /**< continue, visiting this node's children (pre-order) */
    PTO_WALK_SKIP_CHILDREN = 1, /**< continue, but not into this node's children (pre-order only) */
    PTO_WALK_STOP = 2 /**< end the walk now; walk returns PTO_OK */,
    PTO_WALK_RESULT_MAX_ENUM = 0x7FFFFFFF /**< not a value (see the top of this file) */
} pto_walk_result;

#ifdef __cplusplus
}
#endif

#endif /* PTOPLUG_TYPES_H */
