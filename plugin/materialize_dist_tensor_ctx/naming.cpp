#include "naming.h"

namespace ptoplug::mdtc {
namespace {

constexpr std::string_view kSuffix = "_ctx";

// Suffixes are short constants: compared in place, since a call to memcmp per name was most of this check.
bool endsWith(std::string_view s, std::string_view suffix) {
    if (s.size() < suffix.size()) return false;
    const char* tail = s.data() + (s.size() - suffix.size());
    for (size_t i = 0; i < suffix.size(); ++i)
        if (tail[i] != suffix[i]) return false;
    return true;
}

}  // namespace

// Whether `name` has the shape of a candidate: "..._ctx" or "..._ctx_<digits>".
bool UniqueNamer::mayClash(std::string_view name) {
    if (endsWith(name, kSuffix)) return true;
    size_t end = name.size();
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
    return end < name.size() && endsWith(name.substr(0, end), "_ctx_");
}

std::string_view autoNameBase(std::string_view name) {
    size_t at = name.find("__");
    return at == std::string_view::npos ? name : name.substr(0, at);
}

void UniqueNamer::use(std::string_view name) {
    if (mayClash(name)) used_.emplace(name);
}

void UniqueNamer::clear() {
    // unordered containers' clear() costs their bucket count even when they are empty
    if (!used_.empty()) used_.clear();
    if (!nextSuffix_.empty()) nextSuffix_.clear();
}

bool UniqueNamer::isUsed(const std::string& name) const { return !used_.empty() && used_.contains(name); }

std::string_view UniqueNamer::make(std::string_view base) {
    uint64_t& k = nextSuffix_.try_emplace(base, 0).first->second;
    std::string& candidate = made_;
    candidate.assign(base).append(kSuffix);
    if (k == 0) {
        k = 1;
        if (!isUsed(candidate)) return candidate;
    }
    const size_t stem = candidate.size();
    for (;; ++k) {
        candidate.resize(stem);
        candidate.append("_").append(std::to_string(k));
        if (!isUsed(candidate)) break;
    }
    ++k;
    return candidate;
}

}  // namespace ptoplug::mdtc
