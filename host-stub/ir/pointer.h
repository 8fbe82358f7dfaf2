// JSON Pointers (RFC 6901) into a document, for naming the place of an error.
#pragma once

#include <string>
#include <string_view>

#include "ir/document.h"

namespace ptoplug::ir {

/// Appends `token` escaped as a JSON Pointer reference token (~ -> ~0, / -> ~1).
void appendPointerToken(std::string& out, std::string_view token);

/// The pointer of `target` (the address of a Value inside the document) as the input laid it out,
/// following each node at the place the input wrote it in full. Empty if not found (e.g. a value the
/// rewriter created).
std::string pointerTo(const Document& doc, const Value* target);

/// The pointer of a node's full occurrence in the input; empty if not found.
std::string pointerToNode(const Document& doc, const Node* node);

}  // namespace ptoplug::ir
