// Where each node goes when a document is written (docs/ir_format.md §11.4-11.5):
// * ids are fresh, assigned in pre-order following pypto's *emit* order, so ids equal pypto's own;
// * a node is written in full at its first occurrence in pypto's *read* order (so pypto's reader can
//   always resolve every later reference), and as {"ref": id} everywhere else; a node that occurs only
//   under fields pypto never reads goes in full at its first occurrence in emit order.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/document.h"

namespace ptoplug::ir {

/// Each node's output id and the occurrence written in full, by Node::index. One walk fills it (the
/// Placer of placement.cpp) while the writer may already follow on another thread (the structural check
/// after the last pass lays the program out as the output is encoded): an entry is final once set, and
/// finish() publishes how the walk ended. Entries are read and written atomically (relaxed: they are
/// final values, and nothing else is published through them).
class Layout {
public:
    static constexpr uint32_t kNoId = UINT32_MAX;

    /// Every entry unset, for a document of `nodeCount` nodes.
    explicit Layout(size_t nodeCount) : ids_(nodeCount, kNoId), fullAt_(nodeCount, nullptr) {}
    /// Only while no walk fills it.
    Layout(Layout&& other) noexcept
        : ids_(std::move(other.ids_)), fullAt_(std::move(other.fullAt_)), state_(other.state_.load()) {}
    Layout(const Layout&) = delete;
    Layout& operator=(const Layout&) = delete;
    Layout& operator=(Layout&&) = delete;

    // --- the walk's side (one thread) ---
    uint32_t id(uint32_t index) const { return std::atomic_ref(ids_[index]).load(std::memory_order_relaxed); }
    const Value* fullAt(uint32_t index) const {
        return std::atomic_ref(fullAt_[index]).load(std::memory_order_relaxed);
    }
    void setId(uint32_t index, uint32_t id) { std::atomic_ref(ids_[index]).store(id, std::memory_order_relaxed); }
    void setFullAt(uint32_t index, const Value* occurrence) {
        std::atomic_ref(fullAt_[index]).store(occurrence, std::memory_order_relaxed);
    }
    /// The walk has ended, with every reachable node numbered and placed (`whole`) or failed. Only the
    /// first call counts: a caller that gives up on a walk may finish it as failed.
    void finish(bool whole) {
        uint8_t making = kMaking;
        state_.compare_exchange_strong(making, whole ? kWhole : kFailed, std::memory_order_release);
    }

    /// Whether the walk has ended, without waiting.
    bool finished() const { return state_.load(std::memory_order_acquire) != kMaking; }

    // --- readers (any thread) ---
    /// Node `index`'s id and full occurrence, waiting while the walk has not set both; false if the walk
    /// ended without them (it failed).
    bool await(uint32_t index, uint32_t& id, const Value*& full) const {
        id = this->id(index);
        full = fullAt(index);
        return (id != kNoId && full) || awaitSlow(index, id, full);
    }
    /// Waits for the walk's end: true if the layout is whole.
    bool whole() const;
    /// Same entries (finished layouts only; tests compare the walks).
    bool operator==(const Layout& other) const { return ids_ == other.ids_ && fullAt_ == other.fullAt_; }

private:
    static constexpr uint8_t kMaking = 0, kWhole = 1, kFailed = 2;
    bool awaitSlow(uint32_t index, uint32_t& id, const Value*& full) const;

    // mutable: std::atomic_ref needs a non-const object even to load.
    // Filled whole at once (faults are time), and made after the pass, below a run's peak.
    mutable LargeVector<uint32_t> ids_;         ///< kNoId until numbered (and for unreachable nodes)
    mutable LargeVector<const Value*> fullAt_;  ///< null until placed
    std::atomic<uint8_t> state_{kMaking};
};

/// Lays `doc` out into `layout` (made for it, unset) and finishes it; false if nodes nest deeper than
/// kMaxNodeDepth on the way (the walks recurse) or, with `checkGraph`, for a document a pass changed, a
/// node contains itself (checkStructure says where). Without it, there must be no cycle.
bool layOut(const Document& doc, Layout& layout, bool checkGraph = false);

/// The layout of `doc` (layOut into a new one); nullopt where layOut fails.
std::optional<Layout> computeLayout(const Document& doc, bool checkGraph = false);

/// The same layout by two walks, one per order, at once on two threads where a thread can be had: what
/// computeLayout does for a large document it need not check, and the plain form of the one walk (tests
/// compare the two).
std::optional<Layout> computeLayoutApart(const Document& doc);

/// Calls `f(const Member&)` for each field of `node` in pypto's emit order (or read order, skipping the
/// fields pypto never reads). Fields the schema does not list follow in key order.
template <class F>
void forEachFieldInOrder(const Node& node, bool readOrder, F&& f);

/// The same for an inline map held under key `parentKey` (type maps and tile views have their own order).
template <class F>
void forEachMemberInOrder(const Map& map, uint32_t parentKey, bool readOrder, F&& f);

}  // namespace ptoplug::ir

#include "ir/placement_inl.h"
