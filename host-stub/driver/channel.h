// The channel between pto-host and a worker: the parent sends the index of each file to run, the worker
// answers each with one frame (magic, version, the file's index, exit code, then its messages and report
// line, each length bounded). The parent checks every frame: plugin code shares the worker's process and
// can write into its end, so what arrives is data to check, never trusted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ptoplug::host {

/// What a worker answers for one file.
struct Answer {
    uint32_t item = 0;  ///< the file's index in the batch
    int exitCode = 0;
    std::string messages;    ///< its diagnostics, formatted
    std::string reportLine;  ///< its --report line ("" without --report)
};

/// The most bytes an answer's messages or report line may have.
inline constexpr uint64_t kMaxAnswerText = uint64_t{256} << 20;

/// The parent: asks the worker for file `item`. False if the channel is gone.
bool sendItem(int fd, uint32_t item);
/// The worker: the next file's index; false once the parent closed the channel.
bool receiveItem(int fd, uint32_t& item);
/// The worker: one answer frame. False if the channel is gone.
bool sendAnswer(int fd, const Answer& answer);

/// The parent's reading of a worker's answers, which arrive in pieces.
class AnswerReader {
public:
    enum class Next { Incomplete, Answer, Malformed };
    /// Appends what was read from the channel.
    void add(const char* data, size_t size) { buffer_.append(data, size); }
    /// Takes the next whole answer; Malformed (with `problem` saying why) when the bytes are no frame: another
    /// magic or version, an exit code past 255, a length past kMaxAnswerText.
    Next take(Answer& answer, std::string& problem);
    /// Bytes received that are not yet a whole frame.
    size_t pending() const { return buffer_.size(); }
    void clear() { buffer_.clear(); }

private:
    std::string buffer_;
};

}  // namespace ptoplug::host
