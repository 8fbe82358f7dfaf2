// Looking at eight bytes at a time: the scans of text that the readers and writers do byte by byte
// otherwise (strings are short, but there are millions of them).
#pragma once

#include <cstdint>
#include <cstring>

namespace ptoplug::ir::word {

inline constexpr uint64_t kOnes = 0x0101010101010101ULL;
inline constexpr uint64_t kHighs = 0x8080808080808080ULL;

/// The eight bytes at `p` (any alignment), the first in the lowest byte.
inline uint64_t load(const char* p) {
    uint64_t w = 0;
    std::memcpy(&w, p, sizeof w);
    return w;
}

/// The high bit of each byte below `n` (n <= 128) marked. As a yes/no it is exact, and the lowest mark is
/// a true one (a wrong mark can only follow a true one, through a borrow).
inline uint64_t bytesBelow(uint64_t w, uint8_t n) { return (w - kOnes * n) & ~w & kHighs; }

/// The same for the bytes equal to `c`.
inline uint64_t bytesEqual(uint64_t w, char c) { return bytesBelow(w ^ (kOnes * static_cast<uint8_t>(c)), 1); }

/// The bytes a JSON string cannot hold as they are (a control character, '"' or '\\') marked: the
/// writer escapes them, the reader stops its bulk copy at the first.
inline uint64_t jsonSpecialBytes(uint64_t w) { return bytesBelow(w, 0x20) | bytesEqual(w, '"') | bytesEqual(w, '\\'); }

/// The index of the first marked byte of a nonzero mark.
inline unsigned firstMarked(uint64_t marks) { return static_cast<unsigned>(__builtin_ctzll(marks)) / 8; }

}  // namespace ptoplug::ir::word
