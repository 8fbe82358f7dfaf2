// ir/arena.h: a document's bytes made read-only fault when written, in every block (a large input read in
// two parts joins two arenas), while allocations go on in a fresh block; made writable again, they take
// writes as before.
#include "ir/arena.h"

#include <gtest/gtest.h>

#include "generator/program_generator.h"
#include "ir/reader.h"
#include "ir/writer.h"

namespace ptoplug::ir {
namespace {

// A byte of the last string among the fields of nodes[i] or a later node.
char* stringByteFrom(const std::vector<Node*>& nodes, size_t i) {
    for (; i < nodes.size(); ++i)
        for (const Member m : nodes[i]->fields)
            if (m.value.kind == Kind::Str && m.value.aux > 0) return const_cast<char*>(m.value.s) + m.value.aux - 1;
    return nullptr;
}

TEST(ArenaDeathTest, ReadOnlyBytesFaultWhenWrittenAndAllocationsGoOn) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Document generated;
    tools::generateProgram(generated, 1000, false);
    auto bytes = writeToString(generated, WriteOptions{Format::MsgPack, false});
    ASSERT_TRUE(bytes.ok());
    ASSERT_GT(bytes->size(), size_t{4} << 20) << "large enough to be read in two parts";
    for (const std::string& input :
         {*bytes, std::string(R"({"fields": {"functions": [], "name": "p"}, "id": 0, "type": "Program"})")}) {
        auto doc = readDocument(input, Format::Auto, "in");
        ASSERT_TRUE(doc.ok()) << doc.error().format();
        const std::vector<Node*>& nodes = (*doc)->nodes();
        ASSERT_TRUE((*doc)->arena().protect(true));
        const Value fresh = (*doc)->newString("allocated while read-only");
        EXPECT_EQ(fresh.strView(), "allocated while read-only");
        for (size_t i : {size_t{0}, nodes.size() / 3, nodes.size() / 2, nodes.size() * 2 / 3, nodes.size() - 1})
            if (char* byte = stringByteFrom(nodes, i)) {
                EXPECT_DEATH(*byte = '!', "") << "node " << i;
            }
        EXPECT_DEATH(nodes[0]->fields.keys()[0] = 0, "");
        ASSERT_TRUE((*doc)->arena().protect(false));
        if (char* byte = stringByteFrom(nodes, nodes.size() / 2)) *byte = *byte;
        (*doc)->newString("allocated after");
    }
}

}  // namespace
}  // namespace ptoplug::ir
