// The rewriting primitives the ABI's rewriter is made of, on whole printed programs.
#include <gtest/gtest.h>

#include "ir/printer.h"
#include "ir/rewrite.h"
#include "support/ir_builder.h"

namespace ptoplug::ir {
namespace {

std::string body(const Document& doc) {
    std::string text = printProgram(doc);
    return text.substr(text.find("class T:\n") + 9);
}

// f() { x = 1; for i in range(3): y = 2; return }: a sequence, and a loop whose body is one statement.
class StmtEdits : public ::testing::Test {
protected:
    StmtEdits() : b(doc) {
        first = b.assign(b.var("x", b.scalar()), b.constInt(1, 19));
        lone = b.assign(b.var("y", b.scalar()), b.constInt(2, 19));
        loop = b.forLoop(b.var("i", b.scalar(21)), 3, {}, lone, {});
        seq = b.seq({first, loop, b.ret()});
        b.program({b.function("f", 2, {}, seq)});
    }
    Node* assignOf(const char* name, int64_t v) {
        return makeAssign(doc, makeVar(doc, name, b.scalar(), makeUnknownSpan(doc)), b.constInt(v, 19),
                          makeUnknownSpan(doc));
    }
    Document doc;
    test::IrBuilder b;
    Node *first = nullptr, *lone = nullptr, *loop = nullptr, *seq = nullptr;
};

TEST_F(StmtEdits, InsertBeforeSplicesIntoSequencesAndWrapsLoneBodies) {
    PendingStmtEdits inserts;
    using Side = PendingStmtEdits::Side;
    ASSERT_FALSE(
        inserts.insert(doc, Slot{seq, K::stmts, 1}, std::vector{assignOf("a", 10), assignOf("b", 11)}, Side::Before));
    ASSERT_FALSE(inserts.insert(doc, Slot{seq, K::stmts, 0}, std::vector{assignOf("c", 12)}, Side::Before));
    ASSERT_FALSE(inserts.insert(doc, Slot{loop, K::body, 0}, std::vector{assignOf("d", 13)}, Side::Before));
    EXPECT_TRUE(inserts.insert(doc, Slot{seq, K::stmts, 9}, std::vector{assignOf("e", 14)}, Side::Before).has_value());
    inserts.apply(doc);
    EXPECT_EQ(body(doc),
              "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
              "    def f():\n"
              "        c: pl.Scalar[pl.INT32] = pl.const(12, pl.INT32)\n"
              "        x: pl.Scalar[pl.INT32] = pl.const(1, pl.INT32)\n"
              "        a: pl.Scalar[pl.INT32] = pl.const(10, pl.INT32)\n"
              "        b: pl.Scalar[pl.INT32] = pl.const(11, pl.INT32)\n"
              "        for i in pl.range(3):\n"
              "            d: pl.Scalar[pl.INT32] = pl.const(13, pl.INT32)\n"
              "            y: pl.Scalar[pl.INT32] = pl.const(2, pl.INT32)\n"
              "        return\n");
    // The wrapped body is a new SeqStmts spanning the statement it wraps.
    const Value* wrapped = loop->field(K::body);
    ASSERT_TRUE(wrapped->isNode());
    EXPECT_EQ(wrapped->n->type, K::SeqStmts);
    EXPECT_EQ(*doc.span(*wrapped->n->field(K::span)), *doc.span(*lone->field(K::span)));
}

TEST_F(StmtEdits, InsertAfterAndRemoveAreAppliedWithInsertions) {
    using Side = PendingStmtEdits::Side;
    PendingStmtEdits edits;
    // Indices name the statements as they were, whatever was queued before.
    ASSERT_FALSE(edits.insert(doc, Slot{seq, K::stmts, 0}, std::vector{assignOf("a", 10)}, Side::After));
    ASSERT_FALSE(edits.remove(Slot{seq, K::stmts, 0}));
    ASSERT_FALSE(edits.insert(doc, Slot{seq, K::stmts, 0}, std::vector{assignOf("b", 11)}, Side::Before));
    ASSERT_FALSE(edits.remove(Slot{loop, K::body, 0}));
    EXPECT_TRUE(edits.remove(Slot{seq, K::stmts, 7}).has_value());
    edits.apply(doc);
    EXPECT_EQ(body(doc),
              "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
              "    def f():\n"
              "        b: pl.Scalar[pl.INT32] = pl.const(11, pl.INT32)\n"
              "        a: pl.Scalar[pl.INT32] = pl.const(10, pl.INT32)\n"
              "        for i in pl.range(3):\n"
              "            pass\n"
              "        return\n");
    // A removed lone body leaves an empty sequence, which is valid IR.
    EXPECT_EQ(loop->field(K::body)->n->type, K::SeqStmts);
    EXPECT_EQ(loop->field(K::body)->n->field(K::stmts)->a->size, 0u);
}

TEST(Rewrite, ParamsArgsAndArgDirections) {
    Document doc;
    test::IrBuilder b(doc);
    Node* p = b.var("p", b.tensor({4}));
    Node* callee = b.function("callee", 2, {p}, b.ret());
    Node* data = b.var("data", b.tensor({4}));
    Node* withDirs = b.call("callee", {data}, b.tuple({}), {0});
    Node* without = b.call("callee", {data}, b.tuple({}), {}, false);
    Node* main = b.function("main", 1, {data}, b.seq({b.eval(withDirs), b.eval(without), b.ret()}));
    b.program({callee, main});
    Node* ctx = makeVar(doc, "ctx", makeSingletonType(doc, "CommCtxType"), makeUnknownSpan(doc));
    Node* fn = b.function("g", 2, {b.var("q", b.scalar())}, b.ret(), {2});
    ASSERT_FALSE(appendParam(doc, fn, ctx, kParamIn));
    EXPECT_EQ(fn->field(K::param_directions)->a->size, 2u);
    EXPECT_EQ(fn->field(K::param_directions)->a->items[0].u, 2u);
    EXPECT_EQ(fn->field(K::param_directions)->a->items[1].u, 0u);
    EXPECT_TRUE(appendParam(doc, withDirs, ctx, kParamIn).has_value());  // not a Function

    bool present = false;
    ASSERT_FALSE(appendArg(doc, withDirs, ctx));
    ASSERT_FALSE(extendArgDirections(doc, withDirs, std::vector<uint8_t>{kArgScalar}, &present));
    EXPECT_TRUE(present);
    ASSERT_FALSE(appendArg(doc, without, ctx));
    ASSERT_FALSE(extendArgDirections(doc, without, std::vector<uint8_t>{kArgScalar}, &present));
    EXPECT_FALSE(present);
    std::string text = body(doc);
    EXPECT_NE(text.find("        self.callee(data, ctx, attrs={\"arg_directions\": [pl.adir.input, pl.adir.scalar]})\n"
                        "        self.callee(data, ctx)\n"),
              std::string::npos)
        << text;
}

TEST(Rewrite, ReplaceAtReplacesOneOccurrence) {
    Document doc;
    test::IrBuilder b(doc);
    Node* x = b.var("x", b.scalar());
    Node* y = b.var("y", b.scalar());
    Node* r1 = b.ret({x});
    Node* r2 = b.ret({x});
    b.program({b.function("f", 2, {x, y}, b.seq({b.eval(x), r1, r2}))});
    ASSERT_FALSE(replaceAt(doc, Slot{r1, K::value, 0}, y));
    EXPECT_TRUE(replaceAt(doc, Slot{r1, K::value, 5}, y).has_value());
    std::string text = body(doc);
    EXPECT_NE(text.find("        x\n        return y\n        return x\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace ptoplug::ir
