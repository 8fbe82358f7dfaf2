#include "io/subprocess.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>

#include "io/deadline.h"

namespace ptoplug::io {
namespace {

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

// In a new child: die with the parent, and the requested stdio and limits.
void setUpChild(pid_t parent, const ChildOptions& options) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);  // the parent died before prctl took effect
    ::signal(SIGPIPE, SIG_IGN);
    ::signal(SIGXFSZ, SIG_IGN);
    ::signal(SIGINT, options.ignoreInterrupts ? SIG_IGN : SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    if (options.stdoutToStderr) ::dup2(STDERR_FILENO, STDOUT_FILENO);
    if (!options.keepStdin)
        if (int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC); null >= 0) {
            ::dup2(null, STDIN_FILENO);
            ::close(null);
        }
    if (options.ownGroup) {
        ::setpgid(0, 0);
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    }
    if (options.memoryLimitMiB > 0) {
        rlimit limit{};
        limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(options.memoryLimitMiB) << 20;
        ::setrlimit(RLIMIT_AS, &limit);
    }
}

bool makePipes(int down[2], int up[2]) {
    if (::pipe2(down, O_CLOEXEC) != 0) return false;
    if (::pipe2(up, O_CLOEXEC) == 0) return true;
    ::close(down[0]);
    ::close(down[1]);
    return false;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::string signalName(int sig) {
    const char* abbrev = ::sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::string ChildEnd::describe() const {
    switch (how) {
        case How::Exited: return "exit(" + std::to_string(status) + ")";
        case How::Signaled: return signalName(status) + " (" + ::strsignal(status) + ")";
        case How::Unknown: break;
    }
    return "an unknown end";
}

bool endDescendants() {
    const pid_t self = ::getpid();
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        siginfo_t info{};
        if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return true;  // ECHILD: none left
        if (secondsSince(t0) > 1) return false;
        if (DIR* proc = ::opendir("/proc")) {
            while (const dirent* e = ::readdir(proc)) {
                const pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
                if (pid <= 0) continue;
                char path[64], stat[512];
                std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
                const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
                if (fd < 0) continue;
                const ssize_t n = ::read(fd, stat, sizeof stat - 1);
                ::close(fd);
                if (n <= 0) continue;
                stat[n] = '\0';
                const char* end = std::strrchr(stat, ')');  // past the name, which may hold anything
                int parent = 0;
                if (end && std::sscanf(end + 1, " %*c %d", &parent) == 1 && parent == self) ::kill(pid, SIGKILL);
            }
            ::closedir(proc);
        }
        const timespec ms{0, 1000000};
        ::nanosleep(&ms, nullptr);
    }
}

bool writeAll(int fd, const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        ssize_t n = ::write(fd, p, size);
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
        ssize_t n = ::read(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

std::optional<Child> Child::fork(const std::function<int(int in, int out)>& body, const ChildOptions& options) {
    int down[2], up[2];
    if (!makePipes(down, up)) return std::nullopt;
    std::fflush(nullptr);
    pid_t parent = ::getpid();
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(down[1]);
        ::close(up[0]);
        setUpChild(parent, options);
        int code = 70;
        try {
            code = body(down[0], up[1]);
        } catch (...) {
            code = 70;
        }
        std::fflush(nullptr);
        ::_exit(code);
    }
    ::close(down[0]);
    ::close(up[1]);
    if (pid > 0 && options.ownGroup) ::setpgid(pid, pid);  // also here: killGroup may come before the child's
    if (pid < 0) {
        ::close(down[1]);
        ::close(up[0]);
        return std::nullopt;
    }
    Child c;
    c.pid_ = pid;
    c.in_ = down[1];
    c.out_ = up[0];
    return c;
}

namespace {

ChildEnd endOf(int status, const rusage& usage) {
    ChildEnd end;
    end.peakRssKiB = usage.ru_maxrss;
    if (WIFEXITED(status)) {
        end.how = ChildEnd::How::Exited;
        end.status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        end.how = ChildEnd::How::Signaled;
        end.status = WTERMSIG(status);
    }
    return end;
}

// wait4 for `pid`, retried on EINTR; false if it failed.
bool waitFor(pid_t pid, int& status, rusage& usage) {
    pid_t r;
    do {
        r = ::wait4(pid, &status, 0, &usage);
    } while (r < 0 && errno == EINTR);
    return r == pid;
}

// Ends the process with body's result (70 if an exception escapes), stdio flushed, from whichever thread
// runs it.
[[noreturn]] void runAndExit(const std::function<int()>& body) {
    int code = 70;
    try {
        code = body();
    } catch (...) {
        code = 70;
    }
    std::fflush(nullptr);
    ::_exit(code);
}

}  // namespace

ChildEnd runForked(const std::function<int()>& body) {
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(1);
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
        runAndExit(body);
    }
    int status = 0;
    rusage usage{};
    if (pid < 0 || !waitFor(pid, status, usage)) return ChildEnd{};
    return endOf(status, usage);
}

void exitOnFreshThread(const std::function<int()>& body) {
    // The main thread's stack limit, as the calling thread had it (glibc gives 2 MiB where it is unlimited).
    size_t stackBytes = size_t{8} << 20;
    if (struct rlimit limit{}; ::getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        stackBytes = std::max<size_t>(limit.rlim_cur, PTHREAD_STACK_MIN);
    pthread_attr_t attributes;
    ::pthread_attr_init(&attributes);
    ::pthread_attr_setstacksize(&attributes, stackBytes);
    pthread_t thread;
    const int failed = ::pthread_create(
        &thread, &attributes,
        [](void* argument) -> void* { runAndExit(*static_cast<const std::function<int()>*>(argument)); },
        const_cast<std::function<int()>*>(&body));
    ::pthread_attr_destroy(&attributes);
    if (failed) runAndExit(body);
    ::pthread_join(thread, nullptr);  // never returns: the thread ends the process
    ::_exit(70);
}

void endAs(const ChildEnd& end) {
    if (end.how == ChildEnd::How::Signaled) {
        ::signal(end.status, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, end.status);
        ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
        ::raise(end.status);
    }
    ::_exit(end.how == ChildEnd::How::Exited ? end.status : 70);
}

std::optional<Child> Child::exec(const std::vector<std::string>& argv, int stdoutFd, int stderrFd) {
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    return fork(
        [&](int in, int) {
            ::dup2(in, STDIN_FILENO);
            if (stdoutFd >= 0) ::dup2(stdoutFd, STDOUT_FILENO);
            if (stderrFd >= 0) ::dup2(stderrFd, STDERR_FILENO);
            ::signal(SIGPIPE, SIG_DFL);
            ::signal(SIGXFSZ, SIG_DFL);
            ::execv(args[0], args.data());
            return 127;
        },
        {});
}

Child::Child(Child&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), in_(std::exchange(other.in_, -1)), out_(std::exchange(other.out_, -1)) {}

Child& Child::operator=(Child&& other) noexcept {
    if (this != &other) {
        if (pid_ > 0) {
            kill(SIGKILL);
            wait();
        }
        pid_ = std::exchange(other.pid_, -1);
        in_ = std::exchange(other.in_, -1);
        out_ = std::exchange(other.out_, -1);
    }
    return *this;
}

Child::~Child() {
    if (pid_ > 0) {
        kill(SIGKILL);
        wait();
    }
}

void Child::closeIn() { closeFd(in_); }

void Child::kill(int sig) const {
    if (pid_ > 0) ::kill(pid_, sig);
}

bool Child::awaitEnd(double seconds) const {
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        siginfo_t info{};
        if (pid_ <= 0 || ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return true;
        if (info.si_pid == pid_) return true;
        const double waited = secondsSince(t0);
        if (waited > seconds) return false;
        const timespec pause{0, waited < 0.1 ? 1000000 : 10000000};  // 1 ms at first, then 10 ms
        ::nanosleep(&pause, nullptr);
    }
}

void Child::killGroup(int sig) const {
    if (pid_ > 0) ::kill(-pid_, sig);
}

ChildEnd Child::wait() {
    closeFd(in_);
    closeFd(out_);
    ChildEnd end;
    if (pid_ <= 0) return end;
    int status = 0;
    rusage usage{};
    const bool waited = waitFor(pid_, status, usage);
    pid_ = -1;
    return waited ? endOf(status, usage) : end;
}

ChildRun collect(Child& child, double timeoutSeconds) {
    ChildRun run;
    const Deadline deadline = Deadline::after(timeoutSeconds);
    char buffer[65536];
    // Until end of file, or until the child has ended: what it started may hold the pipe open, and ends with
    // its group (ChildOptions::ownGroup) once what the child wrote has been read.
    bool ended = false;
    while (child.out() >= 0) {
        if (!ended && deadline.passed()) {
            run.timedOut = true;
            child.kill(SIGKILL);
            break;
        }
        const int waitMs = ended ? 0 : deadline.pollMs(50);
        pollfd p{child.out(), POLLIN, 0};
        int n = ::poll(&p, 1, waitMs);
        if (n < 0 && errno != EINTR) break;
        if (n == 0 && ended) break;
        if (n <= 0) {
            ended = child.awaitEnd(0);
            continue;
        }
        ssize_t got = ::read(child.out(), buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        run.output.append(buffer, static_cast<size_t>(got));
    }
    child.killGroup(SIGKILL);
    run.end = child.wait();
    return run;
}

ChildRun runInChild(const std::function<int(int out)>& body, double timeoutSeconds, const ChildOptions& options) {
    auto child = Child::fork([&](int, int out) { return body(out); }, options);
    if (!child) return ChildRun{};
    child->closeIn();
    return collect(*child, timeoutSeconds);
}

CommandResult runCommand(const std::vector<std::string>& argv, const std::string& input) {
    CommandResult result;
    int outPipe[2], errPipe[2];
    if (!makePipes(outPipe, errPipe)) return result;
    auto child = Child::exec(argv, outPipe[1], errPipe[1]);
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (!child) {
        ::close(outPipe[0]);
        ::close(errPipe[0]);
        return result;
    }
    // Feed stdin and drain both outputs together, so that neither side can block the other.
    ::fcntl(child->in(), F_SETFL, O_NONBLOCK);
    size_t written = 0;
    if (input.empty()) child->closeIn();
    int fds[2] = {outPipe[0], errPipe[0]};
    std::string* sinks[2] = {&result.out, &result.err};
    char buffer[65536];
    while (fds[0] >= 0 || fds[1] >= 0) {
        pollfd polls[3];
        nfds_t count = 0;
        for (int fd : fds) polls[count++] = pollfd{fd, POLLIN, 0};
        if (child->in() >= 0) polls[count++] = pollfd{child->in(), POLLOUT, 0};
        if (::poll(polls, count, -1) < 0 && errno != EINTR) break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i] < 0 || !polls[i].revents) continue;
            ssize_t got = ::read(fds[i], buffer, sizeof buffer);
            if (got > 0)
                sinks[i]->append(buffer, static_cast<size_t>(got));
            else if (got == 0 || errno != EINTR)
                closeFd(fds[i]);
        }
        if (count == 3 && polls[2].revents) {
            ssize_t n = ::write(child->in(), input.data() + written, input.size() - written);
            if (n > 0) written += static_cast<size_t>(n);
            if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) child->closeIn();
        }
    }
    result.end = child->wait();
    return result;
}

}  // namespace ptoplug::io
