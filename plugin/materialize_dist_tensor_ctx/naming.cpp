#include "naming.h"

namespace ptoplug::mdtc {
namespace {

constexpr std::string_view kSuffix = "_ctx";

bool mayBeCandidate(std::string_view name) {
    if (name.size() >= kSuffix.size() && name.substr(name.size() - kSuffix.size()) == kSuffix) return true;
    size_t digits = name.size() - name.find_last_not_of("0123456789") - 1;
    if (digits == 0 || digits == name.size()) return false;
    name.remove_suffix(digits);
    return name.size() >= kSuffix.size() + 1 && name.substr(name.size() - kSuffix.size() - 1) == "_ctx_";
}

}  // namespace

std::string_view autoNameBase(std::string_view name) {
    size_t at = name.find("__");
    return at == std::string_view::npos ? name : name.substr(0, at);
}

void UniqueNamer::use(std::string_view name) {
    if (mayBeCandidate(name)) used_.insert(name);
}

bool UniqueNamer::take(std::string name) {
    if (used_.count(name)) return false;
    owned_.push_back(std::move(name));
    used_.insert(owned_.back());
    return true;
}

std::string UniqueNamer::make(std::string_view base) {
    std::string candidate = std::string(base) + std::string(kSuffix);
    if (take(candidate)) return candidate;
    uint64_t& k = nextSuffix_.try_emplace(candidate, 1).first->second;
    while (!take(candidate + "_" + std::to_string(k))) ++k;
    return candidate + "_" + std::to_string(k++);
}

}  // namespace ptoplug::mdtc
