// The pass pipeline: pypto's default pipeline with plugin passes placed by their manifests, checked
// for placement and IR properties before any IR is read.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "abi_host/options.h"
#include "base/error.h"
#include "loader/loader.h"
#include "pipeline/manifest.h"

namespace ptoplug::host {

/// pypto's default pipeline (OptimizationStrategy.Default), bundled at build time.
const char* defaultPipelineJson();

/// A plugin loaded from its manifest, checked against its own descriptor.
struct Plugin {
    Manifest manifest;
    std::shared_ptr<LoadedPlugin> loaded;
};

/// "'name' (library path)", as messages name a plugin.
std::string describePlugin(const Plugin& plugin);

/// Loads the plugin a manifest declares: checks sha256 (when given), loads the library, and requires
/// the manifest and the plugin's descriptor to agree (name, version, ABI range, passes, properties,
/// verifiers). Errors name the file, both sides and what to do.
Expected<Plugin> loadFromManifest(const std::string& manifestPath);

/// The same checks for a plugin known by a copy of its descriptor, made where it was loaded (pto-host's
/// own process never loads a plugin: driver/plugin_probe.h). sha256 is checked where the library is loaded,
/// not here. Its passes' and verifiers' run functions are NULL until loadPluginCode.
Expected<Plugin> describedFromManifest(const std::string& manifestPath, std::unique_ptr<DescriptorCopy> copy,
                                       uint32_t minor);

struct Stage {
    std::string name;
    int occurrence = 1;  ///< 1-based among stages of the same name
    std::vector<std::string> required, produced, invalidated;
    const Plugin* plugin = nullptr;  ///< null: a stage the stub host does not implement (skipped)
    const pto_pass_desc* pass = nullptr;
    std::vector<PassOption> options;  ///< the pass's options: declared defaults, the manifest, --pass-option or the API
    /// SSAForm holds once this stage ran (produced here or earlier, invalidated by none since): the check
    /// after a plugin pass then applies SSA's scopes (ir/use_after_def.h).
    bool ssaForm = false;
};

struct Pipeline {
    std::vector<Plugin> plugins;  ///< owned; stages point into it
    std::vector<Stage> stages;
    std::string passList;  ///< the --passes text the stages were made from (pipeline/pass_list.h), or ""
    /// The verifier of `property` among the plugins, or nullptr.
    const pto_verifier_desc* verifier(const std::string& property) const;
    /// The plugin that verifies `property`, or nullptr.
    const Plugin* verifierPlugin(const std::string& property) const;
};

/// Loads, in this process, the code of every plugin of `pipeline` known only by its description (a worker
/// of pto-host), checks that each is what the description says (sha256 when given, the descriptor's data),
/// and points the stages at the loaded passes. An error names the library and what changed.
Status loadPluginCode(Pipeline& pipeline);

/// The resolved pipeline, one stage a line, plugin stages marked, each plugin pass's options under it with
/// their values and where each came from (what `pto-host pipeline` prints).
std::string describePipeline(const Pipeline& pipeline);

/// Places every plugin pass into the default pipeline and checks the result. `plugins` is consumed.
Expected<std::unique_ptr<Pipeline>> buildPipeline(std::vector<Plugin> plugins);

/// What holds after `stage` runs, given what held before it in `available`: its invalidated properties
/// leave, its produced ones come.
void applyProperties(std::set<std::string>& available, const Stage& stage);

/// Applies one setting, "PASS.KEY=VALUE", to the pass's stage: `from` says who gave it (`--pass-option`,
/// or the C++ API's PassManager), and the error names it, the setting and what it should be.
Status setPassOption(Pipeline& pipeline, std::string_view setting, OptionOrigin::Kind from);

}  // namespace ptoplug::host
