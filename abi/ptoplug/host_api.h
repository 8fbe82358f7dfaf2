/*
 * ptoplug ABI: the host function table.
 *
 * The host owns the IR. A plugin reads and rewrites it only through this table, which the host hands
 * to every pass and verifier run together with an opaque run context. Any program that fills the
 * table is a host: the stub host of this project, or an adapter inside pypto.
 *
 * Conventions for every function below:
 *   - The first argument is the run context the plugin was called with. It is owned by the host and
 *     valid only during that call of the pass/verifier. A NULL (or finished) context gives
 *     PTO_ERR_INVALID_HANDLE.
 *   - Results are written through `out` pointers, which must not be NULL (else
 *     PTO_ERR_INVALID_HANDLE); on an error the outputs are left unchanged.
 *   - Every function validates its arguments: a null or foreign handle, an index out of range or a
 *     node of the wrong kind gives an error status, never undefined behaviour.
 *   - Node handles stay valid for the whole run context. A value handle (pto_value) names a slot
 *     inside a list or map; a rewrite that moves that slot (an append that grows its list, an
 *     insertion before it, flush_inserts) makes the handle stale, and it then gives
 *     PTO_ERR_INVALID_HANDLE, never another slot's value: read the value again after rewriting.
 *     Values made by the host (make_singleton_type) never go stale.
 *   - Rewrites keep the program well formed: a node of the wrong class for its place (an expression
 *     where a statement goes, a non-Var as a param) gives PTO_ERR_WRONG_KIND, and a node placed
 *     inside itself (a cycle) gives PTO_ERR_INVALID_ARGUMENT; the IR is then unchanged. After each
 *     pass the host also checks the whole program and fails the pass if it is not valid IR.
 *   - stdout belongs to the host's output (`-o -`). Plugin code's writes to stdout are not a failure:
 *     pto-host and pto-plugin-check send them to stderr, so they never mix into the program or report
 *     [1.2: stated; 1.0 and 1.1 hosts did the same]. Plugin code must not end the process (exit,
 *     abort): the host runs plugins in worker processes and reports that as a plugin failure.
 *     Process state is the host's: plugin code does not read stdin, close descriptors it did not
 *     open, or change the working folder, umask, signal handling or resource limits. A host may put
 *     such changes back after each call and fail the pass for what it cannot (pto-host does both).
 *   - Strings returned (pto_string) are borrowed from the IR and stay valid for the run context.
 *     Strings passed in are copied by the host before the function returns.
 *   - Lifetime: every handle (pto_node, pto_value) lives as long as the run context, i.e. one call of
 *     one pass or verifier; never keep one across passes or programs.
 *   - [1.1] Every failing call leaves a message saying which argument, field or kind was wrong;
 *     last_error returns it until the next failing call (PJRT's error objects, without freeing).
 *   - Verifiers read only: in a verifier, every function marked [mutates] gets PTO_ERR_UNSUPPORTED.
 *     (Building nodes and values is allowed: they change nothing until placed.) Verifiers run after
 *     each pass that produces their property (and with --verify), on the pass's output.
 *   - Node kinds: each function says which node kinds it takes; any other gives PTO_ERR_WRONG_KIND.
 *     What is writable: anything, through the [mutates] functions, checked by the reader's rules.
 *   - Names: a program holds at most 65,535 distinct field, map key and node type names (pypto uses a
 *     few hundred); a call that would add one more gives PTO_ERR_INVALID_ARGUMENT.
 *   - [thread-safety] A run context belongs to one thread at a time. Different run contexts (other
 *     programs) may be used on other threads at the same time: the table itself is immutable.
 *   - Layout: append-only. New functions go at the end, in a new minor version. Read `struct_size`
 *     before calling a function added after the minor you were built against (PTO_HOST_HAS).
 *     The host never leaves a slot NULL in the versions it reports.
 */
#ifndef PTOPLUG_HOST_API_H
#define PTOPLUG_HOST_API_H

#include "ptoplug/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque per-run state of the host (the program being transformed, diagnostics, pending edits). */
typedef struct pto_run_context pto_run_context;

/** Where a walk met a node: its parent, the parent's field and the index in that field's list
 *  (0 for a single-node field). For the walk's root, parent is the null handle. */
typedef struct pto_walk_position {
    pto_node parent;
    uint32_t field;
    size_t index;
} pto_walk_position;

/** A walk callback. Called on the walking thread; `user_data` is pto_walk_callbacks.user_data. */
typedef pto_walk_result (*pto_walk_fn)(pto_run_context* ctx, pto_node node, const pto_walk_position* position,
                                       void* user_data);

/** Walk flags. */
#define PTO_WALK_INTO_TYPES 0x1u  /**< also visit nodes inside types (shape dimensions, window buffers) */
#define PTO_WALK_INTO_KWARGS 0x2u /**< also visit nodes inside kwargs */

typedef struct pto_walk_callbacks {
    size_t struct_size; /**< sizeof(pto_walk_callbacks) */
    pto_walk_fn pre;    /**< before a node's children; may be NULL */
    pto_walk_fn post;   /**< after a node's children; may be NULL; its SKIP_CHILDREN means ADVANCE */
    void* user_data;    /**< passed back unchanged; may be NULL */
    uint32_t flags;     /**< PTO_WALK_* */
} pto_walk_callbacks;

/** The function signature summary of pto_host_api.function_info. */
typedef struct pto_function_info {
    size_t struct_size; /**< set by the caller to sizeof(pto_function_info); the host fills that much */
    int32_t func_type;  /**< pto_function_type code (docs/ir_format.md §7); 0 (Opaque) if absent */
    int32_t level;      /**< pto_level code, or -1 if absent/nil */
    int32_t role;       /**< pto_role code, or -1 if absent/nil */
    size_t param_count;
} pto_function_info;

/** A diagnostic, copied by the host in emit_diagnostic. */
typedef struct pto_diagnostic {
    size_t struct_size; /**< sizeof(pto_diagnostic) */
    pto_severity severity;
    pto_string rule;    /**< a stable rule id tools can match: "Plugin/readable-name", e.g.
                            "MaterializeDistTensorCtx/unresolved-context" */
    pto_string message; /**< the full message, UTF-8 */
    pto_node node;      /**< the node whose span locates the diagnostic; may be null (no location) */
} pto_diagnostic;

/** A type to build with make_type. [1.1] */
typedef struct pto_type_desc {
    size_t struct_size;    /**< sizeof(pto_type_desc) */
    pto_type_kind kind;    /**< SCALAR, TENSOR, DISTRIBUTED_TENSOR, TUPLE, COMM_CTX or PTR */
    pto_data_type dtype;   /**< SCALAR, TENSOR, DISTRIBUTED_TENSOR */
    const pto_node* shape; /**< TENSOR, DISTRIBUTED_TENSOR: `rank` expressions (ConstInt or Var); may be
                                NULL when rank is 0 */
    size_t rank;
    const pto_value* elements; /**< TUPLE: `element_count` type values; may be NULL when the count is 0 */
    size_t element_count;
} pto_type_desc;

/** One field given to create_node: its name and its value. [1.1] */
typedef struct pto_field_value {
    pto_string name;
    pto_value value;
} pto_field_value;

/** One entry of a node's attrs or kwargs, decoded (docs/ir_format.md §5). [1.1] */
typedef struct pto_attr {
    size_t struct_size; /**< set by the caller to sizeof(pto_attr); the host fills that much */
    pto_string key;     /**< borrowed */
    /** The tag of a tagged value ("DataType", "ArgDirectionVector", "Var", "VarList", "Expr", ...), or ""
     *  for a plain integer, bool, string or float. Borrowed. */
    pto_string tag;
    /** The payload: the plain value itself, or the tagged value's payload: a node value for Var/Expr
     *  (nil when absent), an array of node values for VarList, an array of codes for the vectors, an
     *  integer code for DataType and ArgDirection, a name string for the name enums. */
    pto_value value;
} pto_attr;

typedef struct pto_host_api {
    /** sizeof(pto_host_api) as the host was built: how many slots exist. */
    size_t struct_size;
    /** The ABI version the host implements (it also serves every older minor of the same major). */
    uint32_t abi_major;
    uint32_t abi_minor;

    /* ---- Program ---------------------------------------------------------------------------- */

    /** The Program node being transformed. */
    pto_status (*program)(pto_run_context* ctx, pto_node* out);
    /** Number of functions of the program. */
    pto_status (*program_function_count)(pto_run_context* ctx, size_t* out);
    /** Function `index` in program order (ascending by name, as pypto stores them). */
    pto_status (*program_function_at)(pto_run_context* ctx, size_t index, pto_node* out);
    /** The function called `name`; PTO_ERR_NOT_FOUND if there is none (out untouched). */
    pto_status (*program_find_function)(pto_run_context* ctx, pto_string name, pto_node* out);

    /* ---- Nodes ------------------------------------------------------------------------------ */

    /** The node's kind; PTO_NODE_OTHER for a type this ABI version does not name. */
    pto_status (*node_kind)(pto_run_context* ctx, pto_node node, pto_node_kind* out);
    /** The node's type name as serialized ("Call", "Add", ...). Borrowed. */
    pto_status (*node_type_name)(pto_run_context* ctx, pto_node node, pto_string* out);
    /** Program/Function `name`, or Var/IterArg/MemRef/WindowBuffer `name_hint`; else WRONG_KIND. */
    pto_status (*node_name)(pto_run_context* ctx, pto_node node, pto_string* out);
    /** The node's span (unknown parts are "" and -1). PTO_ERR_INTERNAL when the host cannot read it from
     *  where the program came from (a Python host's objects: last_error says why). */
    pto_status (*node_span)(pto_run_context* ctx, pto_node node, pto_span* out);
    /** The kind of the node's `type` field; PTO_TYPE_NONE if it has none (statements, functions). */
    pto_status (*node_type_kind)(pto_run_context* ctx, pto_node node, pto_type_kind* out);
    /** Size of `field`: a list's length (its elements are nodes for node lists, which node_child
     *  returns; other lists, such as attrs, are read with node_field), or 1/0 for a single node field
     *  holding a node/nil. PTO_ERR_NOT_FOUND if the node has no such field, WRONG_KIND if it holds
     *  neither a list nor a node. */
    pto_status (*node_child_count)(pto_run_context* ctx, pto_node node, uint32_t field, size_t* out);
    /** Node `index` of `field` (index 0 for a single node field). */
    pto_status (*node_child)(pto_run_context* ctx, pto_node node, uint32_t field, size_t index, pto_node* out);
    /** Generic access to any field of a node, as a value. */
    pto_status (*node_field)(pto_run_context* ctx, pto_node node, uint32_t field, pto_value* out);
    /** The field id for a field name (a pto_field value for the names it lists, else an id >= 0x10000
     *  valid for this run context). Never fails for a valid string. */
    pto_status (*field_from_name)(pto_run_context* ctx, pto_string name, uint32_t* out);

    /* ---- Functions, calls ------------------------------------------------------------------- */

    /** Function kind, level, role and parameter count. WRONG_KIND unless a Function. */
    pto_status (*function_info)(pto_run_context* ctx, pto_node function, pto_function_info* out);
    /** Direction of parameter `index` (In when the function has no explicit directions). */
    pto_status (*function_param_direction)(pto_run_context* ctx, pto_node function, size_t index,
                                           pto_param_direction* out);
    /** A Call's or Submit's op: its name (borrowed) and whether it is a GlobalVar (a user function)
     *  rather than a builtin Op. */
    pto_status (*call_op)(pto_run_context* ctx, pto_node call, pto_string* name, int* is_global_var);
    /** The value of attribute `key` of a Call or Submit (the tagged value, e.g. {type, value});
     *  PTO_ERR_NOT_FOUND if absent. */
    pto_status (*call_attr)(pto_run_context* ctx, pto_node call, pto_string key, pto_value* out);
    /** A TupleGetItemExpr's index. */
    pto_status (*tuple_get_item_index)(pto_run_context* ctx, pto_node node, int64_t* out);

    /* ---- Generic values --------------------------------------------------------------------- */

    pto_status (*value_kind)(pto_run_context* ctx, pto_value value, pto_value_kind* out);
    pto_status (*value_as_bool)(pto_run_context* ctx, pto_value value, int* out);
    /** OUT_OF_RANGE if the integer does not fit int64. */
    pto_status (*value_as_int64)(pto_run_context* ctx, pto_value value, int64_t* out);
    /** OUT_OF_RANGE if the integer is negative. */
    pto_status (*value_as_uint64)(pto_run_context* ctx, pto_value value, uint64_t* out);
    /** Floats, and integers converted (pypto stores integral doubles as integers). */
    pto_status (*value_as_double)(pto_run_context* ctx, pto_value value, double* out);
    /** Borrowed. */
    pto_status (*value_as_string)(pto_run_context* ctx, pto_value value, pto_string* out);
    pto_status (*value_as_node)(pto_run_context* ctx, pto_value value, pto_node* out);
    /** Length of an array or number of entries of a map. */
    pto_status (*value_size)(pto_run_context* ctx, pto_value value, size_t* out);
    pto_status (*value_array_at)(pto_run_context* ctx, pto_value value, size_t index, pto_value* out);
    /** Entry `index` of a map, in key order. `key` is borrowed. A span field reads as the map
     *  {begin_column, begin_line, end_column, end_line, filename}; PTO_ERR_INTERNAL as for node_span. */
    pto_status (*value_map_at)(pto_run_context* ctx, pto_value value, size_t index, pto_string* key, pto_value* out);
    /** The entry `key` of a map; PTO_ERR_NOT_FOUND if absent. */
    pto_status (*value_map_find)(pto_run_context* ctx, pto_value value, pto_string key, pto_value* out);
    /** The kind of a type value (WRONG_KIND if the value is not a type map). */
    pto_status (*value_type_kind)(pto_run_context* ctx, pto_value value, pto_type_kind* out);

    /* ---- Walking ---------------------------------------------------------------------------- */

    /**
     * Visits `root` and every node below it, depth first, children in pypto's field order (the
     * order the program reads: loop bounds before the body, statements in sequence order). A node
     * that occurs several times (a variable's uses) is visited at each occurrence. Nodes inside attrs
     * (docs/ir_format.md §5: a node-valued attr such as a Function's or scope's) are always visited,
     * with field PTO_FIELD_ATTRS [1.2: stated; every host did so]; types and kwargs are entered only
     * with the PTO_WALK_INTO_* flags.
     * What a callback may change: anything, through this table. The walk re-reads each list when it
     * steps to the next element, so it stays memory-safe; a change to a node whose children are
     * still to be visited is seen by the walk, a change elsewhere is not revisited. insert_before is
     * deferred (see there), so it never disturbs a walk.
     * Returns PTO_OK when the walk ends or is stopped, or the first error of the host itself.
     */
    pto_status (*walk)(pto_run_context* ctx, pto_node root, const pto_walk_callbacks* callbacks);

    /* ---- Rewriting -------------------------------------------------------------------------- */

    /** A type value of a kind without parameters: PTO_TYPE_COMM_CTX or PTO_TYPE_PTR. */
    pto_status (*make_singleton_type)(pto_run_context* ctx, pto_type_kind kind, pto_value* out);
    /** A new Var named `name` of type `type`, with the span of `span_source` (unknown span if null). */
    pto_status (*create_var)(pto_run_context* ctx, pto_string name, pto_value type, pto_node span_source,
                             pto_node* out);
    /** A new Call of builtin op `op` (not a GlobalVar) with `args` (copied array; the nodes themselves
     *  are shared, not copied), empty attrs and kwargs, result type `type`, span of `span_source`. */
    pto_status (*create_op_call)(pto_run_context* ctx, pto_string op, const pto_node* args, size_t arg_count,
                                 pto_value type, pto_node span_source, pto_node* out);
    /** A new AssignStmt `var = value` with the span of `span_source` and no comments. */
    pto_status (*create_assign)(pto_run_context* ctx, pto_node var, pto_node value, pto_node span_source,
                                pto_node* out);
    /** [mutates] Appends `param` (a Var) to `function`'s params and `direction` to its param_directions. */
    pto_status (*function_append_param)(pto_run_context* ctx, pto_node function, pto_node param,
                                        pto_param_direction direction);
    /** [mutates] Appends `arg` (an expression) to a Call's or Submit's args. */
    pto_status (*call_append_arg)(pto_run_context* ctx, pto_node call, pto_node arg);
    /** [mutates] Appends `codes` to the call's existing `arg_directions` attribute, in place. Sets *present to 0
     *  (and changes nothing) if the call has no such attribute. */
    pto_status (*call_extend_arg_directions)(pto_run_context* ctx, pto_node call, const pto_arg_direction* codes,
                                             size_t count, int* present);
    /** [mutates]
     * Inserts `stmts` before the statement at (`parent`, `field`, `index`). In a SeqStmts' stmts they
     * are spliced into the sequence; a statement that is a whole body (loop, branch, scope, function)
     * is wrapped in a new SeqStmts [stmts..., statement] spanning the statement.
     * Deferred: applied when the pass returns (or at flush_inserts), all at once, so indices keep
     * naming the statements as they were and thousands of insertions stay linear.
     */
    pto_status (*insert_before)(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index,
                                const pto_node* stmts, size_t count);
    /** [mutates] Puts `replacement` in place of the node at (`parent`, `field`, `index`) (that occurrence only).
     *  WRONG_KIND if the field does not accept its kind, INVALID_ARGUMENT if it contains `parent`. */
    pto_status (*replace_child)(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index,
                                pto_node replacement);
    /** [mutates] Applies the pending statement edits (insert_before, insert_after, remove_stmt, move_stmt) now. */
    pto_status (*flush_inserts)(pto_run_context* ctx);

    /* ---- Diagnostics ------------------------------------------------------------------------ */

    /** Reports a diagnostic (copied). An ERROR or INTERNAL_ERROR makes the run fail whatever the pass
     *  returns. Not reported, and PTO_ERR_INTERNAL, when the node's span cannot be read (node_span). */
    pto_status (*emit_diagnostic)(pto_run_context* ctx, const pto_diagnostic* diagnostic);

    /* ==== ABI 1.1 ============================================================================ */

    /* ---- Errors ----------------------------------------------------------------------------- */

    /** The message of the most recent failing call on `ctx` ("" if none failed yet): the function, the
     *  status and what was wrong. Borrowed, valid until the next failing call. Never fails for a live
     *  context. */
    pto_status (*last_error)(pto_run_context* ctx, pto_string* out);

    /* ---- Values: construction and typed reads (values made here never go stale) ------------ */

    pto_status (*value_make_null)(pto_run_context* ctx, pto_value* out);
    pto_status (*value_make_bool)(pto_run_context* ctx, int value, pto_value* out);
    pto_status (*value_make_int)(pto_run_context* ctx, int64_t value, pto_value* out);
    pto_status (*value_make_double)(pto_run_context* ctx, double value, pto_value* out);
    /** Copies `value`. */
    pto_status (*value_make_string)(pto_run_context* ctx, pto_string value, pto_value* out);
    /** A value holding `node` (shared, not copied), for fields and attrs that hold nodes. */
    pto_status (*value_make_node)(pto_run_context* ctx, pto_node node, pto_value* out);
    /** An array of `count` values (copied; nodes inside are shared). `items` may be NULL if count is 0. */
    pto_status (*value_make_array)(pto_run_context* ctx, const pto_value* items, size_t count, pto_value* out);
    /** A map of `count` entries; INVALID_ARGUMENT for a repeated key. */
    pto_status (*value_make_map)(pto_run_context* ctx, const pto_string* keys, const pto_value* values, size_t count,
                                 pto_value* out);
    /** A type value (docs/ir_format.md §4). INVALID_ARGUMENT for a kind it cannot build or a bad dtype,
     *  WRONG_KIND for a shape entry that is not an expression or a tuple element that is not a type. */
    pto_status (*make_type)(pto_run_context* ctx, const pto_type_desc* desc, pto_value* out);
    /** The dtype of a Scalar, Tensor, DistributedTensor or Tile type; WRONG_KIND for other types. */
    pto_status (*type_dtype)(pto_run_context* ctx, pto_value type, pto_data_type* out);
    /** The number of shape dimensions of a Tensor, DistributedTensor or Tile type (0 for a Scalar). */
    pto_status (*type_rank)(pto_run_context* ctx, pto_value type, size_t* out);
    /** Shape dimension `index`: an expression node (ConstInt or a Var). */
    pto_status (*type_dim)(pto_run_context* ctx, pto_value type, size_t index, pto_node* out);

    /* ---- Construction and mutation ---------------------------------------------------------- */

    /**
     * A new node of type `type_name` (any node type of docs/ir_format.md §6) with `fields`, checked as
     * the reader checks input: every required field present, each of the right kind, node fields
     * holding the right class of node. `span` defaults to the unknown span and a statement's
     * `leading_comments` to none. INVALID_ARGUMENT for an unknown type name, a repeated field, a
     * missing field or a value of the wrong kind; last_error names the field and what it takes.
     */
    pto_status (*create_node)(pto_run_context* ctx, pto_string type_name, const pto_field_value* fields, size_t count,
                              pto_node* out);
    /** [mutates] Sets field `field` of `node` to `value` (an existing field is replaced), checked as create_node
     *  checks, and refused (INVALID_ARGUMENT) if it would put the node inside itself. The node changes
     *  at every place it occurs. */
    pto_status (*node_set_field)(pto_run_context* ctx, pto_node node, uint32_t field, pto_value value);
    /** [mutates] Inserts `stmts` after the statement at (`parent`, `field`, `index`); otherwise as insert_before
     *  (deferred, spliced into a SeqStmts, else wrapping the statement). */
    pto_status (*insert_after)(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index,
                               const pto_node* stmts, size_t count);
    /** [mutates] Removes the statement at (`parent`, `field`, `index`): from a SeqStmts' stmts, or, for a
     *  statement that is a whole body, by leaving an empty SeqStmts in its place. Deferred like
     *  insert_before (indices keep naming the statements as they were). WRONG_KIND if the slot does not
     *  hold a statement. */
    pto_status (*remove_stmt)(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index);
    /** [mutates] Moves the statement at (`parent`, `field`, `index`) to just before the statement at
     *  (`to_parent`, `to_field`, `to_index`): remove_stmt plus insert_before, deferred together.
     *  INVALID_ARGUMENT if the destination lies inside the statement moved. */
    pto_status (*move_stmt)(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, pto_node to_parent,
                            uint32_t to_field, size_t to_index);
    /** [mutates] Replaces every occurrence of `var` (a Var, IterArg or MemRef) below `root` by `replacement` (an
     *  expression), in node fields, types (shape dimensions) and attrs/kwargs alike; the number replaced
     *  goes to `*count` (may be NULL). Binding places (params, assignment targets, loop variables and
     *  iter_args, return_vars) are renamed too, so replace with a Var when the variable is bound below
     *  `root`. Immediate. */
    pto_status (*replace_uses)(pto_run_context* ctx, pto_node root, pto_node var, pto_node replacement, size_t* count);

    /* ---- Attributes and kwargs (Call, Submit, Function, scope statements) -------------------- */

    /** Number of entries of the node's `list` (0 when absent). WRONG_KIND for a node without one. */
    pto_status (*attr_count)(pto_run_context* ctx, pto_node node, pto_attr_list list, size_t* out);
    /** Entry `index`, decoded. */
    pto_status (*attr_at)(pto_run_context* ctx, pto_node node, pto_attr_list list, size_t index, pto_attr* out);
    /** The first entry named `key`, decoded; PTO_ERR_NOT_FOUND if none. */
    pto_status (*attr_find)(pto_run_context* ctx, pto_node node, pto_attr_list list, pto_string key, pto_attr* out);
    /** [mutates] Sets `key` to `value`: plain when `tag` is "", else tagged `tag` (the payload of pto_attr.value).
     *  Replaces the first entry named `key`, else appends one. Checked as the reader checks attrs (a
     *  VarList holds Vars, an ArgDirectionVector codes 0-5, ...). */
    pto_status (*attr_set)(pto_run_context* ctx, pto_node node, pto_attr_list list, pto_string key, pto_string tag,
                           pto_value value);
    /** [mutates] Removes every entry named `key`; PTO_ERR_NOT_FOUND if there was none. */
    pto_status (*attr_remove)(pto_run_context* ctx, pto_node node, pto_attr_list list, pto_string key);
    /** A Call's or Submit's `arg_directions`: writes min(count, capacity) codes to `out` (may be NULL
     *  when capacity is 0) and the total to `*count`. NOT_FOUND if the call has none. */
    pto_status (*call_arg_directions)(pto_run_context* ctx, pto_node call, pto_arg_direction* out, size_t capacity,
                                      size_t* count);

    /* ---- Symbols ---------------------------------------------------------------------------- */

    /** [mutates] Renames a Function: the program's function list stays sorted by name and every Call/Submit
     *  naming it as a GlobalVar follows. INVALID_ARGUMENT if another function has the name, or it is
     *  not an identifier ([A-Za-z_][A-Za-z0-9_]*, no Python keyword: pypto prints it as `def NAME(`;
     *  [1.2] hosts before 1.2 took any non-empty name). */
    pto_status (*function_rename)(pto_run_context* ctx, pto_node function, pto_string name);
    /** A new Call (kind PTO_NODE_CALL) or Submit (PTO_NODE_SUBMIT: no deps, core_num or predicate) of the
     *  program's Function `callee`, with `args` (shared), empty attrs and kwargs, result `type`, span of
     *  `span_source` (unknown if null). */
    pto_status (*create_call)(pto_run_context* ctx, pto_node_kind kind, pto_node callee, const pto_node* args,
                              size_t arg_count, pto_value type, pto_node span_source, pto_node* out);
    /** [mutates] Re-points a Call or Submit: to the function called `name` if is_global_var (NOT_FOUND if the
     *  program has none), else to builtin op `name`. Args and attrs are unchanged. */
    pto_status (*call_set_op)(pto_run_context* ctx, pto_node call, pto_string name, int is_global_var);
    /** The Calls and Submits of `function` in the program, in walk order (each node once): writes
     *  min(count, capacity) to `out` (may be NULL when capacity is 0) and the total to `*count`. */
    pto_status (*function_calls)(pto_run_context* ctx, pto_node function, pto_node* out, size_t capacity,
                                 size_t* count);

    /** [mutates] Sets several fields of `node` at once, checked together as node_set_field checks one:
     *  for changes that are only valid together (a Function's params with its param_directions, a
     *  Call's args with its attrs). All or nothing. */
    pto_status (*node_set_fields)(pto_run_context* ctx, pto_node node, const pto_field_value* fields, size_t count);
    /** [mutates] Adds a Function (made with create_node) to the program, in name order.
     *  INVALID_ARGUMENT if its name is empty or taken, or it is already in the program. */
    pto_status (*program_add_function)(pto_run_context* ctx, pto_node function);
    /** [mutates] Removes a Function from the program. INVALID_ARGUMENT while any Call or Submit still
     *  names it (remove or re-point those first: function_calls lists them). */
    pto_status (*program_remove_function)(pto_run_context* ctx, pto_node function);

    /* ---- Copies ----------------------------------------------------------------------------- */

    /** A new node of `node`'s type with a copy of its fields (lists and maps copied, the nodes in them
     *  shared): pypto's copy-on-write, for a pass that must change one occurrence of a shared node, or
     *  build a variant of an expression. Not placed anywhere until the plugin places it. Not for Program
     *  or Function (INVALID_ARGUMENT). */
    pto_status (*clone_node)(pto_run_context* ctx, pto_node node, pto_node* out);

    /* ---- Pass options ----------------------------------------------------------------------- */

    /** The value of option `name` of the running pass (declared in its pto_pass_desc): a bool, int,
     *  double or string value as declared; set by the manifest or --pass-option, else the default.
     *  NOT_FOUND if the pass declares no such option. [1.2] A verifier reads the options of its
     *  plugin's passes, named PASS.NAME as --pass-option spells them (their values in this run: a pass
     *  not in the pipeline is not there), so that a property can follow them; before 1.2 a verifier got
     *  NOT_FOUND for every name. */
    pto_status (*pass_option)(pto_run_context* ctx, pto_string name, pto_value* out);

    /* ---- 1.2: statement lists, uses and definitions ------------------------------------------ */

    /** [mutates] [1.2] Appends `stmts` (`count` statements, copied into the list; NULL when `count` is 0)
     *  at the end of SeqStmts `seq`'s statements, also when it has none (insert_before and insert_after
     *  need a statement to stand by). Deferred like insert_before: applied when the pass returns or at
     *  flush_inserts, after every statement inserted after the list's last one; several appends keep
     *  their order. WRONG_KIND if `seq` is not a SeqStmts or a stmts[i] not a statement;
     *  INVALID_ARGUMENT if a stmts[i] contains `seq` (a cycle). Ownership: the host's; the handles stay
     *  valid. Thread-safety: as every function (one thread per run context). */
    pto_status (*append_stmts)(pto_run_context* ctx, pto_node seq, const pto_node* stmts, size_t count);
    /** [1.2] The uses of `var` (a Var, IterArg or MemRef) at and below `root` (usually a Function), in
     *  walk order: every occurrence that is not a binding place (a param, an AssignStmt's var, a loop
     *  variable, an iter_args entry, a return_vars entry). Uses inside types, attrs and kwargs count,
     *  with the position of the field holding them. Writes min(count, capacity) positions to `out` (may
     *  be NULL when capacity is 0) and the total to `*count` (not NULL). The positions name the nodes
     *  as they are now: a rewrite makes them out of date (read them again). WRONG_KIND if `var` is no
     *  variable. Reads only (verifiers may call it). */
    pto_status (*var_uses)(pto_run_context* ctx, pto_node root, pto_node var, pto_walk_position* out, size_t capacity,
                           size_t* count);
    /** [1.2] Where `var` (a Var, IterArg or MemRef) is bound at or below `root`: the first binding place in
     *  walk order (see var_uses), written to `*out` (not NULL). NOT_FOUND if it is bound nowhere below
     *  `root` (a variable of an enclosing scope, or one never bound). WRONG_KIND if `var` is no
     *  variable. Reads only. */
    pto_status (*var_definition)(pto_run_context* ctx, pto_node root, pto_node var, pto_walk_position* out);

    /* ---- 1.2: option checks ---------------------------------------------------------------------- */

    /** [1.2] In a pass's check_options (plugin_api.h) only: refuses the value of option `name` (one the
     *  pass declares), `message` saying why in one line (e.g. "must be an identifier"; both copied). The
     *  host reads no input then and reports the refusal naming the plugin, the pass, the option, where its
     *  value came from and `message`. The first refusal of a check is the one reported. NOT_FOUND if the pass declares
     * no option `name`; UNSUPPORTED in a pass or verifier run (a value found wrong while running is a user error
     * diagnostic). Ownership: the strings are the caller's. Thread-safety: as every function (one thread per run
     * context). */
    pto_status (*refuse_option)(pto_run_context* ctx, pto_string name, pto_string message);
} pto_host_api;

/** True if `api` has the function slot `member` (i.e. the host is new enough for it). */
#define PTO_HOST_HAS(api, member) \
    ((api)->struct_size >= offsetof(pto_host_api, member) + sizeof(((pto_host_api*)0)->member))

/* Layout pins of ABI 1.0: reordering or removing a slot fails the build. */
#define PTO_HOST_SLOT(member, n) \
    PTO_STATIC_ASSERT(offsetof(pto_host_api, member) == sizeof(size_t) + 8 + (n) * sizeof(void*), host_slot_##member)
PTO_STATIC_ASSERT(offsetof(pto_host_api, abi_major) == sizeof(size_t), host_abi_major);
PTO_HOST_SLOT(program, 0);
PTO_HOST_SLOT(program_function_count, 1);
PTO_HOST_SLOT(program_function_at, 2);
PTO_HOST_SLOT(program_find_function, 3);
PTO_HOST_SLOT(node_kind, 4);
PTO_HOST_SLOT(node_type_name, 5);
PTO_HOST_SLOT(node_name, 6);
PTO_HOST_SLOT(node_span, 7);
PTO_HOST_SLOT(node_type_kind, 8);
PTO_HOST_SLOT(node_child_count, 9);
PTO_HOST_SLOT(node_child, 10);
PTO_HOST_SLOT(node_field, 11);
PTO_HOST_SLOT(field_from_name, 12);
PTO_HOST_SLOT(function_info, 13);
PTO_HOST_SLOT(function_param_direction, 14);
PTO_HOST_SLOT(call_op, 15);
PTO_HOST_SLOT(call_attr, 16);
PTO_HOST_SLOT(tuple_get_item_index, 17);
PTO_HOST_SLOT(value_kind, 18);
PTO_HOST_SLOT(value_as_bool, 19);
PTO_HOST_SLOT(value_as_int64, 20);
PTO_HOST_SLOT(value_as_uint64, 21);
PTO_HOST_SLOT(value_as_double, 22);
PTO_HOST_SLOT(value_as_string, 23);
PTO_HOST_SLOT(value_as_node, 24);
PTO_HOST_SLOT(value_size, 25);
PTO_HOST_SLOT(value_array_at, 26);
PTO_HOST_SLOT(value_map_at, 27);
PTO_HOST_SLOT(value_map_find, 28);
PTO_HOST_SLOT(value_type_kind, 29);
PTO_HOST_SLOT(walk, 30);
PTO_HOST_SLOT(make_singleton_type, 31);
PTO_HOST_SLOT(create_var, 32);
PTO_HOST_SLOT(create_op_call, 33);
PTO_HOST_SLOT(create_assign, 34);
PTO_HOST_SLOT(function_append_param, 35);
PTO_HOST_SLOT(call_append_arg, 36);
PTO_HOST_SLOT(call_extend_arg_directions, 37);
PTO_HOST_SLOT(insert_before, 38);
PTO_HOST_SLOT(replace_child, 39);
PTO_HOST_SLOT(flush_inserts, 40);
PTO_HOST_SLOT(emit_diagnostic, 41);
/* The 1.0 table ends here: 42 slots. */
/* Layout pins of ABI 1.1. */
PTO_HOST_SLOT(last_error, 42);
PTO_HOST_SLOT(value_make_null, 43);
PTO_HOST_SLOT(value_make_bool, 44);
PTO_HOST_SLOT(value_make_int, 45);
PTO_HOST_SLOT(value_make_double, 46);
PTO_HOST_SLOT(value_make_string, 47);
PTO_HOST_SLOT(value_make_node, 48);
PTO_HOST_SLOT(value_make_array, 49);
PTO_HOST_SLOT(value_make_map, 50);
PTO_HOST_SLOT(make_type, 51);
PTO_HOST_SLOT(type_dtype, 52);
PTO_HOST_SLOT(type_rank, 53);
PTO_HOST_SLOT(type_dim, 54);
PTO_HOST_SLOT(create_node, 55);
PTO_HOST_SLOT(node_set_field, 56);
PTO_HOST_SLOT(insert_after, 57);
PTO_HOST_SLOT(remove_stmt, 58);
PTO_HOST_SLOT(move_stmt, 59);
PTO_HOST_SLOT(replace_uses, 60);
PTO_HOST_SLOT(attr_count, 61);
PTO_HOST_SLOT(attr_at, 62);
PTO_HOST_SLOT(attr_find, 63);
PTO_HOST_SLOT(attr_set, 64);
PTO_HOST_SLOT(attr_remove, 65);
PTO_HOST_SLOT(call_arg_directions, 66);
PTO_HOST_SLOT(function_rename, 67);
PTO_HOST_SLOT(create_call, 68);
PTO_HOST_SLOT(call_set_op, 69);
PTO_HOST_SLOT(function_calls, 70);
PTO_HOST_SLOT(node_set_fields, 71);
PTO_HOST_SLOT(program_add_function, 72);
PTO_HOST_SLOT(program_remove_function, 73);
PTO_HOST_SLOT(clone_node, 74);
PTO_HOST_SLOT(pass_option, 75);
/* Layout pins of ABI 1.2. */
PTO_HOST_SLOT(append_stmts, 76);
PTO_HOST_SLOT(var_uses, 77);
PTO_HOST_SLOT(var_definition, 78);
PTO_HOST_SLOT(refuse_option, 79);
PTO_STATIC_ASSERT(sizeof(pto_host_api) == sizeof(size_t) + 8 + 80 * sizeof(void*), host_api_size_1_2);

#ifdef __cplusplus
}
#endif

#endif /* PTOPLUG_HOST_API_H */
