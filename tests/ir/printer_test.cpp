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

// A program's strings cannot make lines of their own or drive the terminal the text goes to (stderr, with
// --print-ir-*): a name with control bytes is shown escaped, on its one line.
TEST(Printer, NamesWithControlBytesStayOnTheirLine) {
    const test::Fixture& f = test::fixtureNamed("materialized_comm_ctx_param_name_avoids_existing_local/before");
    std::string json = f.json;
    const std::string name = "\"name\":\"kernel\"";
    ASSERT_NE(json.find(name), std::string::npos);
    const std::string odd = R"("name":"ker\n\u001b[2Jnel")";
    for (size_t at = json.find(name); at != std::string::npos; at = json.find(name, at + odd.size()))
        json.replace(at, name.size(), odd);
    auto doc = readDocument(json, Format::Json, "odd.json");
    ASSERT_TRUE(doc.ok()) << doc.error().format();
    const std::string text = printProgram(**doc);
    EXPECT_NE(text.find("    def ker\\n\\x1b[2Jnel("), std::string::npos) << text;
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
}

}  // namespace
}  // namespace ptoplug::ir
