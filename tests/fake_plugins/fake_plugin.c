/*
 * Broken plugins for the host's and the checker's tests, one per fault, selected by a FAKE_* macro:
 *   FAKE_MISSING_ENTRY   exports no entry point
 *   FAKE_WRONG_MAJOR     declares ABI major 2
 *   FAKE_SMALL_DESC      descriptor struct_size too small
 *   FAKE_NULL_SLOT       a pass whose run function is NULL
 *   FAKE_ERROR_STATUS    a pass that returns PTO_ERR_INTERNAL
 *   FAKE_ABORTS          a pass that calls abort()
 *   FAKE_SEGFAULTS       a pass that dereferences NULL
 *   FAKE_CRASH_ON_MARKER a pass that crashes only on programs named "crash_me", else does nothing
 * (A pass that throws a C++ exception is fake_throws.cpp.)
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "ptoplug/abi.h"

/* unused in the FAKE_NULL_SLOT variant */
__attribute__((unused)) static pto_status run(const pto_host_api* host, pto_run_context* ctx) {
#if defined(FAKE_ERROR_STATUS)
    (void)host;
    (void)ctx;
    return PTO_ERR_INTERNAL;
#elif defined(FAKE_ABORTS)
    (void)host;
    (void)ctx;
    abort();
#elif defined(FAKE_SEGFAULTS)
    (void)host;
    (void)ctx;
    raise(SIGSEGV);
    return PTO_OK;
#elif defined(FAKE_CRASH_ON_MARKER)
    pto_node program;
    pto_string name;
    if (host->program(ctx, &program) == PTO_OK && host->node_name(ctx, program, &name) == PTO_OK && name.size == 8 &&
        memcmp(name.data, "crash_me", 8) == 0)
        raise(SIGSEGV);
    return PTO_OK;
#else
    (void)host;
    (void)ctx;
    return PTO_OK;
#endif
}

/* Requires SSAForm, so that placement tests can put it where that property is missing. */
static const char* const required[] = {"SSAForm"};
static const pto_pass_desc pass = {
    sizeof(pto_pass_desc),
    "FakePass",
    "a deliberately broken pass",
    required,
    1,
    NULL,
    0,
    NULL,
    0,
#if defined(FAKE_NULL_SLOT)
    NULL,
#else
    run,
#endif
};
static const pto_pass_desc* const passes[] = {&pass};

static const pto_plugin_desc plugin = {
#if defined(FAKE_SMALL_DESC)
    8,
#else
    sizeof(pto_plugin_desc),
#endif
#if defined(FAKE_WRONG_MAJOR)
    2,
#else
    PTO_ABI_MAJOR,
#endif
    0, PTO_ABI_MINOR, "fake", "0.0.1", passes, 1, NULL, 0,
};

#if defined(FAKE_MISSING_ENTRY)
PTO_PLUGIN_EXPORT const pto_plugin_desc* not_the_entry_point(uint32_t major, uint32_t minor) {
#else
PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t major, uint32_t minor) {
#endif
    (void)major;
    (void)minor;
    return &plugin;
}
