// How a pass, verifier or option check is run: its options (abi_host/options.h), and whether it may change
// the program.
#pragma once

#include <vector>

#include "abi_host/options.h"

namespace ptoplug::host {

/// How a pass or verifier is run.
struct RunSettings {
    const std::vector<PassOption>* options = nullptr;  ///< the pass's resolved options (pass_option)
    bool readOnly = false;                             ///< a verifier: every rewrite is refused
    bool optionCheck = false;                          ///< a pass's check_options: no program, refuse_option allowed
};

}  // namespace ptoplug::host
