// Pass options: the rules of their declarations and values (options.h), and the table's pass_option entry,
// which hands the running pass the options the pipeline resolved before any program was read (declared
// defaults, then the manifest, then --pass-option or the C++ API).
#include "abi_host/options.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>

#include "abi_host/entries.h"
#include "abi_host/handles.h"

namespace ptoplug::host {
namespace {

// Parses `text` as a value of `type` into `*out`; on failure returns what the text should look like.
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

// A manifest's typed JSON value as a value of `type`: false when its JSON type cannot stand for one (an
// integer may stand for a float); `why` says what is wrong with a value of the right JSON type.
bool fromJson(pto_option_type type, const OptionInput& input, OptionValue* out, std::optional<std::string>* why) {
    out->type = type;
    switch (input.kind) {
        case OptionInput::Kind::Bool: out->b = input.b; return type == PTO_OPTION_BOOL;
        case OptionInput::Kind::Integer:
            if (type == PTO_OPTION_INT && !input.fitsInt64) *why = "an int: a decimal 64-bit integer";
            out->i = input.i;
            out->d = input.d;
            return type == PTO_OPTION_INT || type == PTO_OPTION_FLOAT;
        case OptionInput::Kind::Float:
            if (!std::isfinite(input.d)) *why = "a float: a finite decimal number";
            out->d = input.d;
            return type == PTO_OPTION_FLOAT;
        case OptionInput::Kind::String: out->s = input.text; return type == PTO_OPTION_STRING;
        case OptionInput::Kind::Text: break;
    }
    return false;
}

}  // namespace

std::string OptionOrigin::describe() const {
    switch (kind) {
        case Kind::Default: return "default";
        case Kind::Manifest: return "manifest " + file;
        case Kind::CommandLine: return "--pass-option";
        case Kind::Api: return "the C++ API";
        case Kind::PassList: return "--passes";
    }
    return "";
}

Error OptionOrigin::error(std::string message, std::string hint) const {
    Error e;
    switch (kind) {
        case Kind::Default: e.file = "<declared default>"; break;
        case Kind::Manifest:
            e.file = file;
            e.pointer = pointer;
            break;
        case Kind::CommandLine: e.file = "--pass-option " + setting; break;
        case Kind::Api: e.file = "ptoplug::PassManager pass option " + setting; break;
        case Kind::PassList: e.file = "--passes"; break;
    }
    if (hint.empty()) {
        switch (kind) {
            case Kind::Manifest: hint = "fix the value in the manifest, or the option's name"; break;
            case Kind::Api: hint = "give it as \"PASS.KEY=VALUE\", e.g. \"RenameFunctions.pattern=chip_(.*)\""; break;
            case Kind::PassList:
                hint = "write it in the pass's braces, e.g. --passes 'RenameFunctions{pattern=chip_(.*)}'";
                break;
            default: hint = "write --pass-option PASS.KEY=VALUE, e.g. --pass-option RenameFunctions.pattern=chip_(.*)";
        }
    }
    e.message = std::move(message);
    e.hint = std::move(hint);
    return e;
}

std::string OptionValue::text() const {
    switch (type) {
        case PTO_OPTION_BOOL: return b ? "true" : "false";
        case PTO_OPTION_INT: return std::to_string(i);
        case PTO_OPTION_FLOAT: {
            char buffer[32];
            const auto end = std::to_chars(buffer, buffer + sizeof buffer, d).ptr;  // shortest that reads back
            return std::string(buffer, end);
        }
        default: return s;
    }
}

std::string PassOption::setting(std::string_view pass) const {
    return std::string(pass) + "." + name + "=" + value.text();
}

std::span<const pto_option_desc* const> declaredOptions(const pto_pass_desc& pass) {
    if (pass.struct_size < PTO_PASS_DESC_1_1_SIZE || !pass.options) return {};
    return {pass.options, pass.option_count};
}

pto_option_check_fn optionCheck(const pto_pass_desc& pass) {
    return pass.struct_size >= offsetof(pto_pass_desc, check_options) + sizeof(pto_option_check_fn) ? pass.check_options
                                                                                                    : nullptr;
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

void addVerifierOptions(std::vector<PassOption>& out, std::string_view pass, const std::vector<PassOption>& options) {
    for (const PassOption& o : options) {
        PassOption qualified = o;
        qualified.name = std::string(pass) + "." + o.name;
        const bool known =
            std::any_of(out.begin(), out.end(), [&](const PassOption& x) { return x.name == qualified.name; });
        if (!known) out.push_back(std::move(qualified));
    }
}

std::vector<PassOption> defaultOptions(const pto_pass_desc& pass) {
    std::vector<PassOption> out;
    for (const pto_option_desc* o : declaredOptions(pass)) {
        PassOption p{o->name, {}, {}};
        parseOptionValue(o->type, o->default_value, &p.value);  // checked when the plugin was loaded
        out.push_back(std::move(p));
    }
    return out;
}

Status setOption(const pto_pass_desc& pass, std::vector<PassOption>& options, std::string_view name,
                 const OptionInput& input, const OptionOrigin& origin) {
    const pto_option_desc* o = findOption(pass, name);
    if (!o) {
        std::string known;
        for (const pto_option_desc* d : declaredOptions(pass))
            known += (known.empty() ? "" : ", ") + std::string(d->name) + " (" + optionTypeName(d->type) + ")";
        return origin.error("pass " + std::string(pass.name) + " has no option '" + std::string(name) +
                            "'; it declares " + (known.empty() ? std::string("none") : known));
    }
    OptionValue v;
    std::optional<std::string> expected;
    if (input.kind == OptionInput::Kind::Text) {
        expected = parseOptionValue(o->type, input.text, &v);
    } else if (!fromJson(o->type, input, &v, &expected)) {
        return origin.error("option '" + std::string(name) + "' of pass " + pass.name + " is a " +
                                optionTypeName(o->type) + "; the manifest gives another JSON type",
                            "write it as a JSON " + std::string(optionTypeName(o->type)));
    }
    if (expected)
        return origin.error("option '" + std::string(name) + "' of pass " + pass.name + " takes " + *expected +
                            ", not '" + input.text + "'");
    // Each declared option has one entry.
    auto entry = std::find_if(options.begin(), options.end(), [&](const PassOption& p) { return p.name == name; });
    if (entry != options.end()) {
        entry->value = std::move(v);
        entry->origin = origin;
    }
    return std::nullopt;
}

}  // namespace ptoplug::host

namespace ptoplug::host::table {

pto_status passOption(pto_run_context* ctx, pto_string name, pto_value* out) {
    PTO_REQUIRE(out && (name.data || !name.size), PTO_ERR_INVALID_HANDLE);
    if (ctx->settings.options)
        for (const PassOption& o : *ctx->settings.options) {
            if (o.name != view(name)) continue;
            switch (o.value.type) {
                case PTO_OPTION_BOOL: *out = madeValue(ctx, Value::boolean(o.value.b)); break;
                case PTO_OPTION_INT: *out = madeValue(ctx, Value::integer(o.value.i)); break;
                case PTO_OPTION_FLOAT: *out = madeValue(ctx, Value::f64(o.value.d)); break;
                default: *out = madeValue(ctx, Value::str(o.value.s)); break;  // lives as long as the run
            }
            return PTO_OK;
        }
    return fail(
        ctx, PTO_ERR_NOT_FOUND,
        (ctx->settings.readOnly && !ctx->settings.optionCheck ? "no pass of the verifier's plugin declares option '"
                                                              : "the running pass declares no option '") +
            std::string(view(name)) +
            "' (options are declared in pto_pass_desc.options; a verifier reads its plugin's as PASS.NAME)");
}

pto_status refuseOption(pto_run_context* ctx, pto_string name, pto_string message) {
    PTO_REQUIRE((name.data || !name.size) && (message.data || !message.size), PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE_WHY(ctx->settings.optionCheck, PTO_ERR_UNSUPPORTED,
                    "only a pass's check_options refuses an option; a pass reports a bad value as a diagnostic");
    const bool declared =
        ctx->settings.options && std::any_of(ctx->settings.options->begin(), ctx->settings.options->end(),
                                             [&](const PassOption& o) { return o.name == view(name); });
    PTO_REQUIRE_WHY(declared, PTO_ERR_NOT_FOUND, "the pass declares no option '" + std::string(view(name)) + "'");
    if (ctx->refusal.option.empty()) ctx->refusal = OptionRefusal{std::string(view(name)), std::string(view(message))};
    return PTO_OK;
}

}  // namespace ptoplug::host::table
