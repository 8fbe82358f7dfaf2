// Buffered byte output for the writers: to a string (tests, in-memory use) or a file descriptor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <future>
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
        : size_(bufferSize), buffer_(newBuffer()), cur_(buffer_.get()), end_(buffer_.get() + size_) {}
    virtual ~Sink() = default;
    Sink(const Sink&) = delete;
    Sink& operator=(const Sink&) = delete;

    // A bare pointer into a fixed buffer: the writers put a few bytes per call, tens of millions of times
    // for a large program, and std::string's bookkeeping per append was a tenth of writing.
    void put(char c) {
        if (cur_ == end_) spill();
        *cur_++ = c;
    }
    /// Copies through the buffer, so that only full buffers are handed on before the last flush.
    void write(const char* data, size_t size) {
        if (size <= 16 && static_cast<size_t>(end_ - cur_) >= 16) {
            copyShort(cur_, data, size);
            cur_ += size;
            return;
        }
        if (size == 0) return;  // an empty string_view's data may be null, which memcpy must not see
        while (size > static_cast<size_t>(end_ - cur_)) {
            const auto room = static_cast<size_t>(end_ - cur_);
            std::memcpy(cur_, data, room);
            cur_ = end_;
            data += room;
            size -= room;
            spill();
        }
        std::memcpy(cur_, data, size);
        cur_ += size;
    }
    void write(std::string_view s) { write(s.data(), s.size()); }
    /// The first `size` bytes of `padded`, a buffer of kPadded bytes: one fixed-size copy instead of a
    /// call to memcpy, for the map keys that are a third of what the writers put.
    static constexpr size_t kPadded = 32;
    void writePadded(const char* padded, size_t size) {
        if (static_cast<size_t>(end_ - cur_) < kPadded) return write(padded, size);
        std::memcpy(cur_, padded, kPadded);
        cur_ += size;
    }
    /// Hands on everything written so far and waits until it is out; returns false if the destination
    /// failed.
    bool flush() {
        if (cur_ != buffer_.get()) drain(buffer_.get(), static_cast<size_t>(cur_ - buffer_.get()), false);
        cur_ = buffer_.get();
        settle();
        return ok_;
    }
    bool ok() const { return ok_; }

protected:
    struct Free {
        void operator()(char* p) const { ::operator delete[](p, std::align_val_t{kAlign}); }
    };
    using Buffer = std::unique_ptr<char[], Free>;

    /// Takes `size` bytes at the start of the buffer being filled, which the sink may overwrite after them
    /// up to the buffer's end. `full`: a whole buffer, with more to come; the sink may keep the buffer (see
    /// exchange) and write it while the next one fills.
    virtual void drain(char* data, size_t size, bool full) = 0;
    /// Waits for whatever drain left under way.
    virtual void settle() {}
    void setFailed() { ok_ = false; }
    Buffer newBuffer() const { return Buffer(static_cast<char*>(::operator new[](size_, std::align_val_t{kAlign}))); }
    /// Fills `fresh` (from newBuffer) from now on; returns the buffer being filled until now.
    Buffer exchange(Buffer fresh) {
        Buffer old = std::move(buffer_);
        buffer_ = std::move(fresh);
        cur_ = buffer_.get();
        end_ = buffer_.get() + size_;
        return old;
    }

private:
    // Most writes are a few bytes (headers, numbers, names): two overlapping loads and stores instead of a
    // call to memcpy, which was a fifth of writing.
    static void copyShort(char* dst, const char* src, size_t n) {
        if (n >= 8) {
            uint64_t head, tail;
            std::memcpy(&head, src, 8);
            std::memcpy(&tail, src + n - 8, 8);
            std::memcpy(dst, &head, 8);
            std::memcpy(dst + n - 8, &tail, 8);
        } else if (n >= 4) {
            uint32_t head, tail;
            std::memcpy(&head, src, 4);
            std::memcpy(&tail, src + n - 4, 4);
            std::memcpy(dst, &head, 4);
            std::memcpy(dst + n - 4, &tail, 4);
        } else if (n > 0) {  // an empty string_view's data may be null: nothing is read then
            dst[0] = src[0];
            dst[n / 2] = src[n / 2];
            dst[n - 1] = src[n - 1];
        }
    }

    void spill() {
        drain(buffer_.get(), static_cast<size_t>(cur_ - buffer_.get()), true);
        cur_ = buffer_.get();
    }

    size_t size_;
    Buffer buffer_;
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
    void drain(char* data, size_t size, bool) override { out_.append(data, size); }
    std::string out_;
};

/// Writes to a descriptor. A full buffer is written by a helper thread while the next one fills (a direct
/// write waits for the device). If the descriptor was opened for direct I/O (O_DIRECT: no page-cache copy,
/// whose fresh pages cost more than the disk here), whole aligned buffers go directly; a regular file's
/// unaligned tail goes directly too, padded to a whole block and cut back. Whatever the file system
/// refuses directly, and everything after a mid-way flush, is written through the page cache.
class FdSink final : public Sink {
public:
    explicit FdSink(int fd);
    ~FdSink() override { flush(); }
    int error() const { return errno_; }
    /// Whether any byte went through the page cache (after flush: the whole output). Direct writes have
    /// reached the device when they return, before anything the caller does next, such as naming the file.
    bool wroteThroughCache() const { return !direct_; }

private:
    struct Outcome {
        int error;    ///< errno, or 0
        bool direct;  ///< whether the descriptor is still in direct mode
    };
    void drain(char* data, size_t size, bool full) override;
    void settle() override;
    /// Writes all of `data`, directly while it can (aligned, and the file system agrees), else through the
    /// page cache. Touches only the descriptor: the helper thread runs it too.
    Outcome writeOut(const char* data, size_t size, bool direct) const;
    /// Writes the last `size` bytes of a direct regular file, at offset `at` (block-aligned), from `data`, a
    /// buffer with room to the next block boundary: zeros to that boundary, directly, then the file is cut
    /// back to its length. Written through the page cache instead, this one block would make the caller
    /// sync the whole file (see wroteThroughCache).
    Outcome writePaddedEnd(char* data, size_t size, uint64_t at) const;

    int fd_;
    bool direct_;
    bool regular_;          ///< a regular file: its length can be cut back after a padded end
    uint64_t written_ = 0;  ///< bytes handed to the descriptor so far
    int errno_ = 0;
    Buffer spare_;                  ///< the buffer to fill next
    Buffer inFlight_;               ///< the buffer the helper is writing
    std::future<Outcome> pending_;  ///< the helper's outcome; declared last, so destroyed (waited for) first
};

}  // namespace ptoplug::ir
