#include "io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace ptoplug::io {
namespace {

ir::IrError fsError(const std::string& path, const std::string& what, int err) {
    ir::IrError e;
    e.file = path;
    e.message = what + ": " + std::strerror(err);
    e.hint = "check that the output directory exists, is writable and has free space";
    return e;
}

}  // namespace

ir::Status writeFileAtomically(const std::string& path, const std::function<ir::Status(ir::Sink&)>& produce) {
    if (path == "-") {
        ir::FdSink sink(STDOUT_FILENO);
        if (auto err = produce(sink)) return err;
        if (!sink.flush()) return fsError("<stdout>", "write failed", sink.error());
        return std::nullopt;
    }
    std::string pattern = path + ".tmp.XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    int fd = ::mkstemp(name.data());
    if (fd < 0) return fsError(path, "cannot create a temporary file beside the output", errno);
    std::string temp(name.data());
    ::fchmod(fd, 0644);
    ir::Status result;
    {
        ir::FdSink sink(fd);
        result = produce(sink);
        if (!result && !sink.flush()) result = fsError(path, "write failed", sink.error());
    }
    if (::close(fd) != 0 && !result) result = fsError(path, "close failed", errno);
    if (!result && ::rename(temp.c_str(), path.c_str()) != 0) result = fsError(path, "cannot rename into place", errno);
    if (result) {
        ::unlink(temp.c_str());
        if (result->file.empty()) result->file = path;
    }
    return result;
}

}  // namespace ptoplug::io
