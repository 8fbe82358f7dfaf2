// Child processes: the one place that forks, wires pipes, applies limits, waits, and says how a
// child ended. The host runs all plugin code in children so that a plugin's crash, exit or hang is
// a reported failure of one file, never the host's.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ptoplug::io {

/// How a child process ended, and its peak memory.
struct ChildEnd {
    enum class How : uint8_t { Exited, Signaled, Unknown };
    How how = How::Unknown;
    int status = 0;  ///< the exit code, or the signal number
    long peakRssKiB = 0;

    bool exitedWith(int code) const { return how == How::Exited && status == code; }
    /// "exit(0)", "SIGSEGV (Segmentation fault)", ...
    std::string describe() const;
};

/// "SIGSEGV", "SIGKILL", ... ("signal N" for others).
std::string signalName(int sig);

struct ChildOptions {
    bool stdoutToStderr = false;    ///< the child's fd 1 becomes its stderr (plugins never write into host output)
    bool ignoreInterrupts = false;  ///< SIGINT is ignored: the parent decides when the child stops
    uint64_t memoryLimitMiB = 0;    ///< address-space limit (RLIMIT_AS); 0 = none
    /// The child shares the parent's stdin (it reads an input "-"). Otherwise its stdin is /dev/null:
    /// plugin code reading stdin must not wait on a terminal or take the data of a pipeline.
    bool keepStdin = false;
    /// The child leads a process group of its own (its descendants start in it: Child::killGroup ends them
    /// all) and is a subreaper (PR_SET_CHILD_SUBREAPER: a descendant whose parent ends, even one in a new
    /// session, becomes its child, where endDescendants finds it).
    bool ownGroup = false;
};

/// A forked child with a pipe each way. It dies with its parent (PR_SET_PDEATHSIG), so a killed host
/// leaves no worker behind. Move-only; the destructor kills and reaps a child still running.
class Child {
public:
    /// Forks; the child runs `body(in, out)` and _exits with its result (an escaping exception exits 70).
    static std::optional<Child> fork(const std::function<int(int in, int out)>& body, const ChildOptions& options = {});
    /// Forks and executes `argv` (argv[0] is a path, no shell) with stdout and stderr sent to the given
    /// descriptors (-1: inherited). The child's `in` pipe is its stdin.
    static std::optional<Child> exec(const std::vector<std::string>& argv, int stdoutFd = -1, int stderrFd = -1);

    Child(Child&& other) noexcept;
    Child& operator=(Child&& other) noexcept;
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    ~Child();

    pid_t pid() const { return pid_; }
    int in() const { return in_; }    ///< write end of the child's input pipe (-1 once closed)
    int out() const { return out_; }  ///< read end of the child's output pipe (-1 once closed)
    void closeIn();
    void kill(int sig) const;
    /// Sends `sig` to the child's process group (ChildOptions::ownGroup), the child included; call it before
    /// wait(), while the child's pid, and so its group's, cannot be reused.
    void killGroup(int sig) const;
    /// Waits up to `seconds` for the child to end, without reaping it (its pid, and its group's, stay taken:
    /// killGroup can follow); true if it ended.
    bool awaitEnd(double seconds) const;
    /// Closes the pipes, waits for the child and reports how it ended.
    ChildEnd wait();

private:
    Child() = default;
    pid_t pid_ = -1;
    int in_ = -1;
    int out_ = -1;
};

/// What a child wrote to its output pipe and how it ended.
struct ChildRun {
    std::string output;
    ChildEnd end;
    bool timedOut = false;  ///< killed (SIGKILL) because it ran past the time limit
};

/// Reads `child`'s output until it closes it or ends (then what it wrote is read, and its group ended:
/// ChildOptions::ownGroup), killing the child once `timeoutSeconds` pass (0: no limit), then waits for it.
ChildRun collect(Child& child, double timeoutSeconds);

/// Runs `body` in a child (see Child::fork) and collects what it writes to its `out` descriptor.
ChildRun runInChild(const std::function<int(int out)>& body, double timeoutSeconds, const ChildOptions& options = {});

/// Runs an executable with `input` on its stdin, capturing stdout and stderr (tests, benchmarks).
struct CommandResult {
    ChildEnd end;
    std::string out;
    std::string err;
    int exitCode() const { return end.how == ChildEnd::How::Exited ? end.status : -1; }
};
CommandResult runCommand(const std::vector<std::string>& argv, const std::string& input = {});

/// Runs `body` in a forked child that dies with this process (PR_SET_PDEATHSIG), shares its descriptors, is a
/// subreaper (a descendant whose parent ends becomes its child, so that it can be found) and _exits with
/// body's result (70 if an exception escapes), and waits for it: how it ended (Unknown if it could not be
/// forked).
ChildEnd runForked(const std::function<int()>& body);

/// Runs `body` on a new thread at the main thread's stack limit and ends the process from that thread with
/// its result (70 if an exception escapes), stdio flushed; on the calling thread where no thread can be
/// made. For a forked child's work: glibc's malloc gives a new thread a new arena, so its allocations land
/// on fresh pages, as does its stack, instead of writes into the pages it shares with its parent, each a
/// copy (on the VMs CI runs on a copy-on-write costs ~12 us, a fresh page ~8.5 us; 0.90x the time of a
/// batch of small files). Ending from the thread skips its teardown (its stack and arena given back page
/// by page) and the join, which an ending process does not need.
[[noreturn]] void exitOnFreshThread(const std::function<int()>& body);

/// Ends this process as `end` says another one ended: with the same signal (its default action) or exit
/// code, so that whoever waits for this one learns the same.
[[noreturn]] void endAs(const ChildEnd& end);

/// Kills (SIGKILL) and reaps every child of this process, and every process that becomes its child meanwhile
/// (a subreaper's orphaned descendants), found through /proc, until none is left; false if some are still there
/// after about a second.
bool endDescendants();

/// write(2) of all of `size` bytes, retrying on EINTR and short writes; false on failure (errno set).
bool writeAll(int fd, const void* data, size_t size);
/// read(2) of exactly `size` bytes, retrying on EINTR and short reads; false on end of file or failure.
bool readAll(int fd, void* data, size_t size);

}  // namespace ptoplug::io
