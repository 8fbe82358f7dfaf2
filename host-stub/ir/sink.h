// Buffered byte output for the writers: to a string (tests, in-memory use) or a file descriptor.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace ptoplug::ir {

class Sink {
public:
    explicit Sink(size_t bufferSize = size_t{1} << 20)
        : buffer_(std::make_unique_for_overwrite<char[]>(bufferSize)),
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
    void write(const char* data, size_t size) {
        if (size > static_cast<size_t>(end_ - cur_)) {
            flush();
            if (size > static_cast<size_t>(end_ - cur_)) return drain(data, size);
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
    std::unique_ptr<char[]> buffer_;
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

class FdSink final : public Sink {
public:
    explicit FdSink(int fd) : fd_(fd) {}
    ~FdSink() override { flush(); }
    int error() const { return errno_; }

private:
    void drain(const char* data, size_t size) override;
    int fd_;
    int errno_ = 0;
};

}  // namespace ptoplug::ir
