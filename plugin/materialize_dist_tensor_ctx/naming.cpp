#include "naming.h"

namespace ptoplug::mdtc {

std::string_view autoNameBase(std::string_view name) {
    size_t at = name.find("__");
    return at == std::string_view::npos ? name : name.substr(0, at);
}

bool UniqueNamer::take(std::string name) {
    if (used_.count(name)) return false;
    owned_.push_back(std::move(name));
    used_.insert(owned_.back());
    return true;
}

std::string UniqueNamer::make(const std::string& candidate) {
    if (take(candidate)) return candidate;
    uint64_t& k = nextSuffix_.try_emplace(candidate, 1).first->second;
    while (!take(candidate + "_" + std::to_string(k))) ++k;
    return candidate + "_" + std::to_string(k++);
}

}  // namespace ptoplug::mdtc
