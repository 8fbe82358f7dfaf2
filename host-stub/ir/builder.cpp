#include "ir/builder.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ir/graph.h"
#include "ir/pointer.h"
#include "ir/validate.h"

namespace ptoplug::ir {
namespace {

// The key table is full (a map key or a node type name past KeyTable::kMaxNames).
std::string tooManyNames() {
    return "more than " + std::to_string(KeyTable::kMaxNames) + " distinct map keys and node types";
}
constexpr const char* kTooManyNamesHint = "pypto IR uses a few hundred; the file is corrupt or not pypto IR";

}  // namespace

Builder::Builder(Document& doc) : doc_(doc) {
    frames_.reserve(64);
    scratch_.reserve(1024);
    scratchKeys_.reserve(1024);
}

std::string Builder::currentPointer() const {
    std::string out;
    for (size_t f = 0; f < frames_.size(); ++f) {
        const Frame& fr = frames_[f];
        uint32_t end = f + 1 < frames_.size() ? frames_[f + 1].base : static_cast<uint32_t>(scratch_.size());
        if (fr.isMap) {
            if (fr.pendingKey == UINT32_MAX) break;
            out += '/';
            appendPointerToken(out, doc_.keys().name(fr.pendingKey));
        } else {
            out += '/' + std::to_string(end - fr.base);
        }
    }
    return out;
}

void Builder::fail(std::string message, std::string hint, int64_t offset) {
    if (failed_) return;
    failed_ = true;
    error_.message = std::move(message);
    error_.hint = std::move(hint);
    error_.offset = offset;
    error_.pointer = currentPointer();
}

bool Builder::add(Value v) {
    if (failed_) return false;
    if (frames_.empty()) {
        if (haveResult_) {
            fail("more than one top-level value", "a document holds exactly one value: the root node");
            return false;
        }
        result_ = v;
        haveResult_ = true;
        return true;
    }
    Frame& fr = frames_.back();
    if (fr.isMap) {
        if (fr.pendingKey == UINT32_MAX) {
            fail("map key expected", "every map key must be a string");
            return false;
        }
        scratchKeys_.push_back(fr.pendingKey);
        fr.pendingKey = UINT32_MAX;
    } else {
        scratchKeys_.push_back(0);
    }
    scratch_.push_back(v);
    return true;
}

bool Builder::null() { return add(Value::null()); }
bool Builder::boolean(bool v) { return add(Value::boolean(v)); }
bool Builder::uinteger(uint64_t v) { return add(Value::uinteger(v)); }
bool Builder::integer(int64_t v) { return add(Value::integer(v)); }
bool Builder::f64(double v) { return add(Value::f64(v)); }
bool Builder::f32(float v) { return add(Value::f32(v)); }

bool Builder::string(std::string_view text) {
    if (text.size() > kMaxPooledString) return add(doc_.newString(text));
    const uint32_t under = frames_.empty() ? 0 : frames_.back().pendingKey;
    std::string_view& guess = valueGuesses_[under % kGuesses];
    const NameKey key(text);
    if (NameKey(guess) == key) return add(Value::str(guess));
    std::string_view& pooled = strings_[NameKeyHash{}(key) & (strings_.size() - 1)];
    if (!(NameKey(pooled) == key)) pooled = doc_.arena().copy(text);
    guess = pooled;
    return add(Value::str(guess));
}

bool Builder::startArray(uint32_t /*sizeHint*/, uint64_t offset) {
    if (failed_) return false;
    if (frames_.size() >= kMaxInputDepth) {
        fail("nesting deeper than " + std::to_string(kMaxInputDepth) + " levels",
             "pypto IR is never this deep; the file is corrupt or not pypto IR", static_cast<int64_t>(offset));
        return false;
    }
    // The first key of a map is guessed by the key the map is under (offset, to keep it apart).
    const uint32_t parentKey = frames_.empty() ? 0 : frames_.back().pendingKey;
    frames_.push_back(Frame{false, static_cast<uint32_t>(scratch_.size()), offset, UINT32_MAX,
                            (parentKey + kGuesses / 2) % kGuesses});
    return true;
}

bool Builder::startMap(uint32_t sizeHint, uint64_t offset) {
    bool ok = startArray(sizeHint, offset);
    if (ok) frames_.back().isMap = true;
    return ok;
}

bool Builder::key(std::string_view name) {
    if (failed_) return false;
    Frame& fr = frames_.back();
    uint16_t& guess = keyGuesses_[fr.guessSlot];
    uint32_t id = guess;
    if (guess == UINT16_MAX || !sameBytes(doc_.keys().name(guess), name)) {
        id = doc_.keys().intern(name);
        if (id == KeyTable::kFull) {
            fail(tooManyNames(), kTooManyNamesHint);
            return false;
        }
        guess = static_cast<uint16_t>(id);
    }
    fr.pendingKey = id;
    fr.guessSlot = id % kGuesses;
    return true;
}

bool Builder::endArray() {
    if (failed_) return false;
    Frame fr = frames_.back();
    frames_.pop_back();
    auto count = static_cast<uint32_t>(scratch_.size() - fr.base);
    Array* a = doc_.newArray(count);
    std::copy(scratch_.begin() + fr.base, scratch_.end(), a->items);
    a->size = count;
    noteRefs(a->items, count);
    scratch_.resize(fr.base);
    scratchKeys_.resize(fr.base);
    return add(Value::array(a));
}

Map* Builder::newMapOf(const std::vector<KeyedValue>& members) {
    auto count = static_cast<uint32_t>(members.size());
    Map* m = doc_.newMap(count);
    uint16_t* keys = m->keys();
    for (uint32_t i = 0; i < count; ++i) {
        m->values[i] = members[i].value;
        keys[i] = static_cast<uint16_t>(members[i].key);
    }
    m->size = count;
    noteRefs(m->values, count);
    return m;
}

uint32_t Builder::internType(std::string_view name) {
    auto& [known, id] = typeIds_[(reinterpret_cast<uintptr_t>(name.data()) >> 3) % kTypeIds];
    if (known.data() == name.data() && known.size() == name.size()) return id;
    const uint32_t interned = doc_.keys().intern(name);
    if (interned != KeyTable::kFull) {
        known = name;
        id = interned;
    }
    return interned;
}

void Builder::noteRefs(Value* values, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i)
        if (values[i].kind == Kind::RefId) refSlots_.push_back(&values[i]);
}

// For an error message only: a search of both tables.
uint64_t Builder::idOf(const Node& node) const {
    for (uint64_t id = 0; id < byDenseId_.size(); ++id)
        if (byDenseId_[id] == &node) return id;
    for (const auto& [id, n] : bySparseId_)
        if (n == &node) return id;
    return 0;
}

Node* Builder::lookupId(uint64_t id) const {
    if (id < byDenseId_.size() && byDenseId_[id]) return byDenseId_[id];
    auto it = bySparseId_.find(id);
    return it == bySparseId_.end() ? nullptr : it->second;
}

// Ids are normally dense (0, 1, 2, ...): a vector; a far outlier goes to a hash map instead.
void Builder::registerId(uint64_t id, Node* node) {
    if (idsDeferred_) {
        partIds_.push_back(id);
        return;
    }
    uint64_t dense = byDenseId_.size();
    if (id < dense || id < 2 * doc_.nodes().size() + 1024) {
        if (id >= dense) byDenseId_.resize(id + 1, nullptr);  // grows geometrically, filling only what is used
        byDenseId_[id] = node;
    } else {
        bySparseId_.emplace(id, node);
    }
}

bool Builder::endMap() {
    if (failed_) return false;
    Frame fr = frames_.back();
    auto count = static_cast<uint32_t>(scratch_.size() - fr.base);

    // Members in canonical (byte) order; pypto writes them sorted, so sorting is normally a no-op.
    std::vector<KeyedValue>& members = members_;
    members.resize(count);
    for (uint32_t i = 0; i < count; ++i) members[i] = KeyedValue{scratchKeys_[fr.base + i], scratch_[fr.base + i]};
    const KeyTable& keys = doc_.keys();
    auto byName = [&](const KeyedValue& a, const KeyedValue& b) { return keys.less(a.key, b.key); };
    if (!std::is_sorted(members.begin(), members.end(), byName))
        std::stable_sort(members.begin(), members.end(), byName);
    for (uint32_t i = 1; i < count; ++i) {
        if (members[i].key == members[i - 1].key) {
            frames_.back().pendingKey = members[i].key;
            fail("duplicate key '" + std::string(keys.name(members[i].key)) + "'", "each map key may occur once");
            return false;
        }
    }
    frames_.pop_back();
    scratch_.resize(fr.base);
    scratchKeys_.resize(fr.base);

    auto find = [&](uint32_t key) -> const Value* {
        for (const KeyedValue& m : members)
            if (m.key == key) return &m.value;
        return nullptr;
    };
    auto failHere = [&](uint32_t key, std::string message, std::string hint) {
        frames_.push_back(Frame{true, static_cast<uint32_t>(scratch_.size()), fr.offset, key, 0});
        fail(std::move(message), std::move(hint), fr.offset == kUnknownOffset ? -1 : static_cast<int64_t>(fr.offset));
        return false;
    };
    uint32_t offset32 = fr.offset > UINT32_MAX ? kUnknownOffset : static_cast<uint32_t>(fr.offset);

    // {"ref": id}: another occurrence of a node (other keys are ignored, as pypto does).
    if (const Value* ref = find(K::ref)) {
        if (ref->kind != Kind::UInt)
            return failHere(K::ref, "a reference id must be an unsigned integer",
                            "write references as {\"ref\": <id of a node>}");
        Value v;
        v.kind = Kind::RefId;
        v.u = ref->u;
        v.aux = offset32;
        return add(v);
    }

    // {"fields": {...}, "id": N, "type": "Name"}: a node.
    if (const Value* fields = find(K::fields)) {
        const Value* id = find(K::id);
        const Value* type = find(K::type);
        if (!id) return failHere(K::id, "node without an 'id'", "a node map has exactly the keys fields, id and type");
        if (!type)
            return failHere(K::type, "node without a 'type'", "a node map has exactly the keys fields, id and type");
        if (count != 3)
            return failHere(K::fields, "node map with keys other than fields, id and type",
                            "a node map has exactly the keys fields, id and type");
        if (id->kind != Kind::UInt)
            return failHere(K::id, "a node id must be an unsigned integer", "ids are integers from 0 up");
        if (type->kind != Kind::Str)
            return failHere(K::type, "a node type must be a string", "for example \"Call\" or \"AssignStmt\"");
        if (fields->kind != Kind::Map)
            return failHere(K::fields, "a node's fields must be a map", "write the node's fields as a map");
        if (lookupId(id->u))
            return failHere(K::id, "duplicate node id " + std::to_string(id->u),
                            "another node already has this id; every node id must be unique");
        uint32_t typeId = internType(type->strView());
        if (typeId == KeyTable::kFull) return failHere(K::type, tooManyNames(), kTooManyNamesHint);
        Map fieldMembers = *fields->m;
        doc_.arena().giveBackLast(fields->m, sizeof(Map));  // the header is not needed: it moves into the node
        Node* registered = doc_.newNode(typeId, 0);
        if (offset32 != kUnknownOffset) {  // MessagePack gives none: nothing kept per node then
            offsets_.resize(registered->index, kUnknownOffset);
            offsets_.push_back(offset32);
        }
        registered->fields = fieldMembers;
        registerId(id->u, registered);
        return add(Value::node(registered));
    }

    // {"type": "Float64"|"Float32", "value": ...}: a tagged float (docs/ir_format.md §11.8-11.9).
    if (count == 2 && members[0].key == K::type && members[1].key == K::value && members[0].value.kind == Kind::Str) {
        std::string_view tag = members[0].value.strView();
        if (tag == "Float64" || tag == "Float32") {
            const Value& v = members[1].value;
            double d = 0;
            if (v.kind == Kind::Str) {
                std::string_view s = v.strView();
                if (s == "NaN")
                    d = std::numeric_limits<double>::quiet_NaN();
                else if (s == "Infinity")
                    d = std::numeric_limits<double>::infinity();
                else if (s == "-Infinity")
                    d = -std::numeric_limits<double>::infinity();
                else
                    return failHere(K::value, "unknown " + std::string(tag) + " spelling '" + std::string(s) + "'",
                                    "use \"NaN\", \"Infinity\" or \"-Infinity\"");
            } else if (v.kind == Kind::F64) {
                d = v.d;
            } else if (v.kind == Kind::UInt) {
                d = static_cast<double>(v.u);
            } else if (v.kind == Kind::Int) {
                d = static_cast<double>(v.i);
            } else {
                return failHere(K::value, "a tagged " + std::string(tag) + " needs a number or a NaN/Infinity string",
                                "write {\"type\": \"" + std::string(tag) + "\", \"value\": <number>}");
            }
            return add(tag == "Float64" ? Value::f64(d) : Value::f32(static_cast<float>(d)));
        }
    }

    // A span map of the usual shape becomes a compact Span (written back identically).
    if (count == 5 && members[0].key == K::begin_column && members[1].key == K::begin_line &&
        members[2].key == K::end_column && members[3].key == K::end_line && members[4].key == K::filename &&
        members[4].value.kind == Kind::Str) {
        int32_t coords[4];
        bool fits = true;
        for (int i = 0; i < 4 && fits; ++i) {
            const Value& c = members[static_cast<size_t>(i)].value;
            fits = (c.kind == Kind::UInt && c.u <= INT32_MAX) || (c.kind == Kind::Int && c.i >= INT32_MIN);
            coords[i] = fits ? static_cast<int32_t>(c.kind == Kind::UInt ? static_cast<int64_t>(c.u) : c.i) : 0;
        }
        if (fits) {
            return add(doc_.makeSpan(Span{members[4].value.strView(), coords[0], coords[1], coords[2], coords[3]}));
        }
    }

    // Type maps of scalars only and op maps repeat: pto-gen's 10,000-function program has 190,000 type maps
    // in 5 shapes, and 60,000 op maps naming 10,000 functions. One map per content is shared: type and op
    // maps are never edited in place once read (a rewrite replaces a field's value; function_rename and
    // call_set_op make new op maps), so sharing is invisible. A node's fields map is never shared: the
    // node takes over its members (and edits them in place).
    bool nodeFields = !frames_.empty() && frames_.back().isMap && frames_.back().pendingKey == K::fields;
    if (count == 2 && !nodeFields && members[0].key == K::is_global_var && members[1].key == K::name &&
        members[0].value.kind == Kind::Bool && members[1].value.kind == Kind::Str) {
        auto& ops = sharedOps_[members[0].value.b ? 1 : 0];
        auto known = ops.find(NameKey(members[1].value.strView()));
        const Map* shared = known != ops.end() ? *known : *ops.insert(newMapOf(members)).first;
        return add(Value::map(const_cast<Map*>(shared)));
    }
    if (count <= kMaxSharedTypeMembers && !nodeFields && find(K::type_kind)) {
        auto scalar = [](const KeyedValue& mb) {
            Kind k = mb.value.kind;
            return k == Kind::Str || k == Kind::UInt || k == Kind::Int || k == Kind::Bool;
        };
        if (std::all_of(members.begin(), members.end(), scalar)) {
            auto same = [&](const Map* shared) {
                if (shared->size != count) return false;
                for (uint32_t i = 0; i < count; ++i) {
                    const Member a = shared->at(i);
                    const KeyedValue& b = members[i];
                    if (a.key != b.key || a.value.kind != b.value.kind) return false;
                    if (a.value.kind == Kind::Str ? a.value.strView() != b.value.strView() : a.value.u != b.value.u)
                        return false;
                }
                return true;
            };
            for (const Map* shared : sharedTypes_)
                if (same(shared)) return add(Value::map(const_cast<Map*>(shared)));
            if (sharedTypes_.size() < kMaxSharedTypes) {
                Map* m = newMapOf(members);
                sharedTypes_.push_back(m);
                return add(Value::map(m));
            }
        }
    }

    return add(Value::map(newMapOf(members)));
}

void Builder::setAside() {
    if (frames_.empty()) return;
    const Frame& fr = frames_.back();
    std::vector<KeyedValue>& items = aside_.emplace_back();
    for (size_t i = fr.base; i < scratch_.size(); ++i) items.push_back(KeyedValue{scratchKeys_[i], scratch_[i]});
    scratch_.resize(fr.base);
    scratchKeys_.resize(fr.base);
    frames_.pop_back();
}

void Builder::readAsPart() { idsDeferred_ = true; }

void Builder::expectInput(size_t bytes) {
    // pypto programs take about 200 (MessagePack) to 260 (JSON) bytes of input per node.
    constexpr size_t kInputBytesPerNode = 128;
    const size_t nodes = bytes / kInputBytesPerNode;
    doc_.reserveNodes(nodes);
    doc_.arena().expect(bytes);  // a document takes about as much as its input (more from MessagePack)
    // A slot for about every 64 bytes of input: as many as distinct short strings can be in it.
    size_t pooled = kMinPooledStrings;
    while (pooled < kMaxPooledStrings && pooled * 64 < bytes) pooled *= 2;
    if (pooled > strings_.size()) strings_.assign(pooled, std::string_view());
    if (idsDeferred_)
        partIds_.reserve(nodes);
    else
        byDenseId_.reserve(nodes);
}

size_t Builder::itemsSoFar(size_t depth) const {
    size_t end = depth + 1 < frames_.size() ? frames_[depth + 1].base : scratch_.size();
    return end - frames_[depth].base;
}

void Builder::doneReading() {
    for (auto& ops : sharedOps_) ops = {};
    sharedTypes_ = {};
}

bool Builder::appendPart(Builder& part) {
    if (failed_ || part.failed_ || !part.frames_.empty() || part.aside_.size() != frames_.size()) return false;
    // No string is read from here on; what only reading needed goes before the id table grows.
    part.doneReading();
    doneReading();
    const size_t shift = doc_.nodes().size();
    if (!part.idsDeferred_ || part.partIds_.size() != part.doc_.nodes().size() || !doc_.absorb(part.doc_)) return false;
    for (size_t i = 0; i < part.partIds_.size(); ++i) {
        if (lookupId(part.partIds_[i])) return false;  // a duplicate id: the one-part read reports it
        registerId(part.partIds_[i], doc_.nodes()[shift + i]);
    }
    part.partIds_ = {};
    refSlots_.insert(refSlots_.end(), part.refSlots_.begin(), part.refSlots_.end());
    part.refSlots_ = {};
    if (!part.offsets_.empty()) {
        offsets_.resize(shift, kUnknownOffset);
        offsets_.insert(offsets_.end(), part.offsets_.begin(), part.offsets_.end());
    }
    for (const std::vector<KeyedValue>& items : part.aside_) {
        for (const KeyedValue& item : items) {
            if (frames_.back().isMap) frames_.back().pendingKey = item.key;
            if (!add(item.value)) return false;
        }
        if (!(frames_.back().isMap ? endMap() : endArray())) return false;
    }
    part.aside_.clear();
    return true;
}

bool Builder::finish() {
    if (failed_) return false;
    if (!haveResult_ || !frames_.empty()) {
        fail("unexpected end of input", "the file is truncated");
        return false;
    }
    if (result_.kind != Kind::Node) {
        fail("the root value is not an IR node", "a pypto IR file holds one node map, normally a Program");
        return false;
    }
    doc_.root() = result_;
    NodeOrigins origins{[this](uint64_t id) { return lookupId(id); }, [this](const Node& n) { return idOf(n); },
                        std::move(offsets_), std::move(refSlots_)};
    if (auto err = resolveAndValidate(doc_, origins)) {
        failed_ = true;
        error_ = std::move(*err);
        return false;
    }
    byDenseId_ = {};
    bySparseId_ = {};
    return true;
}

}  // namespace ptoplug::ir
