// Output files, all or nothing. A regular file is built unnamed (O_TMPFILE) or as a temporary beside
// the target and only given its final name once complete and on the device, so a reader never sees a
// partial program under it, whatever happens to the writer or the machine. Other targets (stdout, a pipe,
// a FIFO, a device) are written as streams, never replaced.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

#include "base/error.h"
#include "base/step_times.h"
#include "ir/sink.h"

namespace ptoplug::io {

/// Makes fd 1 stderr and keeps the real stdout for the host alone (see hostStdout): whatever plugin
/// code prints can then never land inside the host's output. Call once, first thing in main.
void reserveStdoutForHost();
/// The descriptor of the host's own standard output.
int hostStdout();

/// What a regular output survives once writeOutput has returned.
enum class Durability {
    /// A crash leaves the old file or the whole new one (which the last seconds' writes may not include):
    /// the data is on the device before the file is named. What compilers and build tools give.
    Atomic,
    /// The new file and its name are on stable storage (file and directory fsync'd): as much again as the
    /// write itself on a disk with a large write cache. pto-host's --fsync.
    Synced,
};

/// Whether the output must be one that can be withdrawn after its bytes are written (canWithdraw).
enum class Withdrawal {
    Optional,
    /// `produce` may still refuse the output after writing it (pto-host's write behind the check): a path
    /// that is no longer a regular file (turned into a FIFO since it was checked) is refused unwritten.
    Required,
};

/// Calls `produce` with a sink into `path` and commits it. "-" (and /dev/stdout) is the host's stdout.
/// A regular target keeps its mode (a new one gets 0666 less the umask). Every write is checked: the
/// error names the reason (ENOSPC, EFBIG, EPIPE, ...). `steps`, if given, gets the time from the end of
/// `produce` to the output's commit.
Status writeOutput(const std::string& path, const std::function<Status(ir::Sink&)>& produce, StepTimes* steps = nullptr,
                   Durability durability = Durability::Atomic, Withdrawal withdrawal = Withdrawal::Optional);

/// Whether writeOutput(path) could still withdraw the output when `produce` fails after writing bytes: a
/// regular file (or a new one), named only when complete. Not stdout, a pipe, a FIFO or a device.
bool canWithdraw(const std::string& path);

/// The name of the temporary that process `pid` uses beside `path` while it writes it (only when the
/// file system has no O_TMPFILE, or to replace an existing file): a parent that kills a writer removes
/// exactly this, never another run's files.
std::string temporaryPathFor(const std::string& path, pid_t pid);

}  // namespace ptoplug::io
