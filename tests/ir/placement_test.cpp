// The writer's layout (ir/placement.h): the one walk that follows pypto's emit and read orders at once
// must lay out every program as the two walks apart do, one order each (which is the rule of
// docs/ir_format.md §11.4-11.5 written plainly). pypto's programs have every kind of node whose orders
// differ (While loops whose condition uses the iter-args, scopes whose slots are read first, Functions).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "generator/program_generator.h"
#include "ir/graph.h"
#include "ir/placement.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "support/fixtures.h"
#include "support/ir_builder.h"

namespace ptoplug::ir {
namespace {

void expectOneWalkAsTwo(const Document& doc, const std::string& name) {
    const std::optional<Layout> apart = computeLayoutApart(doc);
    ASSERT_TRUE(apart) << name;
    for (bool checkGraph : {false, true}) {
        std::optional<Layout> one = computeLayout(doc, checkGraph);
        ASSERT_TRUE(one) << name;
        EXPECT_TRUE(*one == *apart) << name << (checkGraph ? " (graph checked)" : "");
    }
}

TEST(Layout, OneWalkLaysOutEveryFixtureAsTwoWalksDo) {
    for (const test::Fixture& f : test::allFixtures()) {
        auto doc = readDocument(f.json, Format::Json, f.name);
        ASSERT_TRUE(doc.ok()) << f.name << ": " << doc.error().format();
        expectOneWalkAsTwo(**doc, f.name);
    }
}

TEST(Layout, OneWalkLaysOutEveryRandomProgramAsTwoWalksDo) {
    size_t programs = 0;
    for (const auto& dir :
         std::filesystem::directory_iterator(std::filesystem::path(test::dataDir()) / "pypto-random")) {
        for (const char* stage : {"before.json", "after.json"}) {
            const auto path = dir.path() / stage;
            if (!std::filesystem::exists(path)) continue;
            auto doc = readDocument(test::readBytes(path.string()), Format::Json, path.string());
            ASSERT_TRUE(doc.ok()) << path << ": " << doc.error().format();
            expectOneWalkAsTwo(**doc, path.string());
            ++programs;
        }
    }
    EXPECT_GT(programs, 150u);
}

// A While reads its condition first: an iter-arg it uses goes in full there, and so does a node first
// met inside that iter-arg, although the loop body (emitted and read later) holds it too. The one walk
// numbers the iter-arg in emit order before it meets it in the condition, where it must still place
// what is inside it.
TEST(Layout, WhatAnIterArgHoldsIsPlacedWhereTheConditionReadsIt) {
    Document doc;
    test::IrBuilder b(doc);
    Node* shared = b.constInt(1);
    Node* iterArg = b.iterArg("i", b.scalar(), shared);
    Node* loop = b.whileLoop(iterArg, {iterArg}, b.eval(shared), {});
    doc.root() = Value::node(loop);
    expectOneWalkAsTwo(doc, "While");
    const std::optional<Layout> layout = computeLayout(doc);
    ASSERT_TRUE(layout);
    EXPECT_EQ(layout->fullAt(iterArg->index), loop->field(K::condition));
    EXPECT_EQ(layout->fullAt(shared->index), iterArg->field(K::initValue));
}

// The layout walks recurse: a chain deeper than the reader allows is refused with an error, not followed
// until the stack overflows, whichever walk meets it (a small document gets the one walk, a large one two).
TEST(Layout, AChainDeeperThanTheReaderAllowsIsRefused) {
    for (size_t padding : {size_t{0}, kParallelWalkNodes}) {
        Document doc;
        test::IrBuilder b(doc);
        if (padding) b.chain(padding);  // unreachable: only counted
        doc.root() = Value::node(b.chain(kMaxNodeDepth + 1));
        EXPECT_FALSE(computeLayout(doc));
        EXPECT_FALSE(computeLayout(doc, true));
        EXPECT_FALSE(computeLayoutApart(doc));
        auto written = writeToString(doc, WriteOptions{Format::MsgPack, false});
        ASSERT_FALSE(written.ok());
        EXPECT_NE(written.error().message.find("nested more than"), std::string::npos) << written.error().message;
    }
}

TEST(Layout, OneWalkLaysOutALargeGeneratedProgramAsTwoWalksDo) {
    Document doc;
    tools::generateProgram(doc, 1000, false);
    expectOneWalkAsTwo(doc, "generated, 1000 functions");
}

}  // namespace
}  // namespace ptoplug::ir
