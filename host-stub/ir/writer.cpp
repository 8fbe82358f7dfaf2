#include "ir/writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>

#define MSGPACK_NO_BOOST
#include <msgpack.hpp>

#include "ir/graph.h"
#include "ir/number_format.h"
#include "ir/placement.h"
#include "ir/pointer.h"
#include "ir/utf8.h"
#include "ir/word_scan.h"

namespace ptoplug::ir {
namespace {

// Walks values in key order (the byte order of every map), writing each node in full at the
// occurrence the Layout chose and as a reference elsewhere.
template <class Emitter>
class Walker {
public:
    Walker(const Document& doc, const Layout& layout, Emitter& emit) : doc_(doc), layout_(layout), emit_(emit) {}

    bool value(const Value& v) {
        switch (v.kind) {
            case Kind::Array:
                emit_.beginArray(v.a->size);
                for (uint32_t i = 0; i < v.a->size; ++i) {
                    emit_.item(i);
                    if (!value(v.a->items[i])) return false;
                }
                emit_.endArray(v.a->size);
                return true;
            case Kind::Map:
                emit_.beginMap(v.m->size);
                for (uint32_t i = 0; i < v.m->size; ++i) {
                    if (!key(i, v.m->at(i))) return false;
                    if (!value(v.m->values[i])) return false;
                }
                emit_.endMap(v.m->size);
                return true;
            case Kind::Node:
            case Kind::Ref: {
                // The node's index from the value itself (Value::aux): a reference is written without
                // reading its node.
                uint32_t id = 0;
                const Value* full = nullptr;
                if (!layout_.await(v.aux, id, full)) return unplaced();
                if (full != &v) {
                    emit_.beginMap(1);
                    knownKey(0, K::ref);
                    emit_.uinteger(id);
                    emit_.endMap(1);
                    return true;
                }
                // A layout still being made may lead here around a cycle its walk has not yet found.
                if (++nodeDepth_ > kMaxNodeDepth) return unplaced();
                const Node& n = *v.n;
                emit_.beginMap(3);
                knownKey(0, K::fields);
                emit_.beginMap(n.fields.size);
                for (uint32_t i = 0; i < n.fields.size; ++i) {
                    if (!key(i, n.fields.at(i))) return false;
                    if (!value(n.fields.values[i])) return false;
                }
                emit_.endMap(n.fields.size);
                knownKey(1, K::id);
                emit_.uinteger(id);
                knownKey(2, K::type);
                if (n.type < K::kCount) {
                    const Encoded& name = knownNames_[n.type];
                    emit_.encoded(name.padded.data(), name.size);
                } else if (!emit_.string(doc_.keys().name(n.type), &v)) {
                    return false;
                }
                emit_.endMap(3);
                --nodeDepth_;
                return true;
            }
            case Kind::Span: {
                Expected<Span> read = doc_.span(v);
                if (!read) {
                    // The source's error at the span (a whole layout promises the pointer search no cycle).
                    spanError_ = std::move(read.error());
                    if (layout_.whole()) spanError_->pointer = pointerTo(doc_, &v);
                    return false;
                }
                const Span& sp = *read;
                emit_.beginMap(5);
                knownKey(0, K::begin_column);
                emit_.integer(sp.beginColumn);
                knownKey(1, K::begin_line);
                emit_.integer(sp.beginLine);
                knownKey(2, K::end_column);
                emit_.integer(sp.endColumn);
                knownKey(3, K::end_line);
                emit_.integer(sp.endLine);
                knownKey(4, K::filename);
                if (!emit_.string(sp.file, &v)) return false;
                emit_.endMap(5);
                return true;
            }
            case Kind::Str: return emit_.string(v.strView(), &v);
            case Kind::Null: emit_.null(); return true;
            case Kind::Bool: emit_.boolean(v.b); return true;
            case Kind::UInt: emit_.uinteger(v.u); return true;
            case Kind::Int: emit_.integer(v.i); return true;
            case Kind::F64: emit_.f64(v.d); return true;
            case Kind::F32: emit_.f32(v.f); return true;
            case Kind::RefId: return false;  // never present after reading
        }
        return false;
    }

    /// The walk stopped where the layout failed (a cycle, or nodes nested too deep).
    bool layoutFailed() const { return layoutFailed_; }
    /// Why the walk stopped at a deferred span its source could not give, and where; else nothing.
    Status spanError() const { return spanError_; }

private:
    bool unplaced() {
        layoutFailed_ = true;
        return false;
    }

    // Known keys are ASCII; a key the input brought (MessagePack allows any bytes) is checked.
    bool key(uint32_t index, const Member& m) {
        if (m.key < K::kCount) {
            knownKey(index, m.key);
            return true;
        }
        return emit_.checkedKey(index, doc_.keys().name(m.key), &m.value);
    }

    // A known key's encoding is made once per write and then copied: keys are a third of what is written.
    void knownKey(uint32_t index, uint32_t key) {
        const Encoded& k = knownKeys_[key];
        emit_.encodedKey(index, k.padded.data(), k.size);
    }

    // A known name, quoted with its separators (4 bytes more), fits the padded buffer; one byte more is
    // there so that an emitter may copy from its second byte (JSON drops a leading comma so).
    static constexpr size_t longestKnownName() {
        size_t longest = 0;
        for (std::string_view name : kKnownNames) longest = std::max(longest, name.size());
        return longest;
    }
    static_assert(longestKnownName() + 4 <= Sink::kPadded);
    struct Encoded {
        std::array<char, Sink::kPadded + 1> padded{};
        size_t size = 0;
    };

    // Every known name encoded by `encode` (the emitter's encodeKey or encodeName).
    template <class Encode>
    static std::vector<Encoded> encodeKnownNames(Encode&& encode) {
        std::vector<Encoded> names(K::kCount);
        for (uint32_t key = 0; key < K::kCount; ++key) {
            const std::string bytes = encode(kKnownNames[key]);
            std::copy(bytes.begin(), bytes.end(), names[key].padded.begin());
            names[key].size = bytes.size();
        }
        return names;
    }

public:
    // The known names' encodings, made once per process (prepareWriterTables) rather than per write: a
    // process made for one small file then finds them made.
    static const std::vector<Encoded>& knownKeys(int style) {
        static const auto byStyle = [] {
            std::array<std::vector<Encoded>, Emitter::kKeyStyles> tables;
            for (int s = 0; s < Emitter::kKeyStyles; ++s)
                tables[s] = encodeKnownNames([s](std::string_view n) { return Emitter::encodeKey(n, s); });
            return tables;
        }();
        return byStyle[style];
    }
    static const std::vector<Encoded>& knownNames() {
        static const auto names = encodeKnownNames(&Emitter::encodeName);
        return names;
    }

private:
    const Document& doc_;
    const Layout& layout_;
    Emitter& emit_;
    uint32_t nodeDepth_ = 0;
    bool layoutFailed_ = false;
    Status spanError_;
    const std::vector<Encoded>& knownKeys_ = knownKeys(emit_.keyStyle());
    /// Node type names: known names are ASCII, so they need no check either.
    const std::vector<Encoded>& knownNames_ = knownNames();
};

class JsonEmitter {
public:
    JsonEmitter(Sink& sink, bool pretty) : sink_(sink), pretty_(pretty) {}

    const Value* badString = nullptr;
    const Value* badKey = nullptr;  ///< the value whose key is not valid UTF-8

    void beginArray(uint32_t) {
        sink_.put('[');
        ++depth_;
    }
    void endArray(uint32_t size) { close(']', size); }
    void beginMap(uint32_t) {
        sink_.put('{');
        ++depth_;
    }
    void endMap(uint32_t size) { close('}', size); }
    void item(uint32_t index) { separate(index); }
    void key(uint32_t index, std::string_view name) {
        separate(index);
        quoted(name);
        sink_.put(':');
        if (pretty_) sink_.put(' ');
    }
    static constexpr int kKeyStyles = 2;  ///< compact, pretty
    int keyStyle() const { return pretty_ ? 1 : 0; }
    /// A known key (an ASCII identifier: nothing to escape) with its separators; in compact JSON the comma
    /// before it too, dropped for a map's first key (one copy per key, no separate put).
    static std::string encodeKey(std::string_view name, int style) {
        return style == 1 ? '"' + std::string(name) + "\": " : ",\"" + std::string(name) + "\":";
    }
    /// A known name as a string value (an ASCII identifier: nothing to escape).
    static std::string encodeName(std::string_view name) { return '"' + std::string(name) + '"'; }
    void encoded(const char* padded, size_t size) { sink_.writePadded(padded, size); }
    void encodedKey(uint32_t index, const char* padded, size_t size) {
        if (pretty_) {
            separate(index);
            return sink_.writePadded(padded, size);
        }
        if (index == 0) return sink_.writePadded(padded + 1, size - 1);
        sink_.writePadded(padded, size);
    }
    bool checkedKey(uint32_t index, std::string_view name, const Value* valueOfKey) {
        if (!isValidUtf8(name)) {
            badKey = valueOfKey;
            return false;
        }
        key(index, name);
        return true;
    }
    void null() { sink_.write("null"); }
    void boolean(bool b) { sink_.write(b ? "true" : "false"); }
    void uinteger(uint64_t u) { number(u); }
    void integer(int64_t i) { number(i); }
    void f64(double d) { floating(d, "Float64", false); }
    void f32(float f) { floating(f, "Float32", true); }
    bool string(std::string_view s, const Value* where) {
        if (!isValidUtf8(s)) {
            badString = where;
            return false;
        }
        quoted(s);
        return true;
    }

private:
    template <class T>
    void number(T n) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, n);
        sink_.write(buf, static_cast<size_t>(r.ptr - buf));
    }

    template <class T>
    void floating(T x, const char* tag, bool alwaysTagged) {
        if (std::isfinite(x) && !alwaysTagged) {
            scratch_.clear();
            appendCanonicalDouble(scratch_, static_cast<double>(x));
            sink_.write(scratch_);
            return;
        }
        // Non-finite values and float32 are tagged objects (docs/ir_format.md §11.8-11.9).
        sink_.write(pretty_ ? "{\"type\": \"" : "{\"type\":\"");
        sink_.write(tag);
        sink_.write(pretty_ ? "\", \"value\": " : "\",\"value\":");
        if (std::isnan(x)) {
            sink_.write("\"NaN\"");
        } else if (std::isinf(x)) {
            sink_.write(x > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        } else {
            scratch_.clear();
            appendCanonicalFloat(scratch_, static_cast<float>(x));
            sink_.write(scratch_);
        }
        sink_.put('}');
    }

    void separate(uint32_t index) {
        if (index > 0) sink_.put(',');
        if (pretty_) newline();
    }
    void close(char c, uint32_t size) {
        --depth_;
        if (pretty_ && size > 0) newline();
        sink_.put(c);
    }
    void newline() {
        sink_.put('\n');
        for (int i = 0; i < depth_; ++i) sink_.write("  ", 2);
    }

    void quoted(std::string_view s) {
        sink_.put('"');
        if (!word::anyMarked(s.data(), s.size(), word::jsonSpecialBytes)) {
            sink_.write(s.data(), s.size());
            return sink_.put('"');
        }
        size_t run = 0;
        for (size_t i = 0; i < s.size(); ++i) {
            // Eight bytes at a time past those needing no escape: a byte at a time was a sixth of writing JSON.
            while (s.size() - i >= 8 && !word::jsonSpecialBytes(word::load(s.data() + i))) i += 8;
            if (i == s.size()) break;
            auto c = static_cast<unsigned char>(s[i]);
            if (c >= 0x20 && c != '"' && c != '\\') continue;
            sink_.write(s.data() + run, i - run);
            run = i + 1;
            switch (c) {
                case '"': sink_.write("\\\"", 2); break;
                case '\\': sink_.write("\\\\", 2); break;
                case '\n': sink_.write("\\n", 2); break;
                case '\r': sink_.write("\\r", 2); break;
                case '\t': sink_.write("\\t", 2); break;
                case '\b': sink_.write("\\b", 2); break;
                case '\f': sink_.write("\\f", 2); break;
                default: {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    sink_.write(buf, 6);
                }
            }
        }
        sink_.write(s.data() + run, s.size() - run);
        sink_.put('"');
    }

    Sink& sink_;
    bool pretty_;
    int depth_ = 0;
    std::string scratch_;
};

// msgpack-c's packer picks the same encodings pypto's packer (also msgpack-c) picks, including
// integral doubles packed as integers (docs/ir_format.md §11.7).
class MsgPackEmitter {
public:
    explicit MsgPackEmitter(Sink& sink) : sink_(sink), packer_(sink) {}
    // Small containers and strings have a one-byte header (fixarray, fixmap, fixstr: what the packer writes
    // for them), put directly: there are millions of them.
    void beginArray(uint32_t size) {
        if (size < 16) return sink_.put(static_cast<char>(0x90 | size));
        packer_.pack_array(size);
    }
    void endArray(uint32_t) {}
    void beginMap(uint32_t size) {
        if (size < 16) return sink_.put(static_cast<char>(0x80 | size));
        packer_.pack_map(size);
    }
    void endMap(uint32_t) {}
    void item(uint32_t) {}
    void key(uint32_t, std::string_view name) { str(name); }
    /// Keys and string values are both strings in MessagePack.
    static std::string encodeName(std::string_view name) { return encodeKey(name, 0); }
    void encoded(const char* padded, size_t size) { sink_.writePadded(padded, size); }
    static constexpr int kKeyStyles = 1;
    static int keyStyle() { return 0; }
    static std::string encodeKey(std::string_view name, int /*style*/) {
        msgpack::sbuffer bytes;
        msgpack::packer<msgpack::sbuffer> packer(bytes);
        packer.pack_str(static_cast<uint32_t>(name.size()));
        packer.pack_str_body(name.data(), static_cast<uint32_t>(name.size()));
        return {bytes.data(), bytes.size()};
    }
    void encodedKey(uint32_t, const char* padded, size_t size) { sink_.writePadded(padded, size); }
    bool checkedKey(uint32_t, std::string_view name, const Value*) {
        str(name);
        return true;
    }
    void null() { packer_.pack_nil(); }
    void boolean(bool b) { b ? packer_.pack_true() : packer_.pack_false(); }
    // Ids, codes and span coordinates are mostly below 128: one byte (a positive fixint, as the packer
    // writes it) without the packer's search for the shortest form.
    void uinteger(uint64_t u) {
        if (u < 128) return sink_.put(static_cast<char>(u));
        packer_.pack_uint64(u);
    }
    void integer(int64_t i) {
        if (i >= 0) return uinteger(static_cast<uint64_t>(i));  // the packer encodes both alike
        packer_.pack_int64(i);
    }
    void f64(double d) { packer_.pack_double(d); }
    void f32(float f) { packer_.pack_float(f); }
    bool string(std::string_view s, const Value*) {
        str(s);
        return true;
    }

private:
    void str(std::string_view s) {
        if (s.size() < 32)
            sink_.put(static_cast<char>(0xa0 | s.size()));
        else
            packer_.pack_str(static_cast<uint32_t>(s.size()));
        sink_.write(s);
    }
    Sink& sink_;
    msgpack::packer<Sink> packer_;
};

}  // namespace

Status writeDocument(const Document& doc, const WriteOptions& options, Sink& sink, StepTimes* steps,
                     const Layout* laidOut) {
    // The structural check bounds the nesting along the first path it takes to each node; a longer path
    // found in pypto's orders is refused here rather than overflow a recursive walk.
    auto unplaced = [] {
        Error e;
        e.message = nodesNestedTooDeep();
        e.hint = "pypto IR is never this deep; a pass built an impossibly deep program";
        return e;
    };
    std::optional<Layout> computed;
    if (!laidOut) {
        computed.emplace(doc.nodes().size());
        const bool whole = layOut(doc, *computed);
        lap(steps, "place nodes and number them");
        if (!whole) return unplaced();
        laidOut = &*computed;
    }
    const Layout& layout = *laidOut;
    Format format = options.format == Format::Auto ? doc.inputFormat() : options.format;
    bool ok = true;
    bool layoutFailed = false;
    Status unreadSpan;
    if (format == Format::Json) {
        JsonEmitter emitter(sink, options.pretty);
        Walker<JsonEmitter> walker(doc, layout, emitter);
        ok = walker.value(doc.root());
        layoutFailed = walker.layoutFailed();
        unreadSpan = walker.spanError();
        // The place of a bad string is found by a walk that needs the whole layout's promise: no cycle.
        if (!ok && !layoutFailed && (emitter.badString || emitter.badKey)) {
            if (!layout.whole()) return unplaced();
            Error e;
            e.pointer = pointerTo(doc, emitter.badString ? emitter.badString : emitter.badKey);
            if (emitter.badString && emitter.badString->kind == Kind::Span) e.pointer += "/filename";
            e.message = emitter.badKey ? "a key is not valid UTF-8 and cannot be written as JSON"
                                       : "string is not valid UTF-8 and cannot be written as JSON";
            e.hint = "write this program as MessagePack (--format msgpack), which keeps such strings";
            return e;
        }
        if (ok) sink.put('\n');  // canonical JSON files end with a newline, like the fixtures
    } else {
        MsgPackEmitter emitter(sink);
        Walker<MsgPackEmitter> walker(doc, layout, emitter);
        ok = walker.value(doc.root());
        layoutFailed = walker.layoutFailed();
        unreadSpan = walker.spanError();
    }
    if (layoutFailed) return unplaced();
    if (unreadSpan) return unreadSpan;
    const bool flushed = sink.flush();
    lap(steps, "encode and write");
    if (!flushed || !ok) {
        Error e;
        e.message = "write failed";
        e.hint = "check free space and permissions of the output location";
        return e;
    }
    return std::nullopt;
}

void prepareWriterTables() {
    Walker<JsonEmitter>::knownKeys(0);
    Walker<JsonEmitter>::knownNames();
    Walker<MsgPackEmitter>::knownKeys(0);
    Walker<MsgPackEmitter>::knownNames();
}

Expected<std::string> writeToString(const Document& doc, const WriteOptions& options) {
    StringSink sink;
    if (auto err = writeDocument(doc, options, sink)) return *err;
    return std::move(sink.str());
}

Format formatForName(const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    return ext == ".json" ? Format::Json : ext == ".msgpack" ? Format::MsgPack : Format::Auto;
}

}  // namespace ptoplug::ir
