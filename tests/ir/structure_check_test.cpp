// The structural check after a pass (ir/validate.h checkStructure). A large document is checked on two
// threads (the graph walk, or the layout walk that checks the graph, beside a check of every node);
// whatever fails is reported by the single walk, with the same message and a pointer from the root.
#include <gtest/gtest.h>

#include <thread>

#include "generator/program_generator.h"
#include "ir/graph.h"
#include "ir/validate.h"
#include "ir/writer.h"
#include "support/ir_builder.h"

namespace ptoplug::ir {
namespace {

Node* firstOfType(Document& doc, uint32_t type) {
    for (Node* n : doc.nodes())
        if (n->type == type) return n;
    return nullptr;
}

class StructureCheck : public ::testing::Test {
protected:
    void SetUp() override {
        tools::generateProgram(doc, 1000, false);
        ASSERT_GE(doc.nodes().size(), kParallelWalkNodes) << "large enough for the two-thread check";
    }
    Document doc;
};

TEST_F(StructureCheck, ALargeValidProgramPasses) { EXPECT_EQ(checkStructure(doc), std::nullopt); }

// The check's layout walk takes both orders in one walk; the writer's own walks them apart on two threads.
TEST_F(StructureCheck, ItsLayoutIsTheOneTheWriterMakes) {
    Layout checked(doc.nodes().size());
    ASSERT_EQ(checkStructure(doc, &checked), std::nullopt);
    ASSERT_TRUE(checked.finished());
    ASSERT_TRUE(checked.whole());
    std::optional<Layout> apart = computeLayout(doc);
    ASSERT_TRUE(apart);
    EXPECT_TRUE(checked == *apart);
}

// A small document is checked by the single walk and then laid out, so that the writer has a layout either way.
TEST(StructureCheckSmall, ASmallDocumentIsLaidOutToo) {
    Document doc;
    tools::generateProgram(doc, 3, false);
    ASSERT_LT(doc.nodes().size(), kParallelWalkNodes);
    Layout checked(doc.nodes().size());
    ASSERT_EQ(checkStructure(doc, &checked), std::nullopt);
    ASSERT_TRUE(checked.whole());
    std::optional<Layout> own = computeLayout(doc);
    ASSERT_TRUE(own);
    EXPECT_TRUE(checked == *own);
}

// The writer may follow the check's layout walk on another thread (driver/output_writer.h): it writes the
// bytes it writes from a finished layout, whichever of the two is ahead.
TEST_F(StructureCheck, AWriterFollowingTheCheckWritesWhatItWritesAfterIt) {
    for (Format format : {Format::MsgPack, Format::Json}) {
        auto expected = writeToString(doc, WriteOptions{format, false});
        ASSERT_TRUE(expected.ok());
        Layout growing(doc.nodes().size());
        StringSink sink;
        Status written;
        std::thread writer([&] { written = writeDocument(doc, WriteOptions{format, false}, sink, nullptr, &growing); });
        Status checked = checkStructure(doc, &growing);
        writer.join();
        ASSERT_EQ(checked, std::nullopt);
        ASSERT_EQ(written, std::nullopt);
        EXPECT_TRUE(sink.str() == *expected) << "format " << static_cast<int>(format);
    }
}

// A cycle or a chain too deep fails the layout walk; the single walk then says what and where, and a
// writer following the layout stops where the layout does instead of going round the cycle.
TEST_F(StructureCheck, ACycleFailsWithTheSingleWalksMessageAndAFailedLayout) {
    Node* call = firstOfType(doc, K::Call);
    ASSERT_NE(call, nullptr);
    Array& args = *call->field(K::args)->a;
    ASSERT_GT(args.size, 0u);
    args.items[0] = Value::ref(call);
    Layout layout(doc.nodes().size());
    StringSink sink;
    Status written;
    std::thread writer([&] { written = writeDocument(doc, WriteOptions{}, sink, nullptr, &layout); });
    Status withLayout = checkStructure(doc, &layout);
    writer.join();
    ASSERT_TRUE(withLayout);
    EXPECT_NE(withLayout->message.find("cycle"), std::string::npos) << withLayout->message;
    EXPECT_TRUE(layout.finished());
    EXPECT_FALSE(layout.whole());
    EXPECT_TRUE(written) << "a write following a failed layout fails";
    Status without = checkStructure(doc);
    ASSERT_TRUE(without);
    EXPECT_EQ(withLayout->message, without->message);
    EXPECT_EQ(withLayout->pointer, without->pointer);
}

TEST_F(StructureCheck, AChainDeeperThanTheLimitFailsWithAFailedLayout) {
    Node* deepest = test::IrBuilder(doc).chain(kMaxNodeDepth + 11);
    Node* fn = firstOfType(doc, K::Function);
    ASSERT_NE(fn, nullptr);
    const uint32_t extra = doc.keys().intern("extra");
    doc.set(fn->fields, extra, Value::node(deepest));
    Layout layout(doc.nodes().size());
    Status broken = checkStructure(doc, &layout);
    ASSERT_TRUE(broken);
    EXPECT_NE(broken->message.find("nested more than"), std::string::npos) << broken->message;
    EXPECT_TRUE(layout.finished());
    EXPECT_FALSE(layout.whole());
}

TEST_F(StructureCheck, ABrokenNodeIsReportedWithItsPlace) {
    Node* fn = firstOfType(doc, K::Function);
    ASSERT_NE(fn, nullptr);
    doc.set(fn->fields, K::name, Value::uinteger(7));
    Status shape = checkNodeShape(doc, fn);
    ASSERT_TRUE(shape);
    Status whole = checkStructure(doc);
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->message, shape->message);
    EXPECT_EQ(whole->pointer.rfind("/fields/functions/", 0), 0u) << whole->pointer;
}

// A node no longer in the program (a pass replaced it) is not the program's: it may be incomplete.
TEST_F(StructureCheck, ABrokenNodeOutsideTheProgramDoesNotCount) {
    Node* orphan = doc.newNode(K::Function, 0);
    ASSERT_TRUE(checkNodeShape(doc, orphan)) << "a Function without fields breaks its schema";
    EXPECT_EQ(checkStructure(doc), std::nullopt);
}

}  // namespace
}  // namespace ptoplug::ir
