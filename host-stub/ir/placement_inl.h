// Template bodies of placement.h.
#pragma once

#include <algorithm>
#include <initializer_list>

#include "ir/schema.h"

namespace ptoplug::ir {
namespace detail {

inline uint8_t rankOf(const std::vector<uint8_t>& ranks, uint32_t key) {
    return key < ranks.size() ? ranks[key] : kRankUnlisted;
}

template <class F>
void visitOrdered(const Map& map, std::initializer_list<uint32_t> first, F& f) {
    for (uint32_t key : first)
        for (const Member& m : map)
            if (m.key == key) f(m);
    for (const Member& m : map)
        if (std::find(first.begin(), first.end(), m.key) == first.end()) f(m);
}

}  // namespace detail

template <class F>
void forEachFieldInOrder(const Node& node, bool readOrder, F&& f) {
    const NodeSchema* schema = schemaFor(node.type);
    if (!schema) {
        for (const Member& m : node.fields) f(m);
        return;
    }
    const std::vector<uint32_t>& order = readOrder ? schema->readOrder : schema->emitOrder;
    for (uint32_t key : order)
        if (uint32_t i = node.fields.indexOf(key); i < node.fields.size) f(node.fields.at(i));
    const std::vector<uint8_t>& ranks = readOrder ? schema->readRank : schema->emitRank;
    for (const Member& m : node.fields)
        if (detail::rankOf(ranks, m.key) == kRankUnlisted) f(m);
}

template <class F>
void forEachMemberInOrder(const Map& map, uint32_t parentKey, bool readOrder, F&& f) {
    if (map.find(K::type_kind)) {
        detail::visitOrdered(map, {K::shape, K::types, K::memref, K::tensor_view, K::tile_view, K::window_buffer}, f);
    } else if (parentKey == K::tile_view) {
        if (readOrder)
            detail::visitOrdered(map, {K::start_offset, K::stride, K::valid_shape}, f);
        else
            detail::visitOrdered(map, {K::valid_shape, K::stride, K::start_offset}, f);
    } else {
        for (const Member& m : map) f(m);
    }
}

}  // namespace ptoplug::ir
