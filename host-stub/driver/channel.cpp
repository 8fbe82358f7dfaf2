#include "driver/channel.h"

#include <cstring>

#include "io/subprocess.h"

namespace ptoplug::host {
namespace {

constexpr uint32_t kMagic = 0x41'4f'54'50;  // "PTOA" in memory order
constexpr uint16_t kVersion = 1;

struct Header {
    uint32_t magic = kMagic;
    uint16_t version = kVersion;
    uint16_t reserved = 0;
    uint32_t item = 0;
    uint32_t exitCode = 0;
    uint64_t messagesSize = 0;
    uint64_t reportSize = 0;
};
static_assert(sizeof(Header) == 32);

}  // namespace

bool sendItem(int fd, uint32_t item) { return io::writeAll(fd, &item, sizeof item); }

bool receiveItem(int fd, uint32_t& item) { return io::readAll(fd, &item, sizeof item); }

bool sendAnswer(int fd, const Answer& answer) {
    Header header;
    header.item = answer.item;
    header.exitCode = static_cast<uint32_t>(answer.exitCode);
    header.messagesSize = answer.messages.size();
    header.reportSize = answer.reportLine.size();
    return io::writeAll(fd, &header, sizeof header) &&
           io::writeAll(fd, answer.messages.data(), answer.messages.size()) &&
           io::writeAll(fd, answer.reportLine.data(), answer.reportLine.size());
}

AnswerReader::Next AnswerReader::take(Answer& answer, std::string& problem) {
    Header header;
    if (buffer_.size() < sizeof header) return Next::Incomplete;
    std::memcpy(&header, buffer_.data(), sizeof header);
    if (header.magic != kMagic || header.version != kVersion)
        problem = "a frame that does not begin as pto-host's do";
    else if (header.exitCode > 255)
        problem = "exit code " + std::to_string(header.exitCode);
    else if (header.messagesSize > kMaxAnswerText || header.reportSize > kMaxAnswerText)
        problem = "a frame longer than " + std::to_string(kMaxAnswerText >> 20) + " MiB";
    if (!problem.empty()) return Next::Malformed;
    const size_t size = sizeof header + header.messagesSize + header.reportSize;
    if (buffer_.size() < size) return Next::Incomplete;
    answer.item = header.item;
    answer.exitCode = static_cast<int>(header.exitCode);
    answer.messages = buffer_.substr(sizeof header, header.messagesSize);
    answer.reportLine = buffer_.substr(sizeof header + header.messagesSize, header.reportSize);
    buffer_.erase(0, size);
    return Next::Answer;
}

}  // namespace ptoplug::host
