// Loading plugins without trusting them: first in a child process, then here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "pipeline/pipeline.h"

namespace ptoplug::host {

/// Loads the plugins of `manifests` and builds the pipeline, first in a child process, so that a
/// plugin that crashes, exits or hangs in its constructors or entry point is reported as a plugin
/// problem naming its manifest, never a dead host.
Expected<std::unique_ptr<Pipeline>> loadPipelineIsolated(const std::vector<std::string>& manifests,
                                                         double timeoutSeconds);

}  // namespace ptoplug::host
