// Releasing the pages of a mapped input as the reader consumes it. The document copies every string
// (Builder::string), so nothing points back into the input: without this, the input and the document
// would both be resident at the peak, and on these machines peak memory is time.
#pragma once

#include <cstddef>

namespace ptoplug::ir {

class ConsumedInput {
public:
    /// Tracks nothing (an input that is not a private file mapping, e.g. a string).
    ConsumedInput() = default;
    /// `base` is page aligned (an mmap); the pages below a consumed offset may be dropped.
    ConsumedInput(const char* base, size_t size) : base_(base), size_(size), next_(kEvery) {}
    /// The reader is at `offset`: drops the pages well behind it, in steps of kEvery bytes.
    void advance(size_t offset) {
        if (offset >= next_) release(offset);
    }
    /// A tracker of the same input for a reader that starts at `offset` (one of several, or a second try).
    ConsumedInput from(size_t offset) const;
    /// The reader is done at `end`: drops every page before it.
    void finish(size_t end) {
        if (base_) release(end + kBehind);
    }

private:
    static constexpr size_t kEvery = size_t{2} << 20;     ///< how often to release
    static constexpr size_t kBehind = size_t{256} << 10;  ///< what stays mapped behind the reader
    void release(size_t offset);

    const char* base_ = nullptr;
    size_t size_ = 0;
    size_t dropped_ = 0;
    size_t next_ = static_cast<size_t>(-1);
};

}  // namespace ptoplug::ir
