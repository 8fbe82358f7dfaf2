#include "ir/number_format.h"

#include <charconv>
#include <cstdlib>

namespace ptoplug::ir {
namespace {

// `sci` is a shortest scientific form from std::to_chars: [-]d[.ddd]e(+|-)XX.
void layout(std::string& out, const char* sci, size_t len) {
    std::string_view s(sci, len);
    size_t ePos = s.find('e');
    int exponent = std::atoi(std::string(s.substr(ePos + 1)).c_str());
    if (exponent < -4 || exponent >= 16) {
        out.append(s);
        return;
    }
    std::string_view mantissa = s.substr(0, ePos);
    if (!mantissa.empty() && mantissa[0] == '-') {
        out += '-';
        mantissa.remove_prefix(1);
    }
    std::string digits;
    for (char c : mantissa)
        if (c != '.') digits += c;
    if (exponent < 0) {
        out += "0.";
        out.append(static_cast<size_t>(-exponent - 1), '0');
        out += digits;
        return;
    }
    auto intDigits = static_cast<size_t>(exponent) + 1;
    if (digits.size() <= intDigits) {
        out += digits;
        out.append(intDigits - digits.size(), '0');
        out += ".0";
    } else {
        out.append(digits, 0, intDigits);
        out += '.';
        out.append(digits, intDigits, std::string::npos);
    }
}

}  // namespace

void appendCanonicalDouble(std::string& out, double value) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    layout(out, buf, static_cast<size_t>(r.ptr - buf));
}

void appendCanonicalFloat(std::string& out, float value) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    layout(out, buf, static_cast<size_t>(r.ptr - buf));
}

}  // namespace ptoplug::ir
