// A pypto Program read into the IR core through pypto's Python-visible object model, without pypto's
// serializer: the Document reading ir.serialize(program) would give (docs/ir_format.md §11.8).
#pragma once

#include <Python.h>

#include <memory>
#include <string>

#include "ir/document.h"
#include "pypto_origin.h"

namespace ptoplug::python {

/// `program` (a pypto.ir.Program) as a Document, with where each node came from in `origin`, which is also
/// where the document reads its nodes' spans when asked for (they are not read here); or nullptr with
/// `unsupported` saying what the program holds that this reader cannot read as pypto's serializer writes it
/// (the caller serializes instead). Throws pybind11::error_already_set when an attribute read fails.
std::unique_ptr<ir::Document> readPyptoGraph(PyObject* program, const std::shared_ptr<PyptoOrigin>& origin,
                                             std::string& unsupported);

}  // namespace ptoplug::python
