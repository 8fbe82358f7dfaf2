/*
 * Misbehaving plugins for the host's and the checker's tests, written from the public header alone,
 * one fault per FAKE_* macro:
 *   FAKE_MISSING_ENTRY        exports no entry point
 *   FAKE_WRONG_MAJOR          declares ABI major 2
 *   FAKE_SMALL_DESC           descriptor struct_size too small
 *   FAKE_NULL_SLOT            a pass whose run function is NULL
 *   FAKE_ERROR_STATUS         a pass that returns PTO_ERR_INTERNAL without saying why
 *   FAKE_USER_STATUS          a pass that returns PTO_ERR_USER without an error diagnostic
 *   FAKE_UNKNOWN_STATUS       a pass that returns 99, which is no pto_status
 *   FAKE_ABORTS               a pass that calls abort()
 *   FAKE_SEGFAULTS            a pass that dies of SIGSEGV
 *   FAKE_VERIFIER_SEGFAULTS   a harmless pass whose property verifier dies of SIGSEGV
 *   FAKE_KILLS_WRITER         a harmless pass whose verifier sends SIGSEGV to the host's thread named
 *                             "pto-writer" (the output writer), then waits to die
 *   FAKE_EXITS                a pass that calls exit(0)
 *   FAKE_EXIT_IN_CONSTRUCTOR  a library constructor that calls exit(0)
 *   FAKE_ENTRY_SEGFAULTS      an entry point that dies of SIGSEGV
 *   FAKE_HANGS                a pass that never returns
 *   FAKE_PRINTS               a pass that prints to stdout, then succeeds
 *   FAKE_NULL_CONTEXT         a pass that calls the host with a NULL run context
 *   FAKE_MAKES_CYCLE          a pass that puts a body inside itself and returns the status it got
 *   FAKE_WRONG_KIND           a pass that puts a Var where a statement goes, ignores the refusal, succeeds
 *   FAKE_BREAKS_DIRECTIONS    a pass that adds an arg direction without an arg (invalid IR), succeeds
 *   FAKE_TRUNCATES_INPUT      a pass that truncates the file named by $PTOPLUG_FAKE_TRUNCATE, then succeeds
 *   FAKE_CRASH_ON_MARKER      a pass that crashes only on programs named "crash_me", else does nothing
 *   FAKE_CHANGES_PROCESS      a library constructor and a pass that set the umask to 0777 and move to the
 *                             root folder; the pass then succeeds
 *   FAKE_LOWERS_LIMIT         a pass that lowers the limit on file size (soft and hard) to 64 KiB, succeeds
 *   FAKE_LIMIT_IN_CONSTRUCTOR a library constructor that lowers the limit on file size (soft and hard) to 64 KiB
 *   FAKE_CLOSES_DESCRIPTORS   a pass that closes every descriptor from 3 up (the host's among them), succeeds
 *   FAKE_READS_STDIN          a pass that reads its stdin to the end and fails if it got a byte
 * (A pass that throws a C++ exception, and one that exhausts memory, are in fake_plugin.cpp.)
 */
#if defined(FAKE_KILLS_WRITER)
#define _GNU_SOURCE /* syscall, SYS_tgkill */
#include <dirent.h>
#include <sys/syscall.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptoplug/abi.h"

#if defined(FAKE_EXIT_IN_CONSTRUCTOR)
__attribute__((constructor)) static void exit_while_loading(void) { exit(0); }
#elif defined(FAKE_CHANGES_PROCESS)
static void change_process(void) {
    umask(0777);
    if (chdir("/") != 0) abort();
}
__attribute__((constructor)) static void change_process_while_loading(void) { change_process(); }
#elif defined(FAKE_LIMIT_IN_CONSTRUCTOR)
__attribute__((constructor)) static void lower_limit_while_loading(void) {
    struct rlimit limit = {64 << 10, 64 << 10};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) abort();
}
#endif

/* The body of the program's first function, or the null handle. */
__attribute__((unused)) static pto_node first_body(const pto_host_api* host, pto_run_context* ctx) {
    pto_node fn = {{0, 0}}, body = {{0, 0}};
    if (host->program_function_at(ctx, 0, &fn) == PTO_OK) host->node_child(ctx, fn, PTO_FIELD_BODY, 0, &body);
    return body;
}

/* Walk callback of FAKE_MAKES_CYCLE: the first SeqStmts becomes its own first statement. */
struct cycle_state {
    const pto_host_api* host;
    pto_status status; /* what replace_child answered */
};
__attribute__((unused)) static pto_walk_result nest_in_itself(pto_run_context* ctx, pto_node node,
                                                              const pto_walk_position* position, void* user_data) {
    struct cycle_state* state = (struct cycle_state*)user_data;
    pto_node_kind kind;
    (void)position;
    if (state->host->node_kind(ctx, node, &kind) != PTO_OK || kind != PTO_NODE_SEQ_STMTS) return PTO_WALK_ADVANCE;
    state->status = state->host->replace_child(ctx, node, PTO_FIELD_STMTS, 0, node);
    return PTO_WALK_STOP;
}

/* Walk callback of FAKE_BREAKS_DIRECTIONS: one more direction on the first call that has them. */
__attribute__((unused)) static pto_walk_result extend_directions(pto_run_context* ctx, pto_node node,
                                                                 const pto_walk_position* position, void* user_data) {
    const pto_host_api* host = (const pto_host_api*)user_data;
    pto_node_kind kind;
    pto_arg_direction scalar = PTO_ARG_SCALAR;
    int present = 0;
    (void)position;
    if (host->node_kind(ctx, node, &kind) == PTO_OK && (kind == PTO_NODE_CALL || kind == PTO_NODE_SUBMIT) &&
        host->call_extend_arg_directions(ctx, node, &scalar, 1, &present) == PTO_OK && present)
        return PTO_WALK_STOP;
    return PTO_WALK_ADVANCE;
}

/* unused in the FAKE_NULL_SLOT variant */
__attribute__((unused)) static pto_status run(const pto_host_api* host, pto_run_context* ctx) {
    pto_node body = {{0, 0}};
    (void)body;
#if defined(FAKE_ERROR_STATUS)
    (void)host, (void)ctx;
    return PTO_ERR_INTERNAL;
#elif defined(FAKE_USER_STATUS)
    (void)host, (void)ctx;
    return PTO_ERR_USER;
#elif defined(FAKE_UNKNOWN_STATUS)
    (void)host, (void)ctx;
    return (pto_status)99;
#elif defined(FAKE_ABORTS)
    (void)host, (void)ctx;
    abort();
#elif defined(FAKE_SEGFAULTS)
    (void)host, (void)ctx;
    raise(SIGSEGV);
    return PTO_OK;
#elif defined(FAKE_EXITS)
    (void)host, (void)ctx;
    exit(0);
#elif defined(FAKE_HANGS)
    volatile int spinning = 1;
    (void)host, (void)ctx;
    while (spinning) {
    }
    return PTO_OK;
#elif defined(FAKE_PRINTS)
    (void)host, (void)ctx;
    printf("FakePass was here\n");
    fflush(stdout);
    return PTO_OK;
#elif defined(FAKE_NULL_CONTEXT)
    pto_node program;
    (void)ctx;
    return host->program(NULL, &program) == PTO_ERR_INVALID_HANDLE ? PTO_OK : PTO_ERR_INTERNAL;
#elif defined(FAKE_MAKES_CYCLE)
    struct cycle_state state = {host, PTO_ERR_NOT_FOUND};
    pto_node program;
    pto_walk_callbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.struct_size = sizeof callbacks;
    callbacks.pre = nest_in_itself;
    callbacks.user_data = &state;
    if (host->program(ctx, &program) != PTO_OK || host->walk(ctx, program, &callbacks) != PTO_OK)
        return PTO_ERR_INTERNAL;
    return state.status;
#elif defined(FAKE_WRONG_KIND)
    pto_node fn, param;
    body = first_body(host, ctx);
    if (host->program_function_at(ctx, 0, &fn) == PTO_OK &&
        host->node_child(ctx, fn, PTO_FIELD_PARAMS, 0, &param) == PTO_OK)
        host->replace_child(ctx, body, PTO_FIELD_STMTS, 0, param);
    return PTO_OK;
#elif defined(FAKE_BREAKS_DIRECTIONS)
    pto_node program;
    pto_walk_callbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.struct_size = sizeof callbacks;
    callbacks.pre = extend_directions;
    callbacks.user_data = (void*)host;
    if (host->program(ctx, &program) != PTO_OK) return PTO_ERR_INTERNAL;
    return host->walk(ctx, program, &callbacks);
#elif defined(FAKE_TRUNCATES_INPUT)
    const char* victim = getenv("PTOPLUG_FAKE_TRUNCATE");
    (void)host, (void)ctx;
    return victim && truncate(victim, 0) == 0 ? PTO_OK : PTO_ERR_INTERNAL;
#elif defined(FAKE_CRASH_ON_MARKER)
    pto_node program;
    pto_string name;
    if (host->program(ctx, &program) == PTO_OK && host->node_name(ctx, program, &name) == PTO_OK && name.size == 8 &&
        memcmp(name.data, "crash_me", 8) == 0)
        raise(SIGSEGV);
    return PTO_OK;
#elif defined(FAKE_CHANGES_PROCESS)
    (void)host, (void)ctx;
    change_process();
    return PTO_OK;
#elif defined(FAKE_CLOSES_DESCRIPTORS)
    (void)host, (void)ctx;
    for (int fd = 3; fd < 1024; ++fd) close(fd);
    return PTO_OK;
#elif defined(FAKE_READS_STDIN)
    char byte;
    (void)host, (void)ctx;
    return read(STDIN_FILENO, &byte, 1) > 0 ? PTO_ERR_INTERNAL : PTO_OK;
#elif defined(FAKE_LOWERS_LIMIT)
    struct rlimit limit = {64 << 10, 64 << 10};
    (void)host, (void)ctx;
    return setrlimit(RLIMIT_FSIZE, &limit) == 0 ? PTO_OK : PTO_ERR_INTERNAL;
#else
    (void)host, (void)ctx;
    return PTO_OK;
#endif
}

#if defined(FAKE_VERIFIER_SEGFAULTS) || defined(FAKE_KILLS_WRITER)
static pto_status verify(const pto_host_api* host, pto_run_context* ctx) {
    (void)host, (void)ctx;
#if defined(FAKE_KILLS_WRITER)
    /* Returns (and the run succeeds) only if no thread of this process is named pto-writer. */
    DIR* tasks = opendir("/proc/self/task");
    struct dirent* task;
    while (tasks && (task = readdir(tasks)) != NULL) {
        char path[300], comm[32] = {0};
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", task->d_name);
        FILE* f = fopen(path, "r");
        if (!f) continue;
        size_t n = fread(comm, 1, sizeof comm - 1, f);
        fclose(f);
        if (n >= 10 && memcmp(comm, "pto-writer", 10) == 0) {
            syscall(SYS_tgkill, getpid(), atoi(task->d_name), SIGSEGV);
            sleep(10);
        }
    }
    if (tasks) closedir(tasks);
#else
    raise(SIGSEGV);
#endif
    return PTO_OK;
}
static const pto_verifier_desc verifier = {
    .struct_size = sizeof(pto_verifier_desc), .property = "FakeProperty", .description = "crashes", .run = verify};
static const pto_verifier_desc* const verifiers[] = {&verifier};
static const char* const produced[] = {"FakeProperty"};
#define FAKE_PRODUCED .produced_properties = produced, .produced_count = 1,
#define FAKE_VERIFIERS .verifiers = verifiers, .verifier_count = 1,
#else
#define FAKE_PRODUCED
#define FAKE_VERIFIERS
#endif

#if defined(FAKE_BAD_OPTION)
/* An int option whose default is not an int: the host refuses the descriptor. */
static const pto_option_desc limit = {sizeof(pto_option_desc), "limit", PTO_OPTION_INT, "many", "how many"};
static const pto_option_desc* const options[] = {&limit};
#define FAKE_OPTIONS .options = options, .option_count = 1,
#else
#define FAKE_OPTIONS
#endif

/* Requires SSAForm, so that placement tests can put it where that property is missing. */
static const char* const required[] = {"SSAForm"};
static const pto_pass_desc pass = {.struct_size = sizeof(pto_pass_desc),
                                   .name = "FakePass",
                                   .description = "a deliberately broken pass",
                                   .required_properties = required,
                                   .required_count = 1,
                                   FAKE_PRODUCED
#if !defined(FAKE_NULL_SLOT)
                                       .run = run,
#endif
                                   FAKE_OPTIONS};
static const pto_pass_desc* const passes[] = {&pass};

static const pto_plugin_desc plugin = {
#if defined(FAKE_SMALL_DESC)
    .struct_size = 8,
#else
    .struct_size = sizeof(pto_plugin_desc),
#endif
#if defined(FAKE_WRONG_MAJOR)
    .abi_major = 2,
#else
    .abi_major = PTO_ABI_MAJOR,
#endif
    .abi_minor_min = 0,
    .abi_minor_max = PTO_ABI_MINOR,
    .name = "fake",
    .version = "0.0.1",
    .passes = passes,
    .pass_count = 1,
    FAKE_VERIFIERS};

#if defined(FAKE_MISSING_ENTRY)
PTO_PLUGIN_EXPORT const pto_plugin_desc* not_the_entry_point(uint32_t major, uint32_t minor) {
#else
PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t major, uint32_t minor) {
#endif
    (void)major;
    (void)minor;
#if defined(FAKE_ENTRY_SEGFAULTS)
    raise(SIGSEGV);
#endif
    return &plugin;
}
