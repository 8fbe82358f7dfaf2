// Misbehaving plugins that need C++, one fault per FAKE_* macro (the others are fake_plugin.c):
//   FAKE_THROWS     a pass that lets a C++ exception escape through the C ABI
//   FAKE_ALLOCATES  a pass that allocates until memory runs out, letting std::bad_alloc escape
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include <ptoplug/sdk.hpp>

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

constexpr const char* kRequired[] = {"SSAForm"};
// The run function is the fault itself: not guarded, so that what it throws escapes.
constexpr ptoplug::plugin::Plugin kPlugin(
    {.name = "fake", .version = "0.0.1", .abiMinorMin = 0},
    {{.name = "FakePass", .description = "a deliberately broken pass", .run = run, .required = kRequired}});

}  // namespace

PTOPLUG_PLUGIN_ENTRY(kPlugin)
