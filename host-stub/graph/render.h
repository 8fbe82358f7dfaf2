// Writing a graph: DOT text as it is, or SVG rendered by Graphviz's `dot` (found on PATH), to a file
// written atomically (io/output_file.h) or to stdout ("-").
#pragma once

#include <string>

#include "base/error.h"

namespace ptoplug::graph {

/// Fails unless `path` names a graph this writes: "-" (DOT on stdout), .dot or .gv (DOT), .svg. Checked
/// before any input is read, so that a misnamed output (flow.png holding DOT text) fails at once.
Status checkGraphPath(const std::string& path);

/// Writes `dotText` to `path`: SVG when `path` ends in ".svg" (rendered by `dot -Tsvg`), else the text.
/// Fails, writing nothing, when `dot` is missing (saying how to get it) or refuses the text.
Status writeGraph(const std::string& path, const std::string& dotText);

}  // namespace ptoplug::graph
