// A run context's life: each gets a token of its own, stamped into its handles, and is marked dead when
// its run ends.
#include "abi_host/run_context.h"

#include <atomic>

pto_run_context::pto_run_context(ptoplug::ir::Document& document) : doc(document), containment(document) {
    static std::atomic<uint64_t> next{1};
    token = next.fetch_add(1);
}

pto_run_context::~pto_run_context() { magic = 0; }
