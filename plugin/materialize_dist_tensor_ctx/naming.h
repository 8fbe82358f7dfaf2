// Names of materialized contexts (PASS_SPEC §3.3): the auto-name base and pypto's unique-name rule,
// in amortized constant time per name.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace ptoplug::mdtc {

/// The part of `name` before the first "__" (the whole name if there is none).
std::string_view autoNameBase(std::string_view name);

/// Names borrowed from the IR (valid for the run context), or owned by a UniqueNamer.
using NameSet = std::unordered_set<std::string_view>;

/// pypto's MakeUniqueName: `c` if unused, else the first of c_1, c_2, ... not used; the result is
/// then used. pypto restarts at _1 for every name (quadratic for thousands of names of one base);
/// this remembers where each candidate's search stopped, which gives the identical names because
/// the used set only grows and suffixed names (ending in _<digits>) never equal a candidate
/// (which ends in _ctx) unless they were already used.
class UniqueNamer {
public:
    explicit UniqueNamer(NameSet used = {}) : used_(std::move(used)) {}
    void use(std::string_view name) { used_.insert(name); }
    std::string make(const std::string& candidate);

private:
    bool take(std::string name);
    NameSet used_;
    std::deque<std::string> owned_;  // names made here (a deque keeps the views in used_ valid)
    std::unordered_map<std::string, uint64_t> nextSuffix_;
};

}  // namespace ptoplug::mdtc
