// Printer golden tests: every fixture printed, compared whole against reviewed golden text.
// Regenerate after an intended change with PTOPLUG_UPDATE_GOLDENS=1 and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "ir/printer.h"
#include "ir/reader.h"
#include "support/fixtures.h"

namespace ptoplug::ir {
namespace {

class PrinterGolden : public ::testing::TestWithParam<test::Fixture> {};

TEST_P(PrinterGolden, MatchesReviewedText) {
    const test::Fixture& f = GetParam();
    auto doc = readDocument(f.msgpack, Format::Auto, f.name);
    ASSERT_TRUE(doc.ok()) << doc.error().format();
    std::string text = printProgram(**doc);
    std::string golden = test::dataDir() + "/printer/" + test::testName(f.name) + ".txt";
    if (std::getenv("PTOPLUG_UPDATE_GOLDENS")) std::ofstream(golden, std::ios::binary) << text;
    EXPECT_EQ(text, test::readBytes(golden)) << golden;
}

TEST_P(PrinterGolden, JsonAndMessagePackPrintTheSame) {
    const test::Fixture& f = GetParam();
    auto a = readDocument(f.msgpack, Format::Auto, f.name);
    auto b = readDocument(f.json, Format::Auto, f.name);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(printProgram(**a), printProgram(**b));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, PrinterGolden, ::testing::ValuesIn(test::allFixtures()),
                         [](const auto& info) { return test::testName(info.param.name); });

}  // namespace
}  // namespace ptoplug::ir
