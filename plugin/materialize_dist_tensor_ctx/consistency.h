// The DistTensorCtxConsistent verifier (docs/pass.md §13): a check pypto does not have. Every call to
// a function with materialized contexts passes, for each DistributedTensor parameter, the context of
// the DistributedTensor it passes, traced by the pass's own lineage rules (§4).
#pragma once

#include <ptoplug/sdk.hpp>

namespace ptoplug::mdtc {

/// Reports one error diagnostic (rule DistTensorCtxConsistent) per inconsistent call or context merge.
void verifyDistTensorCtxConsistent(const plugin::Host& h);

}  // namespace ptoplug::mdtc
