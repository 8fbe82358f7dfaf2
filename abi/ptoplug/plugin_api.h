/*
 * ptoplug ABI: what a plugin exports.
 *
 * A plugin is a shared object with exactly one exported symbol, PTO_PLUGIN_ENTRY_NAME, with C
 * linkage and default (not weak) binding; everything else has hidden visibility. Hosts load it with
 * dlopen(path, RTLD_NOW | RTLD_LOCAL) and keep it loaded for their whole run.
 *
 * Version negotiation: the descriptor states one major and a range of minors [abi_minor_min,
 * abi_minor_max] the plugin works with. A host of the same major and minor H accepts it when
 * H >= abi_minor_min, and the two then use minor min(H, abi_minor_max). A different major is refused
 * with a message naming both ranges.
 *
 * Pass and verifier functions must be reentrant: one loaded plugin runs on many programs on many
 * threads at once (one run context per call). They must not let a C++ exception, longjmp or signal
 * escape: every entry point catches everything and returns a status.
 */
#ifndef PTOPLUG_PLUGIN_API_H
#define PTOPLUG_PLUGIN_API_H

#include "ptoplug/host_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Runs a pass over the program of `ctx`. PTO_OK on success; PTO_ERR_USER when the program is wrong
 *  (error diagnostics say why); PTO_ERR_INTERNAL on a bug. [reentrant] */
typedef pto_status (*pto_pass_run_fn)(const pto_host_api* host, pto_run_context* ctx);

/** Checks one IR property of the program of `ctx`, reporting each violation as an error diagnostic;
 *  returns PTO_OK if it could check (violations or not), an error status if it could not. [reentrant] */
typedef pto_status (*pto_verifier_run_fn)(const pto_host_api* host, pto_run_context* ctx);

/** [1.2] Checks the values of a pass's options, once, before any program is read (MLIR's
 *  Pass::initializeOptions with its error handler; clap's value validators): the host calls it after
 *  every value is resolved (declared defaults, then the manifest, then --pass-option, --passes or an API)
 *  and before it reads any input, with a run context that holds the pass's options and no program.
 *  Reading: pass_option (as the pass reads them) and the value_as_* functions; every function that reads
 *  or changes the program fails (the context has none). Refusing: refuse_option names the option and
 *  says why; the host then reads no input and reports the refusal naming the plugin, the pass, the
 *  option, where its value came from and the message (pto-host: exit 4). Returns PTO_OK whether or not
 *  it refused; any other status, an error diagnostic or a crash is the plugin's failure, reported as a
 *  plugin problem at load. pto-plugin-check calls it on the declared defaults, which it must accept.
 *  The context lives for this call only. [reentrant] It may be called on any thread, and in a process
 *  of its own (pto-host calls it in a child, as it loads plugins). */
typedef pto_status (*pto_option_check_fn)(const pto_host_api* host, pto_run_context* ctx);

/** A pass option (ABI 1.1): set by a manifest's "options" or by `--pass-option PASS.NAME=VALUE`, read by
 *  the pass with pto_host_api.pass_option. The host rejects unknown names and ill-typed values before
 *  it reads any program. */
typedef struct pto_option_desc {
    size_t struct_size; /**< sizeof(pto_option_desc) */
    const char* name;   /**< [A-Za-z0-9_-]+, unique within the pass */
    pto_option_type type;
    const char* default_value; /**< in the text form of `type` ("true", "42", "0.5", "text"); never NULL */
    const char* help;          /**< one line */
} pto_option_desc;

typedef struct pto_pass_desc {
    size_t struct_size;                     /**< sizeof(pto_pass_desc) */
    const char* name;                       /**< unique within the pipeline, e.g. "MaterializeDistTensorCtx" */
    const char* description;                /**< one line */
    const char* const* required_properties; /**< IR properties that must hold before the pass */
    size_t required_count;
    const char* const* produced_properties; /**< IR properties that hold after the pass */
    size_t produced_count;
    const char* const* invalidated_properties; /**< IR properties the pass may break */
    size_t invalidated_count;
    pto_pass_run_fn run; /**< never NULL */
    /* ---- ABI 1.1 (read only when struct_size covers them) ---- */
    const pto_option_desc* const* options; /**< option_count pointers, none NULL */
    size_t option_count;
    /* ---- ABI 1.2 (read only when struct_size covers it) ---- */
    pto_option_check_fn check_options; /**< may be NULL: the values need no check beyond their types */
} pto_pass_desc;

/** The size of a 1.0 pto_pass_desc: a descriptor at least this large is valid; larger ones carry the
 *  1.1 members. */
#define PTO_PASS_DESC_1_0_SIZE (offsetof(pto_pass_desc, run) + sizeof(pto_pass_run_fn))
/** The size of a 1.1 pto_pass_desc: one this large carries options but no check_options. */
#define PTO_PASS_DESC_1_1_SIZE (offsetof(pto_pass_desc, option_count) + sizeof(size_t))

typedef struct pto_verifier_desc {
    size_t struct_size;   /**< sizeof(pto_verifier_desc) */
    const char* property; /**< the IR property it verifies, e.g. "DistTensorCtxMaterialized" */
    const char* description;
    pto_verifier_run_fn run; /**< never NULL */
} pto_verifier_desc;

typedef struct pto_plugin_desc {
    size_t struct_size;                 /**< sizeof(pto_plugin_desc) */
    uint32_t abi_major;                 /**< must equal the host's major */
    uint32_t abi_minor_min;             /**< oldest host minor the plugin works with */
    uint32_t abi_minor_max;             /**< newest minor the plugin knows */
    const char* name;                   /**< plugin name, e.g. "materialize-dist-tensor-ctx" */
    const char* version;                /**< plugin version, e.g. "0.1.0" */
    const pto_pass_desc* const* passes; /**< pass_count pointers, none NULL */
    size_t pass_count;
    const pto_verifier_desc* const* verifiers; /**< verifier_count pointers, none NULL */
    size_t verifier_count;
} pto_plugin_desc;

PTO_STATIC_ASSERT(offsetof(pto_pass_desc, run) == 9 * sizeof(void*), pass_desc_run);
PTO_STATIC_ASSERT(offsetof(pto_pass_desc, options) == 10 * sizeof(void*), pass_desc_options);
PTO_STATIC_ASSERT(offsetof(pto_pass_desc, check_options) == 12 * sizeof(void*), pass_desc_check_options);
PTO_STATIC_ASSERT(offsetof(pto_verifier_desc, run) == 3 * sizeof(void*), verifier_desc_run);
PTO_STATIC_ASSERT(offsetof(pto_plugin_desc, name) == sizeof(size_t) + 16, plugin_desc_name);

/** The exported entry symbol's name. */
#define PTO_PLUGIN_ENTRY_NAME "ptoplug_plugin_entry"

/**
 * The entry point. Returns the plugin's descriptor: static data owned by the plugin, valid until
 * the plugin is unloaded, never NULL. The host passes its own version so that a plugin can log or
 * adapt; the host, not the plugin, decides compatibility from the descriptor. [thread-safe]
 */
typedef const pto_plugin_desc* (*pto_plugin_entry_fn)(uint32_t host_abi_major, uint32_t host_abi_minor);

/** Declares the entry point in a plugin source: PTO_PLUGIN_EXPORT const pto_plugin_desc*
 *  ptoplug_plugin_entry(uint32_t, uint32_t) { ... } */
#if defined(__GNUC__) || defined(__clang__)
#define PTO_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define PTO_PLUGIN_EXPORT
#endif

#ifdef __cplusplus
}
#endif

#endif /* PTOPLUG_PLUGIN_API_H */
