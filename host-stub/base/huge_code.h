// The code of the loaded objects on huge pages, for a process that forks many short-lived copies of itself.
#pragma once

#include <cstddef>

namespace ptoplug {

/// Replaces each 2 MiB-aligned block of this process's address space that holds only one loaded object's
/// readable, read-only file mappings (its code, its constants and headers; unmapped gaps; an object is a file
/// with code mapped: data files mapped read-only stay) by an identical private copy
/// on a transparent huge page: readable, and executable where the block held code (the constants in such a
/// block become executable too, and the gaps readable zeros). Why: a forked process reaches memory through
/// page-table entries of its own, built on first touch, 4 KiB at a time; on the virtual machines this runs
/// on, each first touch costs microseconds and a small file's process touches hundreds of pages of code and
/// constants. A huge page is one entry for 512 of them (README: the cost of a process per file). Only large
/// objects qualify (pto-host, linked so that its code and its constants each fill blocks of their own, and
/// libraries such as libstdc++ where the kernel aligns them): a small library shares its blocks with its
/// writable data, and stays.
///
/// Call while the process runs one thread and before it forks the copies that benefit. Costs address space
/// (a block's gaps, and 4 MiB for a moment) and a private copy per process that places: not for a process
/// under a tight address-space limit. Blocks with any writable, unreadable or other object's mapping are left
/// alone, as is everything where transparent huge pages are off or not granted. Profilers that name code by
/// its file mapping (perf) then see anonymous code in those blocks. Does nothing in sanitizer builds, whose
/// runtimes keep their own account of mappings. Returns the number of blocks placed.
size_t placeCodeOnHugePages();

/// Whether placeCodeOnHugePages can place anything here: not in sanitizer builds, nor where transparent huge
/// pages are off.
bool hugeCodePlacementPossible();

}  // namespace ptoplug
