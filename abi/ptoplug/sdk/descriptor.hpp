// The plugin's descriptor and its one exported symbol in a few lines (part of <ptoplug/sdk.hpp>):
//
//   void renameFunctions(const ptoplug::plugin::Host& h) { ... }
//
//   constexpr char kPass[] = "RenameFunctions";
//   constexpr pto_option_desc kPattern = ptoplug::plugin::option("pattern", PTO_OPTION_STRING, "", "...");
//   constexpr const pto_option_desc* kOptions[] = {&kPattern};
//   constexpr ptoplug::plugin::Plugin kPlugin({.name = "rename-functions", .version = "1.0.0"},
//       {{.name = kPass, .description = "...", .run = ptoplug::plugin::guardedRun<kPass, renameFunctions>,
//         .options = kOptions}});
//   PTOPLUG_PLUGIN_ENTRY(kPlugin)
//
// The Plugin object holds the descriptor the ABI wants (plugin_api.h): every struct_size set, each list a
// static array with its count, every pointer into the object itself. Declared constexpr, it is made at
// compile time: nothing runs when the library loads or the entry point is called.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "ptoplug/abi.h"
#include "ptoplug/sdk/host.hpp"

namespace ptoplug::plugin {

/// The plugin as a whole: its name, its version and the ABI minors it works with. The oldest is 1 by
/// default, since Host uses ABI 1.1 functions; a plugin that calls only 1.0 functions may say 0.
struct About {
    const char* name = nullptr;
    const char* version = nullptr;
    uint32_t abiMinorMin = 1;
    uint32_t abiMinorMax = PTO_ABI_MINOR;
};

/// One pass (pto_pass_desc). The lists are the plugin's own static arrays (IR property names, options).
struct Pass {
    const char* name = nullptr;
    const char* description = nullptr;
    pto_pass_run_fn run = nullptr;
    std::span<const char* const> required = {};
    std::span<const char* const> produced = {};
    std::span<const char* const> invalidated = {};
    std::span<const pto_option_desc* const> options = {};
    /// [1.2] The check of the option values, run once before any input (guardedRun of a body that throws
    /// OptionRefused); nullptr for none. An older host never calls it: the run must still cope.
    pto_option_check_fn checkOptions = nullptr;
};

/// One property verifier (pto_verifier_desc).
struct Verifier {
    const char* property = nullptr;
    const char* description = nullptr;
    pto_verifier_run_fn run = nullptr;
};

/// An option declaration (pto_option_desc): its default in the text form of its type ("true", "42", "0.5").
constexpr pto_option_desc option(const char* name, pto_option_type type, const char* defaultValue, const char* help) {
    return pto_option_desc{sizeof(pto_option_desc), name, type, defaultValue, help};
}

/// A pass or verifier run function whose body is `Body(const Host&)`: every outcome becomes a status
/// (runGuarded), and `Name` names the pass or property in its diagnostics. `Name` is a static array.
template <const char* Name, auto Body>
pto_status guardedRun(const pto_host_api* api, pto_run_context* ctx) noexcept {
    return runGuarded(api, ctx, Name, Body);
}

/// A plugin's descriptor and the storage its lists point into. Declare it constexpr at namespace scope
/// (it points into itself, so it is neither copied nor moved) and return descriptor() from the entry
/// point (PTOPLUG_PLUGIN_ENTRY).
template <size_t NPasses, size_t NVerifiers>
class Plugin {
public:
    // (Never an array of none: a plugin without verifiers takes the constructor below.)
    constexpr Plugin(const About& about, const Pass (&passes)[NPasses],
                     const Verifier (&verifiers)[NVerifiers > 0 ? NVerifiers : 1])
        : Plugin(about, passes, verifiers, nullptr) {}
    constexpr Plugin(const About& about, const Pass (&passes)[NPasses]) : Plugin(about, passes, nullptr, nullptr) {}
    Plugin(const Plugin&) = delete;
    Plugin& operator=(const Plugin&) = delete;

    constexpr const pto_plugin_desc* descriptor() const { return &desc_; }

private:
    template <class Verifiers>
    constexpr Plugin(const About& about, const Pass (&passes)[NPasses], const Verifiers& verifiers, std::nullptr_t)
        : desc_{sizeof(pto_plugin_desc),
                PTO_ABI_MAJOR,
                about.abiMinorMin,
                about.abiMinorMax,
                about.name,
                about.version,
                passList_.data(),
                NPasses,
                NVerifiers ? verifierList_.data() : nullptr,
                NVerifiers} {
        for (size_t i = 0; i < NPasses; ++i) {
            const Pass& p = passes[i];
            passes_[i] = pto_pass_desc{sizeof(pto_pass_desc), p.name,
                                       p.description,         p.required.data(),
                                       p.required.size(),     p.produced.data(),
                                       p.produced.size(),     p.invalidated.data(),
                                       p.invalidated.size(),  p.run,
                                       p.options.data(),      p.options.size(),
                                       p.checkOptions};
            passList_[i] = &passes_[i];
        }
        if constexpr (NVerifiers > 0)
            for (size_t i = 0; i < NVerifiers; ++i) {
                const Verifier& v = verifiers[i];
                verifiers_[i] = pto_verifier_desc{sizeof(pto_verifier_desc), v.property, v.description, v.run};
                verifierList_[i] = &verifiers_[i];
            }
    }

    std::array<pto_pass_desc, NPasses> passes_{};
    std::array<const pto_pass_desc*, NPasses> passList_{};
    std::array<pto_verifier_desc, NVerifiers> verifiers_{};
    std::array<const pto_verifier_desc*, NVerifiers> verifierList_{};
    pto_plugin_desc desc_;
};

template <size_t NPasses, size_t NVerifiers>
Plugin(const About&, const Pass (&)[NPasses], const Verifier (&)[NVerifiers]) -> Plugin<NPasses, NVerifiers>;
template <size_t NPasses>
Plugin(const About&, const Pass (&)[NPasses]) -> Plugin<NPasses, 0>;

}  // namespace ptoplug::plugin

/// Defines the plugin's one exported symbol, ptoplug_plugin_entry, returning `plugin`'s descriptor
/// whatever the host's version (the host negotiates from the descriptor's range). At namespace scope,
/// outside any unnamed namespace.
#define PTOPLUG_PLUGIN_ENTRY(plugin)                                                               \
    extern "C" PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t, uint32_t) { \
        return (plugin).descriptor();                                                              \
    }
