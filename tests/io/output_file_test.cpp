// What a committed output survives: its data reaches the device before its name, synced only where the
// page cache held some of it, and file and directory are synced on request (io::Durability).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/output_file.h"
#include "support/process.h"

namespace {
// This test executable's own fsync, which the host's code linked into it calls: it records what was synced.
std::vector<std::string> gSynced;
}  // namespace

extern "C" int fsync(int fd) {
    char target[PATH_MAX] = {};
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
    gSynced.emplace_back(n > 0 ? std::string(target, static_cast<size_t>(n)) : "?");
    return static_cast<int>(::syscall(SYS_fsync, fd));
}

namespace ptoplug::io {
namespace {

namespace fs = std::filesystem;

std::string fileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Three buffers and a part of a block, every byte unlike its neighbours.
std::string content() {
    std::string s((size_t{3} << 20) + 123, '\0');
    for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<char>(i * 131 % 251);
    return s;
}

Status writeContent(const std::string& path, Durability durability) {
    return writeOutput(
        path,
        [](ir::Sink& sink) {
            sink.write(content());
            return Status();
        },
        nullptr, durability);
}

TEST(OutputFile, ADirectOutputIsNamedWithoutASync) {
    test::TempDir dir;
    const std::string out = dir / "out.bin";
    for (int round = 0; round < 2; ++round) {  // a new name, then replacing the file
        gSynced.clear();
        ASSERT_FALSE(writeContent(out, Durability::Atomic));
        EXPECT_TRUE(fileText(out) == content()) << "round " << round;
        // Where direct I/O is refused, the data went through the page cache: the file alone is synced.
        EXPECT_EQ(gSynced.size(), test::takesDirectIo(dir.path()) ? 0u : 1u) << "round " << round;
    }
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1)
        << "a temporary was left beside the output";
}

TEST(OutputFile, ASyncedOutputSyncsTheFileThenItsDirectory) {
    test::TempDir dir;
    const std::string out = dir / "out.bin";
    for (int round = 0; round < 2; ++round) {
        gSynced.clear();
        ASSERT_FALSE(writeContent(out, Durability::Synced));
        EXPECT_TRUE(fileText(out) == content()) << "round " << round;
        ASSERT_EQ(gSynced.size(), 2u) << "round " << round;
        EXPECT_NE(gSynced[0], fs::canonical(dir.path()).string()) << "the file first";
        EXPECT_EQ(gSynced[1], fs::canonical(dir.path()).string());
    }
}

// Only a regular file (or a new one) is named once complete, so only its write may begin before the run's
// verdict and be withdrawn (driver/output_writer.h); a stream takes the bytes as they come.
TEST(OutputFile, OnlyARegularTargetCanBeWithdrawn) {
    test::TempDir dir;
    EXPECT_TRUE(canWithdraw(dir / "new.msgpack"));
    ASSERT_FALSE(writeContent(dir / "old.msgpack", Durability::Atomic));
    EXPECT_TRUE(canWithdraw(dir / "old.msgpack"));
    fs::create_symlink(dir / "old.msgpack", dir / "link.msgpack");
    EXPECT_TRUE(canWithdraw(dir / "link.msgpack"));
    ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
    EXPECT_FALSE(canWithdraw(dir / "fifo"));
    EXPECT_FALSE(canWithdraw(dir.path()));
    EXPECT_FALSE(canWithdraw("-"));
    EXPECT_FALSE(canWithdraw("/dev/null"));
}

// A write that must stay withdrawable (pto-host's write behind the check) refuses a path that has become a
// FIFO: its reader would get the bytes before the run's verdict.
TEST(OutputFile, AWithdrawableWriteRefusesAFifoUnwritten) {
    test::TempDir dir;
    const std::string fifo = dir / "out.msgpack";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    bool produced = false;
    Status err = writeOutput(
        fifo,
        [&](ir::Sink& sink) {
            produced = true;
            sink.write("bytes before the verdict");
            return Status();
        },
        nullptr, Durability::Atomic, Withdrawal::Required);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->file, fifo);
    EXPECT_NE(err->message.find("stopped being a regular file"), std::string::npos) << err->message;
    EXPECT_FALSE(produced);
    char byte = 0;
    EXPECT_LE(::read(reader, &byte, 1), 0);  // nothing reached the FIFO
    ::close(reader);
}

}  // namespace
}  // namespace ptoplug::io
