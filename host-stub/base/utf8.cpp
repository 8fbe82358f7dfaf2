#include "base/utf8.h"

namespace ptoplug {

size_t decodeUtf8(const unsigned char* p, const unsigned char* end, uint32_t& cp) {
    const unsigned char c = *p;
    if (c < 0x80) {
        cp = c;
        return 1;
    }
    size_t n = 0;
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
    } else {
        return 0;
    }
    if (static_cast<size_t>(end - p) <= n) return 0;
    for (size_t i = 1; i <= n; ++i) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n + 1;
}

}  // namespace ptoplug
