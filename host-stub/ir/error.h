// Errors as values: what went wrong in an input or output file, and where.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace ptoplug::ir {

struct IrError {
    std::string file;     ///< the file it concerns ("<stdin>", or empty when unknown)
    std::string pointer;  ///< JSON Pointer into the document (RFC 6901); empty for the whole file
    int64_t line = -1;    ///< 1-based, JSON input only
    int64_t column = -1;  ///< 1-based, in bytes, JSON input only
    int64_t offset = -1;  ///< byte offset, when known
    std::string message;  ///< what is wrong
    std::string hint;     ///< what to do about it

    /// "file:line:col: error: message (at /pointer, byte N)\n  hint: ..."
    std::string format() const;
};

/// An error about a whole file (no place inside it): what is wrong and what to do.
inline IrError fileError(std::string file, std::string message, std::string hint) {
    IrError e;
    e.file = std::move(file);
    e.message = std::move(message);
    e.hint = std::move(hint);
    return e;
}

/// A value or an IrError. Small on purpose: the host never throws across its own layers.
template <class T>
class Expected {
public:
    Expected(T value) : v_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
    Expected(IrError error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(v_); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const IrError& error() const { return std::get<1>(v_); }
    IrError& error() { return std::get<1>(v_); }

private:
    std::variant<T, IrError> v_;
};

/// Success or an IrError.
using Status = std::optional<IrError>;

}  // namespace ptoplug::ir
