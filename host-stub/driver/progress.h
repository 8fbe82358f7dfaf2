// Where a worker is in the pipeline, published in memory shared with the parent: when a worker dies,
// hangs or runs out of memory, the parent can say which file, which pass or verifier, and which
// plugin was running, without any help from the dead process.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "io/deadline.h"

namespace ptoplug::host {

using io::nowNs;  ///< the time base of WorkerProgress::itemStartNs
inline double secondsSince(int64_t startNs) { return static_cast<double>(nowNs() - startNs) / 1e9; }

enum class Phase : uint32_t {
    Idle,
    Load,    ///< loading plugins (constructors, entry points)
    Read,    ///< reading the input
    Pass,    ///< a plugin pass (`stage`)
    Check,   ///< the host's structural check after a pass (`stage`)
    Verify,  ///< a property verifier after a pass (`stage`, `property`)
    Write,   ///< writing the output
};

/// One worker's position. Written only by the worker, read by the parent (lock-free atomics).
struct WorkerProgress {
    std::atomic<uint32_t> item{0};      ///< the batch item in progress (or the manifest, in Phase::Load)
    std::atomic<uint32_t> phase{0};     ///< a Phase
    std::atomic<int32_t> stage{-1};     ///< index into Pipeline::stages
    std::atomic<int32_t> property{-1};  ///< index into that stage's produced properties
    std::atomic<int64_t> itemStartNs{0};
    std::atomic<uint32_t> outOfMemory{0};       ///< an allocation failed in this worker
    std::atomic<uint32_t> writerCrashed{0};     ///< a fatal signal hit the output writer's thread (fatal_signals.h)
    std::atomic<uint32_t> channelLost{0};       ///< the worker could not send its report: plugin code closed its pipe
    std::atomic<uint32_t> documentReadOnly{0};  ///< the program is read-only (a verifier runs): a write faults
    /// The worker ended on purpose after answering for its file: plugin code left what the host cannot put
    /// back (base/process_state.h), so it takes no more files; those it was given go to a fresh worker.
    std::atomic<uint32_t> retired{0};
    /// The SHA-256 (hex) of the input's bytes as read, for the report of a file whose worker dies; read by
    /// the parent only once the worker is gone.
    char inputSha256[65] = {};

    void noteInputSha256(const std::string& hex) {
        std::memset(inputSha256, 0, sizeof inputSha256);
        std::memcpy(inputSha256, hex.data(), std::min(hex.size(), sizeof inputSha256 - 1));
    }

    void enter(Phase p, int32_t stageIndex = -1, int32_t propertyIndex = -1) {
        stage.store(stageIndex, std::memory_order_relaxed);
        property.store(propertyIndex, std::memory_order_relaxed);
        phase.store(static_cast<uint32_t>(p), std::memory_order_release);
    }
    Phase currentPhase() const { return static_cast<Phase>(phase.load(std::memory_order_acquire)); }
};
static_assert(std::atomic<int64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free);

/// `count` zeroed WorkerProgress slots in anonymous shared memory, inherited by forked workers.
class ProgressBoard {
public:
    explicit ProgressBoard(size_t count);
    ~ProgressBoard();
    ProgressBoard(const ProgressBoard&) = delete;
    ProgressBoard& operator=(const ProgressBoard&) = delete;
    WorkerProgress& operator[](size_t i) { return slots_[i]; }
    bool ok() const { return slots_ != nullptr; }

private:
    WorkerProgress* slots_ = nullptr;
    size_t count_ = 0;
};

}  // namespace ptoplug::host
