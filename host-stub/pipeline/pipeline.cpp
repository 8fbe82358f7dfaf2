#include "pipeline/pipeline.h"

#include "abi_host/options.h"
#include "io/digest.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace ptoplug::host {
namespace {

std::vector<std::string> list(const char* const* items, size_t count) {
    std::vector<std::string> out;
    for (size_t i = 0; i < count; ++i) out.emplace_back(items[i] ? items[i] : "");
    return out;
}

std::string joined(const std::vector<std::string>& items) {
    std::string s = "[";
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
    return s + "]";
}

bool sameSet(std::vector<std::string> a, std::vector<std::string> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
}

std::string stageName(const Stage& s) { return s.name + (s.occurrence > 1 ? " #" + std::to_string(s.occurrence) : ""); }

}  // namespace

namespace {

// The library a manifest names, opened, and checked against its sha256 when the manifest pins one: the
// open file is the one then loaded, so a library replaced after the check is not the one loaded.
Expected<LibraryFile> openPinned(const Manifest& m) {
    const std::string hint = "rebuild the plugin, or update its manifest to match it";
    auto library = LibraryFile::open(m.library);
    if (!library) {
        library.error().message += " (declared by manifest " + m.path + ")";
        return library.error();
    }
    if (m.sha256) {
        std::string actual = io::sha256OfDescriptor(library->fd());
        if (actual.empty())
            return fileError(m.path, "cannot read plugin library " + m.library,
                             "the library path is relative to the manifest's folder");
        if (actual != *m.sha256)
            return fileError(m.path, "sha256 of " + m.library + " is " + actual + ", the manifest expects " + *m.sha256,
                             "the library changed since the manifest was written: " + hint);
    }
    return library;
}

// A manifest and its plugin (loaded or described), checked against each other.
Expected<Plugin> pluginOf(Manifest m, const std::shared_ptr<LoadedPlugin>& loaded) {
    const std::string& manifestPath = m.path;
    const std::string hint = "rebuild the plugin, or update its manifest to match it";
    const pto_plugin_desc& d = loaded->descriptor();
    for (size_t i = 0; i < m.passes.size(); ++i) {
        ManifestPass& p = m.passes[i];
        const pto_pass_desc* pd = loaded->pass(p.name);
        if (!pd) continue;  // reported below, with both lists
        p.optionValues = defaultOptions(*pd);
        for (const ManifestOption& o : p.options)
            if (Status err = setOption(*pd, p.optionValues, o.name, o.value, o.origin)) return *err;
    }
    if (m.formatVersion >= 2) {
        // The descriptor is the one source of what the plugin is; the manifest only places its passes.
        m.name = d.name;
        m.version = d.version;
        m.abiMajor = d.abi_major;
        m.abiMinorMin = d.abi_minor_min;
        m.abiMinorMax = d.abi_minor_max;
        for (ManifestPass& p : m.passes)
            if (const pto_pass_desc* pd = loaded->pass(p.name)) {
                p.required = list(pd->required_properties, pd->required_count);
                p.produced = list(pd->produced_properties, pd->produced_count);
                p.invalidated = list(pd->invalidated_properties, pd->invalidated_count);
            }
        m.verifiers.clear();
        for (size_t i = 0; i < d.verifier_count; ++i) m.verifiers.emplace_back(d.verifiers[i]->property);
    }
    auto mismatch = [&](const std::string& what, const std::string& manifestSide, const std::string& pluginSide) {
        return fileError(manifestPath,
                         "manifest and plugin disagree on " + what + ": manifest says " + manifestSide + ", " +
                             m.library + " says " + pluginSide,
                         hint);
    };
    if (m.name != d.name) return mismatch("the plugin name", m.name, d.name);
    if (m.version != d.version) return mismatch("the plugin version", m.version, d.version);
    if (m.abiMajor != d.abi_major || m.abiMinorMin != d.abi_minor_min || m.abiMinorMax != d.abi_minor_max)
        return mismatch(
            "the ABI range",
            std::to_string(m.abiMajor) + "." + std::to_string(m.abiMinorMin) + ".." + std::to_string(m.abiMinorMax),
            std::to_string(d.abi_major) + "." + std::to_string(d.abi_minor_min) + ".." +
                std::to_string(d.abi_minor_max));
    std::vector<std::string> declared, provided;
    for (const ManifestPass& p : m.passes) declared.push_back(p.name);
    for (size_t i = 0; i < d.pass_count; ++i) provided.emplace_back(d.passes[i]->name);
    if (!sameSet(declared, provided)) return mismatch("the passes", joined(declared), joined(provided));
    for (const ManifestPass& p : m.passes) {
        const pto_pass_desc* pd = loaded->pass(p.name);
        auto check = [&](const char* what, const std::vector<std::string>& mine, const char* const* theirs,
                         size_t count) -> std::optional<Error> {
            std::vector<std::string> other = list(theirs, count);
            if (sameSet(mine, other)) return std::nullopt;
            return mismatch(std::string("the ") + what + " properties of pass " + p.name, joined(mine), joined(other));
        };
        if (auto e = check("required", p.required, pd->required_properties, pd->required_count)) return *e;
        if (auto e = check("produced", p.produced, pd->produced_properties, pd->produced_count)) return *e;
        if (auto e = check("invalidated", p.invalidated, pd->invalidated_properties, pd->invalidated_count)) return *e;
    }
    std::vector<std::string> verifiers;
    for (size_t i = 0; i < d.verifier_count; ++i) verifiers.emplace_back(d.verifiers[i]->property);
    if (!sameSet(m.verifiers, verifiers)) return mismatch("the verifiers", joined(m.verifiers), joined(verifiers));
    return Plugin{std::move(m), loaded};
}

}  // namespace

Expected<Plugin> loadFromManifest(const std::string& manifestPath) {
    auto manifest = readManifest(manifestPath);
    if (!manifest) return manifest.error();
    auto library = openPinned(*manifest);
    if (!library) return library.error();
    auto loaded = loadPlugin(std::move(*library));
    if (!loaded) {
        loaded.error().message += " (declared by manifest " + manifestPath + ")";
        return loaded.error();
    }
    return pluginOf(std::move(*manifest), *loaded);
}

Expected<Plugin> describedFromManifest(const std::string& manifestPath, std::unique_ptr<DescriptorCopy> copy,
                                       uint32_t minor) {
    auto manifest = readManifest(manifestPath);
    if (!manifest) return manifest.error();
    // The pin guards what is loaded: the child that described the plugin checked it, and each worker checks
    // it again where it loads the library (loadPluginCode).
    auto described = LoadedPlugin::described(std::move(copy), manifest->library, minor);
    return pluginOf(std::move(*manifest), described);
}

Status loadPluginCode(Pipeline& pipeline) {
    for (Plugin& p : pipeline.plugins) {
        if (p.loaded->hasCode()) continue;
        auto library = openPinned(p.manifest);
        if (!library) return library.error();
        auto loaded = loadPlugin(std::move(*library));
        if (!loaded) {
            loaded.error().message += " (declared by manifest " + p.manifest.path + ")";
            return loaded.error();
        }
        if (DescriptorCopy::serialize((*loaded)->descriptor()) != DescriptorCopy::serialize(p.loaded->descriptor()))
            return fileError(p.manifest.library,
                             "the plugin library changed while pto-host ran: its descriptor is not the one it "
                             "had when pto-host loaded it first",
                             "do not rebuild or replace a plugin during a run; pin it with the manifest's sha256");
        p.loaded = *loaded;
    }
    for (Stage& s : pipeline.stages)
        if (s.plugin) s.pass = s.plugin->loaded->pass(s.name);
    return std::nullopt;
}

const pto_verifier_desc* Pipeline::verifier(const std::string& property) const {
    const Plugin* owner = verifierPlugin(property);
    return owner ? owner->loaded->verifier(property) : nullptr;
}

const Plugin* Pipeline::verifierPlugin(const std::string& property) const {
    for (const Plugin& p : plugins)
        if (p.loaded->verifier(property)) return &p;
    return nullptr;
}

std::string describePlugin(const Plugin& plugin) {
    return "'" + plugin.manifest.name + "' (" + plugin.manifest.library + ")";
}

std::string describePipeline(const Pipeline& pipeline) {
    std::string out;
    for (size_t i = 0; i < pipeline.stages.size(); ++i) {
        const Stage& s = pipeline.stages[i];
        std::string name = s.name + (s.occurrence > 1 ? " #" + std::to_string(s.occurrence) : "");
        std::string note = s.plugin ? "[plugin " + s.plugin->manifest.name + " " + s.plugin->manifest.version + ": " +
                                          s.plugin->manifest.library + "]"
                                    : "(skipped: not implemented by the stub host)";
        char line[512];
        std::snprintf(line, sizeof line, "%3zu  %-30s ", i, name.c_str());
        out += line + note + "\n";
        for (const PassOption& o : s.options)
            out += "       option " + o.name + "=" + o.value.text() + " (" + optionTypeName(o.value.type) + ", " +
                   o.origin.describe() + ")\n";
    }
    return out;
}

Expected<std::unique_ptr<Pipeline>> buildPipeline(std::vector<Plugin> plugins) {
    auto pipeline = std::make_unique<Pipeline>();
    pipeline->plugins = std::move(plugins);
    nlohmann::json defaults = nlohmann::json::parse(defaultPipelineJson());
    for (const auto& p : defaults["passes"]) {
        Stage s;
        s.name = p["name"].get<std::string>();
        s.required = p["required"].get<std::vector<std::string>>();
        s.produced = p["produced"].get<std::vector<std::string>>();
        s.invalidated = p["invalidated"].get<std::vector<std::string>>();
        pipeline->stages.push_back(std::move(s));
    }
    auto renumber = [&] {
        std::map<std::string, int> seen;
        for (Stage& s : pipeline->stages) s.occurrence = ++seen[s.name];
    };
    renumber();
    auto find = [&](const Anchor& a) -> long {
        for (size_t i = 0; i < pipeline->stages.size(); ++i)
            if (pipeline->stages[i].name == a.pass && pipeline->stages[i].occurrence == a.occurrence)
                return static_cast<long>(i);
        return -1;
    };
    const std::string placementHint = "fix the placement in the manifest; `pto-host pipeline` lists the stages";
    for (const Plugin& plugin : pipeline->plugins) {
        for (const ManifestPass& mp : plugin.manifest.passes) {
            const std::string who = "pass " + mp.name + " of plugin " + plugin.manifest.name;
            long after = -1, before = static_cast<long>(pipeline->stages.size());
            for (auto [anchor, index] : {std::pair{&mp.after, &after}, std::pair{&mp.before, &before}}) {
                if (!*anchor) continue;
                *index = find(**anchor);
                if (*index < 0)
                    return fileError(plugin.manifest.path,
                                     who + " is placed relative to '" + (*anchor)->pass + "' occurrence " +
                                         std::to_string((*anchor)->occurrence) + ", which the pipeline does not have",
                                     placementHint);
            }
            if (after >= before)
                return fileError(plugin.manifest.path,
                                 who + " must run after " + stageName(pipeline->stages[after]) + " and before " +
                                     stageName(pipeline->stages[before]) + ", but that stage comes first",
                                 placementHint);
            // A plugin pass named like a default stage provides that stage; otherwise it is inserted.
            long existing = -1;
            for (size_t i = 0; i < pipeline->stages.size(); ++i)
                if (pipeline->stages[i].name == mp.name) existing = static_cast<long>(i);
            Stage stage;
            stage.name = mp.name;
            stage.required = mp.required;
            stage.produced = mp.produced;
            stage.invalidated = mp.invalidated;
            stage.plugin = &plugin;
            stage.pass = plugin.loaded->pass(mp.name);
            stage.options = mp.optionValues;
            if (existing >= 0) {
                Stage& s = pipeline->stages[static_cast<size_t>(existing)];
                if (s.plugin)
                    return fileError(plugin.manifest.path,
                                     who + " conflicts with plugin " + s.plugin->manifest.name + " (" +
                                         s.plugin->manifest.path + "), which already provides it",
                                     "load only one of the two plugins");
                if (existing <= after || existing >= before)
                    return fileError(
                        plugin.manifest.path,
                        who + " replaces the stage at position " + std::to_string(existing) + ", outside its placement",
                        placementHint);
                stage.occurrence = s.occurrence;
                s = std::move(stage);
            } else {
                // After plugin passes placed at the same anchor earlier: plugins run in the order loaded.
                long at = after >= 0 ? after + 1 : before;
                while (after >= 0 && at < before && pipeline->stages[static_cast<size_t>(at)].plugin) ++at;
                pipeline->stages.insert(pipeline->stages.begin() + at, std::move(stage));
                renumber();
            }
        }
    }
    // IR properties: each stage's requirements must be produced earlier and not invalidated since.
    std::set<std::string> available;
    std::map<std::string, std::string> invalidatedBy;
    for (Stage& s : pipeline->stages) {
        for (const std::string& r : s.required) {
            if (available.count(r)) continue;
            std::string why = invalidatedBy.count(r) ? "stage " + invalidatedBy[r] + " invalidates it"
                                                     : "no earlier stage produces it";
            return fileError(s.plugin ? s.plugin->manifest.path : std::string("<default pipeline>"),
                             "stage " + stageName(s) + " requires IR property " + r + ", but " + why,
                             "place the pass after a stage that produces " + r);
        }
        for (const std::string& p : s.invalidated) invalidatedBy[p] = stageName(s);
        applyProperties(available, s);
        s.ssaForm = available.count("SSAForm") > 0;
    }
    return pipeline;
}

void applyProperties(std::set<std::string>& available, const Stage& stage) {
    for (const std::string& p : stage.invalidated) available.erase(p);
    for (const std::string& p : stage.produced) available.insert(p);
}

Status setPassOption(Pipeline& pipeline, std::string_view setting, OptionOrigin::Kind from) {
    const OptionOrigin origin{from, "", "", std::string(setting)};
    const size_t dot = setting.find('.');
    const size_t eq = setting.find('=');
    if (dot == std::string_view::npos || eq == std::string_view::npos || dot == 0 || eq < dot + 2)
        return origin.error("not of the form PASS.KEY=VALUE");
    const std::string_view pass = setting.substr(0, dot);
    const std::string_view key = setting.substr(dot + 1, eq - dot - 1);
    const OptionInput value{OptionInput::Kind::Text, std::string(setting.substr(eq + 1))};
    for (Stage& s : pipeline.stages)
        if (s.pass && s.name == pass) return setOption(*s.pass, s.options, key, value, origin);
    return origin.error(
        "no plugin pass named '" + std::string(pass) + "' is in the pipeline",
        std::string(from == OptionOrigin::Kind::Api ? "PassManager::describe()" : "`pto-host pipeline --plugin ...`") +
            " lists the stages; plugin passes are marked [plugin]");
}

}  // namespace ptoplug::host
