// Reading pypto IR from MessagePack or JSON (docs/ir_format.md §11.1-11.3).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/error.h"
#include "base/step_times.h"
#include "ir/document.h"

namespace ptoplug::ir {

/// Detects the format from the first bytes: a MessagePack map marker, or `{` after blanks for JSON.
Expected<Format> detectFormat(std::string_view bytes);

/// What the root of a document read must be: a Program (what an IR file holds, and what every reader of a
/// program takes), or any node (a fragment, for tests of the format alone).
enum class Root { Program, AnyNode };

/// Reads one document from `bytes` (copied from: the document does not point into them). `name` is
/// used in error messages.
Expected<std::unique_ptr<Document>> readDocument(std::string_view bytes, Format format, const std::string& name,
                                                 Root root = Root::Program);

/// Reads the file at `path` ("-" reads standard input). The file is mapped, never modified, and its
/// pages are released as they are consumed. `steps`, if given, gets the time of each step of reading.
/// Anything but a regular file (a FIFO, socket, device or folder) is refused without being opened for
/// reading. `beforeReading`, if given, sees the very bytes read, whole, before they are (to hash them).
Expected<std::unique_ptr<Document>> readFile(const std::string& path, Format format = Format::Auto,
                                             StepTimes* steps = nullptr,
                                             const std::function<void(std::string_view)>& beforeReading = {});

/// "a FIFO (named pipe)", "a folder", ... for a st_mode.
const char* fileTypeName(unsigned mode);
/// The error for an input at `path` that is not a regular file (st_mode `mode`): it is not read.
Error notARegularFile(const std::string& path, unsigned mode);

// Format-specific entry points used by readDocument; each tells `consumed` how far it has read.
bool parseJson(std::string_view bytes, class Builder& builder, class ConsumedInput& consumed, Error& parseError);
bool parseMsgPack(std::string_view bytes, class Builder& builder, class ConsumedInput& consumed, Error& parseError);

/// Read a large input on two threads (ir/two_part_read.h): the document, or nullptr when the input has
/// no array at its middle or any rule is broken (the caller then reads it in one part, which reports
/// every problem as usual). `format` is Json or MsgPack.
std::unique_ptr<Document> readInTwoParts(std::string_view bytes, Format format, const class ConsumedInput& consumed,
                                         StepTimes* steps = nullptr);
std::unique_ptr<Document> readMsgPackInTwoParts(std::string_view bytes, const class ConsumedInput& consumed,
                                                StepTimes* steps = nullptr);
std::unique_ptr<Document> readJsonInTwoParts(std::string_view bytes, const class ConsumedInput& consumed,
                                             StepTimes* steps = nullptr);

}  // namespace ptoplug::ir
