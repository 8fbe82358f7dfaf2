// Names of materialized contexts (docs/pass.md §3.3): the auto-name base and pypto's unique-name rule,
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

/// pypto's MakeUniqueName for context names: the candidate `base + "_ctx"` if unused, else the first
/// of candidate_1, candidate_2, ... not used; the result is then used.
///
/// Only names that end in "_ctx" or "_ctx_<digits>" can ever equal a candidate, so `use` keeps only
/// those: a body's thousands of other names cost a suffix test each instead of a hash insert.
/// pypto restarts at _1 for every name (quadratic for thousands of names of one base); this
/// remembers where each candidate's search stopped, which gives the identical names because the
/// used set only grows and suffixed names never equal a candidate unless they were already used.
class UniqueNamer {
public:
    void use(std::string_view name);
    /// Whether `use(name)` would keep the name: only those can ever equal a candidate.
    static bool mayClash(std::string_view name);
    std::string make(std::string_view base);
    /// Forgets every name (keeping the memory).
    void clear();
    /// Room for `count` more names made.
    void reserve(size_t count) { used_.reserve(used_.size() + count); }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    using Set = std::unordered_set<std::string, Hash, std::equal_to<>>;
    Set used_;
    std::unordered_map<std::string, uint64_t, Hash, std::equal_to<>> nextSuffix_;
};

}  // namespace ptoplug::mdtc
