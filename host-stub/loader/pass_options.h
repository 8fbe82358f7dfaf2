// Pass options (pto_option_desc): what a pass declares, and values in their text form checked against
// those declarations. Used by the loader (descriptors), the pipeline (manifests) and the CLI
// (--pass-option PASS.KEY=VALUE).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "abi_host/run_settings.h"
#include "ptoplug/abi.h"

namespace ptoplug::host {

/// The options a pass declares (none for a 1.0 descriptor, whose struct ends before them).
std::span<const pto_option_desc* const> declaredOptions(const pto_pass_desc& pass);

/// The declaration of option `name` of `pass`, or nullptr.
const pto_option_desc* findOption(const pto_pass_desc& pass, std::string_view name);

/// "bool", "int", "float", "string".
const char* optionTypeName(pto_option_type type);

/// Parses `text` as a value of `type` into `*out`; on failure returns what the text should look like.
std::optional<std::string> parseOptionValue(pto_option_type type, std::string_view text, OptionValue* out);

/// The broken rule of a pass's option declarations (names, types, defaults), or nothing.
std::optional<std::string> checkOptionDeclarations(const pto_pass_desc& pass);

/// The pass's options at their declared defaults.
std::vector<PassOption> defaultOptions(const pto_pass_desc& pass);

/// Sets option `name` of `pass` in `options` from `text`; on failure returns the message (unknown
/// name with the declared ones listed, or the expected form).
std::optional<std::string> setOption(const pto_pass_desc& pass, std::vector<PassOption>& options, std::string_view name,
                                     std::string_view text);

}  // namespace ptoplug::host
