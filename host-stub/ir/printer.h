// Renders a program as readable pypto-style Python text (decorated functions with typed params,
// statements, calls with their attrs): what users read when they compare a program before and after a
// pass. It is for people, not a serialization: nothing reads it back.
#pragma once

#include <string>

#include "ir/document.h"

namespace ptoplug::ir {

/// The whole document (normally a Program) as text, ending with a newline.
std::string printProgram(const Document& doc);

}  // namespace ptoplug::ir
