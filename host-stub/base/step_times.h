// The wall time of the steps inside one phase (reading or writing a document), for --time-passes: where
// a phase's time goes, without a profiler.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace ptoplug {

class StepTimes {
public:
    struct Step {
        std::string name;
        double seconds;
    };

    /// Ends the current step (begun at the last lap, or at construction) and names it.
    void lap(std::string_view name) {
        const auto now = std::chrono::steady_clock::now();
        steps_.push_back(Step{std::string(name), std::chrono::duration<double>(now - last_).count()});
        last_ = now;
    }
    const std::vector<Step>& steps() const { return steps_; }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
    std::vector<Step> steps_;
};

/// Steps are timed only when asked for (`times` not null): reading and writing take no clock otherwise.
inline void lap(StepTimes* times, std::string_view name) {
    if (times) times->lap(name);
}

}  // namespace ptoplug
