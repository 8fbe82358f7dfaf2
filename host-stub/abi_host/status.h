// What a pto_status is called and means, for messages: the host's own, the driver's and last_error's.
#pragma once

#include <string>

#include "ptoplug/abi.h"

namespace ptoplug::host {

/// "PTO_ERR_USER", ...; "status N" for a value that is not a pto_status.
std::string statusName(pto_status status);
/// True if `status` is one of the pto_status values this host knows.
bool isKnownStatus(pto_status status);
/// What a failing status means in general: last_error's reason when the failing call gave none.
const char* generalReason(pto_status status);

}  // namespace ptoplug::host
