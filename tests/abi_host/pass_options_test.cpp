// Pass options as one type (abi_host/options.h): a declaration's default, a manifest's typed JSON value and
// a text setting become the same typed value; every error names where the value came from; a value's text
// form gives it back.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "abi_host/options.h"

namespace ptoplug {
namespace {

using host::OptionInput;
using host::OptionOrigin;
using host::PassOption;

const pto_option_desc kLimit{sizeof(pto_option_desc), "limit", PTO_OPTION_INT, "3", "an int"};
const pto_option_desc kScale{sizeof(pto_option_desc), "scale", PTO_OPTION_FLOAT, "0.5", "a float"};
const pto_option_desc kStrict{sizeof(pto_option_desc), "strict", PTO_OPTION_BOOL, "false", "a bool"};
const pto_option_desc kLabel{sizeof(pto_option_desc), "label", PTO_OPTION_STRING, "none", "a string"};
const pto_option_desc* const kOptions[] = {&kLimit, &kScale, &kStrict, &kLabel};
const pto_pass_desc kPass{
    sizeof(pto_pass_desc), "P", "", nullptr, 0, nullptr, 0, nullptr, 0, nullptr, kOptions, 4, nullptr};

const OptionOrigin kManifest{OptionOrigin::Kind::Manifest, "m.json", "/passes/0/options/limit", ""};
const OptionOrigin kCommandLine{OptionOrigin::Kind::CommandLine, "", "", "P.limit=x"};
const OptionOrigin kApi{OptionOrigin::Kind::Api, "", "", "P.limit=x"};

OptionInput text(const std::string& s) { return OptionInput{OptionInput::Kind::Text, s}; }
OptionInput integer(int64_t i) {
    OptionInput in{OptionInput::Kind::Integer, std::to_string(i)};
    in.i = i;
    in.d = static_cast<double>(i);
    return in;
}
OptionInput number(double d, const std::string& written) {
    OptionInput in{OptionInput::Kind::Float, written};
    in.d = d;
    return in;
}

const PassOption& find(const std::vector<PassOption>& options, const std::string& name) {
    for (const PassOption& o : options)
        if (o.name == name) return o;
    ADD_FAILURE() << "no option " << name;
    return options.front();
}

TEST(PassOptions, DefaultsAreTypedAndSaySo) {
    ASSERT_FALSE(host::checkOptionDeclarations(kPass));
    const std::vector<PassOption> options = host::defaultOptions(kPass);
    ASSERT_EQ(options.size(), 4u);
    EXPECT_EQ(find(options, "limit").value.i, 3);
    EXPECT_EQ(find(options, "scale").value.d, 0.5);
    EXPECT_FALSE(find(options, "strict").value.b);
    EXPECT_EQ(find(options, "label").value.s, "none");
    EXPECT_EQ(find(options, "limit").origin.describe(), "default");
}

TEST(PassOptions, AManifestsJsonValueIsTakenAsTypedNeverAsText) {
    std::vector<PassOption> options = host::defaultOptions(kPass);
    EXPECT_FALSE(host::setOption(kPass, options, "limit", integer(-7), kManifest));
    EXPECT_EQ(find(options, "limit").value.i, -7);
    EXPECT_EQ(find(options, "limit").origin.describe(), "manifest m.json");
    EXPECT_FALSE(host::setOption(kPass, options, "scale", integer(2), kManifest));  // an integer stands for a float
    EXPECT_EQ(find(options, "scale").value.d, 2.0);
    EXPECT_FALSE(host::setOption(kPass, options, "scale", number(0.1, "0.1"), kManifest));
    EXPECT_EQ(find(options, "scale").value.d, 0.1);
    OptionInput yes{OptionInput::Kind::Bool, "true"};
    yes.b = true;
    EXPECT_FALSE(host::setOption(kPass, options, "strict", yes, kManifest));
    EXPECT_TRUE(find(options, "strict").value.b);
    // A JSON string is a string, even when its text would read as a number.
    EXPECT_FALSE(host::setOption(kPass, options, "label", OptionInput{OptionInput::Kind::String, "12"}, kManifest));
    EXPECT_EQ(find(options, "label").value.s, "12");
    const Status wrong =
        host::setOption(kPass, options, "limit", OptionInput{OptionInput::Kind::String, "12"}, kManifest);
    ASSERT_TRUE(wrong);
    EXPECT_EQ(wrong->format(),
              "m.json: error: option 'limit' of pass P is a int; the manifest gives another JSON type (at "
              "/passes/0/options/limit)\n  hint: write it as a JSON int");
    OptionInput huge{OptionInput::Kind::Integer, "18446744073709551615"};
    huge.fitsInt64 = false;
    huge.d = 18446744073709551615.0;
    const Status range = host::setOption(kPass, options, "limit", huge, kManifest);
    ASSERT_TRUE(range);
    EXPECT_NE(range->message.find("takes an int: a decimal 64-bit integer, not '18446744073709551615'"),
              std::string::npos);
    EXPECT_FALSE(host::setOption(kPass, options, "scale", huge, kManifest));
    EXPECT_TRUE(host::setOption(kPass, options, "scale", number(INFINITY, "null"), kManifest));
}

TEST(PassOptions, ErrorsNameWhereTheValueCameFrom) {
    std::vector<PassOption> options = host::defaultOptions(kPass);
    const Status cli = host::setOption(kPass, options, "limit", text("x"), kCommandLine);
    ASSERT_TRUE(cli);
    EXPECT_EQ(cli->file, "--pass-option P.limit=x");
    EXPECT_EQ(cli->message, "option 'limit' of pass P takes an int: a decimal 64-bit integer, not 'x'");
    const Status api = host::setOption(kPass, options, "limit", text("x"), kApi);
    ASSERT_TRUE(api);
    EXPECT_EQ(api->file, "ptoplug::PassManager pass option P.limit=x");
    EXPECT_EQ(api->message, cli->message);
    EXPECT_EQ(api->hint.find("--pass-option"), std::string::npos) << api->hint;
    const Status unknown = host::setOption(kPass, options, "limt", text("1"), kManifest);
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->file, "m.json");
    EXPECT_EQ(unknown->message,
              "pass P has no option 'limt'; it declares limit (int), scale (float), strict (bool), label (string)");
    EXPECT_EQ(find(options, "limit").value.i, 3) << "a failed setting changes nothing";
}

TEST(PassOptions, TheTextFormGivesTheValueBack) {
    std::vector<PassOption> options = host::defaultOptions(kPass);
    for (const char* scale : {"0.1", "1e-300", "123456789.125", "-2"}) {
        ASSERT_FALSE(host::setOption(kPass, options, "scale", text(scale), kCommandLine));
        const PassOption set = find(options, "scale");
        std::vector<PassOption> again = host::defaultOptions(kPass);
        ASSERT_FALSE(host::setOption(kPass, again, "scale", text(set.value.text()), kCommandLine));
        EXPECT_EQ(find(again, "scale").value.d, set.value.d) << scale;
    }
    ASSERT_FALSE(host::setOption(kPass, options, "label", text("a=b c"), kCommandLine));
    EXPECT_EQ(find(options, "label").setting("P"), "P.label=a=b c");
    EXPECT_EQ(find(options, "limit").setting("P"), "P.limit=3");
    EXPECT_EQ(find(options, "strict").setting("P"), "P.strict=false");
}

}  // namespace
}  // namespace ptoplug
