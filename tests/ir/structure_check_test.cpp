// The structural check after a pass (ir/validate.h checkStructure). A large document is checked on two
// threads (the graph walk beside a check of every node); whatever fails is reported by the single walk,
// with the same message and a pointer from the root.
#include <gtest/gtest.h>

#include "ir/validate.h"
#include "program_generator.h"

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
