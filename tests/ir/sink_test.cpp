// Output buffering: whatever the pattern of writes and flushes, the file holds exactly the bytes written,
// through the page cache or directly (O_DIRECT, where the file system allows it).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "ir/sink.h"
#include "support/process.h"

namespace ptoplug::ir {
namespace {

std::string fileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Sizes around the alignment and the 1 MiB buffer, a flush in the middle, single bytes, and many short
// writes; every byte differs from its neighbours, so that a misplaced block shows.
std::string writePattern(Sink& sink) {
    std::string expected;
    auto chunk = [&](size_t size) {
        std::string s(size, '\0');
        for (size_t i = 0; i < size; ++i) s[i] = static_cast<char>((expected.size() + i) * 131 % 251);
        sink.write(s);
        expected += s;
    };
    chunk(1);
    chunk(Sink::kAlign - 1);
    chunk(Sink::kAlign);
    for (char c : std::string("put")) {
        sink.put(c);
        expected += c;
    }
    chunk((size_t{1} << 20) + 1);
    sink.flush();  // mid-way, unaligned
    chunk((size_t{3} << 20) + 7);
    chunk(5);
    // Short writes of every size up to 40 and padded keys, across buffer ends (the writers' usual pattern).
    for (size_t i = 0; expected.size() < (size_t{6} << 20); ++i) {
        const size_t size = i % 41;
        if (size == 0) sink.write(nullptr, 0);
        chunk(size);
        std::array<char, Sink::kPadded> padded{};
        const size_t used = i % (Sink::kPadded + 1);
        for (size_t b = 0; b < used; ++b) padded[b] = static_cast<char>('a' + (i + b) % 26);
        sink.writePadded(padded.data(), used);
        expected.append(padded.data(), used);
    }
    return expected;
}

class FdSinkTest : public ::testing::TestWithParam<bool> {};

TEST_P(FdSinkTest, TheFileHoldsExactlyWhatWasWritten) {
    const bool direct = GetParam();
    const std::string path =
        (std::filesystem::temp_directory_path() / ("ptoplug_sink_" + std::to_string(::getpid()))).string();
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    if (direct) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_DIRECT);  // ignored where unsupported
    std::string expected;
    {
        FdSink sink(fd);
        expected = writePattern(sink);
        EXPECT_TRUE(sink.flush());
    }
    ::close(fd);
    EXPECT_TRUE(fileText(path) == expected) << "the file differs from what was written";
    std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(BufferedAndDirect, FdSinkTest, ::testing::Bool());

// A direct file's end, mid-block, is padded, written directly and cut back: no byte goes through the page
// cache, which would make the output code sync the file. After a flush mid-way the rest is buffered.
TEST(FdSink, ADirectFileEndsMidBlockWithoutThePageCache) {
    test::TempDir dir;
    if (!test::takesDirectIo(dir.path())) {
        GTEST_SKIP() << "no direct I/O in " << dir.path();
    }
    for (const bool flushMidWay : {false, true}) {
        const std::string path = dir / "out";
        int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_CLOEXEC, 0644);
        ASSERT_GE(fd, 0);
        std::string expected((size_t{2} << 20) + 123, '\0');
        for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<char>(i * 131 % 251);
        FdSink sink(fd);
        sink.write(expected.substr(0, 5000));
        if (flushMidWay) {
            EXPECT_TRUE(sink.flush());
        }
        sink.write(expected.substr(5000));
        EXPECT_TRUE(sink.flush());
        EXPECT_EQ(sink.wroteThroughCache(), flushMidWay);
        ::close(fd);
        EXPECT_TRUE(fileText(path) == expected) << "the file differs from what was written";
    }
}

TEST(StringSink, HoldsExactlyWhatWasWritten) {
    StringSink sink;
    std::string expected = writePattern(sink);
    EXPECT_TRUE(sink.str() == expected);
}

}  // namespace
}  // namespace ptoplug::ir
