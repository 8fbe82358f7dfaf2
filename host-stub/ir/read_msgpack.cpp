// MessagePack input through msgpack-c's visitor parser (iterative).
#define MSGPACK_NO_BOOST
#include <msgpack.hpp>
#include <string>

#include "ir/builder.h"
#include "ir/consumed_input.h"
#include "ir/reader.h"

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
        consumed.advance(static_cast<size_t>(v - base));  // strings come often enough to pace it
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

}  // namespace

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
