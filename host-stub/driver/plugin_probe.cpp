#include "driver/plugin_probe.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "driver/progress.h"
#include "io/subprocess.h"
#include "pipeline/option_check.h"

namespace ptoplug::host {
namespace {

constexpr char kLoaded[] = "loaded\n";  // then each plugin's negotiated minor and descriptor, as JSON
constexpr char kFailed[] = "failed\n";  // then the error, as JSON
constexpr char kChecked[] = "checked";

std::string errorAsJson(const Error& e) {
    return nlohmann::json{{"file", e.file},     {"pointer", e.pointer}, {"line", e.line}, {"column", e.column},
                          {"offset", e.offset}, {"message", e.message}, {"hint", e.hint}}
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<Error> errorFromJson(const std::string& text) {
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        Error e;
        e.file = j.at("file");
        e.pointer = j.at("pointer");
        e.line = j.at("line");
        e.column = j.at("column");
        e.offset = j.at("offset");
        e.message = j.at("message");
        e.hint = j.at("hint");
        return e;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

// What the child that loaded the plugins tells pto-host of each: its negotiated minor, its descriptor's data.
struct Description {
    uint32_t minor = 0;
    std::string descriptor;  ///< DescriptorCopy::serialize
};

std::string descriptionsAsJson(const Pipeline& pipeline) {
    nlohmann::json all = nlohmann::json::array();
    for (const Plugin& p : pipeline.plugins)
        all.push_back(
            {{"minor", p.loaded->abiMinor()}, {"descriptor", DescriptorCopy::serialize(p.loaded->descriptor())}});
    return all.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Nothing unless the text holds `count` descriptions.
std::optional<std::vector<Description>> descriptionsFromJson(const std::string& text, size_t count) {
    try {
        std::vector<Description> out;
        for (const nlohmann::json& j : nlohmann::json::parse(text))
            out.push_back({j.at("minor").get<uint32_t>(), j.at("descriptor").get<std::string>()});
        if (out.size() == count) return out;
    } catch (const nlohmann::json::exception&) {
    }
    return std::nullopt;
}

}  // namespace

Expected<std::unique_ptr<Pipeline>> loadPipelineIsolated(const std::vector<std::string>& manifests,
                                                         double timeoutSeconds) {
    auto load = [&](WorkerProgress* progress) -> Expected<std::unique_ptr<Pipeline>> {
        std::vector<Plugin> plugins;
        for (size_t i = 0; i < manifests.size(); ++i) {
            if (progress) progress->item.store(static_cast<uint32_t>(i));
            auto plugin = loadFromManifest(manifests[i]);
            if (!plugin) return plugin.error();
            plugins.push_back(std::move(*plugin));
        }
        return buildPipeline(std::move(plugins));
    };
    ProgressBoard board(1);
    if (!board.ok()) return fileError("", "cannot allocate shared memory", "");
    board[0].enter(Phase::Load);
    io::ChildOptions options;
    options.stdoutToStderr = true;
    options.ownGroup = true;  // what a constructor starts is found and ended with the probe
    io::ChildRun probe = io::runInChild(
        [&](int out) {
            // An explicit verdict: a plugin that ends the process early (exit(0) in a constructor)
            // must not pass for a successful load. A failed load's error comes with it, so that pto-host
            // need not run the plugin's code again to say it.
            auto pipeline = load(&board[0]);
            std::string verdict =
                pipeline ? kLoaded + descriptionsAsJson(**pipeline) : kFailed + errorAsJson(pipeline.error());
            return io::writeAll(out, verdict.data(), verdict.size()) ? 0 : 2;
        },
        timeoutSeconds, options);
    std::optional<Error> failed;
    if (probe.end.exitedWith(0) && probe.output.rfind(kFailed, 0) == 0)
        failed = errorFromJson(probe.output.substr(sizeof kFailed - 1));
    if (failed) return *failed;
    std::optional<std::vector<Description>> described;
    if (probe.end.exitedWith(0) && probe.output.rfind(kLoaded, 0) == 0)
        described = descriptionsFromJson(probe.output.substr(sizeof kLoaded - 1), manifests.size());
    if (!described) {
        size_t i = board[0].item.load();
        std::string manifest = i < manifests.size() ? manifests[i] : "<manifest>";
        std::string what = probe.timedOut ? "did not finish loading within " +
                                                std::to_string(static_cast<long long>(timeoutSeconds)) + " s"
                                          : "ended the process with " + probe.end.describe();
        // Named by its library as well: the manifest is only where the user can find it.
        auto declared = readManifest(manifest);
        const std::string library = declared ? " " + declared->library : std::string();
        return fileError(manifest,
                         "the plugin" + library + " of this manifest " + what +
                             " while loading (in a library constructor or its entry point)",
                         "fix the plugin, or remove this manifest from the pipeline");
    }
    // pto-host builds its pipeline from what the child saw, running no plugin code itself: the workers
    // load the plugins (loadPluginCode).
    std::vector<Plugin> plugins;
    for (size_t i = 0; i < manifests.size(); ++i) {
        auto copy = DescriptorCopy::parse((*described)[i].descriptor);
        if (!copy) return copy.error();
        auto plugin = describedFromManifest(manifests[i], std::move(*copy), (*described)[i].minor);
        if (!plugin) return plugin.error();
        plugins.push_back(std::move(*plugin));
    }
    return buildPipeline(std::move(plugins));
}

Status checkPassOptionsIsolated(Pipeline& pipeline, double timeoutSeconds) {
    // pto-host's pipeline holds copies of the descriptors, without code (a check there is a stand-in): the
    // child loads the plugins' code to run the checks.
    const auto& stages = pipeline.stages;
    if (std::none_of(stages.begin(), stages.end(), [](const Stage& s) { return stageOptionCheck(s); }))
        return std::nullopt;
    ProgressBoard board(1);
    if (!board.ok()) return fileError("", "cannot allocate shared memory", "");
    constexpr uint32_t kLoading = UINT32_MAX;
    board[0].item.store(kLoading);
    io::ChildOptions options;
    options.stdoutToStderr = true;
    options.ownGroup = true;  // what a check starts is found and ended with the child
    io::ChildRun probe = io::runInChild(
        [&](int out) {
            // The child's copy of the pipeline gets the plugins' code; pto-host's own stays without.
            Status err = loadPluginCode(pipeline);
            for (size_t i = 0; i < stages.size() && !err; ++i) {
                board[0].item.store(static_cast<uint32_t>(i));
                if (stageOptionCheck(stages[i])) err = checkStageOptions(stages[i]);
            }
            std::string verdict = err ? kFailed + errorAsJson(*err) : kChecked;
            return io::writeAll(out, verdict.data(), verdict.size()) ? 0 : 2;
        },
        timeoutSeconds, options);
    if (probe.end.exitedWith(0) && probe.output == kChecked) return std::nullopt;
    if (probe.end.exitedWith(0) && probe.output.rfind(kFailed, 0) == 0)
        if (std::optional<Error> e = errorFromJson(probe.output.substr(sizeof kFailed - 1))) return *e;
    const std::string what =
        probe.timedOut ? "did not finish within " + std::to_string(static_cast<long long>(timeoutSeconds)) + " s"
                       : "ended the process with " + probe.end.describe();
    const uint32_t at = board[0].item.load();
    if (at >= stages.size() || !stages[at].plugin)
        return fileError("<option checks>", "loading the plugins to check the passes' option values " + what,
                         "fix the plugin, or remove its manifest from the pipeline");
    const Stage& stage = stages[at];
    return fileError(
        stage.plugin->manifest.path,
        "the check of pass " + stage.name + "'s options by plugin " + describePlugin(*stage.plugin) + " " + what,
        "fix the plugin, or remove this manifest from the pipeline");
}

}  // namespace ptoplug::host
