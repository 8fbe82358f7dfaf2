#include "ir/sink.h"

#include <unistd.h>

#include <cerrno>

namespace ptoplug::ir {

void FdSink::drain(const char* data, size_t size) {
    while (size > 0 && ok()) {
        ssize_t n = ::write(fd_, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            errno_ = errno;
            setFailed();
            return;
        }
        data += n;
        size -= static_cast<size_t>(n);
    }
}

}  // namespace ptoplug::ir
