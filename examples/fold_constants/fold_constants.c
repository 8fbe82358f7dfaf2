/*
 * FoldConstants, in plain C99: replaces integer arithmetic on two constants (Add, Sub, Mul, FloorDiv,
 * FloorMod, Min, Max) and the negation of a constant by the constant it computes, innermost first, so
 * (2 + 3) * 4 becomes 20. A result outside the range of the expression's dtype, a division by zero
 * or a non-integer dtype is left alone. Only expressions in node fields are folded (not shape
 * dimensions inside types, whose places replace_child cannot name).
 */
#include <stdint.h>
#include <string.h>

#include "ptoplug/abi.h"

typedef struct {
    const pto_host_api* host;
    pto_status failure;
    size_t folded;
} fold_state;

static int is_named(pto_string s, const char* name) { return s.size == strlen(name) && !memcmp(s.data, name, s.size); }

/* The value range of an integer dtype; 0 for other dtypes. */
static int dtype_range(pto_data_type dtype, int64_t* lo, int64_t* hi) {
    switch (dtype) {
        case PTO_DTYPE_INT8: *lo = INT8_MIN, *hi = INT8_MAX; return 1;
        case PTO_DTYPE_INT16: *lo = INT16_MIN, *hi = INT16_MAX; return 1;
        case PTO_DTYPE_INT32: *lo = INT32_MIN, *hi = INT32_MAX; return 1;
        case PTO_DTYPE_INT64:
        case PTO_DTYPE_INDEX: *lo = INT64_MIN, *hi = INT64_MAX; return 1;
        case PTO_DTYPE_UINT8: *lo = 0, *hi = UINT8_MAX; return 1;
        case PTO_DTYPE_UINT16: *lo = 0, *hi = UINT16_MAX; return 1;
        case PTO_DTYPE_UINT32: *lo = 0, *hi = UINT32_MAX; return 1;
        case PTO_DTYPE_UINT64: *lo = 0, *hi = INT64_MAX; return 1; /* beyond int64: left alone */
        default: return 0;
    }
}

/* The ConstInt's value, or 0 if `node` is not a ConstInt with an int64 value. */
static int const_value(const pto_host_api* host, pto_run_context* ctx, pto_node node, int64_t* out) {
    pto_node_kind kind;
    pto_value value;
    return host->node_kind(ctx, node, &kind) == PTO_OK && kind == PTO_NODE_CONST_INT &&
           host->node_field(ctx, node, PTO_FIELD_VALUE, &value) == PTO_OK &&
           host->value_as_int64(ctx, value, out) == PTO_OK;
}

/* a op b over int64 with floor semantics; 0 if it overflows int64 or divides by zero. */
static int compute(pto_string op, int64_t a, int64_t b, int64_t* r) {
    if (is_named(op, "Add")) return !((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) && (*r = a + b, 1);
    if (is_named(op, "Sub")) return !((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) && (*r = a - b, 1);
    if (is_named(op, "Mul")) {
        if (a == 0 || b == 0) return (*r = 0, 1);
        if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) return 0;
        if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
            return 0;
        return (*r = a * b, 1);
    }
    if (is_named(op, "FloorDiv") || is_named(op, "FloorMod")) {
        int64_t q, m;
        if (b == 0 || (a == INT64_MIN && b == -1)) return 0;
        q = a / b, m = a % b;
        if (m != 0 && ((m < 0) != (b < 0))) q -= 1, m += b; /* round toward -infinity, as pypto does */
        return (*r = is_named(op, "FloorDiv") ? q : m, 1);
    }
    if (is_named(op, "Min")) return (*r = a < b ? a : b, 1);
    if (is_named(op, "Max")) return (*r = a > b ? a : b, 1);
    return 0;
}

/* The folded value of `node`, if it is foldable arithmetic on constants. */
static int fold_value(const pto_host_api* host, pto_run_context* ctx, pto_node node, pto_value type, int64_t* out) {
    pto_node_kind kind;
    pto_string op;
    pto_node left, right;
    pto_data_type dtype;
    int64_t a, b, lo, hi;
    if (host->node_kind(ctx, node, &kind) != PTO_OK || (kind != PTO_NODE_BINARY && kind != PTO_NODE_UNARY)) return 0;
    if (host->node_type_name(ctx, node, &op) != PTO_OK || host->type_dtype(ctx, type, &dtype) != PTO_OK ||
        !dtype_range(dtype, &lo, &hi))
        return 0;
    if (kind == PTO_NODE_UNARY) {
        if (!is_named(op, "Neg") || host->node_child(ctx, node, PTO_FIELD_OPERAND, 0, &left) != PTO_OK ||
            !const_value(host, ctx, left, &a) || a == INT64_MIN)
            return 0;
        *out = -a;
    } else if (host->node_child(ctx, node, PTO_FIELD_LEFT, 0, &left) != PTO_OK ||
               host->node_child(ctx, node, PTO_FIELD_RIGHT, 0, &right) != PTO_OK || !const_value(host, ctx, left, &a) ||
               !const_value(host, ctx, right, &b) || !compute(op, a, b, out)) {
        return 0;
    }
    return *out >= lo && *out <= hi;
}

/* After a node's children (so innermost first): replace it by its value. */
static pto_walk_result fold_node(pto_run_context* ctx, pto_node node, const pto_walk_position* at, void* user_data) {
    fold_state* state = (fold_state*)user_data;
    const pto_host_api* host = state->host;
    pto_value type, span;
    pto_field_value fields[3];
    pto_node folded;
    int64_t result;
    pto_status s;
    if (pto_node_is_null(at->parent) || host->node_field(ctx, node, PTO_FIELD_TYPE, &type) != PTO_OK ||
        !fold_value(host, ctx, node, type, &result))
        return PTO_WALK_ADVANCE;
    fields[0].name.data = "type", fields[0].name.size = 4, fields[0].value = type;
    fields[1].name.data = "value", fields[1].name.size = 5;
    fields[2].name.data = "span", fields[2].name.size = 4;
    if ((s = host->value_make_int(ctx, result, &fields[1].value)) != PTO_OK ||
        (s = host->node_field(ctx, node, PTO_FIELD_SPAN, &span)) != PTO_OK) {
        state->failure = s;
        return PTO_WALK_STOP;
    }
    fields[2].value = span;
    if ((s = host->create_node(ctx, (pto_string){"ConstInt", 8}, fields, 3, &folded)) != PTO_OK ||
        (s = host->replace_child(ctx, at->parent, at->field, at->index, folded)) != PTO_OK) {
        /* A place replace_child cannot name (an expression inside an attribute) keeps its expression. */
        if (s == PTO_ERR_WRONG_KIND || s == PTO_ERR_NOT_FOUND) return PTO_WALK_ADVANCE;
        state->failure = s;
        return PTO_WALK_STOP;
    }
    state->folded++;
    return PTO_WALK_ADVANCE;
}

static pto_status run(const pto_host_api* host, pto_run_context* ctx) {
    fold_state state;
    pto_walk_callbacks callbacks;
    pto_node program;
    pto_status s = host->program(ctx, &program);
    if (s != PTO_OK) return s;
    state.host = host, state.failure = PTO_OK, state.folded = 0;
    callbacks.struct_size = sizeof callbacks;
    callbacks.pre = NULL;
    callbacks.post = fold_node;
    callbacks.user_data = &state;
    callbacks.flags = 0;
    if ((s = host->walk(ctx, program, &callbacks)) != PTO_OK) return s;
    return state.failure;
}

static const pto_pass_desc pass = {.struct_size = sizeof(pto_pass_desc),
                                   .name = "FoldConstants",
                                   .description = "folds integer arithmetic on constants",
                                   .run = run};
static const pto_pass_desc* const passes[] = {&pass};
static const pto_plugin_desc plugin = {.struct_size = sizeof(pto_plugin_desc),
                                       .abi_major = PTO_ABI_MAJOR,
                                       .abi_minor_min = 1, /* create_node, value_make_int, type_dtype */
                                       .abi_minor_max = PTO_ABI_MINOR,
                                       .name = "fold-constants",
                                       .version = "1.0.0",
                                       .passes = passes,
                                       .pass_count = 1};

PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t host_major, uint32_t host_minor) {
    (void)host_major;
    (void)host_minor;
    return &plugin;
}
