// One UTF-8 sequence decoded: what both the IR's validity check and the printable form of text build on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ptoplug {

/// The length (1 to 4) of the well-formed UTF-8 sequence that starts at `p` (before `end`), with its code
/// point in `cp`; 0 if the bytes there are no such sequence (an overlong, a surrogate, above U+10FFFF, cut
/// short).
size_t decodeUtf8(const unsigned char* p, const unsigned char* end, uint32_t& cp);

}  // namespace ptoplug
