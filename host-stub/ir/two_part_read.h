// Reading a large input in two parts on two threads (docs/ir_format.md §11.13).
//
// A scan that builds nothing finds the containers from the root to the middle of the input and the
// innermost array there (in a pypto Program, the host orchestration function's statements). This thread
// reads everything before that array's item at the middle, starting while the other thread still scans
// (ReadableEnd says how far it may go); the other then opens the same containers and reads
// the rest (the array's later items, then each enclosing container's later members) into a document of
// its own, which then joins this one (Builder::appendPart). Every value goes through the format's parser
// and the same Builder rules, so the document is the one a single pass builds. Each format supplies the
// scan and the two readings; the rest is here once.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "base/step_times.h"
#include "ir/builder.h"
#include "ir/consumed_input.h"

namespace ptoplug::ir {

/// A container on the way from the root to the middle of the input.
struct Level {
    bool isMap = false;
    uint32_t count = 0;    ///< members or items, where the format says (MessagePack); else 0
    uint32_t onPath = 0;   ///< the member or item that holds the middle
    std::string_view key;  ///< a map's: the key of that member
    size_t itemStart = 0;  ///< offset of that member's value, or item
};

/// Deeper paths are read in one part.
inline constexpr size_t kMaxSplitLevels = 64;

/// How far the first part may read while the scan still looks for the middle. The scan publishes where
/// each item of the outermost array it is in starts: wherever the scan ends, the first part ends at or
/// after such a start (the middle's item is in that array's item, or after the array). Then it sets the
/// first part's end, or abandons (the input is read in one part then).
class ReadableEnd {
public:
    /// Scan: the bytes before `offset` are the first part's.
    void publish(size_t offset) { set(offset << 2); }
    /// Scan: the first part ends at `offset`.
    void finish(size_t offset) { set(offset << 2 | kFinal); }
    void abandon() { set(kAbandoned); }

    struct Extent {
        size_t end;  ///< bytes that may be read
        bool final;  ///< the first part's end
        bool abandoned;
    };
    /// First part: blocks until more than `known` bytes may be read, or the end is final or abandoned.
    Extent await(size_t known) {
        uint64_t v = state_.load(std::memory_order_acquire);
        while ((v >> 2) <= known && !(v & 3)) {
            state_.wait(v, std::memory_order_acquire);
            v = state_.load(std::memory_order_acquire);
        }
        return {static_cast<size_t>(v >> 2), (v & kFinal) != 0, (v & kAbandoned) != 0};
    }

private:
    static constexpr uint64_t kFinal = 1, kAbandoned = 2;
    void set(uint64_t v) {
        state_.store(v, std::memory_order_release);
        state_.notify_one();
    }
    std::atomic<uint64_t> state_{0};  ///< the end << 2, with the two flags below it
};

/// The containers a scan is in, from the root down. It publishes to a ReadableEnd where each item of the
/// outermost array among them starts: the rule the first part's reading relies on, kept here once for
/// every format's scan.
class ScanPath {
public:
    explicit ScanPath(ReadableEnd& readable) : readable_(readable) {}
    std::vector<Level> levels;

    /// Enters a container; its first member or item comes next.
    void open(const Level& level) {
        if (outer_ == kNone && !level.isMap) outer_ = levels.size();
        levels.push_back(level);
    }
    /// The innermost container's current member or item starts at `pos`.
    void itemAt(size_t pos) {
        levels.back().itemStart = pos;
        if (levels.size() - 1 == outer_) readable_.publish(pos);
    }
    /// Leaves the innermost container.
    void close() {
        if (levels.size() - 1 == outer_) outer_ = kNone;
        levels.pop_back();
    }

private:
    static constexpr size_t kNone = SIZE_MAX;
    ReadableEnd& readable_;
    size_t outer_ = kNone;  ///< the index in `levels` of the outermost array
};

struct TwoPartFormat {
    /// The containers from the root to the first value that ends past `middle` (each with `onPath` the
    /// member holding it); nullopt if the input ends first, breaks the format or has a key on the way that
    /// cannot be replayed. Publishes each item start of the outermost array it is in to `readable`. The
    /// pages it reads stay mapped: the first part reads them next.
    std::optional<std::vector<Level>> (*pathTo)(std::string_view bytes, size_t middle, ReadableEnd& readable);
    /// Feeds `builder` every value of `bytes` up to where `readable` ends, waiting for it to grow; the end
    /// is an item start: the reading stops there.
    void (*readFirst)(std::string_view bytes, ReadableEnd& readable, Builder& builder, ConsumedInput& consumed);
    /// With the containers of `path` open in `part`: reads the rest of each, innermost first, calling
    /// part.setAside() as each is done; false if a rule is broken or the input does not end there.
    bool (*readRest)(std::string_view bytes, const std::vector<Level>& path, Builder& part, ConsumedInput& consumed);
};

/// The document, or nullptr when the input has no array at its middle or any rule is broken or the parts
/// disagree: the caller then reads it in one part, which reports every problem as usual. `steps`, if given,
/// gets the time of each step.
std::unique_ptr<Document> readInTwoParts(std::string_view bytes, const ConsumedInput& consumed,
                                         const TwoPartFormat& format, StepTimes* steps = nullptr);

}  // namespace ptoplug::ir
