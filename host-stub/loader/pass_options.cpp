#include "loader/pass_options.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

namespace ptoplug::host {

std::span<const pto_option_desc* const> declaredOptions(const pto_pass_desc& pass) {
    if (pass.struct_size < offsetof(pto_pass_desc, option_count) + sizeof(size_t) || !pass.options) return {};
    return {pass.options, pass.option_count};
}

const pto_option_desc* findOption(const pto_pass_desc& pass, std::string_view name) {
    for (const pto_option_desc* o : declaredOptions(pass))
        if (name == o->name) return o;
    return nullptr;
}

const char* optionTypeName(pto_option_type type) {
    switch (type) {
        case PTO_OPTION_BOOL: return "bool";
        case PTO_OPTION_INT: return "int";
        case PTO_OPTION_FLOAT: return "float";
        case PTO_OPTION_STRING: return "string";
        default: return "unknown";
    }
}

std::optional<std::string> parseOptionValue(pto_option_type type, std::string_view text, OptionValue* out) {
    OptionValue v;
    v.type = type;
    const std::string s(text);
    char* end = nullptr;
    errno = 0;
    switch (type) {
        case PTO_OPTION_BOOL:
            if (s != "true" && s != "false") return "a bool: true or false";
            v.b = s == "true";
            break;
        case PTO_OPTION_INT:
            v.i = std::strtoll(s.c_str(), &end, 10);
            if (s.empty() || *end || errno == ERANGE) return "an int: a decimal 64-bit integer";
            break;
        case PTO_OPTION_FLOAT:
            v.d = std::strtod(s.c_str(), &end);
            if (s.empty() || *end || errno == ERANGE || !std::isfinite(v.d)) return "a float: a finite decimal number";
            break;
        case PTO_OPTION_STRING: v.s = s; break;
        default: return "a value of a declared option type (the declaration's type is invalid)";
    }
    *out = std::move(v);
    return std::nullopt;
}

std::optional<std::string> checkOptionDeclarations(const pto_pass_desc& pass) {
    std::set<std::string> names;
    for (const pto_option_desc* o : declaredOptions(pass)) {
        if (!o || o->struct_size < sizeof(pto_option_desc)) return "an option descriptor is NULL or too small";
        if (!o->name || !*o->name) return "an option has no name";
        std::string name = o->name;
        if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
            std::string::npos)
            return "option '" + name + "' has a name outside [A-Za-z0-9_-]";
        if (!names.insert(name).second) return "option '" + name + "' is declared twice";
        if (!o->default_value) return "option '" + name + "' has no default value";
        OptionValue v;
        if (auto expected = parseOptionValue(o->type, o->default_value, &v))
            return "the default of option '" + name + "' is not " + *expected;
    }
    return std::nullopt;
}

std::vector<PassOption> defaultOptions(const pto_pass_desc& pass) {
    std::vector<PassOption> out;
    for (const pto_option_desc* o : declaredOptions(pass)) {
        PassOption p{o->name, {}};
        parseOptionValue(o->type, o->default_value, &p.value);  // checked when the plugin was loaded
        out.push_back(std::move(p));
    }
    return out;
}

std::optional<std::string> setOption(const pto_pass_desc& pass, std::vector<PassOption>& options, std::string_view name,
                                     std::string_view text) {
    if (const pto_option_desc* o = findOption(pass, name)) {
        OptionValue v;
        if (auto expected = parseOptionValue(o->type, text, &v))
            return "option '" + std::string(name) + "' of pass " + pass.name + " takes " + *expected + ", not '" +
                   std::string(text) + "'";
        // Each declared option has one entry.
        auto entry = std::find_if(options.begin(), options.end(), [&](const PassOption& p) { return p.name == name; });
        if (entry != options.end()) entry->value = std::move(v);
        return std::nullopt;
    }
    std::string known;
    for (const pto_option_desc* o : declaredOptions(pass))
        known += (known.empty() ? "" : ", ") + std::string(o->name) + " (" + optionTypeName(o->type) + ")";
    return "pass " + std::string(pass.name) + " has no option '" + std::string(name) + "'; it declares " +
           (known.empty() ? std::string("none") : known);
}

}  // namespace ptoplug::host
