// UTF-8 validity (JSON output must be valid UTF-8; MessagePack strings from pypto need not be).
#pragma once

#include <string_view>

namespace ptoplug::ir {

/// True if `s` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool isValidUtf8(std::string_view s);

}  // namespace ptoplug::ir
