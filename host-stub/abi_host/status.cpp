#include "abi_host/status.h"

namespace ptoplug::host {

std::string statusName(pto_status status) {
    switch (status) {
        case PTO_OK: return "PTO_OK";
        case PTO_ERR_INVALID_HANDLE: return "PTO_ERR_INVALID_HANDLE";
        case PTO_ERR_OUT_OF_RANGE: return "PTO_ERR_OUT_OF_RANGE";
        case PTO_ERR_WRONG_KIND: return "PTO_ERR_WRONG_KIND";
        case PTO_ERR_NOT_FOUND: return "PTO_ERR_NOT_FOUND";
        case PTO_ERR_INVALID_ARGUMENT: return "PTO_ERR_INVALID_ARGUMENT";
        case PTO_ERR_UNSUPPORTED: return "PTO_ERR_UNSUPPORTED";
        case PTO_ERR_USER: return "PTO_ERR_USER";
        case PTO_ERR_INTERNAL: return "PTO_ERR_INTERNAL";
        case PTO_STATUS_MAX_ENUM: break;
    }
    return "status " + std::to_string(static_cast<int>(status));
}

bool isKnownStatus(pto_status status) { return statusName(status).rfind("PTO_", 0) == 0; }

const char* generalReason(pto_status status) {
    switch (status) {
        case PTO_ERR_INVALID_HANDLE:
            return "a pointer argument is NULL, or a handle is null, from another run, or stale";
        case PTO_ERR_OUT_OF_RANGE: return "an index is past the end of its list";
        case PTO_ERR_WRONG_KIND: return "the node or value is not of a kind this function takes";
        case PTO_ERR_NOT_FOUND: return "no such field, entry, option or function";
        case PTO_ERR_INVALID_ARGUMENT: return "an argument is invalid (a bad enum value, name or descriptor)";
        case PTO_ERR_UNSUPPORTED: return "not available here";
        default: return "the host failed (out of memory, or a host bug)";
    }
}

}  // namespace ptoplug::host
