/*
 * A complete ptoplug plugin in plain C99: for every function, count the calls in its body (walking
 * with the host's walker) and report the count as a note diagnostic. Reads only; changes nothing.
 *
 *   cc -std=c99 -pedantic -shared -fPIC -fvisibility=hidden -I abi count_calls.c -o libcount_calls.so
 */
#include <stdio.h>

#include "ptoplug/abi.h"

typedef struct {
    const pto_host_api* host;
    size_t calls;
} count_state;

static pto_walk_result count_call(pto_run_context* ctx, pto_node node, const pto_walk_position* position,
                                  void* user_data) {
    count_state* state = (count_state*)user_data;
    pto_node_kind kind = PTO_NODE_OTHER;
    (void)position;
    if (state->host->node_kind(ctx, node, &kind) == PTO_OK && (kind == PTO_NODE_CALL || kind == PTO_NODE_SUBMIT))
        state->calls++;
    return PTO_WALK_ADVANCE;
}

static pto_status run(const pto_host_api* host, pto_run_context* ctx) {
    size_t count = 0, i;
    pto_status status = host->program_function_count(ctx, &count);
    if (status != PTO_OK) return status;
    for (i = 0; i < count; ++i) {
        pto_node function, body;
        pto_string name;
        count_state state;
        pto_walk_callbacks callbacks;
        pto_diagnostic diagnostic;
        char message[512];
        int length;
        if ((status = host->program_function_at(ctx, i, &function)) != PTO_OK) return status;
        if ((status = host->node_name(ctx, function, &name)) != PTO_OK) return status;
        if ((status = host->node_child(ctx, function, PTO_FIELD_BODY, 0, &body)) != PTO_OK) return status;
        state.host = host;
        state.calls = 0;
        callbacks.struct_size = sizeof callbacks;
        callbacks.pre = count_call;
        callbacks.post = NULL;
        callbacks.user_data = &state;
        callbacks.flags = 0;
        if ((status = host->walk(ctx, body, &callbacks)) != PTO_OK) return status;
        length = snprintf(message, sizeof message, "function '%.*s' makes %lu call(s)", (int)name.size, name.data,
                          (unsigned long)state.calls);
        diagnostic.struct_size = sizeof diagnostic;
        diagnostic.severity = PTO_SEVERITY_NOTE;
        diagnostic.rule.data = "CountCalls";
        diagnostic.rule.size = 10;
        diagnostic.message.data = message;
        diagnostic.message.size = length < 0                        ? 0
                                  : (size_t)length < sizeof message ? (size_t)length
                                                                    : sizeof message - 1;
        diagnostic.node = function;
        if ((status = host->emit_diagnostic(ctx, &diagnostic)) != PTO_OK) return status;
    }
    return PTO_OK;
}

static const pto_pass_desc pass = {.struct_size = sizeof(pto_pass_desc),
                                   .name = "CountCalls",
                                   .description = "notes the number of calls per function",
                                   .run = run};
static const pto_pass_desc* const passes[] = {&pass};
static const pto_plugin_desc plugin = {.struct_size = sizeof(pto_plugin_desc),
                                       .abi_major = PTO_ABI_MAJOR,
                                       .abi_minor_min = 0,
                                       .abi_minor_max = PTO_ABI_MINOR,
                                       .name = "count-calls",
                                       .version = "1.0.0",
                                       .passes = passes,
                                       .pass_count = 1};

PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t host_major, uint32_t host_minor) {
    (void)host_major;
    (void)host_minor;
    return &plugin;
}
