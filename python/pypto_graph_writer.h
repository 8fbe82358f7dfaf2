// A document read from a pypto Program (python/pypto_graph_reader.h), after a pass, back as a pypto Program
// without pypto's deserializer: copy-on-write, as pypto's IRMutator, so that every object the pass left as
// it was is the very object of the input and only the nodes on the way from a change to the root are new
// (docs/ir_format.md §11.16).
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "ir/document.h"
#include "pypto_origin.h"

namespace ptoplug::python {

/// The pypto Program `doc` holds, built with pypto's Python constructors where it differs from `origin`;
/// or None with `unsupported` saying what it holds that this writer does not build or a constructor
/// refused (the caller then deserializes the document's bytes).
pybind11::object writePyptoGraph(const ir::Document& doc, const PyptoOrigin& origin, std::string& unsupported);

}  // namespace ptoplug::python
