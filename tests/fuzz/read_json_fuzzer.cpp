// Fuzz target: the JSON reader. Whatever it accepts must write back and read again, and reading it
// in two parts must build the same document or fall back to one.
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    ptoplug::fuzz::readWriteRead(data, size, ptoplug::ir::Format::Json);
    ptoplug::fuzz::twoPartsReadAsOne(data, size, ptoplug::ir::Format::Json);
    return 0;
}
