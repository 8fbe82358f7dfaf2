#include "driver/batch.h"

#include <glob.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace ptoplug::host {
namespace fs = std::filesystem;

namespace {

ir::IrError usage(const std::string& file, std::string message, std::string hint) {
    ir::IrError e;
    e.file = file;
    e.message = std::move(message);
    e.hint = std::move(hint);
    return e;
}

struct Child {
    pid_t pid;
    int fd;
    size_t item;
    std::string messages;
};

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
            return usage(arg, "no such input file or directory", "check the path");
        }
    }
    std::map<std::string, std::string> outputs;
    for (const BatchItem& item : items) {
        auto [it, fresh] = outputs.emplace(fs::weakly_canonical(item.output).string(), item.input);
        if (!fresh)
            return usage(item.input, "writes the same output as " + it->second + " (" + item.output + ")",
                         "give inputs distinct names, or pass their common directory instead");
    }
    return items;
}

int runBatch(const Pipeline& pipeline, const std::vector<BatchItem>& items, int jobs, const FileOptions& options) {
    for (const BatchItem& item : items) {
        std::error_code ec;
        fs::create_directories(fs::path(item.output).parent_path(), ec);
    }
    bool progress = isatty(STDERR_FILENO);
    std::vector<Child> running;
    size_t next = 0, done = 0, failed = 0;
    int worst = kExitOk;
    std::fflush(nullptr);
    auto finish = [&](Child& c, int status) {
        int code = kExitInternal;
        if (WIFEXITED(status)) {
            code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            int sig = WTERMSIG(status);
            c.messages += items[c.item].input + ": error: crashed with signal " + std::to_string(sig) + " (" +
                          strsignal(sig) + ") while processing this file; no output was written\n";
            removeTemporaries(items[c.item].output);
        }
        ++done;
        if (code != kExitOk) {
            ++failed;
            worst = std::max(worst, code);
        }
        if (progress) std::fputs("\r\033[K", stderr);
        std::fputs(c.messages.c_str(), stderr);
        if (progress) std::fprintf(stderr, "[%zu/%zu] %zu failed", done, items.size(), failed);
    };
    while (next < items.size() || !running.empty()) {
        while (next < items.size() && static_cast<int>(running.size()) < jobs) {
            int fds[2];
            if (pipe(fds) != 0) return kExitInternal;
            pid_t pid = fork();
            if (pid == 0) {
                close(fds[0]);
                FileReport report = processFile(pipeline, items[next].input, items[next].output, options);
                const char* p = report.messages.data();
                size_t left = report.messages.size();
                while (left > 0) {
                    ssize_t n = write(fds[1], p, left);
                    if (n <= 0) break;
                    p += n;
                    left -= static_cast<size_t>(n);
                }
                _exit(report.exitCode);
            }
            close(fds[1]);
            if (pid < 0) {
                close(fds[0]);
                return kExitInternal;
            }
            running.push_back(Child{pid, fds[0], next++, {}});
        }
        std::vector<pollfd> polls;
        for (const Child& c : running) polls.push_back(pollfd{c.fd, POLLIN, 0});
        if (poll(polls.data(), polls.size(), -1) < 0 && errno != EINTR) return kExitInternal;
        for (size_t i = running.size(); i-- > 0;) {
            if (!polls[i].revents) continue;
            char buffer[4096];
            ssize_t n = read(running[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                running[i].messages.append(buffer, static_cast<size_t>(n));
                continue;
            }
            close(running[i].fd);
            int status = 0;
            waitpid(running[i].pid, &status, 0);
            finish(running[i], status);
            running.erase(running.begin() + static_cast<long>(i));
        }
    }
    if (progress) std::fputs("\r\033[K", stderr);
    std::fprintf(stderr, "pto-host batch: %zu files, %zu ok, %zu failed\n", items.size(), items.size() - failed,
                 failed);
    return worst;
}

}  // namespace ptoplug::host
