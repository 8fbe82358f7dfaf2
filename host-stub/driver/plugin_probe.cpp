#include "driver/plugin_probe.h"

#include "driver/progress.h"
#include "io/subprocess.h"

namespace ptoplug::host {

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
    io::ChildRun probe = io::runInChild(
        [&](int out) {
            // An explicit verdict: a plugin that ends the process early (exit(0) in a constructor)
            // must not pass for a successful load.
            auto pipeline = load(&board[0]);
            std::string verdict = pipeline ? "loaded" : "failed";
            return io::writeAll(out, verdict.data(), verdict.size()) ? 0 : 2;
        },
        timeoutSeconds, options);
    if (!probe.end.exitedWith(0) || (probe.output != "loaded" && probe.output != "failed")) {
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
    // The plugins load without crashing: load them here (an error is reported as the child saw it).
    return load(nullptr);
}

}  // namespace ptoplug::host
