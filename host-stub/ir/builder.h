// Turns a stream of parse events (from the JSON or the MessagePack reader) into a Document.
//
// Both readers feed the same events, so every rule of docs/ir_format.md §2 and §11 (node shape, references
// resolved order-independently, tagged floats, duplicate ids, cycles, field kinds) lives here once.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <tsl/robin_set.h>

#include "base/error.h"
#include "ir/document.h"
#include "ir/origins.h"

namespace ptoplug::ir {

class Builder {
public:
    explicit Builder(Document& doc);

    // Events. Each returns false once an error is recorded; the reader then stops.
    bool null();
    bool boolean(bool v);
    bool uinteger(uint64_t v);
    bool integer(int64_t v);
    bool f64(double v);
    bool f32(float v);
    /// Copied into the document, once per short string that repeats (names repeat): the document
    /// never points into the input, so a reader may release input it has consumed.
    bool string(std::string_view text);
    bool startArray(uint32_t sizeHint, uint64_t offset);
    bool endArray();
    bool startMap(uint32_t sizeHint, uint64_t offset);
    bool key(std::string_view name);
    bool endMap();

    /// Records a reader-level error (syntax, truncation) at the current position.
    void fail(std::string message, std::string hint, int64_t offset = -1);
    bool failed() const { return failed_; }
    /// The recorded error; its `pointer` is where the builder was when it happened.
    const Error& error() const { return error_; }

    /// After the last event: resolves references, validates nodes, rejects cycles. On success the
    /// document's root is set.
    bool finish();

    /// Before the first event, for an input of `bytes`: sizes the per-node tables for the nodes such an
    /// input holds. Grown by doubling, each table was copied into fresh pages several times, and fresh
    /// pages are time here; the estimate errs on the high side, which costs address space only (pages
    /// are touched as nodes arrive).
    void expectInput(size_t bytes);

    // --- Reading in two parts on two threads (ir/two_part_read.h) ---------------------------------
    // The first builder stops with some containers open. The second (over another document) opens the
    // same containers, reads the rest of each, innermost first, and sets each aside. The first then
    // takes the second's document, gives each open container the members set aside and closes it.

    /// Makes this builder a second part: node ids are kept, not checked (appendPart checks them).
    void readAsPart();
    /// Second part: the innermost open container's members leave the stack, kept for appendPart.
    void setAside();
    /// First part: joins `part` as above. False when the parts disagree (a node id in both, names
    /// numbered differently, other containers) or either has failed: this builder is unusable then, and
    /// the caller reads the input again in one part, which reports any problem as usual.
    bool appendPart(Builder& part);
    /// Containers open, and how many items (or members) the one at `depth` holds so far.
    size_t openDepth() const { return frames_.size(); }
    size_t itemsSoFar(size_t depth) const;
    /// Frees the tables of shared maps (peak memory is time): maps closed later are not shared.
    void doneReading();

private:
    struct KeyedValue {
        uint32_t key;
        Value value;
    };
    struct Frame {
        bool isMap;
        uint32_t base;    // first index of this container's items in scratch_
        uint64_t offset;  // input offset of the container, or kUnknownOffset
        uint32_t pendingKey;
        uint32_t guessSlot;  // where the guess for the next key is kept (see keyGuesses_)
    };

    bool add(Value v);
    /// The key id of a node type name. The names come from the string pool, so one name is nearly always
    /// one pointer: a small cache by pointer saves hashing the name of every node.
    uint32_t internType(std::string_view name);
    /// Notes where the unresolved references among `values` (just stored in the document) are.
    void noteRefs(Value* values, uint32_t count);
    Map* newMapOf(const std::vector<KeyedValue>& members);
    Node* lookupId(uint64_t id) const;
    void registerId(uint64_t id, Node* node);
    uint64_t idOf(const Node& node) const;
    std::string currentPointer() const;

    Document& doc_;
    std::vector<Frame> frames_;
    std::vector<Value> scratch_;
    std::vector<uint32_t> scratchKeys_;           // parallel to scratch_ for map members
    std::vector<KeyedValue> members_;             // the map being closed by endMap, in key order
    std::vector<std::vector<KeyedValue>> aside_;  // see setAside
    LargeVector<Node*> byDenseId_;
    std::unordered_map<uint64_t, Node*> bySparseId_;
    bool idsDeferred_ = false;
    LargeVector<uint64_t> partIds_;  ///< with readAsPart: the id of each node, by index
    LargeVector<uint32_t> offsets_;  ///< input offset per node index (NodeOrigins), up to the last known
    LargeVector<Value*> refSlots_;   ///< every stored {"ref": id} (NodeOrigins)
    static constexpr uint32_t kMaxSharedTypeMembers = 4;
    static constexpr size_t kMaxSharedTypes = 64;  ///< distinct scalar type maps shared (a linear search)
    std::vector<const Map*> sharedTypes_;
    /// An op map {is_global_var, name} hashed and compared by its name, found by a NameKey of one.
    static NameKey opName(const Map* op) { return NameKey(op->values[1].strView()); }  // keys are sorted
    struct OpHash {
        using is_transparent = void;
        size_t operator()(const NameKey& k) const { return NameKeyHash{}(k); }
        size_t operator()(const Map* op) const { return NameKeyHash{}(opName(op)); }
    };
    struct OpEq {
        using is_transparent = void;
        bool operator()(const Map* a, const Map* b) const { return a == b; }
        bool operator()(const NameKey& k, const Map* op) const { return k == opName(op); }
        bool operator()(const Map* op, const NameKey& k) const { return k == opName(op); }
    };
    /// The op maps read so far, by is_global_var, then name. A set of the maps themselves (16 bytes a
    /// bucket with its hash) rather than a map from a NameKey (48): the tables hold an entry per function
    /// called, grow by doubling, and their fresh pages were a sixth of a large read's page faults.
    tsl::robin_set<const Map*, OpHash, OpEq, std::allocator<const Map*>, true> sharedOps_[2];
    // Guesses, checked before any table is consulted: maps come in few shapes, so the key after a given
    // key (or first under a given parent key) is nearly always the same, and so is the string value
    // under many keys (type_kind, a node's type name). Direct-mapped by key id; a wrong guess costs one
    // comparison. Hashing and probing every key and name was a quarter of reading. pypto IR has about 200
    // distinct keys; every table here is filled in whole when a builder is made, and a process that reads
    // one small file pays a page fault for each of its pages (driver/worker.h), so they stay small.
    static constexpr uint32_t kGuesses = 512;
    std::vector<uint16_t> keyGuesses_ = std::vector<uint16_t>(kGuesses, UINT16_MAX);
    std::vector<std::string_view> valueGuesses_ = std::vector<std::string_view>(kGuesses);
    // Short strings seen recently, direct-mapped by hash: a repeated name is copied once, a unique one
    // (most variable names) costs no growing table. An exact set of every string was a tenth of reading.
    // Sized by expectInput (a power of two): a small input needs few slots, and fills fewer fresh pages.
    static constexpr size_t kMaxPooledString = 64;
    static constexpr size_t kMinPooledStrings = 256, kMaxPooledStrings = 8192;
    std::vector<std::string_view> strings_ = std::vector<std::string_view>(kMinPooledStrings);
    static constexpr size_t kTypeIds = 64;
    std::array<std::pair<std::string_view, uint32_t>, kTypeIds> typeIds_{};
    Value result_;
    bool haveResult_ = false;
    bool failed_ = false;
    Error error_;
};

}  // namespace ptoplug::ir
