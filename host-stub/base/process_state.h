// The process state that plugin code can change behind the host's back and that the host's file handling
// depends on: the working folder (every relative path a user gave) and the umask (the mode of new files).
#pragma once

#include <sys/types.h>

namespace ptoplug {

/// Captures the working folder and the umask, and puts both back when it goes out of scope. Wrapped around
/// every call into plugin code (loading, entry, passes, verifiers): a plugin that calls chdir or umask
/// then changes nothing of where the host writes or with which mode. Not thread-safe with respect to
/// other threads changing the same state, as neither is per thread.
class ProcessStateGuard {
public:
    ProcessStateGuard();
    ~ProcessStateGuard();
    ProcessStateGuard(const ProcessStateGuard&) = delete;
    ProcessStateGuard& operator=(const ProcessStateGuard&) = delete;

private:
    int folder_;  ///< an O_PATH descriptor of the working folder, or -1 when it cannot be opened (deleted)
    mode_t umask_;
};

}  // namespace ptoplug
