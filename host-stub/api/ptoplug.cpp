#include "ptoplug/ptoplug.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "api/program_access.h"
#include "driver/diagnostics.h"
#include "driver/process_file.h"
#include "io/output_file.h"
#include "ir/program_rules.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "pipeline/option_check.h"
#include "pipeline/pass_list.h"
#include "pipeline/pipeline.h"

namespace ptoplug {
namespace fs = std::filesystem;

struct Program::Impl {
    std::unique_ptr<ir::Document> doc;
};

struct Pass::Impl {
    std::unique_ptr<host::Pipeline> pipeline;  ///< one stage: the pass
    std::string name;
};

struct PassManager::Impl {
    std::unique_ptr<host::Pipeline> pipeline;
};

namespace {

[[noreturn]] void raise(const Error& e) { throw FileError(e.format()); }

ir::Format toIr(Format f) { return f == Format::Json ? ir::Format::Json : ir::Format::MsgPack; }

Diagnostic toApi(const host::Diagnostic& d) {
    return Diagnostic{host::severityName(d.severity), d.rule, d.message, d.file, d.line, d.column};
}

// Runs `pipeline` over the program in place, its verifiers if `verify`; a failure becomes a PassError
// carrying the diagnostics, those of a success go to `succeeded` if given.
void run(const host::Pipeline& pipeline, ir::Document& doc, bool verify = true,
         std::vector<Diagnostic>* succeeded = nullptr) {
    host::FileOptions options;
    options.verify = verify;
    host::FileReport report = host::runPipeline(doc, "<program>", pipeline, options);
    std::vector<Diagnostic> diagnostics;
    for (const host::Diagnostic& d : report.diagnostics) diagnostics.push_back(toApi(d));
    if (report.exitCode == host::kExitOk) {
        if (succeeded) *succeeded = std::move(diagnostics);
        return;
    }
    auto firstError = std::find_if(diagnostics.begin(), diagnostics.end(),
                                   [](const Diagnostic& d) { return d.severity.find("error") != std::string::npos; });
    // A node pypto's constructor refuses is what pypto's own pass raises as a TypeError when it builds it.
    if (firstError != diagnostics.end() && firstError->rule == "pto-host/invalid-ir")
        if (auto broken = ir::firstNodeRuleBreak(doc);
            broken && broken->typeError && firstError->message.find(broken->message) != std::string::npos)
            throw PassError(broken->message, std::move(diagnostics), false, true);
    throw PassError(firstError != diagnostics.end() ? firstError->message : report.messages, std::move(diagnostics),
                    report.exitCode == host::kExitInternal);
}

}  // namespace

PassError::PassError(const std::string& what, std::vector<Diagnostic> diagnostics, bool internal, bool nodeRefused)
    : std::runtime_error(what), diagnostics_(std::move(diagnostics)), internal_(internal), nodeRefused_(nodeRefused) {}

// --- Program ---------------------------------------------------------------------------------------

Program::Program(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

Program ProgramAccess::fromDocument(std::unique_ptr<ir::Document> doc) {
    return Program(std::make_unique<Program::Impl>(Program::Impl{std::move(doc)}));
}

const ir::Document& ProgramAccess::document(const Program& program) { return *program.impl_->doc; }

Program Program::read(const std::string& path) {
    auto doc = ir::readFile(path);
    if (!doc) raise(doc.error());
    return Program(std::make_unique<Impl>(Impl{std::move(*doc)}));
}

Program Program::from_bytes(std::string_view bytes) {
    auto doc = ir::readDocument(bytes, ir::Format::Auto, "<bytes>");  // copies what it keeps
    if (!doc) raise(doc.error());
    return Program(std::make_unique<Impl>(Impl{std::move(*doc)}));
}

Format Program::format() const {
    return impl_->doc->inputFormat() == ir::Format::Json ? Format::Json : Format::MsgPack;
}

void Program::write(const std::string& path) const {
    const ir::Format byName = ir::formatForName(path);
    write(path, byName == ir::Format::Json ? Format::Json : byName == ir::Format::MsgPack ? Format::MsgPack : format());
}

void Program::write(const std::string& path, Format format) const {
    ir::WriteOptions options{toIr(format), false};
    if (auto err = io::writeOutput(path, [&](ir::Sink& s) { return ir::writeDocument(*impl_->doc, options, s); }))
        raise(*err);
}

std::string Program::to_bytes(Format format) const {
    auto bytes = ir::writeToString(*impl_->doc, ir::WriteOptions{toIr(format), false});
    if (!bytes) raise(bytes.error());
    return std::move(*bytes);
}

// --- Pass, passes ---------------------------------------------------------------------------------

Pass::Pass(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

const std::string& Pass::name() const { return impl_->name; }
const std::vector<std::string>& Pass::required() const { return impl_->pipeline->stages[0].required; }
const std::vector<std::string>& Pass::produced() const { return impl_->pipeline->stages[0].produced; }
const std::vector<std::string>& Pass::invalidated() const { return impl_->pipeline->stages[0].invalidated; }

Program Pass::operator()(Program program) const {
    run(*impl_->pipeline, *program.impl_->doc);
    return program;
}

Program Pass::transform(Program program, std::vector<Diagnostic>* diagnostics) const {
    run(*impl_->pipeline, *program.impl_->doc, false, diagnostics);
    return program;
}

std::string defaultPluginDir() {
    if (const char* dir = std::getenv("PTOPLUG_PLUGIN_DIR"); dir && *dir) return dir;
    Dl_info info{};
    if (::dladdr(reinterpret_cast<void*>(&defaultPluginDir), &info) == 0 || !info.dli_fname) return "lib/ptoplug";
    std::error_code ec;
    fs::path binary = fs::canonical(info.dli_fname, ec);
    return (binary.parent_path().parent_path() / "lib" / "ptoplug").string();
}

std::vector<std::string> manifestsIn(const std::string& pluginDir) { return host::manifestsInFolder(pluginDir); }

Pass load_pass(const std::string& manifest, const std::string& pass,
               const std::vector<std::pair<std::string, std::string>>& options) {
    auto plugin = host::loadFromManifest(manifest);
    if (!plugin) raise(plugin.error());
    auto impl = std::make_shared<Pass::Impl>();
    impl->name = pass;
    impl->pipeline = std::make_unique<host::Pipeline>();
    impl->pipeline->plugins.push_back(std::move(*plugin));
    const host::Plugin& loaded = impl->pipeline->plugins.back();
    auto declared = std::find_if(loaded.manifest.passes.begin(), loaded.manifest.passes.end(),
                                 [&](const host::ManifestPass& p) { return p.name == pass; });
    if (declared == loaded.manifest.passes.end()) {
        std::string known;
        for (const host::ManifestPass& p : loaded.manifest.passes) known += (known.empty() ? "" : ", ") + p.name;
        throw FileError(manifest + ": plugin " + loaded.manifest.name + " has no pass named " + pass +
                        " (it has: " + known + ")");
    }
    impl->pipeline->stages.push_back(host::Stage{pass, 1, declared->required, declared->produced, declared->invalidated,
                                                 &loaded, loaded.loaded->pass(pass), declared->optionValues});
    for (const auto& [key, value] : options)
        if (Status err =
                host::setPassOption(*impl->pipeline, pass + "." + key + "=" + value, host::OptionOrigin::Kind::Api))
            raise(*err);
    if (Status err = host::checkPassOptions(*impl->pipeline)) raise(*err);  // plugin code, in this process
    return Pass(std::move(impl));
}

namespace passes {

Pass MaterializeDistTensorCtx() { return MaterializeDistTensorCtx(defaultPluginDir()); }

Pass MaterializeDistTensorCtx(const std::string& pluginDir) {
    const std::string name = "MaterializeDistTensorCtx";
    for (const std::string& path : manifestsIn(pluginDir)) {
        auto manifest = host::readManifest(path);
        if (manifest && std::any_of(manifest->passes.begin(), manifest->passes.end(),
                                    [&](const host::ManifestPass& p) { return p.name == name; }))
            return load_pass(path, name);
    }
    throw FileError("no plugin in " + pluginDir + " provides pass " + name +
                    " (set PTOPLUG_PLUGIN_DIR, or pass the folder of its manifest)");
}

}  // namespace passes

// --- PassManager ---------------------------------------------------------------------------------

namespace {

// The installed plugins (if `defaultPlugins`) and `manifests`, loaded in this process, in pypto's default
// pipeline.
std::unique_ptr<host::Pipeline> pipelineOf(const std::vector<std::string>& manifests, bool defaultPlugins) {
    std::vector<std::string> all = defaultPlugins ? manifestsIn(defaultPluginDir()) : std::vector<std::string>{};
    all.insert(all.end(), manifests.begin(), manifests.end());
    std::vector<host::Plugin> plugins;
    for (const std::string& path : all) {
        auto plugin = host::loadFromManifest(path);
        if (!plugin) raise(plugin.error());
        plugins.push_back(std::move(*plugin));
    }
    auto pipeline = host::buildPipeline(std::move(plugins));
    if (!pipeline) raise(pipeline.error());
    return std::move(*pipeline);
}

}  // namespace

PassManager::PassManager(const std::vector<std::string>& manifests, bool defaultPlugins,
                         const std::vector<std::string>& passOptions) {
    auto impl = std::make_shared<Impl>();
    impl->pipeline = pipelineOf(manifests, defaultPlugins);
    for (const std::string& setting : passOptions)
        if (Status err = host::setPassOption(*impl->pipeline, setting, host::OptionOrigin::Kind::Api)) raise(*err);
    if (Status err = host::checkPassOptions(*impl->pipeline)) raise(*err);
    impl_ = std::move(impl);
}

PassManager PassManager::parse(const std::string& passList, const std::vector<std::string>& manifests,
                               bool defaultPlugins) {
    auto impl = std::make_shared<Impl>();
    impl->pipeline = pipelineOf(manifests, defaultPlugins);
    if (Status err = host::restrictToPassList(*impl->pipeline, passList)) raise(*err);
    if (Status err = host::checkPassOptions(*impl->pipeline)) raise(*err);
    return PassManager(std::move(impl));
}

Program PassManager::run(Program program) const {
    ptoplug::run(*impl_->pipeline, *program.impl_->doc);
    return program;
}

std::string PassManager::describe() const { return host::describePipeline(*impl_->pipeline); }

}  // namespace ptoplug
