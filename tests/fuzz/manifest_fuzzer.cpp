// Fuzz target: the manifest parser. Any bytes give a manifest or an error with a message, never a crash.
#include <cstdlib>
#include <string_view>

#include "pipeline/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto manifest =
        ptoplug::host::parseManifest(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz/manifest.json");
    if (!manifest && manifest.error().message.empty()) std::abort();
    return 0;
}
