// The in-memory form of one serialized pypto IR document (normally a Program).
//
// Every value of the file is kept, generically: maps, arrays, strings, numbers. Maps of the node shape
// ({"fields", "id", "type"}) become Nodes, and every {"ref": id} becomes a pointer to the very same
// Node, so node identity is pointer identity. The schema (ir/schema.h) says what each node type's
// fields hold; anything the host does not interpret is still here and is written back unchanged.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <tsl/robin_map.h>

#include "base/error.h"
#include "ir/arena.h"
#include "ir/known_names.h"
#include "ir/word_scan.h"

namespace ptoplug::ir {

/// The two serializations of pypto IR; Auto means "detect from the content" when reading.
enum class Format { Auto, Json, MsgPack };

enum class Kind : uint8_t {
    Null,
    Bool,
    UInt,  ///< a non-negative integer (how both formats carry it)
    Int,   ///< a negative integer
    F64,
    F32,
    Str,
    Array,
    Map,
    Span,   ///< a source span map in compact form (see Span; read with Document::span)
    Node,   ///< a node occurrence (the place the input wrote it in full, or a node created in memory)
    Ref,    ///< another occurrence of a node (the input wrote {"ref": id} here)
    RefId,  ///< an unresolved {"ref": id}; only exists while a document is being read
};

struct Value;
struct Member;
struct Node;

/// A span map {begin_column, begin_line, end_column, end_line, filename} kept compact (Kind::Span):
/// every node has one. Written back as the same map. Read and made through Document::span/makeSpan.
struct Span {
    std::string_view file;
    int32_t beginColumn, beginLine, endColumn, endLine;
    bool operator==(const Span&) const = default;
};

/// Where a Kind::Span value keeps its span (Value::packed).
enum SpanForm : uint8_t {
    kSpanInArena = 0,   ///< Value::sp points at it
    kSpanPacked = 1,    ///< in the Value's own bits (Document::makeSpan)
    kSpanDeferred = 2,  ///< read from the document's SpanSource when asked for; Value::aux is its number
};

/// The spans of a document read from objects that still hold them (python/: a pypto Program), read when
/// first asked for: a span is one of the most numerous fields of a program, and a pass asks for few of
/// them (new nodes copy the span value of the node they stand for; only a location shown reads one).
class SpanSource {
public:
    virtual ~SpanSource() = default;
    /// Span number `id` (Document::deferredSpan), or why the objects could not give it (the caller adds
    /// where: a failed read is an error, never an invented span written or shown). The file name lives
    /// as long as the source. Called on the thread that asks the document (the Python source needs the GIL:
    /// its documents are only used on the thread that holds it, and the host's checks that run on threads
    /// of their own look at no span).
    virtual Expected<Span> span(uint32_t id) const = 0;
};

struct Array {
    uint32_t size = 0;
    uint32_t cap = 0;
    Value* items = nullptr;
    Value* begin() const { return items; }
    Value* end() const;
};

/// A map's members are `cap` values and, in the same allocation after them, `cap` 16-bit key ids (sorted
/// by key name in byte order, unique): 18 bytes a member instead of 24 for {key, value} pairs, for the
/// millions of node fields a large program has.
struct Map {
    class Iterator;
    uint32_t size = 0;
    uint32_t cap = 0;
    Value* values = nullptr;

    uint16_t* keys() const;
    uint32_t keyAt(uint32_t i) const { return keys()[i]; }
    Member at(uint32_t i) const;
    Iterator begin() const;
    Iterator end() const;
    /// The index of `key`, or size if absent.
    uint32_t indexOf(uint32_t key) const;
    Value* find(uint32_t key) const;
};

/// 16 bytes: the payload plus, for strings, the length and, for references, the source offset.
struct Value {
    Kind kind = Kind::Null;
    uint8_t packed = 0;  ///< Span: its SpanForm
    uint16_t file = 0;   ///< a packed Span's file name index
    /// Str: byte length. Node/Ref: the node's index, so that a handle to a child is made without
    /// reading the child (each node read is a cache miss, and a walk asks for many children it only
    /// classifies); while a document is read and validated, a Ref's is instead the reference's byte
    /// offset in the input (for errors), as is a RefId's.
    uint32_t aux = 0;
    union {
        bool b;
        uint64_t u;
        int64_t i;
        double d;
        float f;
        const char* s;
        Array* a;
        Map* m;
        Node* n;
        const Span* sp;  ///< a Span that is not packed
    };

    Value() : u(0) {}
    static Value null() { return {}; }
    static Value boolean(bool v) {
        Value x;
        x.kind = Kind::Bool;
        x.b = v;
        return x;
    }
    static Value uinteger(uint64_t v) {
        Value x;
        x.kind = Kind::UInt;
        x.u = v;
        return x;
    }
    /// Integers are stored as UInt when non-negative, as both formats and pypto's packer do.
    static Value integer(int64_t v) {
        if (v >= 0) return uinteger(static_cast<uint64_t>(v));
        Value x;
        x.kind = Kind::Int;
        x.i = v;
        return x;
    }
    static Value f64(double v) {
        Value x;
        x.kind = Kind::F64;
        x.d = v;
        return x;
    }
    static Value f32(float v) {
        Value x;
        x.kind = Kind::F32;
        x.f = v;
        return x;
    }
    static Value str(std::string_view v) {
        Value x;
        x.kind = Kind::Str;
        x.s = v.data();
        x.aux = static_cast<uint32_t>(v.size());
        return x;
    }
    static Value array(Array* v) {
        Value x;
        x.kind = Kind::Array;
        x.a = v;
        return x;
    }
    static Value map(Map* v) {
        Value x;
        x.kind = Kind::Map;
        x.m = v;
        return x;
    }
    static Value node(Node* v);
    static Value ref(Node* v);

    bool isNode() const { return kind == Kind::Node || kind == Kind::Ref; }
    bool isInteger() const { return kind == Kind::UInt || kind == Kind::Int; }
    std::string_view strView() const { return {s, aux}; }
    Node* asNode() const { return isNode() ? n : nullptr; }
};
static_assert(sizeof(Value) == 16);

/// One member of a Map, as its iterator gives it: the key and the value in place.
struct Member {
    uint32_t key;
    Value& value;
};

class Map::Iterator {
public:
    Iterator(const Map* map, uint32_t i) : map_(map), i_(i) {}
    Member operator*() const { return map_->at(i_); }
    Iterator& operator++() {
        ++i_;
        return *this;
    }
    bool operator!=(const Iterator& other) const { return i_ != other.i_; }

private:
    const Map* map_;
    uint32_t i_;
};

/// 24 bytes: a large program has hundreds of thousands. Where a node was in its input is known only
/// while reading (NodeOrigins, ir/validate.h).
struct Node {
    uint32_t type;   ///< interned node type name (K::Call, ...)
    uint32_t index;  ///< dense index in Document::nodes(), for side tables
    Map fields;

    Value* field(uint32_t key) const { return fields.find(key); }
};

static_assert(sizeof(Node) == 24);

inline Value Value::node(Node* v) {
    Value x;
    x.kind = Kind::Node;
    x.n = v;
    x.aux = v->index;
    return x;
}
inline Value Value::ref(Node* v) {
    Value x = node(v);
    x.kind = Kind::Ref;
    return x;
}

/// True if `item` is an entry {key, value} of an attrs or kwargs list (docs/ir_format.md §5) named `name`.
bool isAttrEntry(const Value& item, std::string_view name);
/// The first entry named `name` of the attrs or kwargs list `list` (null or not a list: none), or nullptr.
Map* findAttrEntry(const Value* list, std::string_view name);

/// The items of `v` where it is an array, else none (also for nullptr).
inline std::span<const Value> itemsOf(const Value* v) {
    if (!v || v->kind != Kind::Array || v->a->size == 0) return {};
    return {v->a->items, v->a->size};
}

/// Calls `f(field)` for each field of type map `type` that holds expressions naming variables, as pypto's
/// var_collectors reads a type: the shape, a memref's slot index, a tensor or tile view's valid shape,
/// stride and start offset, and the same of a tuple's element types. A field is a node or a list of them.
template <class F>
void forEachTypeExprField(const Value* type, F&& f) {
    if (!type || type->kind != Kind::Map) return;
    const Map& t = *type->m;
    if (const Value* shape = t.find(K::shape)) f(shape);
    if (const Value* memref = t.find(K::memref); memref && memref->kind == Kind::Map)
        if (const Value* slot = memref->m->find(K::slot_index)) f(slot);
    for (uint32_t view : {K::tensor_view, K::tile_view}) {
        const Value* v = t.find(view);
        if (!v || v->kind != Kind::Map) continue;
        for (uint32_t key : {K::valid_shape, K::stride, K::start_offset})
            if (const Value* field = v->m->find(key)) f(field);
    }
    for (const Value& element : itemsOf(t.find(K::types))) forEachTypeExprField(&element, f);
}

/// Calls `f(v)` for every node occurrence (Node or Ref) inside `v`, through its arrays and maps but not
/// into the nodes: the edges a value gives its node. Recursive in the value's own nesting only.
template <class V, class F>
void forEachNodeSlot(V& v, F&& f) {
    switch (v.kind) {
        case Kind::Node:
        case Kind::Ref: f(v); return;
        case Kind::Array:
            for (auto& item : *v.a) forEachNodeSlot(item, f);
            return;
        case Kind::Map:
            for (auto m : *v.m) forEachNodeSlot(m.value, f);
            return;
        default: return;
    }
}

inline Value* Array::end() const { return items + size; }
inline uint16_t* Map::keys() const { return reinterpret_cast<uint16_t*>(values + cap); }
inline Member Map::at(uint32_t i) const { return Member{keys()[i], values[i]}; }
inline Map::Iterator Map::begin() const { return {this, 0}; }
inline Map::Iterator Map::end() const { return {this, size}; }
inline uint32_t Map::indexOf(uint32_t key) const {
    const uint16_t* k = keys();
    for (uint32_t i = 0; i < size; ++i)
        if (k[i] == key) return i;
    return size;
}
inline Value* Map::find(uint32_t key) const {
    uint32_t i = indexOf(key);
    return i < size ? &values[i] : nullptr;
}

/// A string as a table key, with its first and last eight bytes loaded once: hashing reads only those
/// words and the length, and comparing needs no byte loop for strings of up to 16 bytes (the words cover
/// them). A large input looks up millions of names and keys; std::hash, std::unordered_map and a memcmp
/// per lookup made that about a third of reading.
struct NameKey {
    std::string_view text;
    uint64_t head = 0;
    uint64_t tail = 0;

    explicit NameKey(std::string_view s) : text(s) {
        if (s.size() < 8) {
            head = word::loadShort(s.data(), s.size());
        } else {
            head = word::load(s.data());
            tail = word::load(s.data() + s.size() - 8);
        }
    }
    bool operator==(const NameKey& o) const {
        return head == o.head && tail == o.tail && text.size() == o.text.size() &&
               (text.size() <= 16 || std::memcmp(text.data() + 8, o.text.data() + 8, text.size() - 16) == 0);
    }
};

/// Whether `a` and `b` hold the same bytes: compared as NameKeys, so that a reader checking millions of
/// short names and keys against the one it guessed loads a few words instead of calling memcmp.
inline bool sameBytes(std::string_view a, std::string_view b) { return NameKey(a) == NameKey(b); }

struct NameKeyHash {
    size_t operator()(const NameKey& k) const noexcept {
        uint64_t h = (k.head ^ (k.tail * 0x9E3779B97F4A7C15ULL) ^ k.text.size()) * 0xFF51AFD7ED558CCDULL;
        return static_cast<size_t>(h ^ (h >> 32));
    }
};

/// Open-addressing tables of names (with the hash stored, so that growing needs no rehash of strings).
template <class V>
using StringMap =
    tsl::robin_map<NameKey, V, NameKeyHash, std::equal_to<NameKey>, std::allocator<std::pair<NameKey, V>>, true>;

/// Interned names of map keys and node types. Ids below K::kCount are the known names. Ids fit in 16 bits
/// (Map stores them so); pypto IR uses a few hundred names.
class KeyTable {
public:
    static constexpr uint32_t kMaxNames = UINT16_MAX;
    static constexpr uint32_t kFull = UINT32_MAX;
    explicit KeyTable(Arena& arena);
    /// The id of `name`, interning it if new; kFull if it is new and kMaxNames names are interned already.
    uint32_t intern(std::string_view name);
    std::string_view name(uint32_t id) const { return names_[id]; }
    uint32_t size() const { return static_cast<uint32_t>(names_.size()); }
    /// Key ids compare in the byte order of their names (the canonical key order). Known names
    /// compare by a precomputed rank: maps are sorted on every read and write, so this is hot.
    bool less(uint32_t a, uint32_t b) const {
        if (a < K::kCount && b < K::kCount) return knownRank_[a] < knownRank_[b];
        return names_[a] < names_[b];
    }

    /// Builds the tables every KeyTable shares (once per process; later calls return at once).
    static void prepareSharedTables() {
        knownIds();
        knownRank();
    }

private:
    static const StringMap<uint32_t>& knownIds();
    static const uint16_t* knownRank();
    const uint16_t* knownRank_ = knownRank();  ///< kept here: a call per comparison showed in every read
    const StringMap<uint32_t>& knownIds_ = knownIds();
    Arena& arena_;
    std::vector<std::string_view> names_;
    StringMap<uint32_t> ids_;  ///< names that are not known names
};

/// Walks over a document with at least this many nodes use a second thread where they can (below it, a
/// thread costs more than it saves).
inline constexpr size_t kParallelWalkNodes = 20000;

class Document {
public:
    Document();
    Document(const Document&) = delete;
    Document& operator=(const Document&) = delete;

    Arena& arena() { return arena_; }
    const Arena& arena() const { return arena_; }
    KeyTable& keys() { return keys_; }
    const KeyTable& keys() const { return keys_; }
    Value& root() { return root_; }
    const Value& root() const { return root_; }
    const std::vector<Node*>& nodes() const { return nodes_; }
    /// Room for `count` nodes in the per-node tables (see Builder::expectInput).
    void reserveNodes(size_t count) {
        nodes_.reserve(count);
        nodeTypes_.reserve(count);
    }
    /// The type of node `index` (as Node::type), kept dense beside nodes(): classifying a node by its
    /// index reads 4 bytes here instead of the node itself.
    uint32_t nodeType(uint32_t index) const { return nodeTypes_[index]; }
    /// A height per node index: 1 for a node without nodes inside, else one more than the tallest node
    /// inside; 0 where not known. A node can only contain nodes lower than itself, which answers most
    /// cycle checks at once (ir/graph.h: Containment). Set by the reader's graph check; empty for documents
    /// built in memory. Whoever adds an edge to a node with a height keeps the rule or calls
    /// forgetHeights().
    std::vector<uint16_t>& heights() { return heights_; }
    void forgetHeights() { heights_ = {}; }

    /// The format the document was read from (Auto for documents built in memory).
    Format inputFormat() const { return inputFormat_; }
    void setInputFormat(Format f) { inputFormat_ = f; }

    // --- construction (used by readers and by the rewriter) --------------------------------------
    Node* newNode(uint32_t type, uint32_t memberCapacity);
    Array* newArray(uint32_t capacity);
    Map* newMap(uint32_t capacity);
    /// Room for `capacity` members, for a Map held by value (a node's fields).
    Map mapStorage(uint32_t capacity);
    Value newString(std::string_view text) { return Value::str(arena_.copy(text)); }
    /// A span value: packed into the Value itself when its file is one of the first 65535 file names and
    /// its columns are below 65535 (always, in practice: no allocation for the span every node has),
    /// else a Span in the arena.
    Value makeSpan(const Span& span);
    /// A span value that stands for span `id` of this document's SpanSource, read when asked for.
    static Value deferredSpan(uint32_t id) {
        Value v;
        v.kind = Kind::Span;
        v.packed = kSpanDeferred;
        v.aux = id;
        return v;
    }
    /// Where this document's deferred spans are read (set before any is made; shared by its owner).
    void setSpanSource(std::shared_ptr<const SpanSource> source) { spanSource_ = std::move(source); }
    const SpanSource* spanSource() const { return spanSource_.get(); }
    /// The span a Kind::Span value holds; an error only for a deferred span its source cannot give.
    Expected<Span> span(const Value& v) const;
    /// Moves everything `part` holds into this document, its nodes numbered after this document's: for a
    /// reader that built part of one input on another thread. False when the two gave a map key, node type
    /// or span file different ids; nothing is moved then (names of `part` may have joined this document's
    /// tables). Neither may have deferred spans.
    bool absorb(Document& part);
    void push(Array& array, Value v);
    void insert(Array& array, uint32_t at, const Value* first, uint32_t count);
    /// Sets `key` (an id below KeyTable::kMaxNames) in `map`, keeping members sorted; replaces an existing
    /// member's value.
    void set(Map& map, uint32_t key, Value v);

private:
    /// The index of `file` in spanFiles_ (added if new), or -1 when the table is full.
    int32_t packedFileIndex(std::string_view file);

    Arena arena_;
    KeyTable keys_;
    Value root_;
    std::vector<Node*> nodes_;
    std::vector<uint32_t> nodeTypes_;
    std::vector<uint16_t> heights_;
    std::vector<std::string_view> spanFiles_;  ///< file names of packed spans, by index
    StringMap<uint16_t> spanFileIds_;
    std::shared_ptr<const SpanSource> spanSource_;
    Format inputFormat_ = Format::Auto;
};

}  // namespace ptoplug::ir
