#include "naming.h"

namespace ptoplug::mdtc {

std::string_view autoNameBase(std::string_view name) {
    size_t at = name.find("__");
    return at == std::string_view::npos ? name : name.substr(0, at);
}

std::string UniqueNamer::make(const std::string& candidate) {
    if (used_.insert(candidate).second) return candidate;
    uint64_t& k = nextSuffix_.try_emplace(candidate, 1).first->second;
    std::string name;
    do {
        name = candidate + "_" + std::to_string(k++);
    } while (used_.count(name));
    used_.insert(name);
    return name;
}

}  // namespace ptoplug::mdtc
