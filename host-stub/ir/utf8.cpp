#include "ir/utf8.h"

#include <cstdint>

#include "base/utf8.h"
#include "ir/word_scan.h"

namespace ptoplug::ir {

bool isValidUtf8(std::string_view s) {
    // Nearly all of a program's text is ASCII: that is settled a word at a time.
    if (!word::anyMarked(s.data(), s.size(), word::nonAsciiBytes)) return true;
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const unsigned char* end = p + s.size();
    while (p < end) {
        // Past the ASCII runs of the rest a word at a time.
        if (end - p >= 8 && !word::nonAsciiBytes(word::load(reinterpret_cast<const char*>(p)))) {
            p += 8;
            continue;
        }
        if (*p < 0x80) {
            ++p;
            continue;
        }
        uint32_t cp = 0;
        const size_t n = decodeUtf8(p, end, cp);
        if (n == 0) return false;
        p += n;
    }
    return true;
}

}  // namespace ptoplug::ir
