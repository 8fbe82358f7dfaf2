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
/// pypto restarts at _1 for every name and adds each name it makes to the used set. This keeps, per
/// candidate, where its search stopped instead, and never stores the names it makes: every name below
/// that point is taken (used or made), a name of one candidate's family ("c", "c_<digits>") never equals
/// one of another's (the digits after the last "_ctx_" tell the family), and all `use` calls come before
/// the first `make` of a function. So the names are pypto's, and a host function that makes 400,000
/// contexts of two tensors keeps two entries, not a set of 400,000 strings (that set and freeing it were
/// a third of the pass there, and grew faster than the function).
class UniqueNamer {
public:
    /// A name the function already has. Call every `use` before the first `make` (after `clear`).
    void use(std::string_view name);
    /// Whether `use(name)` would keep the name: only those can ever equal a candidate.
    static bool mayClash(std::string_view name);
    /// `base` is kept (not copied) until `clear`: a name of the program, which outlives the pass. The
    /// name returned is valid until the next `make` (host calls copy names they keep): a host function
    /// makes tens of thousands, and a string each was a heap block each.
    std::string_view make(std::string_view base);
    /// Forgets every name (keeping the memory).
    void clear();

private:
    /// Most functions use no name that may clash: then nothing is hashed.
    bool isUsed(const std::string& name) const;
    std::unordered_set<std::string> used_;  ///< names from `use` that may clash
    /// Per base made so far: the next suffix to try (0: the candidate itself is still to be tried). Keyed
    /// by the base (one candidate per base), so that making a name copies nothing into the table.
    std::unordered_map<std::string_view, uint64_t> nextSuffix_;
    std::string made_;  ///< the last name made
};

}  // namespace ptoplug::mdtc
