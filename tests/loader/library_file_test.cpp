// The file hashed is the file loaded: a plugin library is opened once, its manifest's sha256 is checked on
// that descriptor, and that same open file is loaded, whatever the path names by then.
#include <gtest/gtest.h>

#include <filesystem>

#include "io/digest.h"
#include "loader/loader.h"
#include "pipeline/pipeline.h"
#include "support/fixtures.h"
#include "support/process.h"

namespace ptoplug {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

const std::string kCountCalls = PTOPLUG_TEST_PLUGIN_DIR "/libcount_calls.so";
const std::string kFake = PTOPLUG_TEST_PLUGIN_DIR "/libfake_segfaults.so";

// The library is swapped for another between opening (and hashing) and loading: the one opened loads.
TEST(LibraryFile, TheFileOpenedIsTheFileLoadedEvenIfThePathIsReplacedMeanwhile) {
    TempDir tmp;
    const std::string path = tmp / "libplugin.so";
    fs::copy_file(kCountCalls, path);
    auto file = host::LibraryFile::open(path);
    ASSERT_TRUE(file);
    fs::copy_file(kFake, tmp / "other.so");
    fs::rename(tmp / "other.so", path);  // the path now names the fake
    EXPECT_EQ(io::sha256OfDescriptor(file->fd()), io::sha256Of(test::readBytes(kCountCalls)));
    EXPECT_EQ(io::sha256OfFile(path), io::sha256Of(test::readBytes(kFake)));
    auto plugin = host::loadPlugin(std::move(*file));
    ASSERT_TRUE(plugin) << plugin.error().message;
    EXPECT_EQ(std::string((*plugin)->descriptor().name), "count-calls");
    EXPECT_EQ((*plugin)->path(), path);
}

// Two libraries opened one after the other each load as themselves (the loader knows a library by the
// name it was opened with: /proc/self/fd/N must never name a library already loaded).
TEST(LibraryFile, LibrariesLoadedOneAfterAnotherAreEachThemselves) {
    for (int round = 0; round < 2; ++round) {
        auto a = host::loadPlugin(kCountCalls);
        ASSERT_TRUE(a) << a.error().message;
        auto b = host::loadPlugin(kFake);
        ASSERT_TRUE(b) << b.error().message;
        EXPECT_EQ(std::string((*a)->descriptor().name), "count-calls");
        EXPECT_EQ(std::string((*b)->descriptor().name), "fake");
    }
}

// A manifest's pin is checked on the open file: a library that is not the pinned one is refused, named.
TEST(LibraryFile, AManifestsPinIsCheckedOnTheOpenLibrary) {
    TempDir tmp;
    const std::string manifest = tmp / "m.json";
    test::writeBytes(manifest,
                     R"({"file_format_version": 2, "library": ")" + kCountCalls + R"(", "sha256": ")" +
                         io::sha256Of(test::readBytes(kFake)) +
                         R"(", "passes": [{"name": "CountCalls", "placement": {"after": {"pass": "ConvertToSSA"}}}]})");
    auto plugin = host::loadFromManifest(manifest);
    ASSERT_FALSE(plugin);
    EXPECT_NE(plugin.error().message.find("sha256 of " + kCountCalls + " is " +
                                          io::sha256Of(test::readBytes(kCountCalls)) + ", the manifest expects"),
              std::string::npos)
        << plugin.error().message;
}

// A library that cannot be opened is named with the reason.
TEST(LibraryFile, AMissingLibraryIsNamed) {
    auto plugin = host::loadPlugin("/nonexistent/libnothing.so");
    ASSERT_FALSE(plugin);
    EXPECT_EQ(plugin.error().message, "cannot load plugin: cannot open it: No such file or directory");
}

}  // namespace
}  // namespace ptoplug
