// The passes' checks of their option values (pto_pass_desc.check_options, ABI 1.2), run once the values are
// resolved and before any input is read: a refusal names the plugin, the pass, the option, where its value
// came from and the plugin's message. This runs plugin code: pto-host calls it in a child process
// (driver/plugin_probe.h), the C++ API in the caller's.
#pragma once

#include "base/error.h"
#include "pipeline/pipeline.h"

namespace ptoplug::host {

/// The check of a stage's option values, or nullptr (not a plugin stage, or its pass has none).
pto_option_check_fn stageOptionCheck(const Stage& stage);

/// Runs `stage`'s check (stageOptionCheck, not null) on its resolved options: a refusal is an error at
/// the refused value's origin (a manifest's value, --pass-option, --passes, the API, the declared default);
/// a check that fails (a status, an error diagnostic, process state it changed) is an error naming the
/// plugin's manifest.
Status checkStageOptions(const Stage& stage);

/// checkStageOptions for every stage that has a check, in pipeline order: the first error.
Status checkPassOptions(const Pipeline& pipeline);

}  // namespace ptoplug::host
