#include "graph/render.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "io/output_file.h"
#include "io/subprocess.h"
#include "ir/sink.h"

namespace ptoplug::graph {
namespace {

// The first executable `name` on PATH, or "".
std::string onPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "";
    while (!rest.empty()) {
        const size_t colon = rest.find(':');
        const std::string dir(rest.substr(0, colon));
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) return candidate;
    }
    return {};
}

// `dotText` rendered as SVG by `dot`, read back from an anonymous file (dot's whole output, however large,
// without a second pipe to drain while feeding the first).
Expected<std::string> renderSvg(const std::string& path, const std::string& dotText) {
    const std::string dot = onPath("dot");
    if (dot.empty())
        return fileError(path, "cannot write SVG: Graphviz's `dot` is not on PATH",
                         "install Graphviz (Debian: apt-get install graphviz), or write the graph as .dot");
    const int out = ::memfd_create("ptoplug-svg", MFD_CLOEXEC);
    const int err = ::memfd_create("ptoplug-dot-errors", MFD_CLOEXEC);
    if (out < 0 || err < 0) return fileError(path, "cannot make a buffer for dot's output", "try again");
    auto readAll = [](int fd) {
        std::string text;
        char buffer[1 << 16];
        ::lseek(fd, 0, SEEK_SET);
        for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
        ::close(fd);
        return text;
    };
    auto child = io::Child::exec({dot, "-Tsvg"}, out, err);
    if (!child) {
        ::close(out);
        ::close(err);
        return fileError(path, "cannot run " + dot, "check that Graphviz is installed and runs");
    }
    const bool fed = io::writeAll(child->in(), dotText.data(), dotText.size());
    child->closeIn();
    const io::ChildEnd end = child->wait();
    std::string svg = readAll(out);
    std::string errors = readAll(err);
    if (!fed || !end.exitedWith(0))
        return fileError(path, "Graphviz's dot failed (" + end.describe() + "): " + errors.substr(0, errors.find('\n')),
                         "write the graph as .dot and run dot on it to see why");
    return svg;
}

bool endsWith(const std::string& path, std::string_view suffix) {
    return path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Status checkGraphPath(const std::string& path) {
    if (path == "-" || endsWith(path, ".dot") || endsWith(path, ".gv") || endsWith(path, ".svg")) return std::nullopt;
    return fileError(path, "cannot tell the graph's format from this name",
                     "name it .dot or .gv (Graphviz's text), .svg (rendered by Graphviz's dot), or - for stdout");
}

Status writeGraph(const std::string& path, const std::string& dotText) {
    std::string svg;
    if (endsWith(path, ".svg")) {
        auto rendered = renderSvg(path, dotText);
        if (!rendered) return rendered.error();
        svg = std::move(*rendered);
    }
    return io::writeOutput(path, [&](ir::Sink& sink) {
        sink.write(svg.empty() ? dotText : svg);
        return Status();
    });
}

}  // namespace ptoplug::graph
