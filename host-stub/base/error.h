// Errors as values, host-wide: what went wrong in an input, output, manifest or plugin file, and where.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace ptoplug {

struct Error {
    std::string file;     ///< the file it concerns ("<stdin>", or empty when unknown)
    std::string pointer;  ///< JSON Pointer into the document (RFC 6901); empty for the whole file
    int64_t line = -1;    ///< 1-based, JSON input only
    int64_t column = -1;  ///< 1-based, in bytes, JSON input only
    int64_t offset = -1;  ///< byte offset, when known
    std::string message;  ///< what is wrong
    std::string hint;     ///< what to do about it

    /// "file:line:col: error: message (at /pointer, byte N)\n  hint: ...", every part of it printable
    /// (base/printable.h): one line and a hint line, whatever bytes the parts hold.
    std::string format() const;
};

/// An error about a whole file (no place inside it): what is wrong and what to do.
inline Error fileError(std::string file, std::string message, std::string hint) {
    Error e;
    e.file = std::move(file);
    e.message = std::move(message);
    e.hint = std::move(hint);
    return e;
}

/// A value or an Error. Small on purpose: the host never throws across its own layers.
template <class T>
class Expected {
public:
    Expected(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
    Expected(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(v_); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const Error& error() const { return std::get<1>(v_); }
    Error& error() { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

/// Success or an Error.
using Status = std::optional<Error>;

}  // namespace ptoplug
