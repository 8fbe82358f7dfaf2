#include "checker/emit_manifest.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "io/digest.h"

namespace ptoplug::checker {
namespace {

nlohmann::json anchor(const host::Anchor& a) { return {{"pass", a.pass}, {"occurrence", a.occurrence}}; }

}  // namespace

std::string manifestFromDescriptor(const host::LoadedPlugin& plugin, const std::string& libraryPath,
                                   const host::Anchor& after, const std::optional<host::Anchor>& before) {
    // File format 2: what the descriptor says is not repeated, so the two cannot disagree.
    const pto_plugin_desc& d = plugin.descriptor();
    nlohmann::json passes = nlohmann::json::array();
    host::Anchor previous = after;
    for (size_t i = 0; i < d.pass_count; ++i) {
        const pto_pass_desc& p = *d.passes[i];
        nlohmann::json placement = {{"after", anchor(previous)}};
        if (before) placement["before"] = anchor(*before);
        passes.push_back({{"name", p.name}, {"placement", placement}});
        previous = host::Anchor{p.name, 1};
    }
    nlohmann::json manifest = {
        {"file_format_version", 2},
        {"library", std::filesystem::path(libraryPath).filename().string()},
        {"sha256", io::sha256OfFile(libraryPath)},
        {"passes", passes},
    };
    return manifest.dump(2) + "\n";
}

Expected<host::Anchor> parseAnchor(const std::string& text) {
    size_t hash = text.find('#');
    host::Anchor a{text.substr(0, hash), 1};
    if (a.pass.empty()) return fileError("", "'" + text + "' names no pass", "write PASS or PASS#N, e.g. Simplify#2");
    if (hash != std::string::npos) {
        try {
            a.occurrence = std::stoi(text.substr(hash + 1));
        } catch (...) {
            a.occurrence = 0;
        }
        if (a.occurrence < 1) return fileError("", "'" + text + "' has no occurrence number after '#'", "write PASS#N");
    }
    return a;
}

}  // namespace ptoplug::checker
