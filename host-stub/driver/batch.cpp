#include "driver/batch.h"

#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <set>

namespace ptoplug::host {
namespace fs = std::filesystem;

namespace {

// A worker process: takes item indices on `toWorker`, answers each with a frame on `fromWorker`.
struct Worker {
    pid_t pid = -1;
    int toWorker = -1;
    int fromWorker = -1;
    std::deque<size_t> queue;  ///< items sent and not yet answered, in order; the front is in progress
    std::string buffer;
};

bool writeAll(int fd, const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

bool readAll(int fd, void* data, size_t size) {
    char* p = static_cast<char*>(data);
    while (size > 0) {
        ssize_t n = read(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

// The worker's loop: one file at a time until the parent closes the pipe. Frame: item, exit code,
// message length, message.
[[noreturn]] void workerMain(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
                             int in, int out) {
    uint32_t index = 0;
    while (readAll(in, &index, sizeof index)) {
        FileReport report = processFile(pipeline, items[index].input, items[index].output, options);
        uint32_t header[3] = {index, static_cast<uint32_t>(report.exitCode),
                              static_cast<uint32_t>(report.messages.size())};
        if (!writeAll(out, header, sizeof header) || !writeAll(out, report.messages.data(), report.messages.size()))
            _exit(kExitInternal);
    }
    _exit(0);
}

bool spawn(Worker& w, const std::vector<Worker>& others, const Pipeline& pipeline, const std::vector<BatchItem>& items,
           const FileOptions& options) {
    int down[2], up[2];
    if (pipe(down) != 0) return false;
    if (pipe(up) != 0) {
        close(down[0]);
        close(down[1]);
        return false;
    }
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
        close(down[1]);
        close(up[0]);
        // The other workers' pipe ends must not stay open here, or they would never see end-of-file.
        for (const Worker& other : others)
            if (&other != &w && other.pid > 0) {
                close(other.toWorker);
                close(other.fromWorker);
            }
        workerMain(pipeline, items, options, down[0], up[1]);
    }
    close(down[0]);
    close(up[1]);
    if (pid < 0) {
        close(down[1]);
        close(up[0]);
        return false;
    }
    w = Worker{pid, down[1], up[0], {}, {}};
    return true;
}

// Removes temporary files a crashed child may have left beside its output.
void removeTemporaries(const std::string& output) {
    fs::path out(output);
    std::error_code ec;
    fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
    std::string prefix = out.filename().string() + ".tmp.";
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().rfind(prefix, 0) == 0) fs::remove(e.path(), ec);
}

}  // namespace

ir::Expected<std::vector<BatchItem>> expandBatchInputs(const std::vector<std::string>& inputs,
                                                       const std::string& outDir) {
    std::vector<BatchItem> items;
    auto add = [&](const fs::path& input, const fs::path& relative) {
        items.push_back({input.string(), (fs::path(outDir) / relative).string()});
    };
    for (const std::string& arg : inputs) {
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            std::vector<fs::path> files;
            for (const auto& e : fs::recursive_directory_iterator(arg, ec))
                if (e.is_regular_file()) files.push_back(e.path());
            std::sort(files.begin(), files.end());
            for (const fs::path& f : files) add(f, fs::relative(f, arg));
        } else if (arg.find_first_of("*?[") != std::string::npos) {
            glob_t g{};
            if (glob(arg.c_str(), 0, nullptr, &g) == 0)
                for (size_t i = 0; i < g.gl_pathc; ++i)
                    if (fs::is_regular_file(g.gl_pathv[i], ec)) add(g.gl_pathv[i], fs::path(g.gl_pathv[i]).filename());
            globfree(&g);
        } else if (fs::is_regular_file(arg, ec)) {
            add(arg, fs::path(arg).filename());
        } else {
            return ir::fileError(arg, "no such input file or directory", "check the path");
        }
    }
    // Lexical normalization, no file system calls: thousands of inputs must not cost thousands of
    // syscalls in the parent, which would serialize the workers.
    std::map<std::string, std::string> outputs;
    const fs::path cwd = fs::current_path();
    for (const BatchItem& item : items) {
        fs::path out(item.output);
        auto [it, fresh] =
            outputs.emplace((out.is_absolute() ? out : cwd / out).lexically_normal().string(), item.input);
        if (!fresh)
            return ir::fileError(item.input, "writes the same output as " + it->second + " (" + item.output + ")",
                                 "give inputs distinct names, or pass their common directory instead");
    }
    return items;
}

// Workers are long-lived (a fork per worker, not per file); a worker that dies takes only the file it
// was processing with it, is reported for that file, and is replaced.
int runBatch(const Pipeline& pipeline, const std::vector<BatchItem>& items, int jobs, const FileOptions& options) {
    std::set<fs::path> dirs;
    for (const BatchItem& item : items) dirs.insert(fs::path(item.output).parent_path());
    for (const fs::path& dir : dirs) {
        std::error_code ec;
        fs::create_directories(dir, ec);
    }
    signal(SIGPIPE, SIG_IGN);
    bool progress = isatty(STDERR_FILENO);
    size_t done = 0, failed = 0;
    int worst = kExitOk;
    auto finish = [&](size_t item, int code, const std::string& messages) {
        ++done;
        if (code != kExitOk) {
            ++failed;
            worst = std::max(worst, code);
        }
        if (progress) std::fputs("\r\033[K", stderr);
        std::fputs(messages.c_str(), stderr);
        if (progress) std::fprintf(stderr, "[%zu/%zu] %zu failed", done, items.size(), failed);
        (void)item;
    };
    std::vector<Worker> workers(static_cast<size_t>(std::min<size_t>(static_cast<size_t>(jobs), items.size())));
    for (Worker& w : workers)
        if (!spawn(w, workers, pipeline, items, options)) return kExitInternal;
    // Two items in flight per worker, so that a worker never idles while the parent answers.
    constexpr size_t kDepth = 2;
    std::deque<size_t> pending;
    for (size_t i = 0; i < items.size(); ++i) pending.push_back(i);
    auto assign = [&](Worker& w) {
        while (w.queue.size() < kDepth && !pending.empty()) {
            auto index = static_cast<uint32_t>(pending.front());
            if (!writeAll(w.toWorker, &index, sizeof index)) return;
            w.queue.push_back(pending.front());
            pending.pop_front();
        }
    };
    for (Worker& w : workers) assign(w);
    while (done < items.size()) {
        std::vector<pollfd> polls;
        std::vector<Worker*> busy;
        for (Worker& w : workers)
            if (!w.queue.empty()) {
                polls.push_back(pollfd{w.fromWorker, POLLIN, 0});
                busy.push_back(&w);
            }
        if (polls.empty()) return kExitInternal;
        if (poll(polls.data(), polls.size(), -1) < 0 && errno != EINTR) return kExitInternal;
        for (size_t i = 0; i < polls.size(); ++i) {
            if (!polls[i].revents) continue;
            Worker& w = *busy[i];
            char chunk[4096];
            ssize_t n = read(w.fromWorker, chunk, sizeof chunk);
            if (n > 0) {
                w.buffer.append(chunk, static_cast<size_t>(n));
                uint32_t header[3];
                while (w.buffer.size() >= sizeof header) {
                    std::memcpy(header, w.buffer.data(), sizeof header);
                    if (w.buffer.size() < sizeof header + header[2]) break;
                    finish(w.queue.front(), static_cast<int>(header[1]), w.buffer.substr(sizeof header, header[2]));
                    w.buffer.erase(0, sizeof header + header[2]);
                    w.queue.pop_front();
                }
                assign(w);
                continue;
            }
            // The worker died while processing the front of its queue: report that file, give the
            // files it had not started back, and replace the worker.
            close(w.fromWorker);
            close(w.toWorker);
            int status = 0;
            waitpid(w.pid, &status, 0);
            w.pid = w.toWorker = w.fromWorker = -1;
            size_t item = w.queue.front();
            w.queue.pop_front();
            pending.insert(pending.begin(), w.queue.begin(), w.queue.end());
            w.queue.clear();
            w.buffer.clear();
            std::string messages = items[item].input + ": error: ";
            if (WIFSIGNALED(status)) {
                int sig = WTERMSIG(status);
                messages += "crashed with signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
            } else {
                messages +=
                    "the worker exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            }
            messages += " while processing this file; no output was written\n";
            removeTemporaries(items[item].output);
            finish(item, kExitInternal, messages);
            if (!pending.empty()) {
                if (!spawn(w, workers, pipeline, items, options)) return kExitInternal;
                assign(w);
            }
        }
    }
    for (Worker& w : workers) {
        if (w.pid < 0) continue;
        close(w.toWorker);
        close(w.fromWorker);
        int status = 0;
        waitpid(w.pid, &status, 0);
    }
    if (progress) std::fputs("\r\033[K", stderr);
    std::fprintf(stderr, "pto-host batch: %zu files, %zu ok, %zu failed\n", items.size(), items.size() - failed,
                 failed);
    return worst;
}

}  // namespace ptoplug::host
