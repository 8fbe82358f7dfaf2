#include "driver/worker_failure.h"

#include "driver/process_file.h"

namespace ptoplug::host {

std::string describeWhere(const Pipeline& pipeline, const FileOptions& options, Phase phase, int stageIndex,
                          int property) {
    const Stage* stage = stageIndex >= 0 && static_cast<size_t>(stageIndex) < pipeline.stages.size()
                             ? &pipeline.stages[stageIndex]
                             : nullptr;
    switch (phase) {
        case Phase::Idle: return "between files";
        case Phase::Load: return "while loading plugins";
        case Phase::Read: return "while reading the input";
        case Phase::Write: return "while writing the output";
        case Phase::Pass:
            if (stage && stage->plugin)
                return "in pass '" + stage->name + "' of plugin " + describePlugin(*stage->plugin);
            break;
        case Phase::Check:
            if (stage) return "in the host's structural check after pass '" + stage->name + "'";
            break;
        case Phase::Verify: {
            const std::vector<std::string> properties =
                stage ? verifiersAfter(*stage, options) : options.verifyProperties;
            if (property < 0 || static_cast<size_t>(property) >= properties.size()) break;
            const std::string& name = properties[property];
            const Plugin* owner = pipeline.verifierPlugin(name);
            return "in the verifier of property '" + name + "'" +
                   (owner ? " of plugin " + describePlugin(*owner) : std::string()) +
                   (stage ? ", after pass '" + stage->name + "'" : std::string());
        }
    }
    return "in the pipeline";
}

bool runsPluginCode(Phase phase) { return phase == Phase::Pass || phase == Phase::Verify || phase == Phase::Load; }

std::string memoryLimitExceeded(uint64_t limitMiB) {
    return "exceeded the memory limit of " + std::to_string(limitMiB) + " MiB (--memory-limit)";
}

}  // namespace ptoplug::host
