// RenameFunctions: renames every function whose whole name matches the `pattern` option (an ECMAScript
// regular expression) to `replacement` (with $1, $2 ... for its groups). The host's function_rename
// keeps the program sorted and re-points every call, so the pass only decides names. A rename onto an
// existing name, or two functions onto one, is a user error and nothing is renamed. A pattern that is no
// regular expression, or a replacement that is no name, is refused once, before any input is read.
#include <map>
#include <optional>
#include <regex>
#include <string>

#include <ptoplug/sdk.hpp>

namespace {

using ptoplug::plugin::Host;
using ptoplug::plugin::OptionRefused;
using ptoplug::plugin::PassError;
using ptoplug::plugin::ps;

constexpr char kPass[] = "RenameFunctions";

// The option values' rule, for the check before any input (ABI 1.2) and, on an older host that never calls
// it, for the run: the pattern a regular expression, and then the replacement a name, its own characters
// (those that are no $1, $2 ... group) all of an identifier, not starting with a digit.
std::optional<OptionRefused> refusal(const std::string& pattern, const std::string& replacement, std::regex* re) {
    if (pattern.empty()) return std::nullopt;  // the default: nothing is renamed
    try {
        *re = std::regex(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        return OptionRefused{"pattern", "not a regular expression (" + std::string(e.what()) + ")"};
    }
    if (replacement.empty()) return OptionRefused{"replacement", "empty: every function renamed would have no name"};
    static const std::regex identifier("([A-Za-z_]|\\$[0-9]+)([A-Za-z0-9_]|\\$[0-9]+)*");
    if (!std::regex_match(replacement, identifier))
        return OptionRefused{"replacement",
                             "not a function name: letters, digits and _ (not first a digit) and the pattern's groups "
                             "$1, $2 ..."};
    return std::nullopt;
}

void checkOptions(const Host& h) {
    std::regex re;
    if (auto refused = refusal(std::string(h.stringOption("pattern")), std::string(h.stringOption("replacement")), &re))
        throw *refused;
}

void renameFunctions(const Host& h) {
    const std::string pattern(h.stringOption("pattern"));
    if (pattern.empty()) return;  // the default: nothing to do
    std::regex re;
    if (auto refused = refusal(pattern, std::string(h.stringOption("replacement")), &re))
        throw PassError{PTO_SEVERITY_ERROR, "RenameFunctions/bad-" + refused->option,
                        "option '" + refused->option + "' is " + refused->message, pto_node{}};
    const std::string replacement(h.stringOption("replacement"));
    std::map<std::string, pto_node> byName;
    for (size_t i = 0; i < h.functionCount(); ++i) byName[std::string(h.name(h.functionAt(i)))] = h.functionAt(i);
    std::map<std::string, std::string> wanted;  // old name -> new name
    for (const auto& [name, fn] : byName)
        if (std::regex_match(name, re)) {
            std::string to = std::regex_replace(name, re, replacement, std::regex_constants::format_first_only);
            if (to != name) wanted[name] = to;
        }
    std::map<std::string, std::string> renames;  // new name -> old name
    for (const auto& [from, to] : wanted) {
        // A name stays taken unless its own function is renamed away.
        const bool taken = byName.count(to) && !wanted.count(to);
        if (to.empty() || taken)
            throw PassError{PTO_SEVERITY_ERROR, "RenameFunctions/name-taken",
                            "cannot rename '" + from + "' to '" + to + "': " +
                                (to.empty() ? "the name would be empty" : "the program has a function of that name"),
                            byName[from]};
        if (auto [it, fresh] = renames.emplace(to, from); !fresh)
            throw PassError{PTO_SEVERITY_ERROR, "RenameFunctions/name-taken",
                            "'" + it->second + "' and '" + from + "' would both be named '" + to + "'", byName[from]};
    }
    // Two steps through unique temporary names, so that a chain (a -> b, b -> c) never collides.
    std::map<std::string, pto_node> staged;
    for (const auto& [to, from] : renames) {
        std::string temporary = "__rename_functions_" + std::to_string(staged.size()) + "_" + from;
        Host::check("function_rename", h.api()->function_rename(h.ctx(), byName[from], ps(temporary)));
        staged[to] = byName[from];
    }
    for (const auto& [to, fn] : staged) Host::check("function_rename", h.api()->function_rename(h.ctx(), fn, ps(to)));
}

constexpr pto_option_desc kPattern = ptoplug::plugin::option(
    "pattern", PTO_OPTION_STRING, "", "functions whose whole name matches this regular expression are renamed");
constexpr pto_option_desc kReplacement = ptoplug::plugin::option(
    "replacement", PTO_OPTION_STRING, "", "the new name; $1, $2 ... stand for the pattern's groups");
constexpr const pto_option_desc* kOptions[] = {&kPattern, &kReplacement};

constexpr ptoplug::plugin::Plugin kPlugin(
    {.name = "rename-functions", .version = "1.0.0"},  // 1.1: function_rename, pass_option
    {{.name = kPass,
      .description = "Renames functions matching a pattern; every call site follows",
      .run = ptoplug::plugin::guardedRun<kPass, renameFunctions>,
      .options = kOptions,
      .checkOptions = ptoplug::plugin::guardedRun<kPass, checkOptions>}});

}  // namespace

PTOPLUG_PLUGIN_ENTRY(kPlugin)
