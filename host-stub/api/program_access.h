// What the Python package needs of a Program beyond the public API: a Program made from a Document it
// built from a pypto Program's objects (python/pypto_graph_reader.h), and the Document of a Program to
// build pypto's objects from (python/pypto_graph_writer.h). Not installed.
#pragma once

#include <memory>

#include "ir/document.h"
#include "ptoplug/ptoplug.hpp"

namespace ptoplug {

struct ProgramAccess {
    static Program fromDocument(std::unique_ptr<ir::Document> doc);
    static const ir::Document& document(const Program& program);
};

}  // namespace ptoplug
