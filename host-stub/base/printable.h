// Text from outside the host (a plugin's messages, a program's names and span file names, input paths) as
// it may reach a terminal: every text diagnostic goes through here, so that no byte of it is lost or acts.
#pragma once

#include <string>
#include <string_view>

namespace ptoplug {

/// `text` with what a terminal would act on or show wrongly made visible, as compilers do: control bytes
/// as escapes (`\n`, `\t`, `\r`, `\x1b`, `\x00`, ...), each byte of invalid UTF-8 as `\xNN`, and the
/// C1 controls, line and paragraph separators and bidirectional overrides as `\u{NNNN}`. Printable text,
/// valid UTF-8 included, stays as it is; nothing is dropped (a NUL ends nothing).
std::string printable(std::string_view text);

}  // namespace ptoplug
