// A plugin's manifest written from its own descriptor (name, version, ABI range, passes and their
// properties, verifiers), so that the two cannot disagree; only the placement and the library's hash
// come from elsewhere.
#pragma once

#include <optional>
#include <string>

#include "base/error.h"
#include "loader/loader.h"
#include "pipeline/manifest.h"

namespace ptoplug::checker {

/// The manifest of `plugin` (at `libraryPath`) with its first pass placed after `after` and every later
/// pass after the one before it; `before`, if given, bounds every pass.
std::string manifestFromDescriptor(const host::LoadedPlugin& plugin, const std::string& libraryPath,
                                   const host::Anchor& after, const std::optional<host::Anchor>& before);

/// "Pass" or "Pass#2" as an anchor; an error says what is wrong.
Expected<host::Anchor> parseAnchor(const std::string& text);

}  // namespace ptoplug::checker
