#include "driver/batch.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <set>

#include "driver/crash_reproducer.h"
#include "io/digest.h"
#include "io/interrupts.h"
#include "io/output_file.h"
#include "io/subprocess.h"

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
    InputLister(std::vector<BatchItem>& items, const std::string& outDir, const InputFilter& filter)
        : items_(items), outDir_(outDir), filter_(filter) {}

    void file(const fs::path& input, const fs::path& relative) {
        items_.push_back({input.string(), (fs::path(outDir_) / relative).string(), {}, relative.string()});
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
                problem(entry, rel, "not a regular file (a FIFO, socket or device)");
            }
        }
        if (id) inside_.erase(*id);
    }

private:
    void problem(const fs::path& input, const fs::path& relative, std::string what) {
        items_.push_back({input.string(), (fs::path(outDir_) / relative).string(), std::move(what), relative.string()});
    }
    std::vector<BatchItem>& items_;
    const std::string& outDir_;
    const InputFilter& filter_;
    std::set<FileId> inside_;
};

// The folder part of a glob before its first wildcard: outputs keep their path relative to it.
fs::path globBase(const std::string& pattern) {
    fs::path p(pattern.substr(0, pattern.find_first_of("*?[")));
    return pattern.find_first_of("*?[") == std::string::npos || pattern.back() == '/' ? p : p.parent_path();
}

// --- describing where a worker was ----------------------------------------------------------------

std::string describeWhere(const Pipeline& pipeline, const FileOptions& options, Phase phase, int stageIndex,
                          int property) {
    const Stage* stage = stageIndex >= 0 && static_cast<size_t>(stageIndex) < pipeline.stages.size()
                             ? &pipeline.stages[stageIndex]
                             : nullptr;
    switch (phase) {
        case Phase::Idle: return "between files";
        case Phase::Load: return "while loading plugins";
        case Phase::Read: return "while reading the input";
        case Phase::Write: return "while writing the output";
        case Phase::Pass:
            if (stage && stage->plugin)
                return "in pass '" + stage->name + "' of plugin " + describePlugin(*stage->plugin);
            break;
        case Phase::Check:
            if (stage) return "in the host's structural check after pass '" + stage->name + "'";
            break;
        case Phase::Verify: {
            const std::vector<std::string> properties =
                stage ? verifiersAfter(*stage, options) : options.verifyProperties;
            if (property < 0 || static_cast<size_t>(property) >= properties.size()) break;
            const std::string& name = properties[property];
            const Plugin* owner = pipeline.verifierPlugin(name);
            return "in the verifier of property '" + name + "'" +
                   (owner ? " of plugin " + describePlugin(*owner) : std::string()) +
                   (stage ? ", after pass '" + stage->name + "'" : std::string());
        }
    }
    return "in the pipeline";
}

bool runsPluginCode(Phase phase) { return phase == Phase::Pass || phase == Phase::Verify || phase == Phase::Load; }

// --- reports -------------------------------------------------------------------------------------

// One line of a --report file: what happened to one input (batch.h).
std::string reportLine(const BatchItem& item, const char* status, int exitCode, const FileReport* counts,
                       double seconds, bool outputWritten) {
    auto orNull = [](const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); };
    nlohmann::json line = {
        {"input", item.input},
        {"output", item.output},
        {"status", status},
        {"exit_code", exitCode},
        {"diagnostics",
         {{"errors", counts ? counts->errors : 0},
          {"warnings", counts ? counts->warnings : 0},
          {"notes", counts ? counts->notes : 0}}},
        {"seconds", seconds},
        {"input_sha256", orNull(item.input == "-" ? std::string() : io::sha256OfFile(item.input))},
        {"output_sha256", orNull(outputWritten ? io::sha256OfFile(item.output) : std::string())},
    };
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// --- workers ------------------------------------------------------------------------------------

WorkerProgress* gWorkerProgress = nullptr;

// An allocation failed: flag it for the parent (a memory limit is the likely cause), then fail as usual.
void onOutOfMemory() {
    if (gWorkerProgress) gWorkerProgress->outOfMemory.store(1);
    std::set_new_handler(nullptr);
    throw std::bad_alloc();
}

int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The worker's loop: one item at a time until the parent closes the pipe. Frame: item, exit code,
// message length, message.
int workerMain(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
               const IsolationOptions& isolation, WorkerProgress& progress, int in, int out) {
    const uint64_t memoryLimitMiB = isolation.memoryLimitMiB;
    gWorkerProgress = &progress;
    uint32_t index = 0;
    while (io::readAll(in, &index, sizeof index)) {
        const BatchItem& item = items[index];
        progress.item.store(index);
        progress.itemStartNs.store(nowNs());
        std::set_new_handler(onOutOfMemory);
        FileReport report;
        try {
            report = processFile(pipeline, item.input, item.output, options, &progress);
        } catch (const std::exception& e) {
            const bool oom = progress.outOfMemory.load() != 0;
            std::string what = !oom                 ? "uncaught exception: " + std::string(e.what())
                               : memoryLimitMiB > 0 ? "exceeded the memory limit of " + std::to_string(memoryLimitMiB) +
                                                          " MiB (--memory-limit)"
                                                    : std::string("ran out of memory");
            const Phase phase = progress.currentPhase();
            report.exitCode = kExitInternal;
            report.messages += formatError(
                fileError(
                    item.input,
                    what + " " + describeWhere(pipeline, options, phase, progress.stage, progress.property) +
                        "; no output was written",
                    runsPluginCode(phase) ? "report this to the plugin's authors" : "report this as a bug in pto-host"),
                options.diagnostics);
        }
        progress.enter(Phase::Idle);
        std::string line;
        if (!isolation.reportPath.empty()) {
            double seconds = static_cast<double>(nowNs() - progress.itemStartNs.load()) / 1e9;
            bool ok = report.exitCode == kExitOk;
            line = reportLine(item, ok ? "ok" : "failed", report.exitCode, &report, seconds, ok && item.output != "-");
        }
        uint32_t header[4] = {index, static_cast<uint32_t>(report.exitCode),
                              static_cast<uint32_t>(report.messages.size()), static_cast<uint32_t>(line.size())};
        if (!io::writeAll(out, header, sizeof header) ||
            !io::writeAll(out, report.messages.data(), report.messages.size()) ||
            !io::writeAll(out, line.data(), line.size()))
            return kExitInternal;
    }
    return 0;
}

struct Worker {
    std::optional<io::Child> child;
    size_t slot = 0;           ///< its WorkerProgress
    std::deque<size_t> queue;  ///< items sent and not yet answered, in order; the front is in progress
    std::string buffer;
};

// Two items in flight per worker, so that a worker never idles while the parent answers.
constexpr size_t kDepth = 2;

// --- interruption ----------------------------------------------------------------------------------

int gInterruptPipe[2] = {-1, -1};
volatile sig_atomic_t gInterruptSignal = 0;

void onInterrupt(int sig) {
    gInterruptSignal = sig;
    char byte = 0;
    [[maybe_unused]] ssize_t n = ::write(gInterruptPipe[1], &byte, 1);
}

// SIGINT and SIGTERM wake the batch loop through a pipe while the batch runs.
class InterruptGuard {
public:
    InterruptGuard() = default;
    ~InterruptGuard() {
        for (int& fd : gInterruptPipe) {
            if (fd >= 0) ::close(fd);
            fd = -1;
        }
    }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
    static bool openPipe() { return ::pipe2(gInterruptPipe, O_CLOEXEC | O_NONBLOCK) == 0; }
    bool piped_ = openPipe();  // before the handler that writes to it
    io::InterruptHandler handler_{onInterrupt};
};

}  // namespace

int availableCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return std::max(1, CPU_COUNT(&set));
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
    auto matches = [&](const std::string& pattern) { return ::fnmatch(pattern.c_str(), relative.c_str(), 0) == 0; };
    static const std::vector<std::string> kIrFiles = {"*.json", "*.msgpack"};
    const std::vector<std::string>& in = include.empty() ? kIrFiles : include;
    return std::any_of(in.begin(), in.end(), matches) && std::none_of(exclude.begin(), exclude.end(), matches);
}

Expected<std::vector<BatchItem>> expandBatchInputs(const std::vector<std::string>& inputs, const std::string& outDir,
                                                   const InputFilter& filter) {
    std::vector<BatchItem> items;
    InputLister lister(items, outDir, filter);
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
                }
            globfree(&g);
        } else if (fs::is_regular_file(arg, ec)) {
            lister.file(arg, fs::path(arg).filename());
        } else {
            return fileError(arg, "no such input file or directory", "check the path");
        }
    }
    if (items.empty())
        return fileError(inputs.empty() ? "" : inputs.front(), "no input file matched",
                         "check the paths, or widen --include (by default *.json and *.msgpack)");
    // Lexical normalization, no file system calls: thousands of inputs must not cost thousands of
    // syscalls in the parent, which would serialize the workers.
    std::map<std::string, std::string> outputs;
    const fs::path cwd = fs::current_path();
    for (const BatchItem& item : items) {
        fs::path out(item.output);
        auto [it, fresh] =
            outputs.emplace((out.is_absolute() ? out : cwd / out).lexically_normal().string(), item.input);
        if (!fresh)
            return fileError(item.input, "writes the same output as " + it->second + " (" + item.output + ")",
                             "give inputs distinct names, or pass their common directory instead");
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
        for (const std::string& in : inputs) {
            std::error_code ec;
            if (fs::is_directory(in, ec))
                if (auto id = fileId(in)) inputFolders.emplace(*id, in);
        }
        // The output folder and each of its existing ancestors, through any links.
        for (fs::path p = fs::absolute(outDir).lexically_normal(); !p.empty(); p = p.parent_path()) {
            if (auto id = fileId(p.string()); id && inputFolders.count(*id))
                return fileError(outDir,
                                 "the output folder is, or lies inside, the input folder " + inputFolders[*id] +
                                     ": outputs would overwrite or join the inputs",
                                 hint);
            if (p == p.root_path()) break;
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

// Workers are long-lived (a fork per worker, not per file); a worker that dies takes only the file it
// was processing with it, is reported for that file, and is replaced.
int runBatch(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
             const IsolationOptions& isolation) {
    std::set<fs::path> dirs;
    for (const BatchItem& item : items)
        if (options.runPasses && item.problem.empty() && item.output != "-")
            dirs.insert(fs::path(item.output).parent_path());
    for (const fs::path& dir : dirs) {
        std::error_code ec;
        if (!dir.empty()) fs::create_directories(dir, ec);
    }
    const bool progressLine =
        isolation.summary && options.diagnostics == DiagnosticsFormat::Text && ::isatty(STDERR_FILENO);
    size_t done = 0, failed = 0;
    int worst = kExitOk;
    std::string report;  // --report lines, written in one piece at the end
    auto writeReport = [&](const std::string& lines) {
        if (isolation.reportPath.empty()) return true;
        Status err = io::writeOutput(isolation.reportPath, [&](ir::Sink& sink) {
            sink.write(lines);
            return Status();
        });
        if (err) writeDiagnostics(formatError(*err, options.diagnostics), options.diagnostics);
        return !err;
    };
    auto finish = [&](int code, const std::string& messages, const std::string& line) {
        ++done;
        report += line;
        if (code != kExitOk) {
            ++failed;
            worst = std::max(worst, code);
        }
        if (progressLine) std::fputs("\r\033[K", stderr);
        writeDiagnostics(messages, options.diagnostics);
        if (progressLine) std::fprintf(stderr, "[%zu/%zu] %zu failed", done, items.size(), failed);
    };

    std::deque<size_t> pending;
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].problem.empty()) {
            pending.push_back(i);
            continue;
        }
        finish(kExitBadInput,
               formatError(fileError(items[i].input, items[i].problem + "; skipped", "fix or remove this entry"),
                           options.diagnostics),
               isolation.reportPath.empty() ? "" : reportLine(items[i], "skipped", kExitBadInput, nullptr, 0, false));
    }
    const size_t jobs = std::min<size_t>(static_cast<size_t>(std::max(1, isolation.jobs)), pending.size());
    ProgressBoard board(jobs);
    if (!board.ok()) return kExitInternal;
    InterruptGuard interrupts;
    std::vector<Worker> workers(jobs);
    io::ChildOptions childOptions;
    childOptions.ignoreInterrupts = true;
    childOptions.memoryLimitMiB = isolation.memoryLimitMiB;
    auto spawn = [&](Worker& w) {
        board[w.slot].enter(Phase::Idle);
        board[w.slot].outOfMemory.store(0);
        w.child = io::Child::fork(
            [&](int in, int out) {
                // The other workers' pipe ends must not stay open here, or they would never see end-of-file.
                for (Worker& other : workers)
                    if (&other != &w && other.child) {
                        ::close(other.child->in());
                        ::close(other.child->out());
                    }
                return workerMain(pipeline, items, options, isolation, board[w.slot], in, out);
            },
            childOptions);
        return w.child.has_value();
    };
    for (size_t i = 0; i < workers.size(); ++i) {
        workers[i].slot = i;
        if (!spawn(workers[i])) return kExitInternal;
    }
    auto assign = [&](Worker& w, size_t depth = kDepth) {
        if (!w.child) return;
        while (w.queue.size() < depth && !pending.empty()) {
            auto index = static_cast<uint32_t>(pending.front());
            if (!io::writeAll(w.child->in(), &index, sizeof index)) return;
            w.queue.push_back(pending.front());
            pending.pop_front();
        }
    };
    // A worker ended without answering for the front of its queue: report that file, give the files
    // it had not started back, replace the worker.
    auto buried = [&](Worker& w, bool timedOut) {
        const WorkerProgress& progress = board[w.slot];
        const Phase phase = progress.currentPhase();
        const int stage = progress.stage, property = progress.property;
        const pid_t pid = w.child->pid();
        io::ChildEnd end = w.child->wait();
        size_t item = w.queue.front();
        ::unlink(io::temporaryPathFor(items[item].output, pid).c_str());
        w.queue.pop_front();
        pending.insert(pending.begin(), w.queue.begin(), w.queue.end());
        w.queue.clear();
        w.buffer.clear();
        const BatchItem& it = items[item];
        const bool oom = isolation.memoryLimitMiB > 0 &&
                         (progress.outOfMemory.load() != 0 ||
                          static_cast<uint64_t>(end.peakRssKiB) >= (isolation.memoryLimitMiB << 10) * 9 / 10);
        std::string what;
        int code = kExitInternal;
        if (timedOut) {
            what = "timed out after " + std::to_string(static_cast<long long>(isolation.timeoutSeconds)) +
                   " s (the --timeout limit)";
        } else if (oom) {
            what = "exceeded the memory limit of " + std::to_string(isolation.memoryLimitMiB) +
                   " MiB (--memory-limit) and died of " + end.describe();
        } else if (end.how == io::ChildEnd::How::Signaled && end.status == SIGBUS) {
            // The input is mapped and its strings are borrowed from the mapping until the output is
            // written: a file truncated meanwhile faults wherever it is next read.
            what = "lost its input (SIGBUS: the file changed or was truncated while in use)";
            code = kExitBadInput;
        } else if (end.how == io::ChildEnd::How::Signaled) {
            what = "crashed with " + end.describe();
        } else {
            what = "ended the process with " + end.describe() + " instead of returning";
        }
        Error error = fileError(
            it.input, what + " " + describeWhere(pipeline, options, phase, stage, property) + "; no output was written",
            "");
        if (code == kExitBadInput) {
            error.hint = "do not change or truncate an input while pto-host runs on it";
        } else if (runsPluginCode(phase) || phase == Phase::Check) {
            auto reproducer = writeCrashReproducer(pipeline, it.input, isolation.crashReproducerDir, what);
            error.hint = reproducer ? "a reproducer is in " + *reproducer + "; replay it with " + *reproducer +
                                          "/replay.sh, and report it to the plugin's authors"
                                    : "report this to the plugin's authors";
        } else {
            error.hint = "report this as a bug in pto-host";
        }
        finish(code, formatError(error, options.diagnostics),
               isolation.reportPath.empty()
                   ? ""
                   : reportLine(it, timedOut ? "timed-out" : "crashed", code, nullptr,
                                static_cast<double>(nowNs() - progress.itemStartNs.load()) / 1e9, false));
        if (pending.empty()) {
            w.child.reset();
            return true;
        }
        if (!spawn(w)) return false;
        return true;
    };

    auto stopAll = [&] {
        for (Worker& w : workers) {
            if (!w.child) continue;
            w.child->kill(SIGKILL);
            pid_t pid = w.child->pid();
            w.child->wait();
            // Only this run's temporaries: the one each killed worker had in flight, by its pid.
            for (size_t item : w.queue) ::unlink(io::temporaryPathFor(items[item].output, pid).c_str());
        }
    };

    // One file to each worker first, then the second: two files must not queue behind one worker.
    for (size_t depth = 1; depth <= kDepth; ++depth)
        for (Worker& w : workers) assign(w, depth);
    const int64_t timeoutNs = static_cast<int64_t>(isolation.timeoutSeconds * 1e9);
    while (done < items.size()) {
        std::vector<pollfd> polls;
        std::vector<Worker*> busy;
        int waitMs = -1;
        for (Worker& w : workers) {
            if (w.queue.empty()) continue;
            polls.push_back(pollfd{w.child->out(), POLLIN, 0});
            busy.push_back(&w);
            if (timeoutNs > 0 && board[w.slot].currentPhase() != Phase::Idle) {
                int64_t left = board[w.slot].itemStartNs.load() + timeoutNs - nowNs();
                int ms = static_cast<int>(std::clamp<int64_t>(left / 1000000 + 1, 0, 1000));
                waitMs = waitMs < 0 ? ms : std::min(waitMs, ms);
            } else if (timeoutNs > 0) {
                waitMs = waitMs < 0 ? 100 : std::min(waitMs, 100);  // not started yet: look again soon
            }
        }
        if (polls.empty()) return kExitInternal;
        polls.push_back(pollfd{gInterruptPipe[0], POLLIN, 0});
        if (::poll(polls.data(), polls.size(), waitMs) < 0 && errno != EINTR) return kExitInternal;
        if (gInterruptSignal) {
            stopAll();
            if (progressLine) std::fputs("\r\033[K", stderr);
            writeDiagnostics(
                formatNote("pto-host/interrupted",
                           "interrupted by " + io::signalName(gInterruptSignal) + ": " + std::to_string(done) + " of " +
                               std::to_string(items.size()) + " files done, the rest not written",
                           options.diagnostics),
                options.diagnostics);
            writeReport(report);
            return 128 + gInterruptSignal;
        }
        for (size_t i = 0; i < busy.size(); ++i) {
            Worker& w = *busy[i];
            if (timeoutNs > 0 && board[w.slot].currentPhase() != Phase::Idle &&
                nowNs() - board[w.slot].itemStartNs.load() > timeoutNs) {
                w.child->kill(SIGKILL);
                if (!buried(w, true)) return kExitInternal;
                assign(w);
                continue;
            }
            if (!polls[i].revents) continue;
            char chunk[4096];
            ssize_t n = ::read(w.child->out(), chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n > 0) {
                w.buffer.append(chunk, static_cast<size_t>(n));
                uint32_t header[4];
                while (w.buffer.size() >= sizeof header) {
                    std::memcpy(header, w.buffer.data(), sizeof header);
                    const size_t frame = sizeof header + header[2] + header[3];
                    if (w.buffer.size() < frame) break;
                    finish(static_cast<int>(header[1]), w.buffer.substr(sizeof header, header[2]),
                           w.buffer.substr(sizeof header + header[2], header[3]));
                    w.buffer.erase(0, frame);
                    w.queue.pop_front();
                }
                assign(w);
                continue;
            }
            if (!buried(w, false)) return kExitInternal;
            assign(w);
        }
    }
    for (Worker& w : workers)
        if (w.child) w.child->wait();
    if (progressLine) std::fputs("\r\033[K", stderr);
    if (isolation.summary)
        writeDiagnostics(
            options.diagnostics == DiagnosticsFormat::Text
                ? "pto-host batch: " + std::to_string(items.size()) + " files, " +
                      std::to_string(items.size() - failed) + " ok, " + std::to_string(failed) + " failed\n"
                : formatNote("pto-host/summary",
                             std::to_string(items.size()) + " files, " + std::to_string(items.size() - failed) +
                                 " ok, " + std::to_string(failed) + " failed",
                             options.diagnostics),
            options.diagnostics);
    if (!writeReport(report)) return std::max(worst, int{kExitOutput});
    return worst;
}

Expected<std::unique_ptr<Pipeline>> loadPipelineIsolated(const std::vector<std::string>& manifests,
                                                         double timeoutSeconds) {
    auto load = [&](WorkerProgress* progress) -> Expected<std::unique_ptr<Pipeline>> {
        std::vector<Plugin> plugins;
        for (size_t i = 0; i < manifests.size(); ++i) {
            if (progress) progress->item.store(static_cast<uint32_t>(i));
            auto plugin = loadFromManifest(manifests[i]);
            if (!plugin) return plugin.error();
            plugins.push_back(std::move(*plugin));
        }
        return buildPipeline(std::move(plugins));
    };
    ProgressBoard board(1);
    if (!board.ok()) return fileError("", "cannot allocate shared memory", "");
    board[0].enter(Phase::Load);
    io::ChildOptions options;
    options.stdoutToStderr = true;
    io::ChildRun probe = io::runInChild(
        [&](int out) {
            // An explicit verdict: a plugin that ends the process early (exit(0) in a constructor)
            // must not pass for a successful load.
            auto pipeline = load(&board[0]);
            std::string verdict = pipeline ? "loaded" : "failed";
            return io::writeAll(out, verdict.data(), verdict.size()) ? 0 : 2;
        },
        timeoutSeconds, options);
    if (!probe.end.exitedWith(0) || (probe.output != "loaded" && probe.output != "failed")) {
        size_t i = board[0].item.load();
        std::string manifest = i < manifests.size() ? manifests[i] : "<manifest>";
        std::string what = probe.timedOut ? "did not finish loading within " +
                                                std::to_string(static_cast<long long>(timeoutSeconds)) + " s"
                                          : "ended the process with " + probe.end.describe();
        return fileError(
            manifest,
            "the plugin of this manifest " + what + " while loading (in a library constructor or its entry point)",
            "fix the plugin, or remove this manifest from the pipeline");
    }
    // The plugins load without crashing: load them here (an error is reported as the child saw it).
    return load(nullptr);
}

}  // namespace ptoplug::host
