// JSON input through RapidJSON's SAX reader: iterative (no recursion, so deep input cannot overflow
// the stack), numbers handed over as text so that 64-bit integers stay exact and integers stay distinct
// from floats (docs/ir_format.md §9.3, §9.6). Strings and keys are checked to be UTF-8 here, eight bytes
// at a time, instead of by RapidJSON's validating reader (a byte at a time: a seventh of reading).
#include <charconv>
#include <string>

#include "ir/builder.h"
#include "ir/consumed_input.h"
#include "ir/reader.h"
#include "ir/utf8.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wclass-memaccess"
#endif
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace ptoplug::ir {
namespace {

struct Handler {
    Builder& b;
    const rapidjson::MemoryStream& stream;
    ConsumedInput& consumed;

    /// RapidJSON reports a container start while its stream still points at the bracket.
    uint64_t here() const { return stream.Tell(); }
    bool Null() { return b.null(); }
    bool Bool(bool v) { return b.boolean(v); }
    bool Int(int) { return false; }  // unused: numbers arrive as RawNumber
    bool Uint(unsigned) { return false; }
    bool Int64(int64_t) { return false; }
    bool Uint64(uint64_t) { return false; }
    bool Double(double) { return false; }
    bool RawNumber(const char* text, rapidjson::SizeType length, bool /*copy*/) {
        std::string_view s(text, length);
        const char* end = text + length;
        // Most numbers are short non-negative integers (ids, codes, coordinates): read them in one pass.
        if (length <= 18 && text[0] != '-') {
            uint64_t u = 0;
            const char* p = text;
            while (p != end && *p >= '0' && *p <= '9') u = u * 10 + static_cast<uint64_t>(*p++ - '0');
            if (p == end) return b.uinteger(u);
        }
        if (s.find_first_of(".eE") != std::string_view::npos) {
            double d = 0;
            auto r = std::from_chars(text, end, d);
            if (r.ec != std::errc() || r.ptr != end) {
                b.fail("number " + std::string(s) + " is out of the range of a float64",
                       "float values must be finite float64 numbers; write NaN/Infinity as tagged values",
                       static_cast<int64_t>(here() - length));
                return false;
            }
            return b.f64(d);
        }
        if (s[0] == '-') {
            int64_t i = 0;
            auto r = std::from_chars(text, end, i);
            if (r.ec != std::errc() || r.ptr != end) {
                b.fail("integer " + std::string(s) + " is out of range (below -2^63)",
                       "integers must fit a signed or unsigned 64-bit integer", static_cast<int64_t>(here() - length));
                return false;
            }
            return b.integer(i);
        }
        uint64_t u = 0;
        auto r = std::from_chars(text, end, u);
        if (r.ec != std::errc() || r.ptr != end) {
            b.fail("integer " + std::string(s) + " is out of range (above 2^64-1)",
                   "integers must fit a signed or unsigned 64-bit integer", static_cast<int64_t>(here() - length));
            return false;
        }
        return b.uinteger(u);
    }
    bool utf8(std::string_view s) {
        if (isValidUtf8(s)) return true;
        b.fail("invalid JSON: a string is not valid UTF-8", "JSON text is UTF-8; the file is corrupt or not JSON",
               static_cast<int64_t>(here()) - 1);
        return false;
    }
    bool String(const char* s, rapidjson::SizeType length, bool /*copy*/) {
        consumed.advance(here());  // strings come often enough to pace it
        return utf8({s, length}) && b.string({s, length});
    }
    bool StartObject() { return b.startMap(0, here()); }
    bool Key(const char* s, rapidjson::SizeType length, bool /*copy*/) {
        return utf8({s, length}) && b.key({s, length});
    }
    bool EndObject(rapidjson::SizeType) { return b.endMap(); }
    bool StartArray() { return b.startArray(0, here()); }
    bool EndArray(rapidjson::SizeType) { return b.endArray(); }
};

}  // namespace

bool parseJson(std::string_view bytes, Builder& builder, ConsumedInput& consumed, Error& parseError) {
    rapidjson::MemoryStream stream(bytes.data(), bytes.size());
    Handler handler{builder, stream, consumed};
    rapidjson::Reader reader;
    constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
    rapidjson::ParseResult result = reader.Parse<kFlags>(stream, handler);
    if (builder.failed()) return false;
    if (result.IsError()) {
        parseError.message = std::string("invalid JSON: ") + rapidjson::GetParseError_En(result.Code());
        parseError.offset = static_cast<int64_t>(result.Offset());
        parseError.hint = result.Offset() >= bytes.size() ? "the file is truncated" : "fix the JSON syntax here";
        return false;
    }
    return builder.finish();
}

}  // namespace ptoplug::ir
