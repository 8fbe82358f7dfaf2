#include "graph/dot.h"

#include <deque>
#include <map>
#include <set>

#include "base/printable.h"

namespace ptoplug::graph {
namespace {

constexpr const char* kAdded = "#1a7f37";  // what the pass added
constexpr const char* kError = "#cf222e";  // where it failed

// Text from the program in an HTML-like label: escaped for the terminal first (names may hold control
// bytes), then for the label's markup.
std::string html(std::string_view text) {
    std::string out;
    for (char c : printable(text)) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

// A long message broken into lines of about `width` characters at spaces (labels do not wrap by
// themselves), each escaped.
std::string wrapped(std::string_view text, size_t width = 72) {
    std::string out;
    while (text.size() > width) {
        size_t cut = text.rfind(' ', width);
        if (cut == std::string_view::npos || cut == 0) cut = text.find(' ', width);
        if (cut == std::string_view::npos) break;
        out += html(text.substr(0, cut)) + "<br/>";
        text.remove_prefix(cut + 1);
    }
    return out + html(text);
}

std::string colored(const char* color, const std::string& text) {
    return std::string("<font color=\"") + color + "\">" + text + "</font>";
}

std::string contextOf(const PassedTensor& p) {
    const std::string tensor = html(p.tensor) + (p.aliasOf.empty() ? "" : " (alias of " + html(p.aliasOf) + ")");
    if (p.ctx.empty()) return tensor + " &#8594; <i>no context</i>";
    std::string text = tensor + " &#8594; " + html(p.ctx);
    switch (p.source) {
        case CtxSource::Param: text += " (parameter)"; break;
        case CtxSource::Alias: text += " (alias of " + html(p.origin) + ")"; break;
        case CtxSource::Synthesized: text += " = " + html(p.origin); break;
        case CtxSource::Other: break;
    }
    return p.added ? colored(kAdded, "+ " + text) : text;
}

// The functions within `depth` calls of `focus`, either way.
std::set<std::string> neighbourhood(const ContextFlow& flow, const std::string& focus, int depth) {
    std::map<std::string, std::set<std::string>> near;
    for (const CallEdge& e : flow.calls) {
        near[e.caller].insert(e.callee);
        near[e.callee].insert(e.caller);
    }
    std::set<std::string> kept{focus};
    std::deque<std::pair<std::string, int>> queue{{focus, 0}};
    while (!queue.empty()) {
        auto [name, distance] = queue.front();
        queue.pop_front();
        if (distance == depth) continue;
        for (const std::string& next : near[name])
            if (kept.insert(next).second) queue.emplace_back(next, distance + 1);
    }
    return kept;
}

}  // namespace

std::string toDot(const ContextFlow& flow, const DotOptions& options) {
    std::set<std::string> kept;
    const bool focused = !options.focus.empty();
    if (focused) kept = neighbourhood(flow, options.focus, options.depth);
    auto shownFunction = [&](const std::string& name) { return !focused || kept.count(name) > 0; };

    std::map<std::string, size_t> ids;
    for (const FunctionNode& f : flow.functions) ids.emplace(f.name, ids.size());
    auto id = [&](const std::string& name) {
        auto it = ids.find(name);
        return it == ids.end() ? std::string("unknown") : "f" + std::to_string(it->second);
    };

    std::string out = "digraph context_flow {\n";
    std::string title = options.title.empty() ? "context flow" : "context flow of " + options.title;
    if (focused) title += ", " + std::to_string(options.depth) + " call(s) around " + options.focus;
    out += "  graph [rankdir=LR, fontname=\"Helvetica\", labelloc=t, label=<" + html(title);
    for (const std::string& message : flow.unplaced) out += "<br/>" + colored(kError, wrapped(message));
    out += ">];\n";
    out += "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n";
    out += "  edge [fontname=\"Helvetica\", fontsize=10];\n";
    for (const FunctionNode& f : flow.functions) {
        if (!shownFunction(f.name)) continue;
        std::string label = "<b>" + html(f.name) + "</b><br/>" + html(f.kind);
        if (f.distParams > 0) label += "<br/>" + std::to_string(f.distParams) + " DistributedTensor param(s)";
        if (f.ctxParams > 0) {
            const int kept = f.ctxParams - f.addedParams;
            std::string line = std::to_string(f.ctxParams) + " CommCtx param(s)";
            if (f.addedParams > 0)
                line = (kept > 0 ? std::to_string(kept) + " + " : std::string()) +
                       colored(kAdded, "+" + std::to_string(f.addedParams) + " CommCtx param(s)");
            label += "<br/>" + line;
        }
        std::string attrs;
        if (!f.error.empty()) {
            label += "<br/>" + colored(kError, wrapped(f.error));
            attrs = ", color=\"" + std::string(kError) + "\", penwidth=2";
        }
        out += "  " + id(f.name) + " [label=<" + label + ">" + attrs + "];\n";
    }
    for (const CallEdge& e : flow.calls) {
        if (!shownFunction(e.caller) || !shownFunction(e.callee)) continue;
        std::string label = e.submit ? "submit" : "call";
        for (const PassedTensor& p : e.passed) label += "<br/>" + contextOf(p);
        std::string attrs;
        if (!e.error.empty()) {
            label += "<br/>" + colored(kError, wrapped(e.error));
            attrs = ", color=\"" + std::string(kError) + "\", penwidth=2";
        } else if (e.submit) {
            attrs = ", style=dashed";
        }
        out += "  " + id(e.caller) + " -> " + id(e.callee) + " [label=<" + label + ">" + attrs + "];\n";
    }
    out += "}\n";
    return out;
}

}  // namespace ptoplug::graph
