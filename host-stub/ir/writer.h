// Writing pypto IR as MessagePack (as pypto writes it) or canonical / pretty JSON (docs/ir_format.md §11).
#pragma once

#include <string>

#include "base/error.h"
#include "base/step_times.h"
#include "ir/document.h"
#include "ir/placement.h"
#include "ir/sink.h"

namespace ptoplug::ir {

struct WriteOptions {
    Format format = Format::MsgPack;  ///< Json or MsgPack (Auto means the document's input format)
    bool pretty = false;              ///< indented JSON for people (JSON only)
};

/// Writes `doc` to `sink`. Fails only for a string that is not valid UTF-8 when writing JSON
/// (the error names its place) or when the sink fails. `steps`, if given, gets the time of each step.
/// `layout`, if given, is `doc`'s as layOut makes it (checkStructure's, after a pass), unchanged since; its
/// walk may still be under way on another thread, and the writer follows it (a failed walk fails the write).
Status writeDocument(const Document& doc, const WriteOptions& options, Sink& sink, StepTimes* steps = nullptr,
                     const Layout* layout = nullptr);

/// The format a file's name asks for: Json for .json, MsgPack for .msgpack, Auto otherwise.
Format formatForName(const std::string& path);

/// Makes the encodings every write copies (once per process; see ir/shared_tables.h).
void prepareWriterTables();

/// Convenience for tests and small documents.
Expected<std::string> writeToString(const Document& doc, const WriteOptions& options);

}  // namespace ptoplug::ir
