// How a pass or verifier is run: its options' values, and whether it may change the program.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ptoplug/abi.h"

namespace ptoplug::host {

/// A pass option's value (pto_option_desc), already checked against its declared type.
struct OptionValue {
    pto_option_type type = PTO_OPTION_STRING;
    bool b = false;
    int64_t i = 0;
    double d = 0;
    std::string s;
};

struct PassOption {
    std::string name;
    OptionValue value;
};

/// How a pass or verifier is run.
struct RunSettings {
    const std::vector<PassOption>* options = nullptr;  ///< the pass's resolved options (pass_option)
    bool readOnly = false;                             ///< a verifier: every rewrite is refused
};

}  // namespace ptoplug::host
