#include "io/digest.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

namespace ptoplug::io {
namespace {

class Sha256 {
public:
    Sha256() { EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr); }
    void add(const void* data, size_t size) { EVP_DigestUpdate(ctx_.get(), data, size); }
    std::string hex() {
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int length = 0;
        EVP_DigestFinal_ex(ctx_.get(), digest, &length);
        static const char* kHex = "0123456789abcdef";
        std::string out;
        for (unsigned int i = 0; i < length; ++i) {
            out += kHex[digest[i] >> 4];
            out += kHex[digest[i] & 15];
        }
        return out;
    }

private:
    struct Free {
        void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
    };
    std::unique_ptr<EVP_MD_CTX, Free> ctx_{EVP_MD_CTX_new()};
};

}  // namespace

std::string sha256Of(std::string_view bytes) {
    Sha256 sha;
    sha.add(bytes.data(), bytes.size());
    return sha.hex();
}

std::string sha256OfDescriptor(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return {};
    Sha256 sha;
    char buffer[1 << 16];
    off_t at = 0;
    for (ssize_t n = 0; (n = ::pread(fd, buffer, sizeof buffer, at)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return {};
        sha.add(buffer, static_cast<size_t>(n));
        at += n;
    }
    return sha.hex();
}

std::string sha256OfFile(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return {};
    std::string hex = sha256OfDescriptor(fd);  // checks again that it was not replaced since it was looked at
    ::close(fd);
    return hex;
}

}  // namespace ptoplug::io
