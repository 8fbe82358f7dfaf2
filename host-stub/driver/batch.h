// Many programs at once, in worker processes, so that an error or even a plugin crash on one file is
// reported and every other file completes.
#pragma once

#include <string>
#include <vector>

#include "driver/process_file.h"

namespace ptoplug::host {

struct BatchItem {
    std::string input;
    std::string output;
};

/// Files, directories (recursively; outputs keep the relative path) and globs, mapped into `outDir`
/// under their own names. Fails (with a message) on a missing input or two inputs with one output.
ir::Expected<std::vector<BatchItem>> expandBatchInputs(const std::vector<std::string>& inputs,
                                                       const std::string& outDir);

/// Processes every item with up to `jobs` at a time; prints each file's messages as it finishes,
/// a progress line when stderr is a terminal, and a summary. Returns 0 if every file succeeded, else
/// the highest exit code of the failed files.
int runBatch(const Pipeline& pipeline, const std::vector<BatchItem>& items, int jobs, const FileOptions& options);

}  // namespace ptoplug::host
