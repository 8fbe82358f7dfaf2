#include "base/allocator.h"

#include <cstdlib>  // defines __GLIBC__ where malloc is glibc's
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

}  // namespace ptoplug
