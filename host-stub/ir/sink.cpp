#include "ir/sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <system_error>

namespace ptoplug::ir {

FdSink::FdSink(int fd) : fd_(fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    direct_ = flags >= 0 && (flags & O_DIRECT) != 0;
}

FdSink::Outcome FdSink::writeOut(const char* data, size_t size, bool direct) const {
    auto stopDirect = [&] {
        direct = false;
        ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_DIRECT);
    };
    while (size > 0) {
        size_t chunk = size;
        if (direct) {
            chunk = size / kAlign * kAlign;
            // An unaligned tail (the end of the output, or a flush mid-way) goes through the page cache.
            if (chunk == 0 || reinterpret_cast<uintptr_t>(data) % kAlign != 0) {
                stopDirect();
                chunk = size;
            }
        }
        ssize_t n = ::write(fd_, data, chunk);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (direct && errno == EINVAL) {  // the file system takes no direct I/O after all
                stopDirect();
                continue;
            }
            return {errno, direct};
        }
        data += n;
        size -= static_cast<size_t>(n);
    }
    return {0, direct};
}

void FdSink::settle() {
    if (!pending_.valid()) return;
    Outcome out = pending_.get();
    direct_ = out.direct;
    if (out.error) {
        errno_ = out.error;
        setFailed();
    }
    spare_ = std::move(inFlight_);
}

void FdSink::drain(const char* data, size_t size, bool full) {
    settle();
    if (!ok()) return;
    if (full) {
        if (!spare_) spare_ = newBuffer();
        Buffer filled = exchange(std::move(spare_));
        try {
            pending_ = std::async(std::launch::async,
                                  [this, data, size, direct = direct_] { return writeOut(data, size, direct); });
            inFlight_ = std::move(filled);
            return;
        } catch (const std::system_error&) {  // no thread to be had: written here and now
            spare_ = exchange(std::move(filled));
        }
    }
    Outcome out = writeOut(data, size, direct_);
    direct_ = out.direct;
    if (out.error) {
        errno_ = out.error;
        setFailed();
    }
}

}  // namespace ptoplug::ir
