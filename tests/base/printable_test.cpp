// base/printable.h: what a terminal would act on is made visible, nothing is lost, printable text stays.
#include "base/printable.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace ptoplug {
namespace {

using namespace std::string_literals;

TEST(Printable, PrintableTextAndValidUtf8StayAsTheyAre) {
    EXPECT_EQ(printable("kernel_0: C:\\path (x) \"q\" ~"), "kernel_0: C:\\path (x) \"q\" ~");
    EXPECT_EQ(printable("gr\xc3\xbc\xc3\x9f \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"),
              "gr\xc3\xbc\xc3\x9f \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80");
}

TEST(Printable, ControlBytesBecomeEscapesAndANulEndsNothing) {
    EXPECT_EQ(printable("a\0b"s), "a\\x00b");
    EXPECT_EQ(printable("line\nforged\r\tx"), "line\\nforged\\r\\tx");
    EXPECT_EQ(printable("\x1b[2J\x7f"), "\\x1b[2J\\x7f");
}

TEST(Printable, InvalidUtf8IsShownByteByByte) {
    EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
    EXPECT_EQ(printable("\xc3"), "\\xc3");                    // cut short
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
}

TEST(Printable, CodePointsThatReorderOrBreakALineAreEscaped) {
    EXPECT_EQ(printable("\xc2\x85"), "\\u{0085}");  // NEL
    EXPECT_EQ(printable("a\xe2\x80\xa8"
                        "b"),
              "a\\u{2028}b");  // line separator
    EXPECT_EQ(printable("\xe2\x80\xae"
                        "cba"),
              "\\u{202e}cba");  // right-to-left override
}

TEST(Printable, AnErrorIsOneLineAndAHintWhateverItsPartsHold) {
    Error e = fileError("in\nput.json", "bad \x1b[31mname\0 and the rest"s, "fix\nit");
    e.pointer = "/fields/a\nb";
    EXPECT_EQ(e.format(),
              "in\\nput.json: error: bad \\x1b[31mname\\x00 and the rest (at /fields/a\\nb)\n  hint: fix\\nit");
}

}  // namespace
}  // namespace ptoplug
