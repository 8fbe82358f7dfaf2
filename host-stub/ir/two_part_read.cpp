#include "ir/two_part_read.h"

#include <new>
#include <system_error>
#include <thread>

#include "base/allocator.h"

namespace ptoplug::ir {
namespace {

// On the other thread: the same containers opened first, so that every rule sees what it sees when the
// input is read in one part.
bool readSecondPart(std::string_view bytes, const std::vector<Level>& path, Builder& part, ConsumedInput& consumed,
                    const TwoPartFormat& format) {
    for (const Level& level : path) {
        bool ok = level.isMap ? part.startMap(level.count, kUnknownOffset) && part.key(level.key)
                              : part.startArray(level.count, kUnknownOffset);
        if (!ok) return false;
    }
    bool ok = format.readRest(bytes, path, part, consumed);
    part.doneReading();
    return ok;
}

}  // namespace

std::unique_ptr<Document> readInTwoParts(std::string_view bytes, const ConsumedInput& consumed,
                                         const TwoPartFormat& format, StepTimes* steps) {
    // The other thread scans for the middle before it reads, while this one already reads: the first part
    // is the larger, by what the scan costs (a scan goes about four times as fast as reading).
    const size_t share = bytes.size() / 16 * 9;
    auto doc = std::make_unique<Document>();
    Builder builder(*doc);
    builder.expectInput(bytes.size());  // it holds every node once the parts join
    {
        Document partDoc;
        Builder part(partDoc);
        part.readAsPart();
        ReadableEnd readable;
        std::optional<std::vector<Level>> path;
        bool partOk = false;
        std::thread other;
        try {
            other = std::thread([&] {
                // An exception (out of memory) must not end the process from here: the single pass
                // then meets it again, where the caller handles it.
                try {
                    path = format.pathTo(bytes, share, readable);
                    while (path && !path->empty() && path->back().isMap) path->pop_back();
                    if (!path || path->empty()) return readable.abandon();
                    const size_t middle = path->back().itemStart;
                    readable.finish(middle);
                    part.expectInput(bytes.size() - middle);
                    ConsumedInput partConsumed = consumed.from(middle);
                    partOk = readSecondPart(bytes, *path, part, partConsumed, format);
                } catch (...) {
                    readable.abandon();
                    partOk = false;
                }
            });
        } catch (const std::system_error&) {
            return nullptr;  // no thread to be had: read in one part
        }
        ConsumedInput firstConsumed = consumed.from(0);
        try {
            format.readFirst(bytes, readable, builder, firstConsumed);
        } catch (const std::bad_alloc&) {
            other.join();
            return nullptr;  // two documents may not fit where one does: read in one part
        } catch (...) {
            other.join();
            throw;
        }
        other.join();
        lap(steps, "read in two parts");
        // Every container on the path must be open, holding the members before the one on the path: with
        // the other part's, each then gets all of its own.
        bool firstOk = partOk && !builder.failed() && builder.openDepth() == path->size();
        for (size_t l = 0; firstOk && l < path->size(); ++l) firstOk = builder.itemsSoFar(l) == (*path)[l].onPath;
        // Each thread's faults may map pages of the other's range (the page cache holds large folios):
        // the whole input is dropped once both are done.
        consumed.from(0).finish(bytes.size());
        if (!firstOk || !builder.appendPart(part)) return nullptr;
    }
    lap(steps, "join the parts");
    bool ok = builder.finish();
    lap(steps, "resolve and validate");
    // The other thread's malloc arena keeps the pages its builder freed (and, unless the program fixed
    // malloc's mmap threshold, freeing the other part's large tables moved it up, so the heap keeps the
    // tables freed since): they go back here, since peak memory is time.
    returnFreedHeapPages();
    return ok ? std::move(doc) : nullptr;
}

}  // namespace ptoplug::ir
