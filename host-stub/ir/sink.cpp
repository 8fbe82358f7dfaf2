#include "ir/sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace ptoplug::ir {

FdSink::FdSink(int fd) : fd_(fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    direct_ = flags >= 0 && (flags & O_DIRECT) != 0;
}

void FdSink::stopDirect() {
    if (!direct_) return;
    direct_ = false;
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_DIRECT);
}

bool FdSink::writeAll(const char* data, size_t size) {
    while (size > 0) {
        ssize_t n = ::write(fd_, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            errno_ = errno;
            return false;
        }
        data += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

void FdSink::drain(const char* data, size_t size) {
    if (!ok()) return;
    if (direct_) {
        const size_t aligned = size / kAlign * kAlign;
        if (aligned && reinterpret_cast<uintptr_t>(data) % kAlign == 0) {
            ssize_t n;
            do n = ::write(fd_, data, aligned);
            while (n < 0 && errno == EINTR);
            if (n > 0) {
                data += n;
                size -= static_cast<size_t>(n);
            }
            // Refused (EINVAL: the file system takes no direct I/O after all) or short: the rest goes through
            // the page cache; any other error is the descriptor's and is reported below as it recurs.
            if (n != static_cast<ssize_t>(aligned)) stopDirect();
        }
        if (size % kAlign) stopDirect();  // an unaligned tail: the end of the output, or a flush mid-way
    }
    if (!writeAll(data, size)) setFailed();
}

}  // namespace ptoplug::ir
