#include "base/process_state.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

}  // namespace

ProcessStateGuard::ProcessStateGuard()
    : folder_(::open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)), umask_(currentUmask()) {}

ProcessStateGuard::~ProcessStateGuard() {
    if (folder_ >= 0) {
        (void)::fchdir(folder_);  // nothing better to do if it fails: the folder then was deleted under us
        ::close(folder_);
    }
    ::umask(umask_);
}

}  // namespace ptoplug
