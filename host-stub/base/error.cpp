#include "base/error.h"

#include "base/printable.h"

namespace ptoplug {

std::string Error::format() const {
    std::string out = file.empty() ? "<input>" : printable(file);
    if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
    out += ": error: " + printable(message);
    if (!pointer.empty() || offset >= 0) {
        out += " (at ";
        if (!pointer.empty()) out += printable(pointer);
        if (offset >= 0) out += (pointer.empty() ? "byte " : ", byte ") + std::to_string(offset);
        out += ")";
    }
    if (!hint.empty()) out += "\n  hint: " + printable(hint);
    return out;
}

}  // namespace ptoplug
