#include "ir/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>

#include "ir/arena.h"
#include "ir/builder.h"
#include "ir/consumed_input.h"
#include "ir/program_rules.h"

namespace ptoplug::ir {
namespace {

bool isMsgPackMapMarker(unsigned char c) { return (c >= 0x80 && c <= 0x8f) || c == 0xde || c == 0xdf; }

void setLineColumn(Error& err, std::string_view bytes) {
    if (err.offset < 0) return;
    auto end = static_cast<size_t>(err.offset) < bytes.size() ? static_cast<size_t>(err.offset) : bytes.size();
    int64_t line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < end; ++i)
        if (bytes[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    err.line = line;
    err.column = static_cast<int64_t>(end - lineStart) + 1;
}

/// What a file that is not an IR file most likely is, by its first bytes, and what to do about it: files
/// that are almost right (a byte order mark, UTF-16, compressed, a root that is not one Program) are
/// common enough to deserve their own message.
Error notAProgram(std::string_view bytes) {
    struct Known {
        std::string_view start, what, fix;
    };
    static constexpr Known kKnown[] = {
        {"\xEF\xBB\xBF", "a UTF-8 byte order mark before the JSON",
         "pypto IR JSON has no byte order mark: save it as UTF-8 without one, or drop the file's first 3 bytes"},
        {"\xFF\xFE", "UTF-16 text (little-endian byte order mark)", "save the JSON as UTF-8"},
        {"\xFE\xFF", "UTF-16 text (big-endian byte order mark)", "save the JSON as UTF-8"},
        {"\x1F\x8B", "gzip-compressed data", "decompress it first (gunzip -k FILE)"},
        {"\x28\xB5\x2F\xFD", "zstd-compressed data", "decompress it first (zstd -d FILE)"},
        {"[", "JSON whose root is an array, not one Program object",
         "an IR file holds one serialized pypto Program, {\"type\": \"Program\", ...}; pass each program as a file of "
         "its own"},
    };
    for (const Known& k : kKnown)
        if (bytes.substr(0, k.start.size()) == k.start) return fileError("", std::string(k.what), std::string(k.fix));
    auto c = static_cast<unsigned char>(bytes[0]);
    if ((c >= 0x90 && c <= 0x9f) || c == 0xdc || c == 0xdd)
        return fileError("", "MessagePack whose root is an array, not one Program map",
                         "an IR file holds one serialized pypto Program; pass each program as a file of its own");
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", c);
    return fileError("", std::string("neither JSON nor MessagePack (first byte ") + hex + ")",
                     "pass a pypto IR file: MessagePack as pypto writes it, or its JSON form");
}

}  // namespace

const char* fileTypeName(unsigned mode) {
    switch (mode & S_IFMT) {
        case S_IFREG: return "a regular file";
        case S_IFDIR: return "a folder";
        case S_IFIFO: return "a FIFO (named pipe)";
        case S_IFSOCK: return "a socket";
        case S_IFCHR: return "a character device";
        case S_IFBLK: return "a block device";
        case S_IFLNK: return "a symbolic link";
        default: return "not a file";
    }
}

Error notARegularFile(const std::string& path, unsigned mode) {
    return fileError(path, std::string(fileTypeName(mode)) + ", not a regular file",
                     "pass a pypto IR file (a FIFO or device is not read: it could block or act on being read; "
                     "pipe a program to '-' instead)");
}

Expected<Format> detectFormat(std::string_view bytes) {
    if (bytes.empty()) return fileError("", "empty file", "an IR file holds one serialized pypto Program");
    if (isMsgPackMapMarker(static_cast<unsigned char>(bytes[0]))) return Format::MsgPack;
    size_t i = 0;
    while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\n' || bytes[i] == '\r')) ++i;
    if (i == bytes.size())
        return fileError("", "empty file (only whitespace)", "an IR file holds one serialized pypto Program");
    if (bytes[i] == '{') return Format::Json;
    Error e = notAProgram(bytes.substr(i));
    e.offset = static_cast<int64_t>(i);
    return e;
}

std::unique_ptr<Document> readInTwoParts(std::string_view bytes, Format format, const ConsumedInput& consumed,
                                         StepTimes* steps) {
    return format == Format::Json ? readJsonInTwoParts(bytes, consumed, steps)
                                  : readMsgPackInTwoParts(bytes, consumed, steps);
}

ConsumedInput ConsumedInput::from(size_t offset) const {
    if (!base_) return {};
    ConsumedInput c(base_, size_);
    c.dropped_ = offset / pageSize() * pageSize();
    c.next_ = offset + kEvery;
    return c;
}

void ConsumedInput::release(size_t offset) {
    const size_t page = pageSize();
    size_t upTo = offset > kBehind ? (offset - kBehind) / page * page : 0;
    if (upTo > size_) upTo = size_ / page * page;
    // MADV_DONTNEED on a private read-only file mapping only unmaps: touched again (an error's line
    // and column), the pages come back from the file.
    if (upTo > dropped_) ::madvise(const_cast<char*>(base_) + dropped_, upTo - dropped_, MADV_DONTNEED);
    dropped_ = std::max(dropped_, upTo);
    next_ = offset + kEvery;
}

namespace {

// Below this a second thread costs more than it saves.
constexpr size_t kTwoPartBytes = size_t{4} << 20;

Expected<std::unique_ptr<Document>> readAnyRoot(std::string_view bytes, Format format, const std::string& name,
                                                ConsumedInput& consumed, StepTimes* steps);

// The root of a program: a Program node, or an error at the root's first byte.
Status rootIsProgram(const Document& doc, std::string_view bytes, const std::string& name) {
    auto broken = checkRootIsProgram(doc);
    if (!broken) return std::nullopt;
    Error err = fileError(name, broken->message, broken->hint);
    const size_t at = bytes.find_first_not_of(" \t\r\n");
    err.offset = at == std::string_view::npos ? 0 : static_cast<int64_t>(at);
    if (doc.inputFormat() == Format::Json) setLineColumn(err, bytes);
    return err;
}

Expected<std::unique_ptr<Document>> readBytes(std::string_view bytes, Format format, const std::string& name,
                                              ConsumedInput& consumed, StepTimes* steps = nullptr,
                                              Root root = Root::Program) {
    auto doc = readAnyRoot(bytes, format, name, consumed, steps);
    if (doc && root == Root::Program)
        if (Status err = rootIsProgram(**doc, bytes, name)) return *err;
    return doc;
}

Expected<std::unique_ptr<Document>> readAnyRoot(std::string_view bytes, Format format, const std::string& name,
                                                ConsumedInput& consumed, StepTimes* steps) {
    if (format == Format::Auto) {
        auto detected = detectFormat(bytes);
        if (!detected) {
            detected.error().file = name;
            return detected.error();
        }
        format = *detected;
    } else if (bytes.empty()) {
        return fileError(name, "empty file", "an IR file holds one serialized pypto Program");
    }
    if (bytes.size() >= kTwoPartBytes) {
        if (auto doc = readInTwoParts(bytes, format, consumed, steps)) {
            doc->setInputFormat(format);
            return doc;
        }
    }
    auto doc = std::make_unique<Document>();
    Builder builder(*doc);
    builder.expectInput(bytes.size());
    Error parseError;
    bool ok = format == Format::Json ? parseJson(bytes, builder, consumed, parseError)
                                     : parseMsgPack(bytes, builder, consumed, parseError);
    lap(steps, "read in one part");
    if (!ok) {
        Error err = builder.failed() ? builder.error() : parseError;
        if (!builder.failed() && err.pointer.empty()) err.pointer = builder.error().pointer;
        err.file = name;
        if (format == Format::Json) setLineColumn(err, bytes);
        return err;
    }
    doc->setInputFormat(format);
    return doc;
}

}  // namespace

Expected<std::unique_ptr<Document>> readDocument(std::string_view bytes, Format format, const std::string& name,
                                                 Root root) {
    ConsumedInput untracked;
    return readBytes(bytes, format, name, untracked, nullptr, root);
}

Expected<std::unique_ptr<Document>> readFile(const std::string& path, Format format, StepTimes* steps,
                                             const std::function<void(std::string_view)>& beforeReading) {
    if (path == "-") {
        std::string text(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>{});
        if (beforeReading) beforeReading(text);
        return readDocument(text, format, "<stdin>");
    }
    // Looked at before it is opened, and opened without blocking: opening a FIFO for reading would wait for
    // a writer, and a device may act on being opened.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return fileError(path, std::string("cannot open: ") + std::strerror(errno),
                         "check the path and its permissions");
    if (!S_ISREG(st.st_mode)) return notARegularFile(path, st.st_mode);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return fileError(path, std::string("cannot open: ") + std::strerror(errno),
                         "check the path and its permissions");
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {  // replaced since it was looked at
        ::close(fd);
        return notARegularFile(path, st.st_mode);
    }
    auto size = static_cast<size_t>(st.st_size);
    if (size == 0) {
        ::close(fd);
        return fileError(path, "empty file", "an IR file holds one serialized pypto Program");
    }
    // Mapped read-only and private: the input is never modified, and its page-cache pages are shared
    // instead of copied into fresh memory.
    void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (mapped == MAP_FAILED) return fileError(path, std::string("cannot map: ") + std::strerror(errno), "");
    const char* base = static_cast<const char*>(mapped);
    ConsumedInput consumed(base, size);
    if (beforeReading) beforeReading(std::string_view(base, size));
    auto doc = readBytes(std::string_view(base, size), format, path, consumed, steps);
    ::munmap(mapped, size);
    return doc;
}

}  // namespace ptoplug::ir
