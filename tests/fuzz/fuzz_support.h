// Shared oracles of the fuzz targets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ir/consumed_input.h"
#include "ir/reader.h"
#include "ir/writer.h"

namespace ptoplug::fuzz {

// A document in memory writes as MessagePack, and what is written reads back.
inline void writeRead(const ir::Document& doc) {
    auto bytes = ir::writeToString(doc, ir::WriteOptions{ir::Format::MsgPack, false});
    if (!bytes || !ir::readDocument(*bytes, ir::Format::Auto, "written")) std::abort();
    // JSON may refuse a string that is not UTF-8 (with an error); what it writes must read back.
    if (auto json = ir::writeToString(doc, ir::WriteOptions{ir::Format::Json, false}))
        if (!ir::readDocument(*json, ir::Format::Auto, "written.json")) std::abort();
}

// Bad input is an error with a message; accepted input survives a write and a read.
inline void readWriteRead(const uint8_t* data, size_t size, ir::Format format) {
    auto doc = ir::readDocument(std::string_view(reinterpret_cast<const char*>(data), size), format, "fuzz");
    if (!doc) {
        if (doc.error().message.empty()) std::abort();
        return;
    }
    writeRead(**doc);
}

// The two-part reading of large inputs (tried here on any input) accepts nothing the single pass
// refuses, and builds the same document.
inline void twoPartsReadAsOne(const uint8_t* data, size_t size, ir::Format format) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto two = ir::readInTwoParts(bytes, format, ir::ConsumedInput{});
    if (!two) return;
    auto one = ir::readDocument(bytes, format, "fuzz");
    if (!one) std::abort();
    auto a = ir::writeToString(*two, ir::WriteOptions{ir::Format::MsgPack, false});
    auto b = ir::writeToString(**one, ir::WriteOptions{ir::Format::MsgPack, false});
    if (!a || !b || *a != *b) std::abort();
}

}  // namespace ptoplug::fuzz
