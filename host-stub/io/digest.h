// SHA-256 digests (OpenSSL), for manifests' library hashes and batch reports.
#pragma once

#include <string>

namespace ptoplug::io {

/// The lowercase hex SHA-256 of the file at `path`; empty if it cannot be read.
std::string sha256OfFile(const std::string& path);

}  // namespace ptoplug::io
