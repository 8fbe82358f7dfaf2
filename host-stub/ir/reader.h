// Reading pypto IR from MessagePack or JSON (docs/ir_format.md §11.1-11.3).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/error.h"
#include "ir/document.h"

namespace ptoplug::ir {

/// Detects the format from the first bytes: a MessagePack map marker, or `{` after blanks for JSON.
Expected<Format> detectFormat(std::string_view bytes);

/// Reads one document from `bytes`. `name` is used in error messages. If `keepAlive` owns `bytes`,
/// strings are kept without copying and the document keeps `keepAlive` alive.
Expected<std::unique_ptr<Document>> readDocument(std::string_view bytes, Format format, const std::string& name,
                                                 std::shared_ptr<const void> keepAlive = nullptr);

/// Reads the file at `path` ("-" reads standard input). The file is mapped, never modified.
Expected<std::unique_ptr<Document>> readFile(const std::string& path, Format format = Format::Auto);

// Format-specific entry points used by readDocument.
bool parseJson(std::string_view bytes, class Builder& builder, Error& parseError);
bool parseMsgPack(std::string_view bytes, class Builder& builder, bool stableStrings, Error& parseError);

}  // namespace ptoplug::ir
