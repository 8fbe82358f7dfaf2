// Runs a program of the build (pto-host, pto-plugin-check) for end-to-end tests.
#pragma once

#include <string>
#include <vector>

namespace ptoplug::test {

struct ProcessResult {
    int exitCode = -1;  ///< -1 if it did not exit normally
    std::string out;
    std::string err;
};

/// Runs `argv` (argv[0] is a path) with no shell, `input` on its stdin, capturing stdout and stderr.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& input = {});

/// A fresh empty directory under the system temp dir, removed by the destructor.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string operator/(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

void writeBytes(const std::string& path, const std::string& bytes);

/// Whether files in `dir` take direct I/O (O_DIRECT; tmpfs, for one, does not).
bool takesDirectIo(const std::string& dir);

}  // namespace ptoplug::test
