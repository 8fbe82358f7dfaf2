// MessagePack input through msgpack-c's visitor parser (iterative); a large input on two threads.
#define MSGPACK_NO_BOOST
#include <msgpack.hpp>
#include <optional>
#include <string>

#include "ir/builder.h"
#include "ir/consumed_input.h"
#include "ir/reader.h"
#include "ir/two_part_read.h"

namespace ptoplug::ir {
namespace {

struct Visitor : msgpack::null_visitor {
    Builder& b;
    const char* base;
    ConsumedInput& consumed;
    bool inKey = false;
    Error& parseError;
    bool syntaxError = false;

    Visitor(Builder& builder, const char* input, ConsumedInput& c, Error& err)
        : b(builder), base(input), consumed(c), parseError(err) {}

    bool notKey(const char* what) {
        if (!inKey) return true;
        b.fail(std::string("map key is ") + what + ", not a string", "every map key in pypto IR is a string");
        return false;
    }
    bool visit_nil() { return notKey("nil") && b.null(); }
    bool visit_boolean(bool v) { return notKey("a boolean") && b.boolean(v); }
    bool visit_positive_integer(uint64_t v) { return notKey("an integer") && b.uinteger(v); }
    bool visit_negative_integer(int64_t v) { return notKey("an integer") && b.integer(v); }
    bool visit_float32(float v) { return notKey("a float") && b.f32(v); }
    bool visit_float64(double v) { return notKey("a float") && b.f64(v); }
    bool visit_str(const char* v, uint32_t size) {
        // Strings come often enough to pace it; an empty one may point anywhere (msgpack-c passes null).
        if (size != 0) consumed.advance(static_cast<size_t>(v - base));
        return inKey ? b.key({v, size}) : b.string({v, size});
    }
    bool visit_bin(const char*, uint32_t) {
        b.fail("MessagePack bin value", "pypto never writes bin values; the file is not pypto IR");
        return false;
    }
    bool visit_ext(const char*, uint32_t) {
        b.fail("MessagePack ext value", "pypto never writes ext values; the file is not pypto IR");
        return false;
    }
    bool start_array(uint32_t n) { return notKey("an array") && b.startArray(n, kUnknownOffset); }
    bool end_array() { return b.endArray(); }
    bool start_map(uint32_t n) { return notKey("a map") && b.startMap(n, kUnknownOffset); }
    bool start_map_key() {
        inKey = true;
        return true;
    }
    bool end_map_key() {
        inKey = false;
        return true;
    }
    bool end_map() { return b.endMap(); }
    void parse_error(size_t /*parsed*/, size_t errorOffset) {
        syntaxError = true;
        parseError.message = "invalid MessagePack: unknown type byte";
        parseError.offset = static_cast<int64_t>(errorOffset);
        parseError.hint = "the file is corrupt or not pypto IR";
    }
    void insufficient_bytes(size_t /*parsed*/, size_t errorOffset) {
        syntaxError = true;
        parseError.message = "unexpected end of MessagePack data";
        parseError.offset = static_cast<int64_t>(errorOffset);
        parseError.hint = "the file is truncated";
    }
};

/// One value at `pos` through `visitor`; `pos` moves past it.
bool parseOne(std::string_view bytes, size_t& pos, Visitor& visitor) {
    return msgpack::v2::parse(bytes.data(), bytes.size(), pos, visitor) && !visitor.syntaxError && !visitor.b.failed();
}

// --- Reading in two parts (ir/two_part_read.h) ----------------------------------------------------

uint32_t bigEndian(std::string_view bytes, size_t at, size_t width) {
    uint32_t v = 0;
    for (size_t i = 0; i < width; ++i) v = v << 8 | static_cast<unsigned char>(bytes[at + i]);
    return v;
}

/// The map or array header at `pos`, and the offset after it.
std::optional<std::pair<Level, size_t>> containerAt(std::string_view bytes, size_t pos) {
    auto c = static_cast<unsigned char>(bytes[pos]);
    if (c >= 0x80 && c <= 0x9f) return std::pair{Level{c < 0x90, c & 0x0fu, 0, {}, 0}, pos + 1};
    if (c < 0xdc || c > 0xdf) return std::nullopt;
    size_t width = c == 0xdc || c == 0xde ? 2 : 4;
    if (pos + 1 + width > bytes.size()) return std::nullopt;
    return std::pair{Level{c >= 0xde, bigEndian(bytes, pos + 1, width), 0, {}, 0}, pos + 1 + width};
}

/// Moves `pos` past the value at it that is not a map or an array; false if there is none. `payloadAt`, if
/// given, is where the value's bytes begin (a string's text).
bool skipScalar(std::string_view bytes, size_t& pos, size_t* payloadAt = nullptr) {
    auto c = static_cast<unsigned char>(bytes[pos]);
    size_t width = 0;  // of a length field
    size_t payload = 0;
    if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3) {
    } else if (c >= 0xa0 && c <= 0xbf) {
        payload = c & 0x1fu;
    } else if (c == 0xcc || c == 0xd0) {
        payload = 1;
    } else if (c == 0xcd || c == 0xd1) {
        payload = 2;
    } else if (c == 0xca || c == 0xce || c == 0xd2) {
        payload = 4;
    } else if (c == 0xcb || c == 0xcf || c == 0xd3) {
        payload = 8;
    } else if (c >= 0xd4 && c <= 0xd8) {
        payload = 1 + (size_t{1} << (c - 0xd4));  // fixext: a type byte and 1..16 bytes
    } else if (c == 0xc4 || c == 0xd9 || c == 0xc5 || c == 0xda || c == 0xc6 || c == 0xdb) {
        width = c == 0xc4 || c == 0xd9 ? 1 : c == 0xc5 || c == 0xda ? 2 : 4;
    } else if (c == 0xc7 || c == 0xc8 || c == 0xc9) {
        width = c == 0xc7 ? 1 : c == 0xc8 ? 2 : 4;
        payload = 1;  // the type byte
    } else {
        return false;
    }
    if (pos + 1 + width > bytes.size()) return false;
    if (width) payload += bigEndian(bytes, pos + 1, width);
    if (payloadAt) *payloadAt = pos + 1 + width;
    pos += 1 + width + payload;
    return pos <= bytes.size();
}

// By hand: no library reports where in the tree a byte offset is.
std::optional<std::vector<Level>> pathTo(std::string_view bytes, size_t middle, ReadableEnd& readable) {
    ScanPath path(readable);
    size_t pos = 0;
    for (;;) {
        if (pos >= bytes.size()) return std::nullopt;
        if (!path.levels.empty()) {
            Level& top = path.levels.back();
            if (top.isMap) {
                auto c = static_cast<unsigned char>(bytes[pos]);
                if (!((c >= 0xa0 && c <= 0xbf) || c == 0xd9 || c == 0xda || c == 0xdb)) return std::nullopt;
                size_t text = 0;
                if (!skipScalar(bytes, pos, &text) || pos >= bytes.size()) return std::nullopt;
                top.key = bytes.substr(text, pos - text);
            }
            path.itemAt(pos);
        }
        if (auto container = containerAt(bytes, pos)) {
            if (path.levels.size() == kMaxSplitLevels) return std::nullopt;
            pos = container->second;
            if (container->first.count > 0) {
                path.open(container->first);
                continue;
            }
        } else if (!skipScalar(bytes, pos)) {
            return std::nullopt;
        }
        // A value ended at pos.
        for (;;) {
            if (pos > middle) return std::move(path.levels);
            if (path.levels.empty()) return std::nullopt;
            if (++path.levels.back().onPath < path.levels.back().count) break;
            path.close();
        }
    }
}

void readFirst(std::string_view bytes, ReadableEnd& readable, Builder& builder, ConsumedInput& consumed) {
    Error error;
    Visitor visitor(builder, bytes.data(), consumed, error);
    // msgpack-c's streaming parser (what its unpacker runs on): it resumes where the bytes ran out, here
    // always between two values, since the end only ever moves to an item start.
    msgpack::v2::detail::parse_helper<Visitor> parser(visitor);
    size_t pos = 0;
    for (size_t known = 0;;) {
        const ReadableEnd::Extent extent = readable.await(known);
        if (extent.abandoned || extent.end < pos) return;  // read past the end: the parts cannot agree
        known = extent.end;
        if (parser.execute(bytes.data(), known, pos) != msgpack::PARSE_CONTINUE || extent.final) return;
    }
}

bool readRest(std::string_view bytes, const std::vector<Level>& path, Builder& part, ConsumedInput& consumed) {
    Error error;
    Visitor visitor(part, bytes.data(), consumed, error);
    size_t pos = path.back().itemStart;
    for (size_t l = path.size(); l-- > 0;) {
        const Level& level = path[l];
        const bool inner = l + 1 == path.size();
        for (uint32_t i = inner ? level.onPath : level.onPath + 1; i < level.count; ++i) {
            if (level.isMap) {
                visitor.inKey = true;
                bool ok = parseOne(bytes, pos, visitor);
                visitor.inKey = false;
                if (!ok) return false;
            }
            if (!parseOne(bytes, pos, visitor)) return false;
        }
        part.setAside();
    }
    return pos == bytes.size();
}

}  // namespace

std::unique_ptr<Document> readMsgPackInTwoParts(std::string_view bytes, const ConsumedInput& consumed,
                                                StepTimes* steps) {
    return readInTwoParts(bytes, consumed, TwoPartFormat{pathTo, readFirst, readRest}, steps);
}

bool parseMsgPack(std::string_view bytes, Builder& builder, ConsumedInput& consumed, Error& parseError) {
    Visitor visitor(builder, bytes.data(), consumed, parseError);
    size_t offset = 0;
    bool ok = msgpack::v2::parse(bytes.data(), bytes.size(), offset, visitor);
    if (builder.failed()) return false;
    if (!ok || visitor.syntaxError) {
        if (parseError.message.empty()) {
            parseError.message = "invalid MessagePack";
            parseError.offset = static_cast<int64_t>(offset);
        }
        return false;
    }
    if (offset != bytes.size()) {
        parseError.message = "trailing bytes after the root value";
        parseError.offset = static_cast<int64_t>(offset);
        parseError.hint = "a file holds exactly one MessagePack value";
        return false;
    }
    return builder.finish();
}

}  // namespace ptoplug::ir
