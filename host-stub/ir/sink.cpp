#include "ir/sink.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <system_error>

namespace ptoplug::ir {

FdSink::FdSink(int fd) : fd_(fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    direct_ = flags >= 0 && (flags & O_DIRECT) != 0;
    struct stat st {};
    regular_ = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
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

FdSink::Outcome FdSink::writePaddedEnd(char* data, size_t size, uint64_t at) const {
    const size_t padded = (size + kAlign - 1) / kAlign * kAlign;
    std::memset(data + size, 0, padded - size);
    Outcome out = writeOut(data, padded, true);
    if (out.error) return out;
    const auto end = static_cast<off_t>(at + size);
    if (::ftruncate(fd_, end) != 0 || ::lseek(fd_, end, SEEK_SET) != end) return {errno, out.direct};
    return out;
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

void FdSink::drain(char* data, size_t size, bool full) {
    settle();
    if (!ok()) return;
    const uint64_t before = written_;
    written_ += size;
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
    // A padded end leaves the file offset unaligned: anything written after it goes through the page cache.
    const bool padEnd = direct_ && regular_ && size % kAlign != 0 && before % kAlign == 0;
    Outcome out = padEnd ? writePaddedEnd(data, size, before) : writeOut(data, size, direct_);
    direct_ = out.direct;
    if (out.error) {
        errno_ = out.error;
        setFailed();
    }
}

}  // namespace ptoplug::ir
