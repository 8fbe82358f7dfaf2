#include "base/huge_code.h"

#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "base/allocator.h"

namespace ptoplug {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;  // the runtimes keep their own account of mappings
#else
constexpr bool kSanitized = false;
#endif

struct Mapping {
    uintptr_t lo, hi;
    bool readable, writable, executable, shared;
    unsigned major, minor;
    unsigned long inode;  ///< 0: not a file's
};

std::vector<Mapping> mappingsOfThisProcess() {
    std::vector<Mapping> mappings;
    std::FILE* maps = std::fopen("/proc/self/maps", "re");
    if (!maps) return mappings;
    char line[4096];
    while (std::fgets(line, sizeof line, maps)) {
        unsigned long lo = 0, hi = 0, inode = 0;
        unsigned major = 0, minor = 0;
        char perms[5] = {};
        if (std::sscanf(line, "%lx-%lx %4s %*x %x:%x %lu", &lo, &hi, perms, &major, &minor, &inode) != 6) continue;
        mappings.push_back(
            {lo, hi, perms[0] == 'r', perms[1] == 'w', perms[2] == 'x', perms[3] == 's', major, minor, inode});
    }
    std::fclose(maps);
    return mappings;
}

bool sameFile(const Mapping& a, const Mapping& b) {
    return a.inode != 0 && a.inode == b.inode && a.major == b.major && a.minor == b.minor;
}

// [block, block + kHugePageBytes) holds mappings of `object`'s file only (`object` among them), all readable
// and none writable or shared: the block may become one read-only copy.
bool onlyReadOnlyOf(const std::vector<Mapping>& mappings, const Mapping& object, uintptr_t block) {
    for (const Mapping& m : mappings) {
        if (m.hi <= block || m.lo >= block + kHugePageBytes) continue;
        if (!sameFile(m, object) || !m.readable || m.writable || m.shared) return false;
    }
    return true;
}

// An address /proc/self/maps gave: integers are all it gives.
void* at(uintptr_t address) {
    return reinterpret_cast<void*>(address);  // NOLINT(performance-no-int-to-ptr)
}

bool placeBlock(const std::vector<Mapping>& mappings, uintptr_t block) {
    // Twice the size, to cut an aligned block out of: a huge page needs a 2 MiB-aligned range.
    auto* raw = static_cast<char*>(
        ::mmap(nullptr, 2 * kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (raw == MAP_FAILED) return false;
    const size_t before = (kHugePageBytes - reinterpret_cast<uintptr_t>(raw) % kHugePageBytes) % kHugePageBytes;
    char* copy = raw + before;
    if (before > 0) ::munmap(raw, before);
    ::munmap(copy + kHugePageBytes, kHugePageBytes - before);
    // Without a huge page the copy would only cost memory and page-table copies at every fork.
    if (::madvise(copy, kHugePageBytes, MADV_HUGEPAGE) != 0) {
        ::munmap(copy, kHugePageBytes);
        return false;
    }
    // Gaps stay zero. Executable where the block holds code (its constants then too), else read-only.
    int protection = PROT_READ;
    for (const Mapping& m : mappings) {
        if (m.hi <= block || m.lo >= block + kHugePageBytes || !m.readable) continue;
        if (m.executable) protection |= PROT_EXEC;
        const uintptr_t lo = m.lo < block ? block : m.lo;
        const uintptr_t hi = m.hi > block + kHugePageBytes ? block + kHugePageBytes : m.hi;
        std::memcpy(copy + (lo - block), at(lo), hi - lo);
    }
    if (::mprotect(copy, kHugePageBytes, protection) != 0) {
        ::munmap(copy, kHugePageBytes);
        return false;
    }
    // The copy replaces the block in one step (the code running now may be in it: its bytes are the same).
    // MREMAP_FIXED unmaps the block before it moves the copy: a failure after that has left code missing,
    // which must end the process here rather than at some later call into it.
    if (::mremap(copy, kHugePageBytes, kHugePageBytes, MREMAP_MAYMOVE | MREMAP_FIXED, at(block)) == MAP_FAILED) {
        static constexpr char kMessage[] =
            "pto-host: moving code and constants onto huge pages failed (mremap); run with --no-huge-code\n";
        (void)!::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
        ::_exit(70);
    }
    return true;
}

}  // namespace

bool hugeCodePlacementPossible() {
    if (kSanitized) return false;
    std::FILE* setting = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
    if (!setting) return false;
    char line[128] = {};
    const bool read = std::fgets(line, sizeof line, setting) != nullptr;
    std::fclose(setting);
    return read && std::strstr(line, "[never]") == nullptr;
}

size_t placeCodeOnHugePages() {
    if (!hugeCodePlacementPossible()) return 0;
    const std::vector<Mapping> mappings = mappingsOfThisProcess();
    // Loaded objects only: files with code mapped somewhere. A data file a library mapped read-only (a
    // locale archive of hundreds of MiB, a plugin's tables) is neither copied nor snapshotted.
    auto hasCode = [&](const Mapping& file) {
        for (const Mapping& m : mappings)
            if (m.executable && sameFile(m, file)) return true;
        return false;
    };
    std::vector<uintptr_t> blocks;
    for (const Mapping& m : mappings) {
        if (m.inode == 0 || !m.readable || m.writable || m.shared || !hasCode(m)) continue;
        for (uintptr_t block = m.lo & ~(kHugePageBytes - 1); block < m.hi; block += kHugePageBytes)
            if ((blocks.empty() || blocks.back() != block) && onlyReadOnlyOf(mappings, m, block))
                blocks.push_back(block);
    }
    size_t placed = 0;
    for (uintptr_t block : blocks) placed += placeBlock(mappings, block);
    return placed;
}

}  // namespace ptoplug
