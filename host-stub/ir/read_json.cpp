// JSON input through RapidJSON's SAX reader: iterative (no recursion, so deep input cannot overflow
// the stack), numbers handed over as text so that 64-bit integers stay exact and integers stay distinct
// from floats (docs/ir_format.md §9.3, §9.6). Strings and keys are checked to be UTF-8 here, eight bytes
// at a time, instead of by RapidJSON's validating reader (a byte at a time: a seventh of reading). A large
// input is read on two threads.
#include <charconv>
#include <cstring>
#include <optional>
#include <string>

#include "ir/builder.h"
#include "ir/consumed_input.h"
#include "ir/reader.h"
#include "ir/two_part_read.h"
#include "ir/utf8.h"
#include "ir/word_scan.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wclass-memaccess"
#endif
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace ptoplug::ir {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// RapidJSON's input stream over the input (offsets are the input's), as its MemoryStream; for the first
// part of a two-part read, the end grows as the scan goes (ReadableEnd), and reading waits for it there.
class InputStream {
public:
    using Ch = char;
    InputStream(std::string_view bytes, size_t end, ReadableEnd* readable = nullptr)
        : begin_(bytes.data()), src_(begin_), end_(begin_ + end), readable_(readable) {}
    Ch Peek() const { return src_ != end_ || grow() ? *src_ : '\0'; }
    Ch Take() { return src_ != end_ || grow() ? *src_++ : '\0'; }
    size_t Tell() const { return static_cast<size_t>(src_ - begin_); }
    void seek(size_t offset) { src_ = begin_ + offset; }
    // The rest of RapidJSON's stream concept, for parsing in place, which the readers do not do.
    Ch* PutBegin() { return nullptr; }
    void Put(Ch) {}
    void Flush() {}
    size_t PutEnd(Ch*) { return 0; }

    /// Moves past blanks: pypto writes none, so this nearly always looks at one byte.
    void skipBlanks() {
        while (isBlank(Peek())) ++src_;
    }

    /// Moves past the bytes from here that a string holds as they are (none is '"', '\\' or below 0x20),
    /// eight at a time while eight may be read, handing them to `put(data, size)`.
    template <class Put>
    void takeUnescaped(Put&& put) {
        const Ch* p = src_;
        for (; end_ - p >= 8; p += 8) {
            const uint64_t w = word::load(p);
            if (const uint64_t marks = word::jsonSpecialBytes(w)) {
                p += word::firstMarked(marks);
                break;
            }
        }
        if (p != src_) put(src_, static_cast<size_t>(p - src_));
        src_ = p;
    }

private:
    // Const, as RapidJSON peeks through a const stream; the end is where the stream stands, not its state.
    bool grow() const {
        if (!readable_) return false;
        const ReadableEnd::Extent extent = readable_->await(Tell());
        if (extent.abandoned || extent.end < Tell()) {  // read past the end: the parts cannot agree
            readable_ = nullptr;
            return false;
        }
        end_ = begin_ + extent.end;
        if (extent.final) readable_ = nullptr;
        return src_ != end_;
    }
    const Ch* begin_;
    const Ch* src_;
    mutable const Ch* end_;
    mutable ReadableEnd* readable_;
};

}  // namespace
}  // namespace ptoplug::ir

// RapidJSON's hook for copying a string's plain bytes in bulk (it has one for its own StringStream, which
// cannot wait for the first part's end to grow); without it, it copies a byte at a time, peeking, taking
// and pushing each, which was a tenth of reading JSON. Its loop then goes on from the byte this stops at.
template <>
template <>
inline void rapidjson::Reader::ScanCopyUnescapedString(ptoplug::ir::InputStream& is,
                                                       rapidjson::Reader::StackStream<char>& os) {
    is.takeUnescaped([&](const char* data, size_t size) {
        std::memcpy(os.Push(static_cast<rapidjson::SizeType>(size)), data, size);
    });
}

// Its whitespace skip before every token, which as the generic template was a call each time (2% of
// reading JSON): inline, the common case of no blank is one test.
template <>
inline void rapidjson::SkipWhitespace(ptoplug::ir::InputStream& is) {
    is.skipBlanks();
}

namespace ptoplug::ir {
namespace {

struct Handler {
    Builder& b;
    const InputStream& stream;
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

constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;

// --- Reading in two parts (ir/two_part_read.h) ----------------------------------------------------

size_t skipBlanks(std::string_view bytes, size_t pos) {
    while (pos < bytes.size() && isBlank(bytes[pos])) ++pos;
    return pos;
}

/// Moves `pos` (at a '"') past the string; false if it does not end. `escaped`: it holds a backslash.
bool skipString(std::string_view bytes, size_t& pos, bool& escaped) {
    // Eight bytes at a time to the next '"' or '\\' (strings are short: two calls to memchr for each
    // were a quarter of the scan).
    const char* data = bytes.data();
    const size_t size = bytes.size();
    size_t i = pos + 1;
    for (;;) {
        for (; size - i >= 8; i += 8) {
            const uint64_t w = word::load(data + i);
            if (const uint64_t marks = word::bytesEqual(w, '"') | word::bytesEqual(w, '\\')) {
                i += word::firstMarked(marks);
                break;
            }
        }
        while (i < size && data[i] != '"' && data[i] != '\\') ++i;
        if (i >= size) return false;
        if (data[i] == '"') {
            pos = i + 1;
            return true;
        }
        escaped = true;
        i += 2;  // the backslash and the character it escapes
        if (i > size) return false;
    }
}

// By hand: no library reports where in the tree a byte offset is. A key with an escape on the way is
// not replayed (the other part would need it decoded): such input is read in one part.
std::optional<std::vector<Level>> pathTo(std::string_view bytes, size_t middle, ReadableEnd& readable) {
    ScanPath path(readable);
    size_t pos = skipBlanks(bytes, 0);
    for (;;) {
        if (pos >= bytes.size()) return std::nullopt;
        if (!path.levels.empty()) {
            Level& top = path.levels.back();
            if (top.isMap) {
                bool escaped = false;
                size_t keyStart = pos + 1;
                if (bytes[pos] != '"' || !skipString(bytes, pos, escaped) || escaped) return std::nullopt;
                top.key = bytes.substr(keyStart, pos - 1 - keyStart);
                pos = skipBlanks(bytes, pos);
                if (pos >= bytes.size() || bytes[pos] != ':') return std::nullopt;
                pos = skipBlanks(bytes, pos + 1);
                if (pos >= bytes.size()) return std::nullopt;
            }
            path.itemAt(pos);
        }
        const char c = bytes[pos];
        if (c == '{' || c == '[') {
            if (path.levels.size() == kMaxSplitLevels) return std::nullopt;
            pos = skipBlanks(bytes, pos + 1);
            if (pos < bytes.size() && bytes[pos] == (c == '{' ? '}' : ']')) {
                ++pos;  // empty: the value ends here
            } else {
                path.open(Level{c == '{', 0, 0, {}, 0});
                continue;
            }
        } else if (c == '"') {
            bool escaped = false;
            if (!skipString(bytes, pos, escaped)) return std::nullopt;
        } else {
            size_t start = pos;
            while (pos < bytes.size() && !isBlank(bytes[pos]) && bytes[pos] != ',' && bytes[pos] != '}' &&
                   bytes[pos] != ']')
                ++pos;
            if (pos == start) return std::nullopt;
        }
        // A value ended at pos.
        for (;;) {
            if (pos > middle) return std::move(path.levels);
            if (path.levels.empty()) return std::nullopt;
            pos = skipBlanks(bytes, pos);
            if (pos >= bytes.size()) return std::nullopt;
            if (bytes[pos] == ',') {
                ++path.levels.back().onPath;
                pos = skipBlanks(bytes, pos + 1);
                break;
            }
            if (bytes[pos] != (path.levels.back().isMap ? '}' : ']')) return std::nullopt;
            ++pos;
            path.close();
        }
    }
}

void readFirst(std::string_view bytes, ReadableEnd& readable, Builder& builder, ConsumedInput& consumed) {
    InputStream stream(bytes, 0, &readable);
    Handler handler{builder, stream, consumed};
    rapidjson::Reader reader;
    reader.Parse<kFlags>(stream, handler);
}

/// Hands a string read alone to the builder as a map key.
struct KeyHandler : Handler {
    bool String(const char* s, rapidjson::SizeType length, bool copy) { return Key(s, length, copy); }
};

bool readRest(std::string_view bytes, const std::vector<Level>& path, Builder& part, ConsumedInput& consumed) {
    // One stream over the whole input, moved to each value: offsets stay those of the input.
    InputStream stream(bytes, bytes.size());
    Handler handler{part, stream, consumed};
    KeyHandler keyHandler{{part, stream, consumed}};
    rapidjson::Reader reader;
    size_t pos = path.back().itemStart;
    auto parse = [&](auto& h) {
        stream.seek(pos);
        bool ok = !reader.Parse<kFlags | rapidjson::kParseStopWhenDoneFlag>(stream, h).IsError() && !part.failed();
        pos = stream.Tell();
        return ok;
    };
    if (!parse(handler)) return false;  // the item at the middle
    for (size_t l = path.size(); l-- > 0;) {
        const Level& level = path[l];
        for (;;) {
            pos = skipBlanks(bytes, pos);
            if (pos >= bytes.size()) return false;
            if (bytes[pos] == (level.isMap ? '}' : ']')) {
                ++pos;
                break;
            }
            if (bytes[pos] != ',') return false;
            ++pos;
            if (level.isMap) {
                if (!parse(keyHandler)) return false;
                pos = skipBlanks(bytes, pos);
                if (pos >= bytes.size() || bytes[pos] != ':') return false;
                ++pos;
            }
            if (!parse(handler)) return false;
        }
        part.setAside();
    }
    return skipBlanks(bytes, pos) == bytes.size();
}

}  // namespace

std::unique_ptr<Document> readJsonInTwoParts(std::string_view bytes, const ConsumedInput& consumed, StepTimes* steps) {
    return readInTwoParts(bytes, consumed, TwoPartFormat{pathTo, readFirst, readRest}, steps);
}

bool parseJson(std::string_view bytes, Builder& builder, ConsumedInput& consumed, Error& parseError) {
    InputStream stream(bytes, bytes.size());
    Handler handler{builder, stream, consumed};
    rapidjson::Reader reader;
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
