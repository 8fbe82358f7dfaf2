// The code of the loaded objects on huge pages, for a process that forks many short-lived copies of itself.
#pragma once

#include <cstddef>

namespace ptoplug {

/// Replaces each 2 MiB-aligned block of this process's address space that holds only one object's read-only
/// file mappings (its code, its constants; unmapped gaps) by an identical private copy on a transparent huge
/// page, executable. Why: a forked process reaches code through page-table entries of its own, built on
/// first touch, 4 KiB at a time; on the virtual machines this runs on, each first touch costs microseconds
/// and a small file's process touches about a thousand pages of code. A huge page is one entry for 512 of
/// them (README: the cost of a process per file).
///
/// Call while the process runs one thread and before it forks the copies that benefit. Blocks with any
/// writable or other object's mapping are left alone, as is everything where transparent huge pages are
/// off; where the kernel gives no huge page the copy is still correct. Profilers that name code by its file
/// mapping (perf) then see anonymous code in those blocks. Does nothing in sanitizer builds, whose runtimes
/// keep their own account of mappings. Returns the number of blocks placed.
size_t placeCodeOnHugePages();

}  // namespace ptoplug
