#include "ir/pointer.h"

namespace ptoplug::ir {

void appendPointerToken(std::string& out, std::string_view token) {
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
}

namespace {

// Depth-first search over the input's ownership tree; `path` holds the pointer of `v` on entry.
// Recursion is bounded by the reader's depth limit.
bool search(const Document& doc, const Value& v, const void* target, bool wantNode, std::string& path) {
    if (!wantNode && &v == target) return true;
    size_t mark = path.size();
    auto descendMap = [&](const Map& m) {
        for (const Member& member : m) {
            path += '/';
            appendPointerToken(path, doc.keys().name(member.key));
            if (search(doc, member.value, target, wantNode, path)) return true;
            path.resize(mark);
        }
        return false;
    };
    switch (v.kind) {
        case Kind::Array:
            for (uint32_t i = 0; i < v.a->size; ++i) {
                path += '/' + std::to_string(i);
                if (search(doc, v.a->items[i], target, wantNode, path)) return true;
                path.resize(mark);
            }
            return false;
        case Kind::Map: return descendMap(*v.m);
        case Kind::Node:
            if (wantNode && v.n == target) return true;
            path += "/fields";
            mark = path.size();
            if (descendMap(v.n->fields)) return true;
            path.resize(mark - 7);
            return false;
        default: return false;
    }
}

}  // namespace

std::string pointerTo(const Document& doc, const Value* target) {
    std::string path;
    return search(doc, doc.root(), target, false, path) ? path : std::string();
}

std::string pointerToNode(const Document& doc, const Node* node) {
    std::string path;
    return search(doc, doc.root(), node, true, path) ? path : std::string();
}

}  // namespace ptoplug::ir
