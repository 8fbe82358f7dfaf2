#include "io/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "base/process_state.h"
#include "io/interrupts.h"

namespace ptoplug::io {
namespace {

namespace fs = std::filesystem;

int gHostStdout = STDOUT_FILENO;

Error fsError(const std::string& path, const std::string& what, int err) {
    Error e;
    e.file = path;
    e.message = what + ": " + std::strerror(err);
    e.hint = err == ENOSPC || err == EDQUOT ? "free some space, or write the output elsewhere"
             : err == EFBIG                 ? "the file is over the size limit (ulimit -f); raise it or write elsewhere"
             : err == EPIPE                 ? "the reading end of the output was closed"
                                            : "check that the output directory exists and is writable";
    return e;
}

bool isStdoutPath(const std::string& path) {
    return path == "-" || path == "/dev/stdout" || path == "/proc/self/fd/1" || path == "/dev/fd/1";
}

mode_t newFileMode() {
    static const mode_t mode = [] {
        mode_t mask = ::umask(0);
        ::umask(mask);
        return static_cast<mode_t>(0666 & ~mask);
    }();
    return mode;
}

// Writes everything `produce` makes to `fd`; the first error from `produce` or from the descriptor.
// `throughCache`, if given, says whether any of it went through the page cache.
Status produceInto(int fd, const std::string& path, const std::function<Status(ir::Sink&)>& produce,
                   bool* throughCache = nullptr) {
    ir::FdSink sink(fd);
    Status produced = produce(sink);
    // A failed descriptor explains a failed write best: its errno names the reason.
    if (!sink.flush()) return fsError(path, "write failed", sink.error());
    if (throughCache) *throughCache = sink.wroteThroughCache();
    return produced;
}

// The named temporary of this process, removed if SIGINT or SIGTERM arrives while it exists.
char gTemporary[PATH_MAX];

void removeTemporaryAndDie(int sig) {
    if (gTemporary[0]) ::unlink(gTemporary);
    ::raise(sig);  // SA_RESETHAND restored the default action
}

class NamedTemporary {
public:
    explicit NamedTemporary(const std::string& path) : remembered_(remember(path)) {}
    ~NamedTemporary() { gTemporary[0] = '\0'; }
    NamedTemporary(const NamedTemporary&) = delete;
    NamedTemporary& operator=(const NamedTemporary&) = delete;

private:
    static bool remember(const std::string& path) {
        std::snprintf(gTemporary, sizeof gTemporary, "%s", path.c_str());
        return true;
    }
    bool remembered_;  // before the handler that removes it
    InterruptHandler handler_{removeTemporaryAndDie, static_cast<int>(SA_RESETHAND)};
};

Status syncDirectory(const std::string& dir, const std::string& path) {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return fsError(path, "cannot open the output directory to sync it", errno);
    int rc = ::fsync(fd);
    int err = errno;
    ::close(fd);
    // Some file systems cannot sync a directory; the rename itself is still atomic there.
    if (rc != 0 && err != EINVAL && err != EROFS) return fsError(path, "cannot sync the output directory", err);
    return std::nullopt;
}

// A non-regular target (pipe, FIFO, device): opened and streamed into, never replaced. A FIFO that no
// process reads is an error, not a hang.
Status writeStream(const std::string& path, const std::function<Status(ir::Sink&)>& produce) {
    int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fsError(path, errno == ENXIO ? "no process is reading this FIFO" : "cannot open the output", errno);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    Status result = produceInto(fd, path, produce);
    if (::close(fd) != 0 && !result) result = fsError(path, "close failed", errno);
    return result;
}

// The data reaches stable storage before the name does: a direct write has reached the device when it
// returns, and the journal commit that makes the new name durable flushes the device's cache first (ext4,
// XFS), so a crash shows the old file or the whole new one. Data that went through the page cache has no
// such order and is synced before the name is given; Durability::Synced syncs file and directory always.
Status writeRegular(const std::string& path, mode_t mode, const std::function<Status(ir::Sink&)>& produce,
                    Durability durability) {
    fs::path target(path);
    std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
    std::string temp = temporaryPathFor(path, ::getpid());
    // Unnamed until complete where the file system allows it: nothing can be left behind.
    int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    bool unnamed = fd >= 0;
    std::optional<NamedTemporary> guard;
    if (!unnamed) {
        guard.emplace(temp);
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd < 0) return fsError(path, "cannot create a temporary file beside the output", errno);
    }
    // Direct I/O where the file system allows it: the output then needs no fresh page-cache pages, which
    // on these machines cost more than the disk (a 600 MB output: 3.5 s buffered, 0.3 s direct).
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_DIRECT);
    bool throughCache = true;
    Status result = produceInto(fd, path, produce, &throughCache);
    const bool synced = durability == Durability::Synced;
    if (!result && ::fchmod(fd, mode) != 0) result = fsError(path, "cannot set the output's mode", errno);
    if (!result && (synced || throughCache) && ::fsync(fd) != 0)
        result = fsError(path, "cannot sync the output", errno);
    auto named = [&]() -> Status { return synced ? syncDirectory(dir, path) : std::nullopt; };
    if (!result && unnamed) {
        // linkat cannot replace: a new name directly, else a named temporary renamed over the old file.
        std::string self = "/proc/self/fd/" + std::to_string(fd);
        if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0) {
            ::close(fd);
            return named();
        }
        if (errno != EEXIST) result = fsError(path, "cannot give the output its name", errno);
        guard.emplace(temp);
        if (!result && ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) != 0)
            result = fsError(path, "cannot name the temporary output", errno);
    }
    if (::close(fd) != 0 && !result) result = fsError(path, "close failed", errno);
    if (!result && ::rename(temp.c_str(), path.c_str()) != 0) result = fsError(path, "cannot rename into place", errno);
    if (result) {
        ::unlink(temp.c_str());
        return result;
    }
    return named();
}

}  // namespace

void reserveStdoutForHost() {
    int saved = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved < 0) return;
    gHostStdout = saved;
    watchHostDescriptor(saved);
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
}

int hostStdout() { return gHostStdout; }

std::string temporaryPathFor(const std::string& path, pid_t pid) {
    fs::path target(path);
    // A fixed short name: an output name near NAME_MAX must not fail for its temporary's suffix.
    return (target.parent_path() / (".ptoplug-" + std::to_string(pid) + ".tmp")).string();
}

namespace {

// Where writeOutput puts the bytes for `path`.
struct Target {
    enum Kind { Stdout, Directory, Stream, Regular } kind;
    std::string path;  ///< a link to an existing file resolved: that file is the output (the link stays a link)
    mode_t mode = 0;   ///< a regular target's mode to keep (or a new file's)
};

Target targetOf(const std::string& path) {
    if (isStdoutPath(path)) return {Target::Stdout, path};
    struct stat st {};
    std::string target = path;
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        std::error_code ec;
        fs::path resolved = fs::canonical(path, ec);
        if (!ec) target = resolved.string();
    }
    if (::stat(target.c_str(), &st) != 0) return {Target::Regular, target, newFileMode()};
    if (S_ISDIR(st.st_mode)) return {Target::Directory, target};
    if (!S_ISREG(st.st_mode)) return {Target::Stream, target};
    return {Target::Regular, target, static_cast<mode_t>(st.st_mode & 07777)};
}

}  // namespace

bool canWithdraw(const std::string& path) { return targetOf(path).kind == Target::Regular; }

Status writeOutput(const std::string& path, const std::function<Status(ir::Sink&)>& produce, StepTimes* steps,
                   Durability durability, Withdrawal withdrawal) {
    Status result;
    const char* lastStep = "flush";  // what follows the produced bytes: only a regular file is named (and synced)
    const Target target = targetOf(path);
    if (withdrawal == Withdrawal::Required && target.kind != Target::Regular) {
        Error e;
        e.file = path;
        e.message =
            "the output stopped being a regular file while pto-host ran (it is now a directory, FIFO or "
            "device); nothing was written to it";
        e.hint = "leave the output path alone while pto-host runs";
        return e;
    }
    switch (target.kind) {
        case Target::Stdout: result = produceInto(hostStdout(), "<stdout>", produce); break;
        case Target::Directory:
            result =
                fileError(path, "the output is a directory", "name a file in it for the output, e.g. DIR/out.json");
            break;
        case Target::Stream: result = writeStream(target.path, produce); break;
        case Target::Regular:
            result = writeRegular(target.path, target.mode, produce, durability);
            lastStep = durability == Durability::Synced ? "sync and name the file" : "name the file";
            break;
    }
    lap(steps, lastStep);
    if (result && result->file.empty()) result->file = path;
    return result;
}

}  // namespace ptoplug::io
