#include "base/printable.h"

#include <cstdint>
#include <cstdio>

#include "base/utf8.h"

namespace ptoplug {
namespace {

// Code points that reorder or break what follows them on a terminal: C1 controls, NEL among them, the
// line and paragraph separators, and the bidirectional embeddings, overrides and isolates ("Trojan source").
bool actsOnTheLine(uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F || cp == 0x061C;
}

void appendByteEscape(std::string& out, unsigned char c) {
    switch (c) {
        case '\n': out += "\\n"; return;
        case '\t': out += "\\t"; return;
        case '\r': out += "\\r"; return;
        default: break;
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", c);
    out += hex;
}

}  // namespace

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const unsigned char* end = p + text.size();
    while (p < end) {
        const unsigned char c = *p;
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
            ++p;
            continue;
        }
        uint32_t cp = 0;
        const size_t n = c < 0x80 ? 1 : decodeUtf8(p, end, cp);
        if (n == 0 || c < 0x80) {  // a control byte, DEL, or a byte of no sequence
            appendByteEscape(out, c);
            ++p;
            continue;
        }
        if (actsOnTheLine(cp)) {
            char escape[16];
            std::snprintf(escape, sizeof escape, "\\u{%04x}", static_cast<unsigned>(cp));
            out += escape;
        } else {
            out.append(reinterpret_cast<const char*>(p), n);
        }
        p += n;
    }
    return out;
}

}  // namespace ptoplug
