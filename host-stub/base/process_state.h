// The process-wide state that plugin code can change behind the host's back and that the host's own
// behaviour depends on: the working folder (every relative path a user gave), the umask (the mode of new
// files), the handling of the signals the host sets (a closed pipe or a too large file must be an error
// the host reports, not a death it would be blamed for), the limits on open files, file size and
// address space (--memory-limit), and the descriptors the host keeps open for itself. Besides, what plugin
// code may leave behind that would act on later work: threads left running, timers left armed, child
// processes left, a changed signal mask or handling, another process group or session. Those fail the call
// that left them.
#pragma once

#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>

#include <array>
#include <string>

namespace ptoplug {

/// Declares that the host owns this process (pto-host, pto-plugin-check): from now on guards put its state
/// back (the umask as it is now: the host sets no other). Inside another program (the C++ API, the Python
/// module) they do nothing: the state is that program's, and its other threads may change it while a pass
/// runs, which a guard would undo.
void ownProcessState();
/// Whether ownProcessState was called.
bool ownsProcessState();

/// Adds `fd` to the descriptors the host keeps for itself (a worker's channel to its parent, the saved
/// stdout; at most 8): ProcessStateGuard then checks that plugin code neither closed nor replaced them,
/// which cannot be undone and is reported instead. Call before any plugin code runs; not thread-safe.
void watchHostDescriptor(int fd);

/// True once a ProcessStateGuard reported something it could not put back (a thread, a timer or a child left,
/// another session): this process is no longer fit to run more work and should end with what it started
/// (endDescendants).
bool processStateLost();

/// Kills (SIGKILL) and reaps every child of this process, and, where it is a subreaper
/// (PR_SET_CHILD_SUBREAPER), every descendant that becomes one meanwhile, until none is left or about a second
/// has passed. Found through /proc. Returns false if some could not be ended.
bool endDescendants();

/// Captures that state and puts it back when it goes out of scope (where the host owns the process). Wrapped around
/// every call into plugin code (loading, entry point, passes, verifiers): a plugin that calls chdir or umask then
/// changes nothing of what the host does after it; one that changes the handling of the host's signals, the signal
/// mask or an interval timer is put back and reported; what cannot be put back (a limit lowered for good, a
/// descriptor of the host's closed, threads, POSIX timers or child processes left, another process group or session)
/// is reported. Handlers of fatal signals are left alone (a plugin's runtime may need its own). Threads, timers and
/// children are compared only when no other guard ran at the same time (pto-plugin-check runs a pass on 8 threads at
/// once). Not a lock: other threads changing the same state at the same time are not guarded against.
class ProcessStateGuard {
public:
    ProcessStateGuard();
    /// Puts the state back (once; the destructor does it otherwise) and says what was wrong: "" or, e.g.,
    /// "the limit on open files (RLIMIT_NOFILE) lowered to 3 for good, 1 thread left running".
    std::string restore();
    ~ProcessStateGuard();
    ProcessStateGuard(const ProcessStateGuard&) = delete;
    ProcessStateGuard& operator=(const ProcessStateGuard&) = delete;

private:
    static constexpr std::array<int, 8> kSignals = {SIGPIPE, SIGXFSZ, SIGINT, SIGTERM,
                                                    SIGCHLD, SIGALRM, SIGHUP, SIGQUIT};
    static constexpr std::array<int, 3> kTimers = {ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF};
    struct Limit {
        int resource;
        const char* name;
    };
    static constexpr std::array<Limit, 3> kLimits = {{{RLIMIT_NOFILE, "limit on open files (RLIMIT_NOFILE)"},
                                                      {RLIMIT_FSIZE, "limit on file size (RLIMIT_FSIZE)"},
                                                      {RLIMIT_AS, "limit on address space (RLIMIT_AS)"}}};

    bool restored_;    ///< also true when the host does not own the process: nothing to do
    int folder_ = -1;  ///< an O_PATH descriptor of the working folder, or -1 when it cannot be opened (deleted)
    std::array<struct sigaction, kSignals.size()> actions_{};
    std::array<struct rlimit, kLimits.size()> limits_{};
    sigset_t mask_{};
    std::array<struct itimerval, kTimers.size()> timers_{};
    uint64_t epoch_ = 0;  ///< the guards started before this one: another one meanwhile means overlap
    size_t threads_ = 0;
    size_t posixTimers_ = 0;
    bool children_ = false;
    pid_t group_ = 0;
    pid_t session_ = 0;
};

}  // namespace ptoplug
