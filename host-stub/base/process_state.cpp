#include "base/process_state.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace ptoplug {
namespace {

// Read from /proc, which leaves it unchanged: umask() can only be read by setting it, and for that moment
// another thread (the output writer, a Python user's) would create files with the wrong mode.
mode_t currentUmask() {
    if (std::FILE* status = std::fopen("/proc/self/status", "re")) {
        char line[256];
        unsigned mask = 0;
        bool found = false;
        while (!found && std::fgets(line, sizeof line, status)) found = std::sscanf(line, "Umask: %o", &mask) == 1;
        std::fclose(status);
        if (found) return static_cast<mode_t>(mask);
    }
    mode_t mask = ::umask(0);  // kernels before 4.7 do not show it
    ::umask(mask);
    return mask;
}

struct Watched {
    int fd;
    dev_t device;
    ino_t inode;
};
std::array<Watched, 8> gWatched;
size_t gWatchedCount = 0;
bool gOwned = false;
mode_t gUmask = 0;  // the host's, read once: the host sets no other, and every guard puts it back

bool gLost = false;
std::atomic<uint64_t> gEpoch{0};  // guards started so far
std::atomic<int> gActive{0};      // guards running now

void note(std::string& lost, const std::string& what) { lost += (lost.empty() ? "" : ", ") + what; }

std::string signalName(int sig) {
    const char* abbrev = ::sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

size_t countThreads() {
    size_t n = 0;
    if (DIR* dir = ::opendir("/proc/self/task")) {
        while (const dirent* e = ::readdir(dir)) n += e->d_name[0] != '.';
        ::closedir(dir);
    }
    return n;
}

// timer_create's timers, as /proc lists them (0 where it does not).
size_t countPosixTimers() {
    size_t n = 0;
    if (std::FILE* timers = std::fopen("/proc/self/timers", "re")) {
        char line[256];
        while (std::fgets(line, sizeof line, timers)) n += std::strncmp(line, "ID:", 3) == 0;
        std::fclose(timers);
    }
    return n;
}

// A child, running or not yet reaped (waitid fails with ECHILD when there is none).
bool hasChildren() {
    siginfo_t info{};
    return ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

// Whether two signal sets hold the same signals. Not memcmp: glibc's sigaction fills only the kernel's
// part of a sigset_t (8 of its 128 bytes) and copies stack garbage into the rest.
bool sameSignals(const sigset_t& a, const sigset_t& b) {
    for (int sig = 1; sig < NSIG; ++sig)
        if (::sigismember(&a, sig) != ::sigismember(&b, sig)) return false;
    return true;
}

bool armed(const itimerval& t) { return t.it_value.tv_sec != 0 || t.it_value.tv_usec != 0; }

// A thread that was joined can stay listed for a moment after: look again for up to 20 ms.
size_t threadsLeft(size_t before) {
    size_t now = countThreads();
    for (int i = 0; i < 20 && now > before; ++i) {
        const timespec ms{0, 1000000};
        ::nanosleep(&ms, nullptr);
        now = countThreads();
    }
    return now > before ? now - before : 0;
}

}  // namespace

void ownProcessState() {
    gUmask = currentUmask();
    gOwned = true;
}

bool ownsProcessState() { return gOwned; }

bool processStateLost() { return gLost; }

void watchHostDescriptor(int fd) {
    struct stat st {};
    if (gWatchedCount < gWatched.size() && ::fstat(fd, &st) == 0)
        gWatched[gWatchedCount++] = {fd, st.st_dev, st.st_ino};
}

ProcessStateGuard::ProcessStateGuard() : restored_(!gOwned) {
    if (restored_) return;
    folder_ = ::open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    for (size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], nullptr, &actions_[i]);
    for (size_t i = 0; i < kLimits.size(); ++i) ::getrlimit(kLimits[i].resource, &limits_[i]);
    ::pthread_sigmask(SIG_BLOCK, nullptr, &mask_);
    for (size_t i = 0; i < kTimers.size(); ++i) ::getitimer(kTimers[i], &timers_[i]);
    epoch_ = ++gEpoch;
    ++gActive;
    threads_ = countThreads();
    posixTimers_ = countPosixTimers();
    children_ = hasChildren();
    group_ = ::getpgrp();
    session_ = ::getsid(0);
}

std::string ProcessStateGuard::restore() {
    if (restored_) return {};
    restored_ = true;
    if (folder_ >= 0) {
        (void)::fchdir(folder_);  // nothing better to do if it fails: the folder then was deleted under us
        ::close(folder_);
    }
    ::umask(gUmask);
    std::string lost;
    for (size_t i = 0; i < kSignals.size(); ++i) {
        struct sigaction now {};
        ::sigaction(kSignals[i], nullptr, &now);
        if (now.sa_handler != actions_[i].sa_handler)
            note(lost, "the handling of " + signalName(kSignals[i]) + " changed (put back)");
        // Written back only when changed (flags and mask silently): each call is a microsecond on these VMs.
        if (now.sa_handler != actions_[i].sa_handler || now.sa_flags != actions_[i].sa_flags ||
            !sameSignals(now.sa_mask, actions_[i].sa_mask))
            ::sigaction(kSignals[i], &actions_[i], nullptr);
    }
    sigset_t mask;
    ::pthread_sigmask(SIG_BLOCK, nullptr, &mask);
    std::string blocked, unblocked;
    for (int sig = 1; sig < NSIG; ++sig)
        if (::sigismember(&mask, sig) != ::sigismember(&mask_, sig)) {
            std::string& list = ::sigismember(&mask, sig) == 1 ? blocked : unblocked;
            list += (list.empty() ? "" : " ") + signalName(sig);
        }
    if (!blocked.empty() || !unblocked.empty()) {
        note(lost, "the signal mask changed (" + (blocked.empty() ? "" : "blocked: " + blocked) +
                       (blocked.empty() || unblocked.empty() ? "" : "; ") +
                       (unblocked.empty() ? "" : "unblocked: " + unblocked) + ", put back)");
        ::pthread_sigmask(SIG_SETMASK, &mask_, nullptr);
    }
    static constexpr std::array<const char*, kTimers.size()> kTimerNames = {"alarm or ITIMER_REAL", "ITIMER_VIRTUAL",
                                                                            "ITIMER_PROF"};
    for (size_t i = 0; i < kTimers.size(); ++i) {
        itimerval now{};
        if (::getitimer(kTimers[i], &now) != 0 || armed(timers_[i]) || !armed(now)) continue;
        note(lost, std::string("a timer left armed (") + kTimerNames[i] + ", disarmed)");
        ::setitimer(kTimers[i], &timers_[i], nullptr);
    }
    // What another thread's guard could have caused meanwhile is only compared when this one ran alone.
    const bool alone = --gActive == 0 && gEpoch.load() == epoch_;
    if (alone) {
        if (size_t left = threadsLeft(threads_))
            note(lost, std::to_string(left) + (left == 1 ? " thread" : " threads") + " left running");
        if (countPosixTimers() > posixTimers_) note(lost, "a POSIX timer (timer_create) left");
        if (!children_ && hasChildren()) note(lost, "a child process left (running or not reaped)");
    }
    if (::getsid(0) != session_) {
        note(lost, "the process moved to a new session (setsid)");
    } else if (::getpgrp() != group_) {
        note(lost, "the process moved to another process group (setpgid)");
        ::setpgid(0, group_);
    }
    for (size_t i = 0; i < kLimits.size(); ++i) {
        struct rlimit now {};
        if (::getrlimit(kLimits[i].resource, &now) != 0 ||
            (now.rlim_cur == limits_[i].rlim_cur && now.rlim_max == limits_[i].rlim_max))
            continue;
        // Lowering always works; raising a hard limit needs a privilege the host seldom has.
        if (::setrlimit(kLimits[i].resource, &limits_[i]) != 0)
            note(lost, std::string("the ") + kLimits[i].name + " lowered to " +
                           (now.rlim_cur == RLIM_INFINITY ? "unlimited" : std::to_string(now.rlim_cur)) + " for good");
    }
    for (size_t i = 0; i < gWatchedCount; ++i) {
        struct stat st {};
        const Watched& w = gWatched[i];
        if (::fstat(w.fd, &st) != 0 || st.st_dev != w.device || st.st_ino != w.inode)
            note(lost, "descriptor " + std::to_string(w.fd) + " of the host's closed or replaced");
    }
    gLost = gLost || !lost.empty();
    return lost;
}

ProcessStateGuard::~ProcessStateGuard() { restore(); }

}  // namespace ptoplug
