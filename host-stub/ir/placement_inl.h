// Template bodies of placement.h.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "ir/schema.h"

namespace ptoplug::ir {
namespace detail {

inline bool holdsContainer(const Value& v) {
    return v.kind == Kind::Array || v.kind == Kind::Map || v.kind == Kind::Node || v.kind == Kind::Ref;
}

/// A member's place in an inline map's order: a type map's members that hold nodes come first in the
/// order below, a tile view's three in pypto's (reversed when it reads), everything else after, in key order.
inline uint8_t memberRank(bool typeMap, bool tileView, bool readOrder, uint32_t key) {
    if (typeMap) {
        switch (key) {
            case K::shape: return 0;
            case K::types: return 1;
            case K::memref: return 2;
            case K::tensor_view: return 3;
            case K::tile_view: return 4;
            case K::window_buffer: return 5;
            default: return kRankUnlisted;
        }
    }
    if (tileView) {
        switch (key) {
            case K::start_offset: return readOrder ? 0 : 2;
            case K::stride: return 1;
            case K::valid_shape: return readOrder ? 2 : 0;
            default: return kRankUnlisted;
        }
    }
    return kRankUnlisted;
}

/// Calls `f(const Member&)` for the members of `map` by ascending `rank(key)`, equal ranks in key order,
/// skipping kRankUnread; with kContainersOnly, only for members that hold a container, which are asked
/// for from memory first (a walk is bound by memory latency, and they are its next loads). The members
/// are sorted on the stack: a node has a few.
template <bool kContainersOnly, class Rank, class F>
void forEachRanked(const Map& map, Rank&& rank, F&& f) {
    constexpr uint32_t kOnStack = 32;
    uint32_t onStack[kOnStack];
    std::vector<uint32_t> onHeap;
    uint32_t* order = map.size <= kOnStack ? onStack : (onHeap.resize(map.size), onHeap.data());
    uint32_t count = 0;
    for (uint32_t i = 0; i < map.size; ++i) {
        if (kContainersOnly && !holdsContainer(map.values[i])) continue;
        const uint8_t r = rank(map.keyAt(i));
        // A map's keys are distinct 16-bit ids: an index fits below the rank.
        if (r != kRankUnread) order[count++] = uint32_t{r} << 24 | i;
    }
    if (count <= kOnStack) {
        for (uint32_t k = 1; k < count; ++k)
            for (uint32_t at = k; at > 0 && order[at - 1] > order[at]; --at) std::swap(order[at - 1], order[at]);
    } else {
        std::sort(order, order + count);
    }
    if constexpr (kContainersOnly)
        for (uint32_t k = 0; k < count; ++k) __builtin_prefetch(map.values[order[k] & 0xFFFFFF].n);
    for (uint32_t k = 0; k < count; ++k) f(map.at(order[k] & 0xFFFFFF));
}

template <bool kContainersOnly, class F>
void forEachFieldRanked(const Node& node, bool readOrder, F&& f) {
    const NodeSchema* schema = schemaFor(node.type);
    const std::vector<uint8_t>* ranks = schema ? (readOrder ? &schema->readRank : &schema->emitRank) : nullptr;
    forEachRanked<kContainersOnly>(
        node.fields, [&](uint32_t key) { return ranks && key < ranks->size() ? (*ranks)[key] : kRankUnlisted; }, f);
}

template <bool kContainersOnly, class F>
void forEachMemberRanked(const Map& map, uint32_t parentKey, bool readOrder, F&& f) {
    const bool typeMap = map.find(K::type_kind) != nullptr;
    const bool tileView = !typeMap && parentKey == K::tile_view;
    forEachRanked<kContainersOnly>(
        map, [&](uint32_t key) { return memberRank(typeMap, tileView, readOrder, key); }, f);
}

}  // namespace detail

template <class F>
void forEachFieldInOrder(const Node& node, bool readOrder, F&& f) {
    detail::forEachFieldRanked<false>(node, readOrder, f);
}

template <class F>
void forEachMemberInOrder(const Map& map, uint32_t parentKey, bool readOrder, F&& f) {
    detail::forEachMemberRanked<false>(map, parentKey, readOrder, f);
}

}  // namespace ptoplug::ir
