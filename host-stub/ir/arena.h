// Bump allocator that owns every IR value of one Document.
//
// Hand-written because peak memory is speed on these machines (fresh pages cost ~4 s/GiB): the IR of a
// large program is millions of small, trivially destructible objects that live exactly as long as the
// document, so one pointer bump per object and whole-block release beat any general-purpose allocator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "base/allocator.h"

namespace ptoplug::ir {

/// The system's page size (what madvise ranges are aligned to).
inline size_t pageSize() {
    static const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    return page;
}

class Arena {
public:
    Arena() = default;
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;

    /// Uninitialised storage for `count` objects of trivially destructible type T.
    template <class T>
    T* allocArray(size_t count) {
        static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
        return static_cast<T*>(allocBytes(sizeof(T) * count, alignof(T)));
    }

    template <class T, class... Args>
    T* make(Args&&... args) {
        return new (allocArray<T>(1)) T{std::forward<Args>(args)...};
    }

    /// A copy of `text` owned by the arena (not NUL-terminated).
    std::string_view copy(std::string_view text) {
        if (text.empty()) return {};
        char* dst = allocArray<char>(text.size());
        std::memcpy(dst, text.data(), text.size());
        return {dst, text.size()};
    }

    /// Returns the storage of `p` (`size` bytes) if it is the last allocation; otherwise does nothing.
    void giveBackLast(const void* p, size_t size) {
        if (!blocks_.empty() && static_cast<const std::byte*>(p) + size == blocks_.back().data.get() + used_)
            used_ -= size;
    }

    size_t bytesReserved() const { return reserved_; }

    /// Makes every byte handed out so far read-only (`readOnly`), or writable again; what is allocated
    /// meanwhile goes to a fresh block, which stays writable. A write to read-only bytes faults (SIGSEGV).
    /// False if the system refused.
    bool protect(bool readOnly) {
        if (readOnly) {
            protected_ = blocks_.size();
            if (!blocks_.empty()) {
                giveBackRest();
                capacity_ = used_;  // the next allocation starts a block of its own
            }
        }
        bool ok = true;
        for (size_t i = 0; i < protected_; ++i)
            ok = ::mprotect(blocks_[i].data.get(), blocks_[i].size, readOnly ? PROT_READ : PROT_READ | PROT_WRITE) ==
                     0 &&
                 ok;
        if (!readOnly) protected_ = 0;
        return ok;
    }

    /// For a document expected to take about `bytes` more: a large one goes on in blocks of whole huge
    /// pages at once instead of growing through 4 KiB-page blocks from 64 KiB (a few hundred page faults
    /// each, and faults are time here). Pages are still touched only as used.
    void expect(size_t bytes) {
        if (bytes >= kHugePageBytes) nextBlock_ = std::max(nextBlock_, std::min(bytes, kMaxBlock));
    }

    /// Takes over every block of `other` (which is left empty), and goes on filling whichever of the two
    /// current blocks has more room. The rest of the other is given back: a huge page was touched whole.
    void adopt(Arena& other) {
        if (other.blocks_.empty()) return;
        bool keepOwn = !blocks_.empty() && capacity_ - used_ >= other.capacity_ - other.used_;
        if (keepOwn) {
            other.giveBackRest();
        } else if (!blocks_.empty()) {
            giveBackRest();
        }
        auto at = keepOwn ? blocks_.end() - 1 : blocks_.end();
        blocks_.insert(at, std::make_move_iterator(other.blocks_.begin()),
                       std::make_move_iterator(other.blocks_.end()));
        if (!keepOwn) {
            capacity_ = other.capacity_;
            used_ = other.used_;
        }
        reserved_ += other.reserved_;
        other.blocks_.clear();
        other.capacity_ = other.used_ = other.reserved_ = 0;
    }

    /// Uninitialised storage of `size` bytes aligned to `align` (a power of two).
    void* allocBytes(size_t size, size_t align) {
        size_t start = (used_ + align - 1) & ~(align - 1);
        if (blocks_.empty() || start + size > capacity_) {
            grow(size + align);
            start = (used_ + align - 1) & ~(align - 1);
        }
        used_ = start + size;
        return blocks_.back().data.get() + start;
    }

private:
    /// The unused pages of the current block go back to the system (it will not be filled further).
    void giveBackRest() {
        const size_t page = pageSize();
        size_t from = (used_ + page - 1) / page * page;
        if (from < capacity_) ::madvise(blocks_.back().data.get() + from, capacity_ - from, MADV_DONTNEED);
    }

    void grow(size_t atLeast) {
        // Blocks grow geometrically (64 KiB .. 8 MiB) so small documents stay small and large ones do few
        // allocations; pages of a block are only touched as objects are placed in them.
        size_t next = std::max(blocks_.empty() ? kMinBlock : std::min(blocks_.back().size * 2, kMaxBlock), nextBlock_);
        if (next < atLeast) next = atLeast;
        // Whole pages, so that a block's protection can change alone (protect); blocks of whole huge pages are
        // backed by them where the kernel can: a large document is walked many times, and with 4 KiB pages
        // most of a walk's time goes to TLB misses and page faults.
        blocks_.push_back(Slab{Block(static_cast<std::byte*>(allocatePages(next))), next});
        capacity_ = next;
        used_ = 0;
        reserved_ += next;
    }

    struct FreeBlock {
        void operator()(std::byte* p) const { std::free(p); }
    };
    using Block = std::unique_ptr<std::byte, FreeBlock>;
    struct Slab {
        Block data;
        size_t size;  ///< whole pages
    };

    static constexpr size_t kMinBlock = size_t{64} << 10;
    static constexpr size_t kMaxBlock = size_t{8} << 20;
    std::vector<Slab> blocks_;
    size_t protected_ = 0;  ///< blocks read-only (protect)
    size_t nextBlock_ = 0;  ///< the least size of the next block (expect)
    size_t capacity_ = 0;
    size_t used_ = 0;
    size_t reserved_ = 0;
};

}  // namespace ptoplug::ir
