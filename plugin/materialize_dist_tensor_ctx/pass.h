// MaterializeDistTensorCtx (docs/pass.md §2) and the DistTensorCtxMaterialized verifier (§10).
#pragma once

#include <ptoplug/sdk.hpp>

namespace ptoplug::mdtc {

/// Runs the pass over the host's program; throws plugin::PassError on the first error.
void materializeDistTensorCtx(const plugin::Host& h);

/// Reports one error diagnostic per get_comm_ctx left outside host orchestration.
void verifyDistTensorCtxMaterialized(const plugin::Host& h);

}  // namespace ptoplug::mdtc
