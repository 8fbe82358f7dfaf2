// Loading plugins without trusting them: pto-host's own process never loads one. A child loads them and
// builds the pipeline, and sends back what pto-host needs of each plugin (its descriptor's data); the
// workers load the plugins themselves (loadPluginCode). The passes' checks of their option values run in
// a child too.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "pipeline/pipeline.h"

namespace ptoplug::host {

/// Loads the plugins of `manifests` and builds the pipeline in a child process, so that a plugin that
/// crashes, exits or hangs in its constructors or entry point is reported as a plugin problem naming its
/// manifest, never a dead host; then builds the same pipeline here from the child's descriptions of the
/// plugins, running none of their code: its passes' run functions are NULL until loadPluginCode.
Expected<std::unique_ptr<Pipeline>> loadPipelineIsolated(const std::vector<std::string>& manifests,
                                                         double timeoutSeconds);

/// Runs the passes' checks of their option values (pipeline/option_check.h) in a child process that loads
/// the plugins' code into its copy of `pipeline` (pto-host's own is left as it is), once the options are
/// resolved: a refusal is the check's error, and a check that crashes, exits or hangs is reported naming
/// its plugin and pass, never a dead host. No child when no pass has a check.
Status checkPassOptionsIsolated(Pipeline& pipeline, double timeoutSeconds);

}  // namespace ptoplug::host
