// The host table's walk entry (pto_host_api.walk; its contract is in the ABI header).
#pragma once

#include "ptoplug/abi.h"

namespace ptoplug::host::table {

pto_status walk(pto_run_context* ctx, pto_node root, const pto_walk_callbacks* callbacks);

}  // namespace ptoplug::host::table
