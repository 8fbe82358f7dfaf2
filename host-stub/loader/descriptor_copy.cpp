#include "loader/descriptor_copy.h"

#include <nlohmann/json.hpp>

#include "abi_host/options.h"

namespace ptoplug::host {
namespace {

using json = nlohmann::json;

json stringList(const char* const* items, size_t count) {
    json out = json::array();
    for (size_t i = 0; i < count; ++i) out.push_back(items[i] ? items[i] : "");
    return out;
}

std::string text(const char* s) { return s ? s : ""; }

// Stands in a copy for a pass's check of its option values (ABI 1.2), so that the copy says the pass has
// one; the check itself runs only where the plugin's code is loaded (driver/plugin_probe.cpp).
pto_status checkElsewhere(const pto_host_api*, pto_run_context*) { return PTO_ERR_UNSUPPORTED; }

}  // namespace

std::string DescriptorCopy::serialize(const pto_plugin_desc& d) {
    json passes = json::array();
    for (size_t i = 0; i < d.pass_count; ++i) {
        const pto_pass_desc& p = *d.passes[i];
        json options = json::array();
        for (const pto_option_desc* o : declaredOptions(p))
            options.push_back({{"name", text(o->name)},
                               {"type", static_cast<int>(o->type)},
                               {"default", text(o->default_value)},
                               {"help", text(o->help)}});
        passes.push_back({{"name", text(p.name)},
                          {"description", text(p.description)},
                          {"required", stringList(p.required_properties, p.required_count)},
                          {"produced", stringList(p.produced_properties, p.produced_count)},
                          {"invalidated", stringList(p.invalidated_properties, p.invalidated_count)},
                          {"options", options},
                          {"check_options", optionCheck(p) != nullptr}});
    }
    json verifiers = json::array();
    for (size_t i = 0; i < d.verifier_count; ++i)
        verifiers.push_back(
            {{"property", text(d.verifiers[i]->property)}, {"description", text(d.verifiers[i]->description)}});
    const json all = {{"abi", {d.abi_major, d.abi_minor_min, d.abi_minor_max}},
                      {"name", text(d.name)},
                      {"version", text(d.version)},
                      {"passes", passes},
                      {"verifiers", verifiers}};
    // Names from a plugin may hold any bytes: invalid UTF-8 is replaced, not thrown on.
    return all.dump(-1, ' ', false, json::error_handler_t::replace);
}

const char* DescriptorCopy::keep(std::string s) { return strings_.emplace_back(std::move(s)).c_str(); }

const char* const* DescriptorCopy::keepList(const std::vector<std::string>& items) {
    std::vector<const char*>& list = lists_.emplace_back();
    for (const std::string& item : items) list.push_back(keep(item));
    return list.data();
}

Expected<std::unique_ptr<DescriptorCopy>> DescriptorCopy::parse(std::string_view textIn) {
    std::unique_ptr<DescriptorCopy> copy(new DescriptorCopy());
    try {
        const json all = json::parse(textIn);
        const auto abi = all.at("abi").get<std::vector<uint32_t>>();
        if (abi.size() != 3) throw json::other_error::create(501, "abi is not [major, min, max]", nullptr);
        for (const json& p : all.at("passes")) {
            std::vector<const pto_option_desc*>& options = copy->optionLists_.emplace_back();
            for (const json& o : p.at("options")) {
                pto_option_desc& od = copy->options_.emplace_back();
                od.struct_size = sizeof od;
                od.name = copy->keep(o.at("name").get<std::string>());
                od.type = static_cast<pto_option_type>(o.at("type").get<int>());
                od.default_value = copy->keep(o.at("default").get<std::string>());
                od.help = copy->keep(o.at("help").get<std::string>());
                options.push_back(&od);
            }
            pto_pass_desc& pd = copy->passes_.emplace_back();
            pd.struct_size = sizeof pd;
            pd.name = copy->keep(p.at("name").get<std::string>());
            pd.description = copy->keep(p.at("description").get<std::string>());
            const auto required = p.at("required").get<std::vector<std::string>>();
            const auto produced = p.at("produced").get<std::vector<std::string>>();
            const auto invalidated = p.at("invalidated").get<std::vector<std::string>>();
            pd.required_properties = copy->keepList(required);
            pd.required_count = required.size();
            pd.produced_properties = copy->keepList(produced);
            pd.produced_count = produced.size();
            pd.invalidated_properties = copy->keepList(invalidated);
            pd.invalidated_count = invalidated.size();
            pd.run = nullptr;
            pd.options = options.data();
            pd.option_count = options.size();
            pd.check_options = p.at("check_options").get<bool>() ? checkElsewhere : nullptr;
            copy->passList_.push_back(&pd);
        }
        for (const json& v : all.at("verifiers")) {
            pto_verifier_desc& vd = copy->verifiers_.emplace_back();
            vd.struct_size = sizeof vd;
            vd.property = copy->keep(v.at("property").get<std::string>());
            vd.description = copy->keep(v.at("description").get<std::string>());
            vd.run = nullptr;
            copy->verifierList_.push_back(&vd);
        }
        pto_plugin_desc& d = copy->desc_;
        d.struct_size = sizeof d;
        d.abi_major = abi[0];
        d.abi_minor_min = abi[1];
        d.abi_minor_max = abi[2];
        d.name = copy->keep(all.at("name").get<std::string>());
        d.version = copy->keep(all.at("version").get<std::string>());
        d.passes = copy->passList_.data();
        d.pass_count = copy->passList_.size();
        d.verifiers = copy->verifierList_.data();
        d.verifier_count = copy->verifierList_.size();
    } catch (const json::exception& e) {
        return fileError("", std::string("a plugin's description is malformed: ") + e.what(),
                         "this is a bug in pto-host: report it");
    }
    return copy;
}

}  // namespace ptoplug::host
