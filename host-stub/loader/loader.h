// Loading plugin shared objects: dlopen on an explicit path, the one entry symbol, ABI negotiation.
#pragma once

#include <memory>
#include <string>

#include "base/error.h"
#include "ptoplug/abi.h"

namespace ptoplug::host {

/// A loaded plugin. It stays loaded as long as this object lives (the whole run, in pto-host).
class LoadedPlugin {
public:
    ~LoadedPlugin();
    LoadedPlugin(const LoadedPlugin&) = delete;
    LoadedPlugin& operator=(const LoadedPlugin&) = delete;

    const std::string& path() const { return path_; }
    const pto_plugin_desc& descriptor() const { return *desc_; }
    uint32_t abiMinor() const { return minor_; }  ///< the negotiated minor
    /// The pass called `name`, or nullptr.
    const pto_pass_desc* pass(const std::string& name) const;
    /// The verifier of `property`, or nullptr.
    const pto_verifier_desc* verifier(const std::string& property) const;

private:
    friend Expected<std::shared_ptr<LoadedPlugin>> loadPlugin(const std::string&, uint32_t, uint32_t);
    LoadedPlugin() = default;
    std::string path_;
    void* handle_ = nullptr;
    const pto_plugin_desc* desc_ = nullptr;
    uint32_t minor_ = 0;
};

/// Loads the plugin at `path` (never searched for: relative paths are relative to the working
/// directory) as a host of ABI `hostMajor`.`hostMinor`, and checks its descriptor: sizes, names,
/// function slots, version range. Every error names the file, the broken rule and what to do.
Expected<std::shared_ptr<LoadedPlugin>> loadPlugin(const std::string& path, uint32_t hostMajor = PTO_ABI_MAJOR,
                                                   uint32_t hostMinor = PTO_ABI_MINOR);

}  // namespace ptoplug::host
