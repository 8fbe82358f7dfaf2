#include "driver/fatal_signals.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace ptoplug::host {
namespace {

// The handler reads only these (lock-free atomics) and calls only async-signal-safe functions. The
// writer is told by its kernel thread id rather than a thread_local: in a dlopened module (the Python
// package) a thread_local may be allocated on first use, which a signal handler must not do.
std::atomic<pid_t> gWriterTid{0};
std::atomic<std::atomic<uint32_t>*> gWriterCrashed{nullptr};
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<std::atomic<uint32_t>*>::is_always_lock_free);

extern "C" void onFatalSignal(int signal) {
    std::atomic<uint32_t>* flag = gWriterCrashed.load();
    const pid_t writer = gWriterTid.load();
    if (flag && writer != 0 && writer == ::gettid()) flag->store(1);
    // SA_RESETHAND has put back the default action, and SA_NODEFER leaves the signal unblocked: raising it
    // again ends the process with it, whether it came from a fault or from kill/abort.
    ::raise(signal);
}

}  // namespace

void noteFatalSignalsOfTheWriter(WorkerProgress& progress) {
    gWriterCrashed.store(&progress.writerCrashed);
    for (int signal : {SIGSEGV, SIGILL, SIGFPE, SIGABRT}) {
        struct sigaction current {};
        if (::sigaction(signal, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
        struct sigaction note {};
        note.sa_handler = onFatalSignal;
        note.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigemptyset(&note.sa_mask);
        ::sigaction(signal, &note, nullptr);
    }
}

WriterThread::WriterThread() {
    gWriterTid.store(::gettid());
    ::pthread_setname_np(::pthread_self(), "pto-writer");
}

WriterThread::~WriterThread() { gWriterTid.store(0); }

}  // namespace ptoplug::host
