// Loading plugin shared objects: the library opened once (what is hashed is what is loaded), dlopen of that
// open file, the one entry symbol, ABI negotiation.
#pragma once

#include <memory>
#include <string>

#include "base/error.h"
#include "loader/descriptor_copy.h"
#include "ptoplug/abi.h"

namespace ptoplug::host {

/// A plugin library opened for reading, not yet loaded: its manifest's sha256 is checked on this descriptor,
/// and loadPlugin loads this same open file (never the path again, which may name another file by then).
class LibraryFile {
public:
    /// Opens `path` (never searched for: relative to the working directory); a regular file only.
    static Expected<LibraryFile> open(const std::string& path);
    LibraryFile(LibraryFile&& other) noexcept;
    LibraryFile& operator=(LibraryFile&& other) noexcept;
    LibraryFile(const LibraryFile&) = delete;
    LibraryFile& operator=(const LibraryFile&) = delete;
    ~LibraryFile();

    const std::string& path() const { return path_; }
    int fd() const { return fd_; }
    /// Gives up the descriptor (-1 left behind).
    int release();

private:
    LibraryFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
    std::string path_;
    int fd_ = -1;
};

/// A loaded plugin. It stays loaded as long as this object lives; where the host owns the process
/// (ownProcessState: pto-host, pto-plugin-check) it is never unloaded, since unloading runs plugin code.
class LoadedPlugin {
public:
    ~LoadedPlugin();
    LoadedPlugin(const LoadedPlugin&) = delete;
    LoadedPlugin& operator=(const LoadedPlugin&) = delete;

    /// A plugin known by a copy of its descriptor, without its code (pto-host's own process, which never
    /// loads a plugin: descriptor_copy.h). Its run functions are NULL. `path` is its library's, `minor` the
    /// minor negotiated where it was loaded.
    static std::shared_ptr<LoadedPlugin> described(std::unique_ptr<DescriptorCopy> copy, std::string path,
                                                   uint32_t minor);
    /// Whether its code is loaded in this process (false for a described one).
    bool hasCode() const { return handle_ != nullptr; }

    const std::string& path() const { return path_; }
    const pto_plugin_desc& descriptor() const { return *desc_; }
    uint32_t abiMinor() const { return minor_; }  ///< the negotiated minor
    /// The pass called `name`, or nullptr.
    const pto_pass_desc* pass(const std::string& name) const;
    /// The verifier of `property`, or nullptr.
    const pto_verifier_desc* verifier(const std::string& property) const;

private:
    friend Expected<std::shared_ptr<LoadedPlugin>> loadPlugin(LibraryFile, uint32_t, uint32_t);
    LoadedPlugin() = default;
    std::string path_;
    int fd_ = -1;  ///< the library's open file, dlopened as /proc/self/fd/N: kept while that name is in use
    void* handle_ = nullptr;
    const pto_plugin_desc* desc_ = nullptr;
    uint32_t minor_ = 0;
    std::unique_ptr<DescriptorCopy> copy_;  ///< what desc_ points into, for a described plugin
};

/// Loads the open library `file` (through /proc/self/fd, so the file opened is the file loaded) as a host of
/// ABI `hostMajor`.`hostMinor`, and checks its descriptor: sizes, names, function slots, version range.
/// Every error names the file, the broken rule and what to do.
Expected<std::shared_ptr<LoadedPlugin>> loadPlugin(LibraryFile file, uint32_t hostMajor = PTO_ABI_MAJOR,
                                                   uint32_t hostMinor = PTO_ABI_MINOR);
/// LibraryFile::open, then the above.
Expected<std::shared_ptr<LoadedPlugin>> loadPlugin(const std::string& path, uint32_t hostMajor = PTO_ABI_MAJOR,
                                                   uint32_t hostMinor = PTO_ABI_MINOR);

}  // namespace ptoplug::host
