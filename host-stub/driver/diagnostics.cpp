#include "driver/diagnostics.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/printable.h"

namespace ptoplug::host {
namespace {

using nlohmann::json;

json orNull(const std::string& s) { return s.empty() ? json() : json(s); }
json orNull(int64_t n) { return n > 0 ? json(n) : json(); }

// The one schema of the json format: every key present, null when unknown.
std::string jsonLine(json file, json line, json column, json end, const std::string& severity, json rule,
                     const std::string& message, json pass, json plugin, json input, json pointer, json hint) {
    json j = {{"file", file},         {"line", line},   {"column", column},   {"end", end},
              {"severity", severity}, {"rule", rule},   {"message", message}, {"pass", pass},
              {"plugin", plugin},     {"input", input}, {"pointer", pointer}, {"hint", hint}};
    return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string gSarifLines;  // the json lines a sarif run keeps until it ends

}  // namespace

const char* severityName(pto_severity s) {
    switch (s) {
        case PTO_SEVERITY_NOTE: return "note";
        case PTO_SEVERITY_WARNING: return "warning";
        case PTO_SEVERITY_ERROR: return "error";
        case PTO_SEVERITY_INTERNAL_ERROR: return "internal error";
        case PTO_SEVERITY_MAX_ENUM: break;
    }
    return "error";
}

std::string formatDiagnostic(const Diagnostic& d, const std::string& input, DiagnosticsFormat format) {
    const bool located = d.line > 0 && !d.file.empty();
    if (format != DiagnosticsFormat::Text) {
        json end = d.endLine > 0 ? json{{"line", d.endLine}, {"column", d.endColumn > 0 ? json(d.endColumn) : json()}}
                                 : json();
        return jsonLine(located ? json(d.file) : json(input), located ? json(d.line) : json(),
                        located ? orNull(d.column) : json(), located ? end : json(), severityName(d.severity),
                        orNull(d.rule), d.message, orNull(d.pass), orNull(d.plugin), input, json(), json());
    }
    std::string where =
        located ? printable(d.file) + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) : printable(input);
    std::string text = where + ": " + severityName(d.severity) + ": " + printable(d.message);
    if (!d.rule.empty()) text += " [" + printable(d.rule) + "]";
    if (located) text += " (in " + printable(input) + ")";
    return text + "\n";
}

std::string formatError(const Error& error, DiagnosticsFormat format) {
    if (format == DiagnosticsFormat::Text) return error.format() + "\n";
    return jsonLine(orNull(error.file), orNull(error.line), orNull(error.column), json(), "error", json(),
                    error.message, json(), json(), orNull(error.file), orNull(error.pointer), orNull(error.hint));
}

std::string formatNote(const std::string& rule, const std::string& message, DiagnosticsFormat format) {
    if (format == DiagnosticsFormat::Text) return "pto-host: note: " + printable(message) + "\n";
    return jsonLine(json(), json(), json(), json(), "note", rule, message, json(), json(), json(), json(), json());
}

void writeDiagnostics(const std::string& lines, DiagnosticsFormat format) {
    if (format == DiagnosticsFormat::Sarif) {
        gSarifLines += lines;
        return;
    }
    std::fwrite(lines.data(), 1, lines.size(), stderr);  // by length: nothing in the text may end it early
}

void finishDiagnostics(DiagnosticsFormat format) {
    if (format != DiagnosticsFormat::Sarif) return;
    json results = json::array();
    std::map<std::string, json> rules;
    std::istringstream in(gSarifLines);
    for (std::string line; std::getline(in, line);) {
        json d = json::parse(line, nullptr, false);
        if (d.is_discarded()) continue;
        const std::string severity = d["severity"];
        json result = {{"level", severity == "warning" ? "warning"
                                 : severity == "note"  ? "note"
                                                       : "error"},
                       {"message", {{"text", d["message"]}}}};
        if (d["rule"].is_string()) {
            const std::string rule = d["rule"];
            result["ruleId"] = rule;
            json descriptor = {{"id", rule}, {"helpUri", "docs/diagnostics.md"}};
            if (d["plugin"].is_string()) descriptor["properties"] = {{"plugin", d["plugin"]}};
            rules.emplace(rule, descriptor);
        }
        if (d["file"].is_string()) {
            json region = json::object();
            if (d["line"].is_number()) region["startLine"] = d["line"];
            if (d["column"].is_number()) region["startColumn"] = d["column"];
            if (d["end"].is_object() && d["end"]["line"].is_number()) region["endLine"] = d["end"]["line"];
            if (d["end"].is_object() && d["end"]["column"].is_number()) region["endColumn"] = d["end"]["column"];
            json location = {{"artifactLocation", {{"uri", d["file"]}}}};
            if (!region.empty()) location["region"] = region;
            result["locations"] = json::array({{{"physicalLocation", location}}});
        }
        json properties = json::object();
        for (const char* key : {"pass", "plugin", "input", "pointer", "hint"})
            if (d[key].is_string()) properties[key] = d[key];
        if (!properties.empty()) result["properties"] = properties;
        results.push_back(result);
    }
    json ruleList = json::array();
    for (auto& [id, descriptor] : rules) ruleList.push_back(descriptor);
    json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                {"version", "2.1.0"},
                {"runs", json::array({{{"tool",
                                        {{"driver",
                                          {{"name", "pto-host"},
                                           {"version", "0.1.0"},
                                           {"informationUri", "docs/diagnostics.md"},
                                           {"rules", ruleList}}}}},
                                       {"results", results}}})}};
    const std::string text = log.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    std::fwrite(text.data(), 1, text.size(), stderr);
    gSarifLines.clear();
}

}  // namespace ptoplug::host
