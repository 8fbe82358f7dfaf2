// How a program that reads large documents wants malloc to behave. Process-wide: set by the program
// (pto-host, the benchmarks), and used by the phases that free much at once.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <vector>

namespace ptoplug {

/// Large blocks (tables of ids, layouts, string pools) are mapped and go back to the system as soon as
/// they are freed. glibc's default moves its threshold up each time such a block is freed, after which
/// the next ones come from the heap and their pages stay resident: on these machines peak memory is time.
/// Does nothing where malloc is not glibc's.
void returnLargeBlocksWhenFreed();

/// Gives the free pages inside malloc's heaps back to the system: after a phase that freed many small
/// blocks (a read's tables, a plugin's containers), which would otherwise stay resident, unused, beside
/// the fresh pages the next phase touches. About a millisecond. Does nothing where malloc is not glibc's.
void returnFreedHeapPages();

/// From this size up, allocateLarge gives whole huge pages.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

/// `bytes` of storage, freed with std::free. From kHugePageBytes up it is huge-page aligned, rounded up to
/// whole huge pages and advised MADV_HUGEPAGE: faulting in a fresh 4 KiB page costs about 11 us on these
/// machines, a huge page little more for 512 times the memory. Below that, plain malloc. As operator new
/// does, runs the new-handler on failure and throws std::bad_alloc without one.
void* allocateLarge(size_t bytes);

/// At least `bytes` of storage in whole pages, page-aligned (from kHugePageBytes up as allocateLarge gives
/// it): memory whose protection can be changed (mprotect) without touching anything else. `bytes` becomes
/// the size given. Freed with std::free.
void* allocatePages(size_t& bytes);

/// std::allocator's replacement for large tables that are filled whole (allocateLarge). A table's last
/// huge page is resident once touched, used or not: not for tables alive at a run's peak that are sized
/// by an estimate.
template <class T>
struct LargeAllocator {
    using value_type = T;
    LargeAllocator() = default;
    template <class U>
    LargeAllocator(const LargeAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor): rebinding
    T* allocate(size_t n) {
        return static_cast<T*>(allocateLarge(n * sizeof(T)));  // NOLINT(bugprone-sizeof-expression): T may be a pointer
    }
    void deallocate(T* p, size_t) noexcept { std::free(p); }
    template <class U>
    bool operator==(const LargeAllocator<U>&) const noexcept {
        return true;
    }
};

template <class T>
using LargeVector = std::vector<T, LargeAllocator<T>>;

}  // namespace ptoplug
