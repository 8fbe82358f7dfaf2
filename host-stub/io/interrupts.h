// SIGINT and SIGTERM, taken over for a scope: the batch loop and an output's named temporary each
// need to act before the process ends, and to give the signals back afterwards.
#pragma once

#include <signal.h>

namespace ptoplug::io {

/// Installs `handler` (async-signal-safe) for SIGINT and SIGTERM with `flags` (e.g. SA_RESETHAND) for its
/// lifetime, then restores the handlers that were there.
class InterruptHandler {
public:
    explicit InterruptHandler(void (*handler)(int), int flags = 0);
    ~InterruptHandler();
    InterruptHandler(const InterruptHandler&) = delete;
    InterruptHandler& operator=(const InterruptHandler&) = delete;

private:
    struct sigaction oldInt_ {};
    struct sigaction oldTerm_ {};
};

}  // namespace ptoplug::io
