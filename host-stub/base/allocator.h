// How a program that reads large documents wants malloc to behave. Process-wide: set by the program
// (pto-host, the benchmarks), and used by the phases that free much at once.
#pragma once

namespace ptoplug {

/// Large blocks (tables of ids, layouts, string pools) are mapped and go back to the system as soon as
/// they are freed. glibc's default moves its threshold up each time such a block is freed, after which
/// the next ones come from the heap and their pages stay resident: on these machines peak memory is time.
/// Does nothing where malloc is not glibc's.
void returnLargeBlocksWhenFreed();

/// Gives the free pages inside malloc's heaps back to the system: after a phase that freed many small
/// blocks (a read's tables, a plugin's containers), which would otherwise stay resident, unused, beside
/// the fresh pages the next phase touches. About a millisecond. Does nothing where malloc is not glibc's.
void returnFreedHeapPages();

}  // namespace ptoplug
