#include "base/allocator.h"

#include <sys/mman.h>

#include <cstdlib>  // defines __GLIBC__ where malloc is glibc's
#include <new>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace ptoplug {

void returnLargeBlocksWhenFreed() {
#ifdef __GLIBC__
    ::mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
}

void returnFreedHeapPages() {
#ifdef __GLIBC__
    ::malloc_trim(0);
#endif
}

void* allocateLarge(size_t bytes) {
    if (bytes == 0) bytes = 1;  // malloc(0) may return null
    const bool huge = bytes >= kHugePageBytes;
    if (huge) bytes = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    void* p = nullptr;
    while (!(p = huge ? std::aligned_alloc(kHugePageBytes, bytes) : std::malloc(bytes))) {
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
    if (huge) ::madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

}  // namespace ptoplug
