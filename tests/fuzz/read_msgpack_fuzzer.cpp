// Fuzz target: the MessagePack reader. Whatever it accepts must write back and read again; and the
// two-part reading of large inputs (tried here on any input) must accept nothing the single pass refuses
// and build the same document.
#include "fuzz_support.h"
#include "ir/consumed_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace ptoplug::ir;
    ptoplug::fuzz::readWriteRead(data, size, Format::MsgPack);
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto two = readMsgPackInTwoParts(bytes, ConsumedInput{});
    if (!two) return 0;
    auto one = readDocument(bytes, Format::MsgPack, "fuzz");
    if (!one) std::abort();
    auto a = writeToString(*two, WriteOptions{Format::MsgPack, false});
    auto b = writeToString(**one, WriteOptions{Format::MsgPack, false});
    if (!a || !b || *a != *b) std::abort();
    return 0;
}
