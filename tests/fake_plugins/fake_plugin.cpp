// Misbehaving plugins that need C++, one fault per FAKE_* macro (the others are fake_plugin.c):
//   FAKE_THROWS     a pass that lets a C++ exception escape through the C ABI
//   FAKE_ALLOCATES  a pass that allocates until memory runs out, letting std::bad_alloc escape
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "ptoplug/abi.h"

namespace {

pto_status run(const pto_host_api*, pto_run_context*) {
#if defined(FAKE_THROWS)
    throw std::runtime_error("escaped");
#elif defined(FAKE_ALLOCATES)
    std::vector<std::unique_ptr<char[]> > hoard;
    for (;;) {
        hoard.emplace_back(new char[size_t{64} << 20]);
        std::memset(hoard.back().get(), 1, size_t{64} << 20);
    }
#endif
}

const char* const kRequired[] = {"SSAForm"};
const pto_pass_desc kPass = {.struct_size = sizeof(pto_pass_desc),
                             .name = "FakePass",
                             .description = "a deliberately broken pass",
                             .required_properties = kRequired,
                             .required_count = 1,
                             .produced_properties = nullptr,
                             .produced_count = 0,
                             .invalidated_properties = nullptr,
                             .invalidated_count = 0,
                             .run = run,
                             .options = nullptr,
                             .option_count = 0};
const pto_pass_desc* const kPasses[] = {&kPass};
const pto_plugin_desc kPlugin = {.struct_size = sizeof(pto_plugin_desc),
                                 .abi_major = PTO_ABI_MAJOR,
                                 .abi_minor_min = 0,
                                 .abi_minor_max = PTO_ABI_MINOR,
                                 .name = "fake",
                                 .version = "0.0.1",
                                 .passes = kPasses,
                                 .pass_count = 1,
                                 .verifiers = nullptr,
                                 .verifier_count = 0};

}  // namespace

extern "C" PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t, uint32_t) { return &kPlugin; }
