#include "pipeline/manifest.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ptoplug::host {
namespace {

using json = nlohmann::json;

struct Bad {
    std::string pointer;
    std::string message;
};

const json& member(const json& obj, const std::string& at, const char* key, json::value_t type, bool required,
                   const json& absent) {
    if (!obj.contains(key)) {
        if (required) throw Bad{at, std::string("missing required key '") + key + "'"};
        return absent;
    }
    const json& v = obj[key];
    bool ok = v.type() == type || (type == json::value_t::number_integer && v.is_number_unsigned());
    if (!ok) throw Bad{at + "/" + key, std::string("'") + key + "' has the wrong type (" + v.type_name() + ")"};
    return v;
}

void onlyKeys(const json& obj, const std::string& at, std::initializer_list<const char*> keys) {
    for (const auto& [k, v] : obj.items()) {
        bool known = false;
        for (const char* allowed : keys) known = known || k == allowed;
        if (!known) throw Bad{at + "/" + k, "unknown key '" + k + "'"};
    }
}

std::string text(const json& obj, const std::string& at, const char* key) {
    const json& v = member(obj, at, key, json::value_t::string, true, obj);
    if (v.get<std::string>().empty()) throw Bad{at + "/" + key, std::string("'") + key + "' is empty"};
    return v.get<std::string>();
}

uint32_t number(const json& obj, const std::string& at, const char* key) {
    const json& v = member(obj, at, key, json::value_t::number_integer, true, obj);
    if (!v.is_number_unsigned() || v.get<uint64_t>() > 0xffffffffu)
        throw Bad{at + "/" + key, std::string("'") + key + "' must be a non-negative integer"};
    return v.get<uint32_t>();
}

std::vector<std::string> strings(const json& obj, const std::string& at, const char* key, bool required) {
    static const json kEmpty = json::array();
    const json& v = member(obj, at, key, json::value_t::array, required, kEmpty);
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string() || v[i].get<std::string>().empty())
            throw Bad{at + "/" + key + "/" + std::to_string(i), "expected a non-empty string"};
        if (!seen.insert(v[i].get<std::string>()).second)
            throw Bad{at + "/" + key + "/" + std::to_string(i), "duplicate '" + v[i].get<std::string>() + "'"};
        out.push_back(v[i].get<std::string>());
    }
    return out;
}

std::optional<Anchor> anchor(const json& placement, const std::string& at, const char* key) {
    static const json kNull;
    const json& v = member(placement, at, key, json::value_t::object, false, kNull);
    if (v.is_null()) return std::nullopt;
    std::string here = at + "/" + key;
    onlyKeys(v, here, {"pass", "occurrence"});
    Anchor a;
    a.pass = text(v, here, "pass");
    if (v.contains("occurrence")) {
        if (!v["occurrence"].is_number_unsigned() || v["occurrence"].get<uint64_t>() < 1 ||
            v["occurrence"].get<uint64_t>() > 1000)
            throw Bad{here + "/occurrence", "'occurrence' must be an integer from 1"};
        a.occurrence = v["occurrence"].get<int>();
    }
    return a;
}

std::vector<ManifestOption> options(const json& pass, const std::string& at, const std::string& path) {
    static const json kNull;
    const json& v = member(pass, at, "options", json::value_t::object, false, kNull);
    std::vector<ManifestOption> out;
    if (v.is_null()) return out;
    for (const auto& [name, value] : v.items()) {
        ManifestOption o;
        o.name = name;
        o.origin = OptionOrigin{OptionOrigin::Kind::Manifest, path, at + "/options/" + name, ""};
        OptionInput& in = o.value;
        if (value.is_boolean()) {
            in.kind = OptionInput::Kind::Bool;
            in.b = value.get<bool>();
        } else if (value.is_number_integer()) {
            in.kind = OptionInput::Kind::Integer;
            in.fitsInt64 = !value.is_number_unsigned() || value.get<uint64_t>() <= INT64_MAX;
            in.i = in.fitsInt64 ? value.get<int64_t>() : 0;
            in.d = value.get<double>();
        } else if (value.is_number_float()) {
            in.kind = OptionInput::Kind::Float;
            in.d = value.get<double>();
        } else if (value.is_string()) {
            in.kind = OptionInput::Kind::String;
            in.text = value.get<std::string>();
        } else {
            throw Bad{at + "/options/" + name, "an option value is a boolean, a number or a string"};
        }
        if (in.kind != OptionInput::Kind::String) in.text = value.dump();  // for messages only
        out.push_back(std::move(o));
    }
    return out;
}

}  // namespace

Expected<Manifest> readManifest(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return fileError(path, "cannot open manifest", "check the path given to --plugin");
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parseManifest(buffer.str(), path);
}

Expected<Manifest> parseManifest(std::string_view bytes, const std::string& path) {
    Error err;
    err.file = path;
    json doc = json::parse(bytes, nullptr, false);
    if (doc.is_discarded()) {
        err.message = "manifest is not valid JSON";
        err.hint = "see manifest.schema.json for the format";
        return err;
    }
    try {
        if (!doc.is_object()) throw Bad{"", "a manifest is a JSON object"};
        Manifest m;
        m.path = path;
        const uint32_t version = number(doc, "", "file_format_version");
        if (version != 1 && version != 2)
            throw Bad{"/file_format_version", "unsupported file_format_version (this host reads versions 1 and 2)"};
        m.formatVersion = static_cast<int>(version);
        const bool full = version == 1;
        if (full)
            onlyKeys(doc, "",
                     {"file_format_version", "name", "version", "library", "sha256", "abi", "passes", "verifiers"});
        else
            onlyKeys(doc, "", {"file_format_version", "library", "sha256", "passes"});
        if (full) {
            m.name = text(doc, "", "name");
            m.version = text(doc, "", "version");
        }
        std::filesystem::path library = text(doc, "", "library");
        // Relative to the manifest's own folder, never through library search paths.
        m.library = (library.is_absolute() ? library : std::filesystem::path(path).parent_path() / library).string();
        if (!full) m.name = std::filesystem::path(m.library).filename().string();  // until the descriptor says
        if (doc.contains("sha256")) {
            m.sha256 = text(doc, "", "sha256");
            if (m.sha256->size() != 64 || m.sha256->find_first_not_of("0123456789abcdef") != std::string::npos)
                throw Bad{"/sha256", "'sha256' must be 64 lowercase hex digits"};
        }
        if (full) {
            const json& abi = member(doc, "", "abi", json::value_t::object, true, doc);
            onlyKeys(abi, "/abi", {"major", "minor_min", "minor_max"});
            m.abiMajor = number(abi, "/abi", "major");
            m.abiMinorMin = number(abi, "/abi", "minor_min");
            m.abiMinorMax = number(abi, "/abi", "minor_max");
            if (m.abiMinorMin > m.abiMinorMax) throw Bad{"/abi/minor_min", "'minor_min' is greater than 'minor_max'"};
        }
        const json& passes = member(doc, "", "passes", json::value_t::array, true, doc);
        std::set<std::string> names;
        for (size_t i = 0; i < passes.size(); ++i) {
            std::string at = "/passes/" + std::to_string(i);
            if (!passes[i].is_object()) throw Bad{at, "a pass is a JSON object"};
            if (full)
                onlyKeys(passes[i], at, {"name", "placement", "required", "produced", "invalidated", "options"});
            else
                onlyKeys(passes[i], at, {"name", "placement", "options"});
            ManifestPass p;
            p.name = text(passes[i], at, "name");
            if (!names.insert(p.name).second) throw Bad{at + "/name", "pass '" + p.name + "' is listed twice"};
            const json& placement = member(passes[i], at, "placement", json::value_t::object, true, doc);
            onlyKeys(placement, at + "/placement", {"after", "before"});
            p.after = anchor(placement, at + "/placement", "after");
            p.before = anchor(placement, at + "/placement", "before");
            if (!p.after && !p.before) throw Bad{at + "/placement", "placement needs 'after' or 'before'"};
            if (full) {
                p.required = strings(passes[i], at, "required", true);
                p.produced = strings(passes[i], at, "produced", true);
                p.invalidated = strings(passes[i], at, "invalidated", false);
            }
            p.options = options(passes[i], at, path);
            m.passes.push_back(std::move(p));
        }
        if (full) m.verifiers = strings(doc, "", "verifiers", false);
        return m;
    } catch (const Bad& bad) {
        err.pointer = bad.pointer.empty() ? "/" : bad.pointer;
        err.message = "invalid manifest: " + bad.message;
        err.hint = "see manifest.schema.json for the format";
        return err;
    }
}

std::vector<std::string> manifestsInFolder(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json") out.push_back(it->path().string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace ptoplug::host
