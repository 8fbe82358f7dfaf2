// Buffered byte output for the writers: to a string (tests, in-memory use) or a file descriptor.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ptoplug::ir {

class Sink {
public:
    explicit Sink(size_t bufferSize = size_t{1} << 20) { buffer_.reserve(bufferSize); }
    virtual ~Sink() = default;
    Sink(const Sink&) = delete;
    Sink& operator=(const Sink&) = delete;

    void put(char c) {
        if (buffer_.size() == buffer_.capacity()) flush();
        buffer_.push_back(c);
    }
    void write(const char* data, size_t size) {
        if (buffer_.size() + size > buffer_.capacity()) {
            flush();
            if (size > buffer_.capacity()) return drain(data, size);
        }
        buffer_.append(data, size);
    }
    void write(std::string_view s) { write(s.data(), s.size()); }
    /// Hands buffered bytes on; returns false if the destination failed.
    bool flush() {
        if (!buffer_.empty()) drain(buffer_.data(), buffer_.size());
        buffer_.clear();
        return ok_;
    }
    bool ok() const { return ok_; }

protected:
    virtual void drain(const char* data, size_t size) = 0;
    void setFailed() { ok_ = false; }

private:
    std::string buffer_;
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
