#include "base/allocator.h"

#include <sys/mman.h>
#include <unistd.h>

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

namespace {

// `bytes` aligned to `align` (0: malloc's own), running the new-handler on failure as operator new does.
void* allocateAligned(size_t bytes, size_t align) {
    void* p = nullptr;
    while (!(p = align ? std::aligned_alloc(align, bytes) : std::malloc(bytes))) {
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
    return p;
}

}  // namespace

void* allocateLarge(size_t bytes) {
    if (bytes == 0) bytes = 1;  // malloc(0) may return null
    const bool huge = bytes >= kHugePageBytes;
    if (huge) bytes = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    void* p = allocateAligned(bytes, huge ? kHugePageBytes : 0);
    if (huge) ::madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

void* allocatePages(size_t& bytes) {
    if (bytes >= kHugePageBytes) {
        bytes = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
        return allocateLarge(bytes);
    }
    const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    bytes = bytes == 0 ? page : (bytes + page - 1) / page * page;
    return allocateAligned(bytes, page);
}

}  // namespace ptoplug
