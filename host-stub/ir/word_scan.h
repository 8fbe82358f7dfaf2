// Looking at eight bytes at a time: the scans of text that the readers and writers do byte by byte
// otherwise (strings are short, but there are millions of them).
#pragma once

#include <cstddef>
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

/// The bytes that are not ASCII (high bit set) marked.
inline uint64_t nonAsciiBytes(uint64_t w) { return w & kHighs; }

/// For n < 8: every byte of [p, p + n) in one word (some twice), the other bytes `pad`. Given n, different
/// bytes give different words: a short string is compared, hashed or tested in one step, not byte by byte.
inline uint64_t loadShort(const char* p, size_t n, char pad = 0) {
    if (n >= 4) {  // two overlapping halves
        uint32_t head = 0;
        uint32_t tail = 0;
        std::memcpy(&head, p, 4);
        std::memcpy(&tail, p + n - 4, 4);
        return head | uint64_t{tail} << 32;
    }
    const uint64_t padding = kOnes * static_cast<uint8_t>(pad);
    if (n == 0) return padding;
    const auto byte = [&](size_t i) { return uint64_t{static_cast<uint8_t>(p[i])}; };
    return byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16 | padding << 24;
}

/// Whether `marks` (one of the tests above, or any that marks bytes independently and leaves 'a' unmarked)
/// marks a byte of [p, p + n), looking at whole words only: the last overlaps the one before it, and a
/// string shorter than a word is one loadShort padded with 'a'. Most strings of a program are shorter than
/// a word, and byte loops mispredicted a branch at every string's end.
template <class Marks>
inline bool anyMarked(const char* p, size_t n, Marks marks) {
    if (n < 8) return n != 0 && marks(loadShort(p, n, 'a')) != 0;
    for (size_t i = 0; i + 8 <= n; i += 8)
        if (marks(load(p + i))) return true;
    return n % 8 != 0 && marks(load(p + n - 8));
}

/// The index of the first marked byte of a nonzero mark.
inline unsigned firstMarked(uint64_t marks) { return static_cast<unsigned>(__builtin_ctzll(marks)) / 8; }

}  // namespace ptoplug::ir::word
