// How a program that reads large documents wants malloc to behave; set once, by the program (pto-host,
// the benchmarks), since it is process-wide.
#pragma once

namespace ptoplug::io {

/// Large blocks (tables of ids, layouts, string pools) are mapped and go back to the system as soon as
/// they are freed. glibc's default moves its threshold up each time such a block is freed, after which
/// the next ones come from the heap and their pages stay resident: on these machines peak memory is time.
/// Does nothing where malloc is not glibc's.
void returnLargeBlocksWhenFreed();

}  // namespace ptoplug::io
