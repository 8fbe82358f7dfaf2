// Names of materialized contexts (PASS_SPEC §3.3): the auto-name base and pypto's unique-name rule,
// in amortized constant time per name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace ptoplug::mdtc {

/// The part of `name` before the first "__" (the whole name if there is none).
std::string_view autoNameBase(std::string_view name);

/// pypto's MakeUniqueName: `c` if unused, else the first of c_1, c_2, ... not used; the result is
/// then used. pypto restarts at _1 for every name (quadratic for thousands of names of one base);
/// this remembers where each candidate's search stopped, which gives the identical names because
/// the used set only grows and suffixed names (ending in _<digits>) never equal a candidate
/// (which ends in _ctx) unless they were already used.
class UniqueNamer {
public:
    void use(std::string_view name) { used_.emplace(name); }
    std::string make(const std::string& candidate);

private:
    std::unordered_set<std::string> used_;
    std::unordered_map<std::string, uint64_t> nextSuffix_;
};

}  // namespace ptoplug::mdtc
