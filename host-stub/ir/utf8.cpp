#include "ir/utf8.h"

#include <cstdint>

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
        unsigned char c = *p;
        if (c < 0x80) {
            ++p;
            continue;
        }
        size_t n = 0;
        uint32_t cp = 0;
        uint32_t min = 0;
        if ((c & 0xE0) == 0xC0) {
            n = 1;
            cp = c & 0x1F;
            min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            cp = c & 0x0F;
            min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            cp = c & 0x07;
            min = 0x10000;
        } else
            return false;
        if (static_cast<size_t>(end - p) <= n) return false;
        for (size_t i = 1; i <= n; ++i) {
            if ((p[i] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        p += n + 1;
    }
    return true;
}

}  // namespace ptoplug::ir
