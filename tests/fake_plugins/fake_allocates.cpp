// A broken plugin whose pass allocates until memory runs out, letting std::bad_alloc escape.
#include <cstring>
#include <memory>
#include <vector>

#include "ptoplug/abi.h"

namespace {

pto_status run(const pto_host_api*, pto_run_context*) {
    std::vector<std::unique_ptr<char[]>> hoard;
    for (;;) {
        hoard.emplace_back(new char[size_t{64} << 20]);
        std::memset(hoard.back().get(), 1, size_t{64} << 20);
    }
}

const char* const kRequired[] = {"SSAForm"};
const pto_pass_desc kPass = {
    sizeof(pto_pass_desc), "FakePass", "exhausts memory", kRequired, 1, nullptr, 0, nullptr, 0, run};
const pto_pass_desc* const kPasses[] = {&kPass};
const pto_plugin_desc kPlugin = {
    sizeof(pto_plugin_desc), PTO_ABI_MAJOR, 0, PTO_ABI_MINOR, "fake", "0.0.1", kPasses, 1, nullptr, 0};

}  // namespace

extern "C" PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t, uint32_t) { return &kPlugin; }
