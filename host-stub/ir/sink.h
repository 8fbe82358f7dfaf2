// Buffered byte output for the writers: to a string (tests, in-memory use) or a file descriptor.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

namespace ptoplug::ir {

class Sink {
public:
    /// Buffers are aligned to this and hold a multiple of it, so that a file opened for direct I/O can be
    /// written from them (FdSink).
    static constexpr size_t kAlign = 4096;

    explicit Sink(size_t bufferSize = size_t{1} << 20)
        : buffer_(static_cast<char*>(::operator new[](bufferSize, std::align_val_t{kAlign}))),
          cur_(buffer_.get()),
          end_(buffer_.get() + bufferSize) {}
    virtual ~Sink() = default;
    Sink(const Sink&) = delete;
    Sink& operator=(const Sink&) = delete;

    // A bare pointer into a fixed buffer: the writers put a few bytes per call, tens of millions of times
    // for a large program, and std::string's bookkeeping per append was a tenth of writing.
    void put(char c) {
        if (cur_ == end_) flush();
        *cur_++ = c;
    }
    /// Copies through the buffer, so that only a full buffer is handed on before the final flush.
    void write(const char* data, size_t size) {
        while (size > static_cast<size_t>(end_ - cur_)) {
            const auto room = static_cast<size_t>(end_ - cur_);
            std::memcpy(cur_, data, room);
            cur_ = end_;
            data += room;
            size -= room;
            flush();
        }
        std::memcpy(cur_, data, size);
        cur_ += size;
    }
    void write(std::string_view s) { write(s.data(), s.size()); }
    /// Hands buffered bytes on; returns false if the destination failed.
    bool flush() {
        if (cur_ != buffer_.get()) drain(buffer_.get(), static_cast<size_t>(cur_ - buffer_.get()));
        cur_ = buffer_.get();
        return ok_;
    }
    bool ok() const { return ok_; }

protected:
    virtual void drain(const char* data, size_t size) = 0;
    void setFailed() { ok_ = false; }

private:
    struct Free {
        void operator()(char* p) const { ::operator delete[](p, std::align_val_t{kAlign}); }
    };
    std::unique_ptr<char[], Free> buffer_;
    char* cur_;
    char* end_;
    bool ok_ = true;
};

class StringSink final : public Sink {
public:
    StringSink() : Sink(size_t{64} << 10) {}
    std::string& str() {
        flush();
        return out_;
    }

private:
    void drain(const char* data, size_t size) override { out_.append(data, size); }
    std::string out_;
};

/// Writes to a descriptor. If it was opened for direct I/O (O_DIRECT: no page-cache copy, whose fresh pages
/// cost more than the disk here), whole aligned buffers go directly and the unaligned tail, or anything
/// the file system refuses directly, is written through the page cache.
class FdSink final : public Sink {
public:
    explicit FdSink(int fd);
    ~FdSink() override { flush(); }
    int error() const { return errno_; }

private:
    void drain(const char* data, size_t size) override;
    bool writeAll(const char* data, size_t size);
    void stopDirect();
    int fd_;
    bool direct_;
    int errno_ = 0;
};

}  // namespace ptoplug::ir
