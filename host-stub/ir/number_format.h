// Canonical text of floating-point numbers (docs/ir_format.md §11.6): the shortest digits that round-trip,
// always with a '.' or an exponent, laid out as Python's repr does (fixed for exponents -4..15,
// scientific with a signed two-digit-minimum exponent otherwise) so canonical JSON matches the
// fixtures written by Python tooling byte for byte.
#pragma once

#include <string>

namespace ptoplug::ir {

/// `value` must be finite.
void appendCanonicalDouble(std::string& out, double value);
/// `value` must be finite; shortest digits that round-trip through float32.
void appendCanonicalFloat(std::string& out, float value);

}  // namespace ptoplug::ir
