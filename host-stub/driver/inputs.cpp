#include "driver/inputs.h"

#include <fnmatch.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "ir/reader.h"
#include "ir/writer.h"

namespace ptoplug::host {
namespace fs = std::filesystem;

namespace {

using FileId = std::pair<dev_t, ino_t>;

std::optional<FileId> fileId(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return FileId{st.st_dev, st.st_ino};
}

// --- listing the inputs ----------------------------------------------------------------------------

class InputLister {
public:
    InputLister(std::vector<BatchItem>& items, const std::string& outDir, const InputFilter& filter,
                ir::Format outputFormat)
        : items_(items), outDir_(outDir), filter_(filter), outputFormat_(outputFormat) {}

    void file(const fs::path& input, const fs::path& relative) {
        fs::path output = fs::path(outDir_) / relative;
        // An output's name must not lie about its format: y.msgpack converted to JSON is written as y.json.
        const ir::Format byName = ir::formatForName(output.string());
        if (outputFormat_ != ir::Format::Auto && byName != ir::Format::Auto && byName != outputFormat_)
            output.replace_extension(outputFormat_ == ir::Format::Json ? ".json" : ".msgpack");
        items_.push_back({input.string(), output.string(), {}, relative.string()});
    }
    // A file found in a folder or by a glob: an input if the filter admits it.
    void found(const fs::path& input, const fs::path& relative) {
        if (filter_.admits(relative.string())) file(input, relative);
    }

    // Follows linked folders, but never into a folder it is already inside (a link loop).
    void folder(const fs::path& dir, const fs::path& relative) {
        std::optional<FileId> id = fileId(dir.string());
        if (id && !inside_.insert(*id).second)
            return problem(dir, relative, "a symbolic link loop: this folder contains itself");
        std::error_code ec;
        std::vector<fs::path> entries;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
        if (ec) problem(dir, relative, "cannot read this folder: " + ec.message());
        std::sort(entries.begin(), entries.end());
        for (const fs::path& entry : entries) {
            fs::path rel = relative / entry.filename();
            std::error_code sec;
            fs::file_status st = fs::status(entry, sec);
            if (sec || !fs::exists(st)) {
                bool link = fs::is_symlink(fs::symlink_status(entry, sec));
                problem(entry, rel, link ? "a dangling symbolic link (or a link loop)" : "cannot read this entry");
            } else if (fs::is_directory(st)) {
                folder(entry, rel);
            } else if (fs::is_regular_file(st)) {
                found(entry, rel);
            } else {
                unusable(entry, rel);
            }
        }
        if (id) inside_.erase(*id);
    }

    // Neither a file nor a folder (a FIFO, socket or device): reported, never opened.
    void unusable(const fs::path& input, const fs::path& relative) {
        struct stat st {};
        const unsigned mode = ::stat(input.c_str(), &st) == 0 ? st.st_mode : 0;
        problem(input, relative, std::string(ir::fileTypeName(mode)) + ", not a regular file");
    }

private:
    void problem(const fs::path& input, const fs::path& relative, std::string what) {
        items_.push_back({input.string(), (fs::path(outDir_) / relative).string(), std::move(what), relative.string()});
    }
    std::vector<BatchItem>& items_;
    const std::string& outDir_;
    const InputFilter& filter_;
    ir::Format outputFormat_;
    std::set<FileId> inside_;
};

// Lexical normalization, no file system calls: thousands of inputs must not cost thousands of syscalls
// in the parent, which would serialize the workers.
std::string normalPath(const std::string& path, const fs::path& cwd) {
    fs::path p(path);
    return (p.is_absolute() ? p : cwd / p).lexically_normal().string();
}

// The folder part of a glob before its first wildcard: outputs keep their path relative to it.
fs::path globBase(const std::string& pattern) {
    fs::path p(pattern.substr(0, pattern.find_first_of("*?[")));
    return pattern.find_first_of("*?[") == std::string::npos || pattern.back() == '/' ? p : p.parent_path();
}

}  // namespace

std::optional<Shard> parseShard(std::string_view text) {
    const size_t slash = text.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    auto number = [](std::string_view digits) -> std::optional<uint32_t> {
        uint32_t value = 0;
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
        auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;  // past 32 bits
        return value;
    };
    const std::optional<uint32_t> k = number(text.substr(0, slash)), n = number(text.substr(slash + 1));
    if (!k || !n || *k < 1 || *k > *n) return std::nullopt;
    return Shard{*k, *n};
}

std::vector<BatchItem> shardOf(std::vector<BatchItem> items, uint32_t shard, uint32_t shards) {
    std::vector<BatchItem> mine;
    for (BatchItem& item : items) {
        // FNV-1a of the path: stable across runs, machines and builds (std::hash is none of these).
        uint64_t h = 1469598103934665603ULL;
        for (unsigned char c : item.relative) h = (h ^ c) * 1099511628211ULL;
        if (h % shards == shard - 1) mine.push_back(std::move(item));
    }
    return mine;
}

bool InputFilter::admits(const std::string& relative) const {
    // As in .gitignore: a pattern without '/' names files at any depth, one with '/' a relative path.
    std::string base = relative.substr(relative.rfind('/') + 1);
    auto matches = [&](const std::string& pattern) {
        const std::string& subject = pattern.find('/') == std::string::npos ? base : relative;
        return ::fnmatch(pattern.c_str(), subject.c_str(), 0) == 0;
    };
    static const std::vector<std::string> kIrFiles = {"*.json", "*.msgpack"};
    const std::vector<std::string>& in = include.empty() ? kIrFiles : include;
    return std::any_of(in.begin(), in.end(), matches) && std::none_of(exclude.begin(), exclude.end(), matches);
}

Expected<std::vector<BatchItem>> expandBatchInputs(const std::vector<std::string>& inputs, const std::string& outDir,
                                                   const InputFilter& filter, ir::Format outputFormat) {
    std::vector<BatchItem> items;
    InputLister lister(items, outDir, filter, outputFormat);
    for (const std::string& arg : inputs) {
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            lister.folder(arg, {});
        } else if (arg.find_first_of("*?[") != std::string::npos) {
            glob_t g{};
            fs::path base = globBase(arg);
            if (glob(arg.c_str(), 0, nullptr, &g) == 0)
                for (size_t i = 0; i < g.gl_pathc; ++i) {
                    fs::path match(g.gl_pathv[i]);
                    if (fs::is_directory(match, ec))
                        lister.folder(match, match.lexically_relative(base));
                    else if (fs::is_regular_file(match, ec))
                        lister.found(match, match.lexically_relative(base));
                    else if (fs::exists(match, ec))
                        lister.unusable(match, match.lexically_relative(base));
                }
            globfree(&g);
        } else if (fs::is_regular_file(arg, ec)) {
            lister.file(arg, fs::path(arg).filename());
        } else if (fs::exists(arg, ec)) {
            lister.unusable(arg, fs::path(arg).filename());
        } else {
            return fileError(arg, "no such input file or directory", "check the path");
        }
    }
    if (items.empty())
        return fileError(inputs.empty() ? "" : inputs.front(), "no input file matched",
                         "check the paths, or widen --include (by default *.json and *.msgpack)");
    std::map<std::string, std::string> outputs;
    const fs::path cwd = fs::current_path();
    for (const BatchItem& item : items) {
        auto [it, fresh] = outputs.emplace(normalPath(item.output, cwd), item.input);
        if (fresh) continue;
        const bool sameName = fs::path(item.input).filename() == fs::path(it->second).filename();
        return fileError(item.input, "writes the same output as " + it->second + " (" + item.output + ")",
                         sameName ? "give inputs distinct names, or pass their common directory instead"
                                  : "with --format both are written under the same name: convert them into different "
                                    "--out-dir folders, or rename one");
    }
    return items;
}

Status checkOutputsSpareInputs(const std::vector<std::string>& inputs, const std::string& outDir,
                               const std::vector<BatchItem>& items, bool allowInPlace) {
    if (allowInPlace) return std::nullopt;
    const char* hint =
        "write the outputs elsewhere, or pass --in-place to overwrite the inputs (passes need not be idempotent: "
        "a program run through the pipeline twice may be changed twice)";
    if (!outDir.empty()) {
        std::map<FileId, std::string> inputFolders;
        auto addFolder = [&](const std::string& folder) {
            std::error_code ec;
            if (fs::is_directory(folder, ec))
                if (auto id = fileId(folder)) inputFolders.emplace(*id, folder);
        };
        for (const std::string& in : inputs) {
            addFolder(in);
            if (in.find_first_of("*?[") == std::string::npos) continue;
            glob_t g{};
            if (glob(in.c_str(), 0, nullptr, &g) == 0)
                for (size_t i = 0; i < g.gl_pathc; ++i) addFolder(g.gl_pathv[i]);
            globfree(&g);
        }
        // The output folder and each of its existing ancestors, as written and as it resolves through links
        // (a link into an input's subfolder lands there).
        std::error_code ec;
        const fs::path written = fs::absolute(outDir).lexically_normal();
        const fs::path resolved = fs::weakly_canonical(written, ec);
        const std::string through =
            !ec && resolved != written ? " (through links it is " + resolved.string() + ")" : std::string();
        for (const fs::path& start : {written, ec ? fs::path() : resolved}) {
            for (fs::path p = start; !p.empty(); p = p.parent_path()) {
                if (auto id = fileId(p.string()); id && inputFolders.count(*id))
                    return fileError(outDir,
                                     "the output folder is, or lies inside, the input folder " + inputFolders[*id] +
                                         through + ": outputs would overwrite or join the inputs",
                                     hint);
                if (p == p.root_path()) break;
            }
        }
    }
    std::set<FileId> inputFiles;
    for (const BatchItem& item : items)
        if (item.problem.empty() && item.input != "-")
            if (auto id = fileId(item.input)) inputFiles.insert(*id);
    for (const BatchItem& item : items)
        if (item.problem.empty())
            if (auto id = fileId(item.output); id && inputFiles.count(*id))
                return fileError(item.output, "the output is an input of this run (" + item.input + ")", hint);
    return std::nullopt;
}

Status checkSideOutput(const std::string& what, const std::string& path, const std::vector<BatchItem>& items,
                       const std::string& hint) {
    if (path == "-") {
        for (const BatchItem& item : items)
            if (item.problem.empty() && item.output == "-")
                return fileError(path, what + " and the output of " + item.input + " would both go to stdout", hint);
        return std::nullopt;
    }
    const fs::path cwd = fs::current_path();
    const std::string normal = normalPath(path, cwd);
    const std::optional<FileId> id = fileId(path);  // through links: it must not land on a file in use
    for (const BatchItem& item : items) {
        if (id && item.input != "-" && fileId(item.input) == id)
            return fileError(path, what + " would overwrite an input of this run (" + item.input + ")", hint);
        if (item.problem.empty() && !item.output.empty() && item.output != "-" &&
            (normalPath(item.output, cwd) == normal || (id && fileId(item.output) == id)))
            return fileError(path, what + " would overwrite the output of " + item.input + " (" + item.output + ")",
                             hint);
    }
    return std::nullopt;
}

Status checkReportPath(const std::string& report, const std::vector<BatchItem>& items) {
    if (Status err = checkSideOutput("the report", report, items,
                                     "write the report outside the inputs and --out-dir, or under another name"))
        return err;
    const fs::path cwd = fs::current_path();
    const std::string normal = normalPath(report, cwd);
    const std::optional<FileId> id = fileId(report);
    std::error_code ec;
    if (fs::is_directory(report, ec))
        return fileError(report, "the report would be written over a folder",
                         "name a file for --report (the batch's JSON lines), e.g. report.jsonl");
    const fs::path folder = fs::path(normal).parent_path();
    fs::create_directories(folder, ec);
    if (!fs::is_directory(folder))
        return fileError(report,
                         "cannot create the report's folder " + folder.string() + (ec ? ": " + ec.message() : ""),
                         "check the path of --report, or write the report elsewhere");
    // The report is written when the batch ends: one that cannot be should fail now, not after every file.
    if (::access(folder.c_str(), W_OK | X_OK) != 0 || (id && ::access(report.c_str(), W_OK) != 0))
        return fileError(report, "the report cannot be written here: " + std::string(std::strerror(errno)),
                         "check the permissions of --report and its folder, or write the report elsewhere");
    return std::nullopt;
}

}  // namespace ptoplug::host
