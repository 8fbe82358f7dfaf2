// What a pto_value handle names: a slot in the IR (or a value the host made), checked for staleness.
#pragma once

#include "ir/document.h"

namespace ptoplug::host {

/// What a pto_value names: a value slot, and the buffer it lived in when the handle was made. The IR
/// core moves slots only by giving their container a new buffer (ir/document.cpp), so a handle whose
/// container's buffer changed is stale and is refused, never read.
struct ValueSlot {
    ir::Value* value = nullptr;
    const ir::Array* array = nullptr;  ///< the container, if the slot is an array element
    const ir::Map* map = nullptr;      ///< the container, if the slot is a map member
    const void* items = nullptr;       ///< the container's buffer when the handle was made
    bool stale() const { return (array && array->items != items) || (map && map->values != items); }
};

}  // namespace ptoplug::host
