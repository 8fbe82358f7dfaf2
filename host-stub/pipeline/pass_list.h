// An explicit pipeline, written as mlir-opt writes one: `PassA,PassB{key=value other='a b'}`. Run instead
// of pypto's default pipeline with the plugins' passes placed in it (`pto-host run --passes`, `pipeline
// --passes`): exactly these passes, in this order, each with its options.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "pipeline/pipeline.h"

namespace ptoplug::host {

/// One pass of a list, with its options as written, and where each is in the text (0-based columns).
struct ListedPass {
    struct Setting {
        std::string key, value;
        size_t column = 0;
    };
    std::string name;
    size_t column = 0;
    std::vector<Setting> settings;
};

/// Parses a pass list. Names are identifiers; an option is `key=value`, separated by spaces; a value with
/// spaces, commas or braces is quoted ('...' or "..."). The error names the column and what to write.
Expected<std::vector<ListedPass>> parsePassList(std::string_view text);

/// Makes `pipeline` run exactly the passes of `text`, in order, with their options set (after the manifests'
/// values, before --pass-option's). Each must be a pass of a loaded plugin. The input is taken to hold what
/// pypto's default pipeline has established where the first listed pass is placed; each pass's required
/// properties must hold there, given what the passes before it produce and invalidate. Errors name the
/// column in `text`, the pass or option, and what to do.
Status restrictToPassList(Pipeline& pipeline, std::string_view text);

}  // namespace ptoplug::host
