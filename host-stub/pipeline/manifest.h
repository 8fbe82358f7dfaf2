// Plugin manifests (manifest.schema.json at the top documents the format): what a plugin declares
// to the host before it is loaded.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "abi_host/options.h"
#include "base/error.h"

namespace ptoplug::host {

struct Anchor {
    std::string pass;
    int occurrence = 1;  ///< which instance of a stage that occurs more than once (1-based)
};

/// An option value a manifest sets, typed as JSON gave it, and where: checked against the pass's
/// declaration when the plugin is loaded.
struct ManifestOption {
    std::string name;
    OptionInput value;
    OptionOrigin origin;  ///< the manifest and the value's JSON Pointer
};

struct ManifestPass {
    std::string name;
    std::vector<ManifestOption> options;
    std::vector<PassOption> optionValues;  ///< all the pass's options, resolved when its plugin is loaded
    std::optional<Anchor> after;
    std::optional<Anchor> before;
    std::vector<std::string> required;
    std::vector<std::string> produced;
    std::vector<std::string> invalidated;
};

/// Version 1 states everything; version 2 keeps only what the plugin cannot know (library, sha256,
/// placement, option values) and takes the rest from the descriptor when the plugin is loaded.
struct Manifest {
    std::string path;  ///< the manifest file
    int formatVersion = 1;
    std::string name;
    std::string version;
    std::string library;  ///< resolved: relative to the manifest's folder
    std::optional<std::string> sha256;
    uint32_t abiMajor = 0;
    uint32_t abiMinorMin = 0;
    uint32_t abiMinorMax = 0;
    std::vector<ManifestPass> passes;
    std::vector<std::string> verifiers;
};

/// Reads and validates a manifest; an error names the file and the offending key (JSON Pointer).
Expected<Manifest> readManifest(const std::string& path);
/// The same for a manifest's bytes; `path` names it in errors and anchors a relative library path.
Expected<Manifest> parseManifest(std::string_view bytes, const std::string& path);

/// The manifests (*.json) of a plugin folder, sorted; none if the folder cannot be read.
std::vector<std::string> manifestsInFolder(const std::string& dir);

}  // namespace ptoplug::host
