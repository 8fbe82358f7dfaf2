#include "base/process_state.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdio>

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

void note(std::string& lost, const std::string& what) { lost += (lost.empty() ? "" : ", ") + what; }

}  // namespace

void ownProcessState() { gOwned = true; }

void watchHostDescriptor(int fd) {
    struct stat st {};
    if (gWatchedCount < gWatched.size() && ::fstat(fd, &st) == 0)
        gWatched[gWatchedCount++] = {fd, st.st_dev, st.st_ino};
}

ProcessStateGuard::ProcessStateGuard() : restored_(!gOwned) {
    if (restored_) return;
    folder_ = ::open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    umask_ = currentUmask();
    for (size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], nullptr, &actions_[i]);
    for (size_t i = 0; i < kLimits.size(); ++i) ::getrlimit(kLimits[i].resource, &limits_[i]);
}

std::string ProcessStateGuard::restore() {
    if (restored_) return {};
    restored_ = true;
    if (folder_ >= 0) {
        (void)::fchdir(folder_);  // nothing better to do if it fails: the folder then was deleted under us
        ::close(folder_);
    }
    ::umask(umask_);
    for (size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &actions_[i], nullptr);
    std::string lost;
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
    return lost;
}

ProcessStateGuard::~ProcessStateGuard() { restore(); }

}  // namespace ptoplug
