// SHA-256 digests (OpenSSL), for manifests' library hashes and batch reports.
#pragma once

#include <string>
#include <string_view>

namespace ptoplug::io {

/// The lowercase hex SHA-256 of `bytes`.
std::string sha256Of(std::string_view bytes);

/// The lowercase hex SHA-256 of the regular file at `path`; empty if it cannot be read or is not a regular
/// file (a FIFO, socket or device is never opened for reading: that could block, or act on the device).
std::string sha256OfFile(const std::string& path);

/// The lowercase hex SHA-256 of the whole regular file open as `fd` (read from its start, the file offset
/// left alone); empty if it cannot be read or is not a regular file.
std::string sha256OfDescriptor(int fd);

}  // namespace ptoplug::io
