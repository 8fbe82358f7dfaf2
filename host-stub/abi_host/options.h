// Pass options (pto_option_desc), as one type from declaration to the pass: what a pass declares, a value
// for one and where the value came from (the declared default, a manifest, --pass-option or the C++ API),
// checked against the declaration. The loader checks the declarations, the pipeline resolves each plugin
// stage's options (and describes them), a value's setting gives it again on a command line
// (PassOption::setting, for reproducers), and the table's pass_option entry (options.cpp) hands the
// running pass its own.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "ptoplug/abi.h"

namespace ptoplug::host {

/// Where an option's value came from: errors name it (a manifest by file and JSON Pointer, a setting as it
/// was given), and so does `pto-host pipeline`.
struct OptionOrigin {
    enum class Kind : uint8_t { Default, Manifest, CommandLine, Api, PassList };
    Kind kind = Kind::Default;
    std::string file;     ///< Manifest: the manifest's path
    std::string pointer;  ///< Manifest: the value's JSON Pointer
    std::string setting;  ///< CommandLine, Api, PassList: "PASS.KEY=VALUE" as given (PassList: as --passes gave it)

    /// "default", "manifest M", "--pass-option", "the C++ API", "--passes".
    std::string describe() const;
    /// An error about the value given here: it names the manifest and the JSON Pointer, or the setting as
    /// given (`--pass-option S`, or the PassManager's pass option S). Without a hint, it says how a value is
    /// written here.
    Error error(std::string message, std::string hint = "") const;
};

/// A value as it was given, before it is checked against the option's declared type: text (a declared
/// default, --pass-option, the C++ API) or a manifest's typed JSON value, never turned into text.
struct OptionInput {
    enum class Kind : uint8_t { Text, Bool, Integer, Float, String };
    Kind kind = Kind::Text;
    std::string text;       ///< Text, String: the text; otherwise the JSON value as written, for messages
    bool b = false;         ///< Bool
    int64_t i = 0;          ///< Integer, when `fitsInt64`
    bool fitsInt64 = true;  ///< Integer: false for a JSON integer past the 64-bit range
    double d = 0;           ///< Integer, Float: the number
};

/// An option's value, of the option's declared type.
struct OptionValue {
    pto_option_type type = PTO_OPTION_STRING;
    bool b = false;
    int64_t i = 0;
    double d = 0;
    std::string s;

    /// The value in pto_option_desc's text form (--pass-option's): it reads back as this very value.
    std::string text() const;
};

/// What a pass's check_options refused (refuse_option): the option and why, or nothing (an empty option).
struct OptionRefusal {
    std::string option;
    std::string message;
};

/// One option of a pass: its name, its value and where the value came from.
struct PassOption {
    std::string name;
    OptionValue value;
    OptionOrigin origin;

    /// "PASS.NAME=VALUE", the --pass-option that gives this value to `pass` again.
    std::string setting(std::string_view pass) const;
};

/// The options a pass declares (none for a 1.0 descriptor, whose struct ends before them).
std::span<const pto_option_desc* const> declaredOptions(const pto_pass_desc& pass);

/// The pass's check of its option values (ABI 1.2), or nullptr (none, or a descriptor before 1.2).
pto_option_check_fn optionCheck(const pto_pass_desc& pass);

/// The declaration of option `name` of `pass`, or nullptr.
const pto_option_desc* findOption(const pto_pass_desc& pass, std::string_view name);

/// "bool", "int", "float", "string".
const char* optionTypeName(pto_option_type type);

/// The broken rule of a pass's option declarations (names, types, defaults), or nothing.
std::optional<std::string> checkOptionDeclarations(const pto_pass_desc& pass);

/// The pass's options at their declared defaults.
std::vector<PassOption> defaultOptions(const pto_pass_desc& pass);

/// Appends `options` of pass `pass` to `out` as a verifier of its plugin reads them (pass_option):
/// named "PASS.NAME", as --pass-option spells them; a name already in `out` is kept as it is.
void addVerifierOptions(std::vector<PassOption>& out, std::string_view pass, const std::vector<PassOption>& options);

/// Sets option `name` of `pass` in `options` (its resolved options, defaultOptions first) to `input`,
/// given at `origin`. The error (unknown name, with the declared ones listed; a value of the wrong type or
/// form) names the origin and what to write instead.
Status setOption(const pto_pass_desc& pass, std::vector<PassOption>& options, std::string_view name,
                 const OptionInput& input, const OptionOrigin& origin);

}  // namespace ptoplug::host
