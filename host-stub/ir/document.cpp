#include "ir/document.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>

namespace ptoplug::ir {

KeyTable::KeyTable(Arena& arena) : arena_(arena) {
    // Reserved whole (1 MiB of address space, touched as names come), so that names never move: the
    // writer may read one while a verifier's run interns another (driver/write_behind.h).
    names_.reserve(kMaxNames);
    names_.assign(std::begin(kKnownNames), std::end(kKnownNames));
}

// The known names' ids, one table for the process (built by prepareSharedTables, read-only after): a
// document starts with nothing to hash or copy, and a process made for one small file builds nothing.
const StringMap<uint32_t>& KeyTable::knownIds() {
    static const auto ids = [] {
        StringMap<uint32_t> table(K::kCount);
        for (uint32_t id = 0; id < K::kCount; ++id) table.emplace(NameKey(kKnownNames[id]), id);
        return table;
    }();
    return ids;
}

const uint16_t* KeyTable::knownRank() {
    static const auto ranks = [] {
        std::array<uint16_t, K::kCount> order{};
        std::array<uint16_t, K::kCount> rank{};
        for (uint16_t i = 0; i < K::kCount; ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [](uint16_t a, uint16_t b) { return kKnownNames[a] < kKnownNames[b]; });
        for (uint16_t r = 0; r < K::kCount; ++r) rank[order[r]] = r;
        return rank;
    }();
    return ranks.data();
}

uint32_t KeyTable::intern(std::string_view name) {
    const NameKey key(name);
    if (auto known = knownIds_.find(key); known != knownIds_.end()) return known->second;
    auto it = ids_.find(key);
    if (it != ids_.end()) return it->second;
    if (names_.size() >= kMaxNames) return kFull;
    std::string_view owned = arena_.copy(name);
    auto id = static_cast<uint32_t>(names_.size());
    names_.push_back(owned);
    ids_.emplace(NameKey(owned), id);
    return id;
}

namespace {
constexpr uint32_t kMaxPackedFiles = UINT16_MAX;
}  // namespace

// Reserved whole, as KeyTable's names are, for the same reason.
Document::Document() : keys_(arena_) { spanFiles_.reserve(kMaxPackedFiles); }

bool isAttrEntry(const Value& item, std::string_view name) {
    if (item.kind != Kind::Map || !item.m->find(K::value)) return false;
    const Value* key = item.m->find(K::key);
    return key && key->kind == Kind::Str && key->strView() == name;
}

Map* findAttrEntry(const Value* list, std::string_view name) {
    if (!list || list->kind != Kind::Array) return nullptr;
    for (const Value& item : *list->a)
        if (isAttrEntry(item, name)) return item.m;
    return nullptr;
}

Node* Document::newNode(uint32_t type, uint32_t memberCapacity) {
    Node* node = arena_.make<Node>();
    node->type = type;
    node->index = static_cast<uint32_t>(nodes_.size());
    node->fields = mapStorage(memberCapacity);
    nodes_.push_back(node);
    nodeTypes_.push_back(type);
    return node;
}

Array* Document::newArray(uint32_t capacity) {
    Array* a = arena_.make<Array>();
    a->cap = capacity;
    a->items = capacity ? arena_.allocArray<Value>(capacity) : nullptr;
    return a;
}

Map Document::mapStorage(uint32_t capacity) {
    Map m;
    m.cap = capacity;
    if (capacity)
        m.values =
            static_cast<Value*>(arena_.allocBytes((sizeof(Value) + sizeof(uint16_t)) * capacity, alignof(Value)));
    return m;
}

Map* Document::newMap(uint32_t capacity) {
    // Members first, so that the header is the arena's last allocation (see Builder: a node's fields map
    // moves into the node, and its header is given back).
    Map storage = mapStorage(capacity);
    return arena_.make<Map>(storage);
}

namespace {
constexpr int32_t kMaxPackedColumn = UINT16_MAX - 1;
// Coordinates are stored plus one, so that pypto's "unknown" (-1) packs as 0.
uint64_t biased(int32_t x) { return static_cast<uint64_t>(static_cast<int64_t>(x) + 1); }
int32_t unbiased(uint64_t x) { return static_cast<int32_t>(static_cast<int64_t>(x) - 1); }
}  // namespace

Value Document::makeSpan(const Span& span) {
    Value v;
    v.kind = Kind::Span;
    bool packable = span.beginLine >= -1 && span.endLine >= -1 && span.beginColumn >= -1 && span.endColumn >= -1 &&
                    span.beginColumn <= kMaxPackedColumn && span.endColumn <= kMaxPackedColumn;
    if (int32_t file = packable ? packedFileIndex(span.file) : -1; file >= 0) {
        v.packed = kSpanPacked;
        v.file = static_cast<uint16_t>(file);
        v.aux = static_cast<uint32_t>(biased(span.beginLine));
        v.u = biased(span.beginColumn) | biased(span.endColumn) << 16 | biased(span.endLine) << 32;
        return v;
    }
    Span* owned = arena_.make<Span>(span);
    owned->file = arena_.copy(span.file);
    v.sp = owned;
    return v;
}

int32_t Document::packedFileIndex(std::string_view file) {
    auto it = spanFileIds_.find(NameKey(file));
    if (it != spanFileIds_.end()) return it->second;
    if (spanFiles_.size() >= kMaxPackedFiles) return -1;
    std::string_view owned = arena_.copy(file);
    spanFiles_.push_back(owned);
    spanFileIds_.emplace(NameKey(owned), static_cast<uint16_t>(spanFiles_.size() - 1));
    return static_cast<int32_t>(spanFiles_.size() - 1);
}

bool Document::absorb(Document& part) {
    for (uint32_t id = K::kCount; id < part.keys_.size(); ++id)
        if (keys_.intern(part.keys_.name(id)) != id) return false;
    for (size_t f = 0; f < part.spanFiles_.size(); ++f)
        if (packedFileIndex(part.spanFiles_[f]) != static_cast<int32_t>(f)) return false;
    arena_.adopt(part.arena_);
    const auto shift = static_cast<uint32_t>(nodes_.size());
    nodes_.reserve(nodes_.size() + part.nodes_.size());
    nodeTypes_.reserve(nodeTypes_.size() + part.nodeTypes_.size());
    for (Node* n : part.nodes_) {
        n->index += shift;
        nodes_.push_back(n);
    }
    nodeTypes_.insert(nodeTypes_.end(), part.nodeTypes_.begin(), part.nodeTypes_.end());
    part.nodes_ = {};
    part.nodeTypes_ = {};
    return true;
}

Expected<Span> Document::span(const Value& v) const {
    if (v.packed == kSpanDeferred) {
        if (spanSource_) return spanSource_->span(v.aux);
        Error e;
        e.message = "a span to be read from where the program came from, in a document that came from nowhere";
        e.hint = "a bug in the host: a deferred span was copied out of the document that has its source";
        return e;
    }
    if (v.packed == kSpanInArena) return *v.sp;
    return Span{spanFiles_[v.file], unbiased(v.u & 0xFFFF), unbiased(v.aux), unbiased(v.u >> 16 & 0xFFFF),
                unbiased(v.u >> 32)};
}

namespace {
// Elements never move inside a buffer (of an array or a map): a growth or an insertion before the end
// makes a new buffer, so "the items pointer changed" is exactly "the slots moved" (value handles rely on
// it, abi_host/value_slot.h). The new buffer's capacity: at least double when `needed` slots do not fit, else
// the same. An insertion before the end needs a new buffer, not a bigger one: doubling there made a
// node whose fields were set out of key order grow to thousands of slots.
uint32_t newBufferCapacity(uint32_t cap, uint32_t needed) {
    return needed <= cap ? cap : std::max<uint32_t>(needed, cap ? cap * 2 : 4);
}
}  // namespace

void Document::push(Array& array, Value v) { insert(array, array.size, &v, 1); }

void Document::insert(Array& array, uint32_t at, const Value* first, uint32_t count) {
    const uint32_t needed = array.size + count;
    if (needed > array.cap || at < array.size) {
        const uint32_t cap = newBufferCapacity(array.cap, needed);
        Value* buffer = arena_.allocArray<Value>(cap);
        if (array.size) std::memcpy(static_cast<void*>(buffer), array.items, sizeof(Value) * array.size);
        array.items = buffer;
        array.cap = cap;
    }
    std::memmove(static_cast<void*>(array.items + at + count), array.items + at, sizeof(Value) * (array.size - at));
    std::memcpy(static_cast<void*>(array.items + at), first, sizeof(Value) * count);
    array.size += count;
}

void Document::set(Map& map, uint32_t key, Value v) {
    // Nodes are mostly built in key order: then the new key goes last and need not be searched for.
    if (map.size < map.cap && (map.size == 0 || keys_.less(map.keyAt(map.size - 1), key))) {
        map.values[map.size] = v;
        map.keys()[map.size++] = static_cast<uint16_t>(key);
        return;
    }
    if (Value* existing = map.find(key)) {
        *existing = v;
        return;
    }
    uint32_t at = 0;
    while (at < map.size && keys_.less(map.keyAt(at), key)) ++at;
    Map next = mapStorage(newBufferCapacity(map.cap, map.size + 1));
    if (map.size) {  // an empty map may have no storage, which memcpy must not see
        std::memcpy(static_cast<void*>(next.values), map.values, sizeof(Value) * at);
        std::memcpy(static_cast<void*>(next.values + at + 1), map.values + at, sizeof(Value) * (map.size - at));
        std::memcpy(next.keys(), map.keys(), sizeof(uint16_t) * at);
        std::memcpy(next.keys() + at + 1, map.keys() + at, sizeof(uint16_t) * (map.size - at));
    }
    next.values[at] = v;
    next.keys()[at] = static_cast<uint16_t>(key);
    next.size = map.size + 1;
    map = next;
}

}  // namespace ptoplug::ir
