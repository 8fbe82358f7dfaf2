#include "loader/loader.h"

#include "abi_host/options.h"
#include "base/process_state.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <set>
#include <utility>

namespace ptoplug::host {
namespace {

std::string procName(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

// dlerror's text names the library by the name it was opened with: show the user's path instead.
std::string withPath(std::string text, const std::string& name, const std::string& path) {
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + path.size()))
        text.replace(at, name.size(), path);
    return text;
}

std::string range(uint32_t major, uint32_t minMinor, uint32_t maxMinor) {
    return std::to_string(major) + "." + std::to_string(minMinor) + ".." + std::to_string(major) + "." +
           std::to_string(maxMinor);
}

bool nonEmpty(const char* s) { return s && *s; }

// Checks a descriptor's shape; returns an empty string or the broken rule.
std::string checkDescriptor(const pto_plugin_desc& d) {
    if (d.struct_size < sizeof(pto_plugin_desc))
        return "descriptor struct_size " + std::to_string(d.struct_size) + " is smaller than the ABI 1.0 size " +
               std::to_string(sizeof(pto_plugin_desc));
    if (!nonEmpty(d.name)) return "descriptor has no plugin name";
    if (!nonEmpty(d.version)) return "descriptor has no plugin version";
    if (d.pass_count && !d.passes) return "descriptor lists passes but the pass array is NULL";
    if (d.verifier_count && !d.verifiers) return "descriptor lists verifiers but the verifier array is NULL";
    std::set<std::string> names;
    for (size_t i = 0; i < d.pass_count; ++i) {
        const pto_pass_desc* p = d.passes[i];
        std::string at = "pass #" + std::to_string(i);
        if (!p) return at + " is NULL";
        if (p->struct_size < PTO_PASS_DESC_1_0_SIZE) return at + " has a struct_size smaller than the ABI 1.0 size";
        if (!nonEmpty(p->name)) return at + " has no name";
        if (!names.insert(p->name).second) return "two passes are named '" + std::string(p->name) + "'";
        if (!p->run) return "pass '" + std::string(p->name) + "' has a NULL run function";
        if ((p->required_count && !p->required_properties) || (p->produced_count && !p->produced_properties) ||
            (p->invalidated_count && !p->invalidated_properties))
            return "pass '" + std::string(p->name) + "' counts properties but its property array is NULL";
        if (p->struct_size >= PTO_PASS_DESC_1_1_SIZE && p->option_count && !p->options)
            return "pass '" + std::string(p->name) + "' counts options but its option array is NULL";
        if (auto rule = checkOptionDeclarations(*p)) return "pass '" + std::string(p->name) + "': " + *rule;
    }
    for (size_t i = 0; i < d.verifier_count; ++i) {
        const pto_verifier_desc* v = d.verifiers[i];
        std::string at = "verifier #" + std::to_string(i);
        if (!v) return at + " is NULL";
        if (v->struct_size < sizeof(pto_verifier_desc)) return at + " has a struct_size smaller than the ABI 1.0 size";
        if (!nonEmpty(v->property)) return at + " names no property";
        if (!v->run) return "verifier of '" + std::string(v->property) + "' has a NULL run function";
    }
    return {};
}

}  // namespace

Expected<LibraryFile> LibraryFile::open(const std::string& path) {
    const std::string hint = "check that the file exists and is a shared object for this machine";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return fileError(path, std::string("cannot load plugin: cannot open it: ") + std::strerror(errno), hint);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return fileError(path, "cannot load plugin: not a regular file", hint);
    }
    return LibraryFile(path, fd);
}

LibraryFile::LibraryFile(LibraryFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

LibraryFile& LibraryFile::operator=(LibraryFile&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        path_ = std::move(other.path_);
        fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
}

LibraryFile::~LibraryFile() {
    if (fd_ >= 0) ::close(fd_);
}

int LibraryFile::release() { return std::exchange(fd_, -1); }

LoadedPlugin::~LoadedPlugin() {
    // Unloading runs plugin code (its destructors, the exit handlers it registered): where the host owns
    // the process, the library stays until the process ends, which runs neither (cli/main.cpp).
    if (ownsProcessState()) return;
    if (handle_) dlclose(handle_);
    if (fd_ < 0) return;
    // The loader finds a library already loaded by its name first: while this one stays mapped (a library
    // with unique symbols is never unloaded), its /proc/self/fd/N must not come to name another file.
    if (void* still = dlopen(procName(fd_).c_str(), RTLD_NOW | RTLD_NOLOAD)) {
        dlclose(still);
        return;
    }
    ::close(fd_);
}

std::shared_ptr<LoadedPlugin> LoadedPlugin::described(std::unique_ptr<DescriptorCopy> copy, std::string path,
                                                      uint32_t minor) {
    std::shared_ptr<LoadedPlugin> plugin(new LoadedPlugin());
    plugin->path_ = std::move(path);
    plugin->desc_ = &copy->descriptor();
    plugin->minor_ = minor;
    plugin->copy_ = std::move(copy);
    return plugin;
}

const pto_pass_desc* LoadedPlugin::pass(const std::string& name) const {
    for (size_t i = 0; i < desc_->pass_count; ++i)
        if (name == desc_->passes[i]->name) return desc_->passes[i];
    return nullptr;
}

const pto_verifier_desc* LoadedPlugin::verifier(const std::string& property) const {
    for (size_t i = 0; i < desc_->verifier_count; ++i)
        if (property == desc_->verifiers[i]->property) return desc_->verifiers[i];
    return nullptr;
}

Expected<std::shared_ptr<LoadedPlugin>> loadPlugin(const std::string& path, uint32_t hostMajor, uint32_t hostMinor) {
    auto file = LibraryFile::open(path);
    if (!file) return file.error();
    return loadPlugin(std::move(*file), hostMajor, hostMinor);
}

Expected<std::shared_ptr<LoadedPlugin>> loadPlugin(LibraryFile file, uint32_t hostMajor, uint32_t hostMinor) {
    const std::string path = file.path();
    std::shared_ptr<LoadedPlugin> plugin(new LoadedPlugin());
    plugin->path_ = path;
    plugin->fd_ = file.release();
    // The open file itself, never its path again: a library replaced since it was opened (and hashed)
    // is not the one loaded. The name also never makes dlopen search the library path.
    const std::string name = procName(plugin->fd_);
    ProcessStateGuard keep;  // the library's constructors and its entry point are plugin code
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* err = dlerror();
        return fileError(path, "cannot load plugin: " + withPath(err ? err : "unknown dlopen error", name, path),
                         "check that the file exists, is a shared object for this machine, and that its "
                         "dependencies resolve (ldd)");
    }
    plugin->handle_ = handle;
    dlerror();
    void* sym = dlsym(handle, PTO_PLUGIN_ENTRY_NAME);
    if (!sym)
        return fileError(
            path, "plugin has no entry symbol '" PTO_PLUGIN_ENTRY_NAME "'",
            "export it with C linkage: extern \"C\" PTO_PLUGIN_EXPORT const pto_plugin_desc* " PTO_PLUGIN_ENTRY_NAME
            "(uint32_t, uint32_t)");
    auto entry = reinterpret_cast<pto_plugin_entry_fn>(sym);
    const pto_plugin_desc* desc = entry(hostMajor, hostMinor);
    if (!desc) return fileError(path, "the entry point returned no descriptor", "return a static pto_plugin_desc");
    if (desc->struct_size < offsetof(pto_plugin_desc, name))
        return fileError(path, "descriptor struct_size " + std::to_string(desc->struct_size) + " is too small",
                         "set struct_size = sizeof(pto_plugin_desc)");
    if (desc->abi_major != hostMajor || desc->abi_minor_min > desc->abi_minor_max || hostMinor < desc->abi_minor_min)
        return fileError(path,
                         "ABI mismatch: the plugin supports " +
                             range(desc->abi_major, desc->abi_minor_min, desc->abi_minor_max) +
                             ", this host provides " + range(hostMajor, 0, hostMinor),
                         desc->abi_major != hostMajor ? "rebuild the plugin against this host's ABI major version"
                                                      : "use a newer host, or rebuild the plugin for an older minor");
    if (std::string rule = checkDescriptor(*desc); !rule.empty())
        return fileError(path, "invalid plugin descriptor: " + rule, "fix the plugin's pto_plugin_desc");
    // As after a pass (RunOutcome::lostProcessState): what cannot be undone fails the plugin by name, here
    // rather than in whatever phase would fail on it later.
    if (std::string lost = keep.restore(); !lost.empty())
        return fileError(path, "loading the plugin changed what the host cannot put back: " + lost,
                         "this is a bug in the plugin: its library constructors and entry point must leave the "
                         "process's limits and the host's descriptors as they found them");
    plugin->desc_ = desc;
    plugin->minor_ = std::min(hostMinor, desc->abi_minor_max);
    return plugin;
}

}  // namespace ptoplug::host
