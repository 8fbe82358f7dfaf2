#include "pipeline/option_check.h"

#include <algorithm>

#include "abi_host/runner.h"

namespace ptoplug::host {
namespace {

// The refusal of `o`, at the place its value was given.
Error refused(const Stage& stage, const PassOption& o, const std::string& message) {
    const std::string setting = stage.name + "." + o.name;
    return o.origin.error(
        "plugin " + describePlugin(*stage.plugin) + " refuses option '" + o.name + "' of pass " + stage.name + ", '" +
            o.value.text() + "' (from " + o.origin.describe() + "): " + message,
        o.origin.kind == OptionOrigin::Kind::Default
            ? "the plugin refuses its own default: give " + setting + " a value (--pass-option), or fix the plugin"
            : "give " + setting + " a value the pass accepts, where this one was given");
}

// Why a check failed: its status, its first error diagnostic, or the process state it changed.
std::string whyFailed(const RunOutcome& outcome) {
    if (!outcome.lostProcessState.empty())
        return "it changed what the host cannot put back: " + outcome.lostProcessState;
    for (const Diagnostic& d : outcome.diagnostics)
        if (d.severity >= PTO_SEVERITY_ERROR) return d.message;
    return std::string("it returned ") + statusName(outcome.status);
}

}  // namespace

pto_option_check_fn stageOptionCheck(const Stage& stage) {
    return stage.plugin && stage.pass ? optionCheck(*stage.pass) : nullptr;
}

Status checkStageOptions(const Stage& stage) {
    const RunOutcome outcome = runOptionCheck(stageOptionCheck(stage), stage.options);
    if (!outcome.refusal.option.empty()) {
        auto o = std::find_if(stage.options.begin(), stage.options.end(),
                              [&](const PassOption& p) { return p.name == outcome.refusal.option; });
        if (o != stage.options.end()) return refused(stage, *o, outcome.refusal.message);
    }
    if (outcome.failed())
        return fileError(stage.plugin->manifest.path,
                         "the check of pass " + stage.name + "'s options by plugin " + describePlugin(*stage.plugin) +
                             " failed: " + whyFailed(outcome),
                         "fix the plugin, or remove this manifest from the pipeline");
    return std::nullopt;
}

Status checkPassOptions(const Pipeline& pipeline) {
    for (const Stage& stage : pipeline.stages)
        if (stageOptionCheck(stage))
            if (Status err = checkStageOptions(stage)) return err;
    return std::nullopt;
}

}  // namespace ptoplug::host
