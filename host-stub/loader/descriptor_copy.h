// A plugin's descriptor as data, without its code: the names, versions, passes (their properties and
// options) and verifiers (their properties) of a pto_plugin_desc, deep-copied, with every run function
// NULL (a pass's check of its option values, where it has one, a stand-in of the host's that fails). pto-host's own
// process never loads a plugin: the child that loads them sends each descriptor over as text (serialize), and pto-host
// builds its pipeline from the copies (parse, LoadedPlugin::described); the workers load the plugins themselves and
// check that they are what the copies say.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "ptoplug/abi.h"

namespace ptoplug::host {

class DescriptorCopy {
public:
    /// The descriptor's data as one line of JSON (run functions left out). Equal descriptors give equal text.
    static std::string serialize(const pto_plugin_desc& desc);
    /// A copy made from serialize's text; an error if the text is not such.
    static Expected<std::unique_ptr<DescriptorCopy>> parse(std::string_view text);

    /// The copy: every string and list owned here, every run function NULL.
    const pto_plugin_desc& descriptor() const { return desc_; }

    DescriptorCopy(const DescriptorCopy&) = delete;
    DescriptorCopy& operator=(const DescriptorCopy&) = delete;

private:
    DescriptorCopy() = default;
    const char* keep(std::string text);
    const char* const* keepList(const std::vector<std::string>& items);

    // Deques: what is added never moves, so the pointers handed out stay valid.
    std::deque<std::string> strings_;
    std::deque<std::vector<const char*>> lists_;
    std::deque<pto_option_desc> options_;
    std::deque<std::vector<const pto_option_desc*>> optionLists_;
    std::deque<pto_pass_desc> passes_;
    std::vector<const pto_pass_desc*> passList_;
    std::deque<pto_verifier_desc> verifiers_;
    std::vector<const pto_verifier_desc*> verifierList_;
    pto_plugin_desc desc_{};
};

}  // namespace ptoplug::host
