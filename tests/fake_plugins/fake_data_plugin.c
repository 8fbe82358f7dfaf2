/*
 * Plugins that misbehave with the program or with text rather than with the process, for the host's tests,
 * written from the public header alone, one fault per FAKE_* macro (each a pass "FakePass" of plugin "fake"),
 * each doing nothing on a program named "innocent" (so that one file of a batch can trigger it):
 *   FAKE_FORGES_MESSAGE     a pass that fails with an error whose message holds a NUL, a newline, a terminal
 *                           escape and invalid UTF-8, then a line that looks like a batch summary
 *   FAKE_VERIFIER_WRITES    a harmless pass whose property verifier writes into the program through the
 *                           pointer of a name the host lent it (a cast away from const), and succeeds
 *   FAKE_DUPLICATES_NAME    a pass that writes the second function's name over the first's, through the
 *                           pointer the host lent it (names of one length), and succeeds
 *   FAKE_KEEPS_CONTEXT      a verifier that keeps the run context of its first run and, in every later run
 *                           (--verify runs it after each stage, from the same place), calls the host with
 *                           it, failing (PTO_ERR_INTERNAL) if the host accepts it
 *   FAKE_VERIFIER_READS_OPTION  a verifier whose property follows its pass's bool option "strict" (read as
 *                           FakePass.strict): it fails with error FakeProperty/strict when it is true,
 *                           with PTO_ERR_INTERNAL when the host does not give it
 *   FAKE_REFUSES_OPTION     a harmless pass whose int option "level" (default 1) is checked at load (ABI 1.2
 *                           check_options): a level above 3 is refused ("must be at most 3"), and a level of
 *                           0 makes the check die of SIGSEGV
 *   FAKE_REFUSES_DEFAULT    as FAKE_REFUSES_OPTION, but the declared default of "level" is 9, which its check
 *                           refuses
 *   FAKE_USES_BEFORE_DEF    a pass that puts `early = v` just before the first assignment of a variable v in a
 *                           statement list (a use before the definition; every node well formed), succeeds
 */
#include <signal.h>
#include <string.h>

#include "ptoplug/abi.h"

#if defined(FAKE_FORGES_MESSAGE)
static const char kForged[] =
    "hidden after a NUL:\0 still here\n\x1b[2J\xff pto-host batch: 20 files, 20 ok, 0 failed\nthe end";
#endif

/* True unless the program is named "innocent". */
static int triggered(const pto_host_api* host, pto_run_context* ctx) {
    pto_node program;
    pto_string name;
    return host->program(ctx, &program) != PTO_OK || host->node_name(ctx, program, &name) != PTO_OK || name.size != 8 ||
           memcmp(name.data, "innocent", 8) != 0;
}

#if defined(FAKE_USES_BEFORE_DEF)
struct first_assign {
    const pto_host_api* host;
    pto_node stmt;
    pto_walk_position at;
};

/* Stops at the first AssignStmt that stands in a statement list. */
static pto_walk_result find_assign(pto_run_context* ctx, pto_node node, const pto_walk_position* at, void* data) {
    struct first_assign* found = (struct first_assign*)data;
    pto_node_kind kind;
    if (found->host->node_kind(ctx, node, &kind) != PTO_OK || kind != PTO_NODE_ASSIGN_STMT ||
        at->field != PTO_FIELD_STMTS)
        return PTO_WALK_ADVANCE;
    found->stmt = node;
    found->at = *at;
    return PTO_WALK_STOP;
}
#endif

static pto_status run(const pto_host_api* host, pto_run_context* ctx) {
    if (!triggered(host, ctx)) return PTO_OK;
#if defined(FAKE_FORGES_MESSAGE)
    pto_diagnostic d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.severity = PTO_SEVERITY_ERROR;
    d.rule.data = "fake/forged";
    d.rule.size = strlen(d.rule.data);
    d.message.data = kForged;
    d.message.size = sizeof kForged - 1;
    host->emit_diagnostic(ctx, &d);
    return PTO_ERR_USER;
#elif defined(FAKE_DUPLICATES_NAME)
    /* The host refuses every rename onto a name in use (function_rename, function_add, node_set_field):
     * this one goes around it, through memory. */
    pto_node first, second;
    pto_string a, b;
    if (host->program_function_at(ctx, 0, &first) != PTO_OK || host->program_function_at(ctx, 1, &second) != PTO_OK ||
        host->node_name(ctx, first, &a) != PTO_OK || host->node_name(ctx, second, &b) != PTO_OK || a.size != b.size)
        return PTO_ERR_INTERNAL;
    memcpy((char*)a.data, b.data, a.size);
    return PTO_OK;
#elif defined(FAKE_USES_BEFORE_DEF)
    struct first_assign found;
    pto_walk_callbacks callbacks;
    pto_node program, var, early, stmt;
    pto_value type;
    pto_string name = {"early", 5};
    memset(&found, 0, sizeof found);
    found.host = host;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.struct_size = sizeof callbacks;
    callbacks.pre = find_assign;
    callbacks.user_data = &found;
    if (host->program(ctx, &program) != PTO_OK || host->walk(ctx, program, &callbacks) != PTO_OK ||
        pto_node_is_null(found.stmt) || host->node_child(ctx, found.stmt, PTO_FIELD_VAR, 0, &var) != PTO_OK ||
        host->node_field(ctx, var, PTO_FIELD_TYPE, &type) != PTO_OK ||
        host->create_var(ctx, name, type, var, &early) != PTO_OK ||
        host->create_assign(ctx, early, var, found.stmt, &stmt) != PTO_OK)
        return PTO_ERR_INTERNAL;
    return host->insert_before(ctx, found.at.parent, found.at.field, found.at.index, &stmt, 1);
#else
    (void)host, (void)ctx;
    return PTO_OK;
#endif
}

#if defined(FAKE_KEEPS_CONTEXT)
static pto_run_context* kept;
static pto_status verify(const pto_host_api* host, pto_run_context* ctx) {
    pto_node program;
    if (!kept) {
        kept = ctx;
        return PTO_OK;
    }
    return host->program(kept, &program) == PTO_ERR_INVALID_HANDLE ? PTO_OK : PTO_ERR_INTERNAL;
}
#define FAKE_HAS_VERIFIER
#elif defined(FAKE_VERIFIER_WRITES)
static pto_status verify(const pto_host_api* host, pto_run_context* ctx) {
    pto_node fn;
    pto_string name;
    if (!triggered(host, ctx)) return PTO_OK;
    if (host->program_function_at(ctx, 0, &fn) != PTO_OK || host->node_name(ctx, fn, &name) != PTO_OK || name.size == 0)
        return PTO_ERR_INTERNAL;
    ((char*)name.data)[0] = '!';
    return PTO_OK;
}
#define FAKE_HAS_VERIFIER
#elif defined(FAKE_VERIFIER_READS_OPTION)
static pto_status verify(const pto_host_api* host, pto_run_context* ctx) {
    static const char kName[] = "FakePass.strict", kRule[] = "FakeProperty/strict", kWhy[] = "strict is on";
    pto_value v;
    int strict = 0;
    pto_string name = {kName, sizeof kName - 1};
    if (host->pass_option(ctx, name, &v) != PTO_OK || host->value_as_bool(ctx, v, &strict) != PTO_OK)
        return PTO_ERR_INTERNAL;
    if (!strict) return PTO_OK;
    pto_diagnostic d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.severity = PTO_SEVERITY_ERROR;
    d.rule.data = kRule;
    d.rule.size = sizeof kRule - 1;
    d.message.data = kWhy;
    d.message.size = sizeof kWhy - 1;
    host->emit_diagnostic(ctx, &d);
    return PTO_ERR_USER;
}
static const pto_option_desc strictOption = {sizeof(pto_option_desc), "strict", PTO_OPTION_BOOL, "false",
                                             "whether FakeProperty fails"};
static const pto_option_desc* const options[] = {&strictOption};
#define FAKE_OPTIONS .options = options, .option_count = 1,
#define FAKE_HAS_VERIFIER
#endif

#if defined(FAKE_REFUSES_OPTION) || defined(FAKE_REFUSES_DEFAULT)
#if defined(FAKE_REFUSES_DEFAULT)
#define FAKE_LEVEL_DEFAULT "9"
#else
#define FAKE_LEVEL_DEFAULT "1"
#endif
static pto_status check_options(const pto_host_api* host, pto_run_context* ctx) {
    static const char kName[] = "level", kWhy[] = "must be at most 3";
    pto_value v;
    int64_t level = 0;
    pto_string name = {kName, sizeof kName - 1}, why = {kWhy, sizeof kWhy - 1};
    if (host->pass_option(ctx, name, &v) != PTO_OK || host->value_as_int64(ctx, v, &level) != PTO_OK)
        return PTO_ERR_INTERNAL;
    if (level == 0) raise(SIGSEGV);
    return level > 3 ? host->refuse_option(ctx, name, why) : PTO_OK;
}
static const pto_option_desc levelOption = {sizeof(pto_option_desc), "level", PTO_OPTION_INT, FAKE_LEVEL_DEFAULT,
                                            "from 1 to 3; 0 crashes the check"};
static const pto_option_desc* const options[] = {&levelOption};
#define FAKE_OPTIONS .options = options, .option_count = 1, .check_options = check_options,
#endif

#ifndef FAKE_OPTIONS
#define FAKE_OPTIONS
#endif

#if defined(FAKE_HAS_VERIFIER)
static const pto_verifier_desc verifier = {.struct_size = sizeof(pto_verifier_desc),
                                           .property = "FakeProperty",
                                           .description = "a deliberately broken verifier",
                                           .run = verify};
static const pto_verifier_desc* const verifiers[] = {&verifier};
static const char* const produced[] = {"FakeProperty"};
#define FAKE_PRODUCED .produced_properties = produced, .produced_count = 1,
#define FAKE_VERIFIERS .verifiers = verifiers, .verifier_count = 1,
#else
#define FAKE_PRODUCED
#define FAKE_VERIFIERS
#endif

static const pto_pass_desc pass = {.struct_size = sizeof(pto_pass_desc),
                                   .name = "FakePass",
                                   .description = "a deliberately broken pass",
                                   FAKE_PRODUCED.run = run,
                                   FAKE_OPTIONS};
static const pto_pass_desc* const passes[] = {&pass};

static const pto_plugin_desc plugin = {.struct_size = sizeof(pto_plugin_desc),
                                       .abi_major = PTO_ABI_MAJOR,
                                       .abi_minor_min = 0,
                                       .abi_minor_max = PTO_ABI_MINOR,
                                       .name = "fake",
                                       .version = "0.0.1",
                                       .passes = passes,
                                       .pass_count = 1,
                                       FAKE_VERIFIERS};

PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t major, uint32_t minor) {
    (void)major;
    (void)minor;
    return &plugin;
}
