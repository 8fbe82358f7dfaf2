// A broken plugin whose pass lets a C++ exception escape through the C ABI.
#include <stdexcept>

#include "ptoplug/abi.h"

namespace {

pto_status run(const pto_host_api*, pto_run_context*) { throw std::runtime_error("escaped"); }

const char* const kRequired[] = {"SSAForm"};
const pto_pass_desc kPass = {sizeof(pto_pass_desc), "FakePass", "throws", kRequired, 1, nullptr, 0, nullptr, 0, run};
const pto_pass_desc* const kPasses[] = {&kPass};
const pto_plugin_desc kPlugin = {
    sizeof(pto_plugin_desc), PTO_ABI_MAJOR, 0, PTO_ABI_MINOR, "fake", "0.0.1", kPasses, 1, nullptr, 0};

}  // namespace

extern "C" PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t, uint32_t) { return &kPlugin; }
