// ptoplug's C++ API: read and write pypto programs, run plugin passes on them in this process.
//
//   #include <ptoplug/ptoplug.hpp>          // target ptoplug::host
//   ptoplug::Program program = ptoplug::Program::read("in.msgpack");
//   program = ptoplug::passes::MaterializeDistTensorCtx()(std::move(program));
//   program.write("out.msgpack");
//
// Errors are exceptions here (the host inside uses error values): ptoplug::FileError for files that
// cannot be read or written, ptoplug::PassError when a pass or verifier rejects a program.
// Plugins run in this process: a plugin that crashes takes the caller with it (pto-host isolates
// them; this API is for trusted plugins in a compiler's own process, as pypto's passes are).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#if defined(__GNUC__)
#define PTOPLUG_API __attribute__((visibility("default")))
#else
#define PTOPLUG_API
#endif

namespace ptoplug {

/// pypto's serialization (MessagePack) and its JSON form (docs/ir_format.md §9, §11).
enum class Format { MsgPack, Json };

/// A diagnostic of a pass or verifier, with its source place when the node had one.
struct Diagnostic {
    std::string severity;  ///< "note", "warning", "error", "internal error"
    std::string rule;      ///< e.g. "MaterializeDistTensorCtx/unresolved-context"
    std::string message;   ///< the full text (pypto's own for pypto's rules)
    std::string file;      ///< the span's file, "" if unknown
    long long line = -1;
    long long column = -1;
};

/// A file that cannot be read or written, bytes that are not pypto IR, or a plugin that cannot be
/// loaded; what() names the place and what to do.
class PTOPLUG_API FileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A pass or verifier rejected the program. what() is the first error's message; internal() tells a
/// bug (a broken invariant, a plugin failure) from a program the pass refuses.
class PTOPLUG_API PassError : public std::runtime_error {
public:
    PassError(const std::string& what, std::vector<Diagnostic> diagnostics, bool internal, bool nodeRefused = false);
    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
    bool internal() const { return internal_; }
    /// The pass built a node pypto's constructor refuses: pypto's pass raises a TypeError there, and
    /// what() is pypto's text. (internal() is false: the input made the pass build it.)
    bool nodeRefused() const { return nodeRefused_; }

private:
    std::vector<Diagnostic> diagnostics_;
    bool internal_;
    bool nodeRefused_;
};

/// One pypto program in memory. Move-only; passes transform it in place.
class PTOPLUG_API Program {
public:
    /// Reads a file of either format (detected from the content).
    static Program read(const std::string& path);
    /// Reads bytes of either format; the bytes are copied.
    static Program from_bytes(std::string_view bytes);
    /// Writes atomically; the format follows the extension (.json, .msgpack), else the input's.
    void write(const std::string& path) const;
    void write(const std::string& path, Format format) const;
    std::string to_bytes(Format format) const;
    /// The format it was read in.
    Format format() const;

    Program(Program&&) noexcept;
    Program& operator=(Program&&) noexcept;
    ~Program();

    struct Impl;

private:
    explicit Program(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
    friend class Pass;
    friend class PassManager;
    friend struct ProgramAccess;  ///< the Python package's readers and writers (api/program_access.h)
};

/// A plugin pass (with the verifiers of the properties it produces). Copyable; the plugin stays
/// loaded while any copy lives. [thread-safe: one Pass may run on many programs at once]
class PTOPLUG_API Pass {
public:
    /// Runs the pass, then the structural check and its verifiers (as pto-host); throws PassError.
    Program operator()(Program program) const;
    /// Runs the pass and the structural check only, verifying no property: what pypto's pass object does
    /// called alone (pypto verifies properties in its PassPipeline and PassManager). Throws PassError;
    /// `diagnostics`, if given, receives those of a successful run (warnings, notes).
    Program transform(Program program, std::vector<Diagnostic>* diagnostics = nullptr) const;
    const std::string& name() const;
    /// The IR properties the pass requires, produces and invalidates (pypto's PassProperties).
    const std::vector<std::string>& required() const;
    const std::vector<std::string>& produced() const;
    const std::vector<std::string>& invalidated() const;

    struct Impl;
    explicit Pass(std::shared_ptr<const Impl> impl);

private:
    std::shared_ptr<const Impl> impl_;
};

/// The directory of the installed plugins: $PTOPLUG_PLUGIN_DIR, else lib/ptoplug beside the binary
/// or library that contains this code (as pto-host finds them).
PTOPLUG_API std::string defaultPluginDir();

/// The plugin manifests in `pluginDir`, as pto-host finds them in its plugin folder.
PTOPLUG_API std::vector<std::string> manifestsIn(const std::string& pluginDir);

/// Pass `pass` of the plugin declared by `manifest`, with `options` (name, value as --pass-option writes
/// it) over the declared defaults and the manifest's values: a Pass like passes::MaterializeDistTensorCtx().
/// Throws FileError for a plugin that cannot be loaded, a pass it lacks (the ones it has listed), or an
/// unknown or ill-typed option.
PTOPLUG_API Pass load_pass(const std::string& manifest, const std::string& pass,
                           const std::vector<std::pair<std::string, std::string>>& options = {});

namespace passes {
/// pypto's pass::MaterializeDistTensorCtx(), from the installed plugin.
PTOPLUG_API Pass MaterializeDistTensorCtx();
/// The same from the plugin whose manifest is in `pluginDir`.
PTOPLUG_API Pass MaterializeDistTensorCtx(const std::string& pluginDir);
}  // namespace passes

/// pypto's default pipeline with the passes of the given plugins in place (the stub host implements
/// only plugin stages; the others are skipped, as in pto-host).
class PTOPLUG_API PassManager {
public:
    /// `manifests` are added to the installed plugins unless `defaultPlugins` is false. `passOptions`
    /// set options plugin passes declare, as "PASS.KEY=VALUE" (pto-host's --pass-option); an unknown or
    /// ill-typed one throws FileError.
    explicit PassManager(const std::vector<std::string>& manifests = {}, bool defaultPlugins = true,
                         const std::vector<std::string>& passOptions = {});
    /// Exactly the plugin passes of `passList`, as pto-host --passes takes it ("A,B{key=value}"), from the
    /// installed plugins (unless `defaultPlugins` is false) and `manifests`. A mistake throws FileError naming
    /// its column.
    static PassManager parse(const std::string& passList, const std::vector<std::string>& manifests = {},
                             bool defaultPlugins = true);
    Program run(Program program) const;
    /// The resolved pipeline, one stage a line (as `pto-host pipeline` prints it).
    std::string describe() const;

    struct Impl;

private:
    explicit PassManager(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const Impl> impl_;
};

}  // namespace ptoplug
