// The one way the host bounds a wait (--timeout): a point on the steady clock that a wait must not pass,
// or none. Child processes (io/subprocess: loading plugins, the checker's children) and the scheduler's
// workers (driver/batch: a file's time from when its worker took it) all wait through it.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>

namespace ptoplug::io {

/// The steady clock in nanoseconds (the time base of a worker's itemStartNs).
inline int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

class Deadline {
public:
    /// `limitNs` after `startNs`; none when the limit is 0 or less (--timeout 0).
    static Deadline at(int64_t startNs, int64_t limitNs) { return Deadline(limitNs > 0 ? startNs + limitNs : kNever); }
    /// `seconds` from now; none when 0 or less.
    static Deadline after(double seconds) { return at(nowNs(), seconds > 0 ? static_cast<int64_t>(seconds * 1e9) : 0); }

    bool none() const { return atNs_ == kNever; }
    bool passed() const { return !none() && nowNs() > atNs_; }
    /// Seconds left (0 once passed; infinity for none).
    double secondsLeft() const {
        if (none()) return std::numeric_limits<double>::infinity();
        return std::max<double>(0, static_cast<double>(atNs_ - nowNs()) / 1e9);
    }
    /// How long a poll may wait, at most `capMs`: up to just past the deadline, so that it has passed when
    /// the poll returns for it.
    int pollMs(int capMs) const {
        if (none()) return capMs;
        return static_cast<int>(std::clamp<int64_t>((atNs_ - nowNs()) / 1000000 + 1, 0, capMs));
    }

private:
    static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
    explicit Deadline(int64_t atNs) : atNs_(atNs) {}
    int64_t atNs_;
};

}  // namespace ptoplug::io
