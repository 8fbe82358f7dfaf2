#include "support/process.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/subprocess.h"
#include "support/fixtures.h"

namespace ptoplug::test {

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& input) {
    io::CommandResult r = io::runCommand(argv, input);
    return ProcessResult{r.exitCode(), std::move(r.out), std::move(r.err)};
}

TempDir::TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ptoplug-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data()) ? pattern : std::string();
}

TempDir::~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

void writeBytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

bool takesDirectIo(const std::string& dir) {
    constexpr size_t kBlock = 4096;
    const std::string probe = dir + "/.direct-io-probe";
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_DIRECT | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    void* block = std::aligned_alloc(kBlock, kBlock);
    const bool ok = ::write(fd, block, kBlock) == static_cast<ssize_t>(kBlock);
    std::free(block);
    ::close(fd);
    std::filesystem::remove(probe);
    return ok;
}

}  // namespace ptoplug::test
