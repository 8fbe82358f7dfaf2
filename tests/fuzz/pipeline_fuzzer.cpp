// Fuzz target: read -> MaterializeDistTensorCtx -> write. A program the pass accepts must come out as
// valid IR that reads back; a program it rejects must be rejected with an error diagnostic.
#include <cstdlib>

#include "abi_host/runner.h"
#include "fuzz_support.h"
#include "ir/validate.h"
#include "loader/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace ptoplug;
    static const pto_pass_run_fn pass = [] {
        static auto plugin = host::loadPlugin(PTOPLUG_MDTC_PLUGIN);
        if (!plugin) std::abort();
        return (*plugin)->pass("MaterializeDistTensorCtx")->run;
    }();
    auto doc = ir::readDocument(std::string_view(reinterpret_cast<const char*>(data), size), ir::Format::Auto, "fuzz");
    if (!doc) return 0;
    host::RunOutcome outcome = host::runThroughAbi(**doc, pass);
    if (outcome.failed()) {
        bool explained = false;
        for (const host::Diagnostic& d : outcome.diagnostics) explained = explained || d.severity >= PTO_SEVERITY_ERROR;
        if (!explained) std::abort();
        return 0;
    }
    if (ir::checkStructure(**doc)) std::abort();
    fuzz::writeRead(**doc);
    return 0;
}
