#include "driver/batch.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <limits>
#include <new>
#include <nlohmann/json.hpp>
#include <set>

#include "driver/channel.h"
#include "driver/crash_reproducer.h"
#include "driver/report_line.h"
#include "driver/worker.h"
#include "driver/worker_failure.h"
#include "io/interrupts.h"
#include "io/output_file.h"
#include "io/subprocess.h"

namespace ptoplug::host {
namespace fs = std::filesystem;

namespace {

struct Worker {
    std::optional<io::Child> child;
    size_t slot = 0;           ///< its WorkerProgress
    std::deque<size_t> queue;  ///< items sent and not yet answered, in order; the front is in progress
    AnswerReader answers;
    std::string malformed;  ///< why what it sent is no answer ("" while it is)
};

// How long a worker whose files are all answered may take to end before it is killed.
constexpr double kWorkerEndSeconds = 2;

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

namespace {

// One batch: the workers, the queue of files, the tallies and the report. Workers are long-lived (a
// fork per worker, not per file); one that dies takes only the file it was processing with it, is
// reported for that file, and is replaced.
class BatchRun {
public:
    BatchRun(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
             const IsolationOptions& isolation)
        : pipeline_(pipeline),
          items_(items),
          options_(options),
          isolation_(isolation),
          progressLine_(isolation.summary && options.diagnostics == DiagnosticsFormat::Text && ::isatty(STDERR_FILENO)),
          readsStdin_(std::any_of(items.begin(), items.end(), [](const BatchItem& i) { return i.input == "-"; })),
          timeoutNs_(static_cast<int64_t>(isolation.timeoutSeconds * 1e9)) {}

    int run() {
        makeOutputFolders();
        for (size_t i = 0; i < items_.size(); ++i) {
            if (items_[i].problem.empty()) {
                pending_.push_back(i);
                continue;
            }
            finish(kExitBadInput,
                   formatError(fileError(items_[i].input, items_[i].problem + "; skipped", "fix or remove this entry"),
                               options_.diagnostics),
                   reportOf(items_[i], "skipped", kExitBadInput, nullptr, 0, ""));
        }
        const size_t jobs = std::min<size_t>(static_cast<size_t>(std::max(1, isolation_.jobs)), pending_.size());
        board_ = std::make_unique<ProgressBoard>(jobs);
        if (!board_->ok()) return kExitInternal;
        InterruptGuard interrupts;
        workers_.resize(jobs);
        for (size_t i = 0; i < workers_.size(); ++i) {
            workers_[i].slot = i;
            if (!spawn(workers_[i])) return kExitInternal;
        }
        // One file to each worker first, then the second: two files must not queue behind one worker.
        for (size_t depth = 1; depth <= kDepth; ++depth)
            for (Worker& w : workers_) assign(w, depth);
        while (done_ < items_.size()) {
            if (!step()) return kExitInternal;
            if (gInterruptSignal) return interrupted();
        }
        for (Worker& w : workers_)
            if (w.child) {
                // Every file answered: the worker ends (a retiring one ends what plugin code left first), then
                // whatever is left in its group is ended with it.
                w.child->closeIn();
                w.child->awaitEnd(kWorkerEndSeconds);
                w.child->killGroup(SIGKILL);
                w.child->wait();
            }
        if (progressLine_) std::fputs("\r\033[K", stderr);
        if (isolation_.summary) summary();
        if (!writeReport()) return std::max(worst_, int{kExitOutput});
        return worst_;
    }

private:
    void makeOutputFolders() const {
        std::set<fs::path> dirs;
        for (const BatchItem& item : items_)
            if (options_.runPasses && item.problem.empty() && item.output != "-")
                dirs.insert(fs::path(item.output).parent_path());
        for (const fs::path& dir : dirs) {
            std::error_code ec;
            if (!dir.empty()) fs::create_directories(dir, ec);
        }
    }

    bool spawn(Worker& w) {
        WorkerProgress& progress = (*board_)[w.slot];
        progress.enter(Phase::Idle);
        progress.outOfMemory.store(0);
        progress.documentReadOnly.store(0);
        progress.writerCrashed.store(0);
        progress.channelLost.store(0);
        progress.retired.store(0);
        io::ChildOptions childOptions;
        childOptions.ignoreInterrupts = true;
        childOptions.memoryLimitMiB = isolation_.memoryLimitMiB;
        childOptions.keepStdin = readsStdin_;
        // Its own process group, so that what plugin code starts ends with it; not when it reads a terminal,
        // which only the foreground group may.
        childOptions.ownGroup = !(readsStdin_ && ::isatty(STDIN_FILENO));
        w.child = io::Child::fork(
            [&](int in, int out) {
                // The other workers' pipe ends must not stay open here, or they would never see end-of-file.
                for (Worker& other : workers_)
                    if (&other != &w && other.child) {
                        ::close(other.child->in());
                        ::close(other.child->out());
                    }
                return workerMain(pipeline_, items_, options_, isolation_, progress, in, out);
            },
            childOptions);
        return w.child.has_value();
    }

    // A worker that retired (WorkerProgress::retired) answered for every file it started: the others go
    // back to the queue, and a fresh worker takes its place.
    bool replace(Worker& w) {
        pending_.insert(pending_.begin(), w.queue.begin(), w.queue.end());
        w.queue.clear();
        w.answers.clear();
        w.malformed.clear();
        if (pending_.empty()) {
            w.child.reset();
            return true;
        }
        return spawn(w);
    }

    void assign(Worker& w, size_t depth = kDepth) {
        if (!w.child) return;
        if (w.queue.empty() && (*board_)[w.slot].retired.load() != 0) {
            // Not polled while idle: it is replaced here, before it is given a file, once it has ended
            // what plugin code left.
            w.child->awaitEnd(kWorkerEndSeconds);
            w.child->killGroup(SIGKILL);
            w.child->wait();
            if (!replace(w)) return;
        }
        while (w.queue.size() < depth && !pending_.empty()) {
            auto index = static_cast<uint32_t>(pending_.front());
            if (!sendItem(w.child->in(), index)) return;
            w.queue.push_back(pending_.front());
            pending_.pop_front();
        }
    }

    // Waits for a worker's answer, a time-out or an interruption, and handles what came.
    bool step() {
        std::vector<pollfd> polls;
        std::vector<Worker*> busy;
        int waitMs = -1;
        for (Worker& w : workers_) {
            if (w.queue.empty()) continue;
            polls.push_back(pollfd{w.child->out(), POLLIN, 0});
            busy.push_back(&w);
            if (timeoutNs_ <= 0) continue;
            // A worker not yet on its file is looked at again soon.
            const int ms = (*board_)[w.slot].currentPhase() != Phase::Idle ? deadlineOf(w).pollMs(1000) : 100;
            waitMs = waitMs < 0 ? ms : std::min(waitMs, ms);
        }
        if (polls.empty()) return false;
        polls.push_back(pollfd{gInterruptPipe[0], POLLIN, 0});
        if (::poll(polls.data(), polls.size(), waitMs) < 0 && errno != EINTR) return false;
        if (gInterruptSignal) return true;
        for (size_t i = 0; i < busy.size(); ++i) {
            Worker& w = *busy[i];
            if (overTime(w)) {
                w.child->kill(SIGKILL);
                if (!bury(w, true)) return false;
            } else if (polls[i].revents && !receive(w) && !bury(w, false)) {
                return false;
            }
            assign(w);
        }
        return true;
    }

    // The end of the time of the file the worker is on (--timeout, from when it took the file).
    io::Deadline deadlineOf(const Worker& w) const {
        return io::Deadline::at((*board_)[w.slot].itemStartNs.load(), timeoutNs_);
    }

    bool overTime(const Worker& w) const {
        return (*board_)[w.slot].currentPhase() != Phase::Idle && deadlineOf(w).passed();
    }

    // Reads the worker's answers (driver/channel.h); false once the worker is gone or sent what is no answer
    // for the file in front of its queue (then `malformed` says why).
    bool receive(Worker& w) {
        char chunk[65536];
        ssize_t n = ::read(w.child->out(), chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) return true;
        if (n <= 0) return false;
        w.answers.add(chunk, static_cast<size_t>(n));
        Answer answer;
        for (;;) {
            const AnswerReader::Next next = w.answers.take(answer, w.malformed);
            if (next == AnswerReader::Next::Incomplete) return true;
            if (next == AnswerReader::Next::Answer && answer.item != w.queue.front())
                w.malformed = "an answer for another file";
            if (!w.malformed.empty()) {
                w.child->killGroup(SIGKILL);
                return false;
            }
            finish(answer.exitCode, answer.messages, answer.reportLine);
            w.queue.pop_front();
            if (w.queue.empty() && w.answers.pending() > 0) {
                w.malformed = "more than it was asked for";
                w.child->killGroup(SIGKILL);
                return false;
            }
        }
    }

    // A worker ended without answering for the front of its queue: report that file, give the files it
    // had not started back, replace the worker.
    bool bury(Worker& w, bool timedOut) {
        const WorkerProgress& progress = (*board_)[w.slot];
        // Its channel ended: the worker itself may still run (plugin code closed the channel and went on),
        // for at most the rest of its file's time. Then it ends with whatever is left in its group.
        if (!timedOut) timedOut = !w.child->awaitEnd(std::max(deadlineOf(w).secondsLeft(), kWorkerEndSeconds));
        const Phase phase = progress.currentPhase();
        const int stage = progress.stage, property = progress.property;
        const pid_t pid = w.child->pid();
        const std::string malformed = std::move(w.malformed);
        w.child->killGroup(SIGKILL);
        const io::ChildEnd end = w.child->wait();
        if (!timedOut && progress.retired.load() != 0 && end.exitedWith(kExitWorkerRetired)) return replace(w);
        const BatchItem& item = items_[w.queue.front()];
        ::unlink(io::temporaryPathFor(item.output, pid).c_str());
        w.queue.pop_front();
        pending_.insert(pending_.begin(), w.queue.begin(), w.queue.end());
        w.queue.clear();
        w.answers.clear();
        w.malformed.clear();

        const bool oom = isolation_.memoryLimitMiB > 0 &&
                         (progress.outOfMemory.load() != 0 ||
                          static_cast<uint64_t>(end.peakRssKiB) >= (isolation_.memoryLimitMiB << 10) * 9 / 10);
        std::string what;
        int code = kExitInternal;
        if (timedOut) {
            what = "timed out after " + std::to_string(static_cast<long long>(isolation_.timeoutSeconds)) +
                   " s (the --timeout limit)";
        } else if (oom) {
            what = memoryLimitExceeded(isolation_.memoryLimitMiB) + " and died of " + end.describe();
        } else if (!malformed.empty()) {
            what = "sent pto-host what is no answer of its worker (" + malformed + ")";
        } else if (end.how == io::ChildEnd::How::Signaled && end.status == SIGBUS) {
            // The input is mapped while it is read: a file truncated meanwhile faults the reader.
            what = "lost its input (SIGBUS: the file changed or was truncated while in use)";
            code = kExitBadInput;
        } else if (end.how == io::ChildEnd::How::Signaled) {
            what = "crashed with " + end.describe();
        } else if (progress.channelLost.load() != 0) {
            what = "closed or replaced the descriptors pto-host talks to its worker through";
        } else {
            what = "ended the process with " + end.describe() + " instead of returning";
        }
        // The writer runs beside the check and the verifiers: the phase is theirs, the crash was not.
        const bool writer = code != kExitBadInput && !timedOut && !oom && progress.writerCrashed.load() != 0;
        std::string where = describeWhere(pipeline_, options_, phase, stage, property);
        if (writer)
            where =
                "in the host's output writer, which was writing the program while the run went on (then " + where + ")";
        Error error = fileError(item.input, what + " " + where + "; no output was written", "");
        const bool replayable = code != kExitBadInput && (writer || runsPluginCode(phase) || phase == Phase::Check);
        const std::optional<std::string> reproducer =
            replayable ? writeCrashReproducer(pipeline_, options_, isolation_, item.input, what) : std::nullopt;
        const std::string report = reproducer ? "a reproducer is in " + *reproducer + "; replay it with " +
                                                    *reproducer + "/replay.sh, and report it"
                                              : "report this";
        if (code == kExitBadInput) {
            error.hint = "do not change or truncate an input while pto-host runs on it";
        } else if (writer) {
            error.hint =
                report + " as a bug in pto-host (a plugin beside the writer can also have corrupted its memory)";
        } else if (replayable) {
            error.hint = report + " to the plugin's authors";
            if (end.how == io::ChildEnd::How::Signaled && end.status == SIGSEGV && progress.documentReadOnly.load())
                error.hint += " (the program is read-only while a verifier runs: a write into it faults)";
        } else {
            error.hint = "report this as a bug in pto-host";
        }
        finish(code, formatError(error, options_.diagnostics),
               reportOf(item, timedOut ? "timed-out" : "crashed", code, nullptr,
                        secondsSince(progress.itemStartNs.load()), progress.inputSha256));
        if (pending_.empty()) {
            w.child.reset();
            return true;
        }
        return spawn(w);
    }

    // SIGINT or SIGTERM: stop every worker, remove only this run's temporaries (the one each killed
    // worker had in flight, by its pid), keep the report of what finished.
    int interrupted() {
        for (Worker& w : workers_) {
            if (!w.child) continue;
            w.child->killGroup(SIGKILL);
            w.child->kill(SIGKILL);
            pid_t pid = w.child->pid();
            w.child->wait();
            for (size_t item : w.queue) ::unlink(io::temporaryPathFor(items_[item].output, pid).c_str());
        }
        if (progressLine_) std::fputs("\r\033[K", stderr);
        writeDiagnostics(
            formatNote("pto-host/interrupted",
                       "interrupted by " + io::signalName(gInterruptSignal) + ": " + std::to_string(done_) + " of " +
                           std::to_string(items_.size()) + " files done, the rest not written",
                       options_.diagnostics),
            options_.diagnostics);
        writeReport();
        return 128 + gInterruptSignal;
    }

    void finish(int code, const std::string& messages, const std::string& reportLine) {
        ++done_;
        report_ += reportLine;
        if (code != kExitOk) {
            ++failed_;
            worst_ = std::max(worst_, code);
        }
        if (progressLine_) std::fputs("\r\033[K", stderr);
        writeDiagnostics(messages, options_.diagnostics);
        if (progressLine_) std::fprintf(stderr, "[%zu/%zu] %zu failed", done_, items_.size(), failed_);
    }

    std::string reportOf(const BatchItem& item, const char* status, int code, const FileReport* counts, double seconds,
                         const std::string& inputSha256) const {
        return isolation_.reportPath.empty() ? std::string()
                                             : reportLine(item, status, code, counts, seconds, false, inputSha256);
    }

    void summary() const {
        const std::string counts = std::to_string(items_.size()) + " files, " +
                                   std::to_string(items_.size() - failed_) + " ok, " + std::to_string(failed_) +
                                   " failed";
        writeDiagnostics(options_.diagnostics == DiagnosticsFormat::Text
                             ? "pto-host batch: " + counts + "\n"
                             : formatNote("pto-host/summary", counts, options_.diagnostics),
                         options_.diagnostics);
    }

    // The --report lines, in one piece: a report is an output, all or nothing.
    bool writeReport() const {
        if (isolation_.reportPath.empty()) return true;
        Status err = io::writeOutput(isolation_.reportPath, [&](ir::Sink& sink) {
            sink.write(report_);
            return Status();
        });
        if (err) writeDiagnostics(formatError(*err, options_.diagnostics), options_.diagnostics);
        return !err;
    }

    const Pipeline& pipeline_;
    const std::vector<BatchItem>& items_;
    const FileOptions& options_;
    const IsolationOptions& isolation_;
    const bool progressLine_;
    const bool readsStdin_;  ///< an input is "-": workers keep the host's stdin
    const int64_t timeoutNs_;
    std::unique_ptr<ProgressBoard> board_;
    std::vector<Worker> workers_;
    std::deque<size_t> pending_;
    size_t done_ = 0;
    size_t failed_ = 0;
    int worst_ = kExitOk;
    std::string report_;
};

}  // namespace

int runBatch(const Pipeline& pipeline, const std::vector<BatchItem>& items, const FileOptions& options,
             const IsolationOptions& isolation) {
    return BatchRun(pipeline, items, options, isolation).run();
}

}  // namespace ptoplug::host
