// base/huge_code.h: code moved onto huge pages is the same code, and nothing writable is touched.
#include "base/huge_code.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "io/subprocess.h"

namespace ptoplug {
namespace {

struct Mapping {
    uintptr_t lo, hi;
    std::string perms;
    unsigned long inode;
};

std::vector<Mapping> mappings() {
    std::vector<Mapping> all;
    std::FILE* maps = std::fopen("/proc/self/maps", "re");
    char line[4096];
    while (maps && std::fgets(line, sizeof line, maps)) {
        unsigned long lo = 0, hi = 0, inode = 0;
        char perms[5] = {};
        if (std::sscanf(line, "%lx-%lx %4s %*x %*x:%*x %lu", &lo, &hi, perms, &inode) == 4)
            all.push_back({lo, hi, perms, inode});
    }
    if (maps) std::fclose(maps);
    return all;
}

// The bytes of every readable, read-only file mapping (code and constants), with where they are.
std::vector<std::pair<uintptr_t, std::string>> codeBytes(const std::vector<Mapping>& all) {
    std::vector<std::pair<uintptr_t, std::string>> code;
    for (const Mapping& m : all)
        if (m.perms[0] == 'r' && m.perms[1] != 'w' && m.inode != 0)
            code.emplace_back(m.lo, std::string(reinterpret_cast<const char*>(m.lo), m.hi - m.lo));
    return code;
}

// `check`'s exit code, run in a child process (the placement changes the process for good).
int inChild(const std::function<int()>& check) {
    const io::ChildEnd end = io::runForked(check);
    return end.how == io::ChildEnd::How::Exited ? end.status : 128 + end.status;
}

TEST(HugeCode, CodeKeepsItsBytesAndStillRuns) {
    if (!hugeCodePlacementPossible())
        GTEST_SKIP() << "no placement here (a sanitizer build, or transparent huge pages off)";
    EXPECT_EQ(inChild([] {
                  const std::vector<Mapping> before = mappings();
                  const auto bytes = codeBytes(before);
                  // The kernel aligns large libraries (libstdc++, this binary's code) to 2 MiB: one at least.
                  if (placeCodeOnHugePages() == 0) return 3;
                  // Every byte of code is where it was, and library and program code still runs.
                  for (const auto& [at, content] : bytes)
                      if (std::memcmp(reinterpret_cast<const void*>(at), content.data(), content.size()) != 0) return 1;
                  std::vector<std::string> words = {"pto", "host", "huge", "code"};
                  std::sort(words.begin(), words.end());
                  char text[64];
                  std::snprintf(text, sizeof text, "%s %d %.2f", words.front().c_str(), 42, 0.5);
                  if (std::string(text) != "code 42 0.50" || std::to_string(7) != "7") return 2;
                  return 0;
              }),
              0);
}

TEST(HugeCode, WritableMappingsStayAndReplacedBlocksAreWholeAlignedAndExecutableOnlyWhereCodeWas) {
    if (!hugeCodePlacementPossible())
        GTEST_SKIP() << "no placement here (a sanitizer build, or transparent huge pages off)";
    EXPECT_EQ(inChild([] {
                  const std::vector<Mapping> before = mappings();
                  const size_t placed = placeCodeOnHugePages();
                  const std::vector<Mapping> after = mappings();
                  for (const Mapping& m : before) {
                      if (m.perms[1] != 'w') continue;
                      auto same = [&](const Mapping& n) { return n.lo == m.lo && n.hi == m.hi && n.inode == m.inode; };
                      if (std::none_of(after.begin(), after.end(), same)) return 1;
                  }
                  size_t blocks = 0;
                  constexpr uintptr_t kBlock = uintptr_t{2} << 20;
                  for (const Mapping& m : after) {
                      const bool wasFile = std::any_of(before.begin(), before.end(), [&](const Mapping& b) {
                          return b.inode != 0 && b.lo < m.hi && m.lo < b.hi;
                      });
                      if (m.inode != 0 || !wasFile) continue;
                      // An anonymous mapping where a file was: one of the placed blocks, or several merged
                      // (those of code with those of code, of constants with those of constants).
                      const bool wasCode = std::any_of(before.begin(), before.end(), [&](const Mapping& b) {
                          return b.inode != 0 && b.perms[2] == 'x' && b.lo < m.hi && m.lo < b.hi;
                      });
                      if (m.perms != (wasCode ? "r-xp" : "r--p") || m.lo % kBlock != 0 || (m.hi - m.lo) % kBlock != 0)
                          return 2;
                      blocks += (m.hi - m.lo) / kBlock;
                  }
                  return placed > 0 && blocks == placed ? 0 : 3;
              }),
              0);
}

}  // namespace
}  // namespace ptoplug
