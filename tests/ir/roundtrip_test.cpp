// Read -> write reproduces pypto's files byte for byte, in both formats and across formats
// (docs/ir_format.md §11.3-11.7), except where §11.5 deliberately moves a full node.
#include <gtest/gtest.h>

#include "generator/program_generator.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "support/fixtures.h"
#include "support/ir_builder.h"

namespace ptoplug::ir {
namespace {

using test::Fixture;

std::string write(const Document& doc, Format format) {
    auto out = writeToString(doc, WriteOptions{format, false});
    EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().format());
    return out.ok() ? *out : std::string();
}

std::unique_ptr<Document> read(const std::string& bytes, const std::string& name) {
    auto doc = readDocument(bytes, Format::Auto, name);
    EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().format());
    return doc.ok() ? std::move(*doc) : nullptr;
}

class RoundTrip : public ::testing::TestWithParam<Fixture> {};

TEST_P(RoundTrip, SameFormatIsByteIdentical) {
    const Fixture& f = GetParam();
    for (const auto& [bytes, format] : {std::pair{f.json, Format::Json}, std::pair{f.msgpack, Format::MsgPack}}) {
        auto doc = read(bytes, f.name);
        ASSERT_TRUE(doc);
        std::string out = write(*doc, format);
        if (f.pyptoPlacementUnreadable) {
            // pypto wrote these with a full node after its reference in read order; ours differs
            // exactly there, and is the same program.
            EXPECT_NE(out, bytes);
            auto back = read(out, f.name + " (rewritten)");
            ASSERT_TRUE(back);
            EXPECT_EQ(test::resolvedJson(*back), test::resolvedJson(*doc));
        } else {
            EXPECT_EQ(out, bytes) << f.name;
        }
    }
}

TEST_P(RoundTrip, CrossFormatIsByteIdentical) {
    const Fixture& f = GetParam();
    auto fromMsgPack = read(f.msgpack, f.name);
    auto fromJson = read(f.json, f.name);
    ASSERT_TRUE(fromMsgPack && fromJson);
    std::string json = write(*fromMsgPack, Format::Json);
    std::string msgpack = write(*fromJson, Format::MsgPack);
    // Either both equal the originals, or (for the §11.5 cases) both equal our own canonical outputs.
    std::string ourJson = write(*fromJson, Format::Json);
    std::string ourMsgPack = write(*fromMsgPack, Format::MsgPack);
    EXPECT_EQ(json, ourJson);
    EXPECT_EQ(msgpack, ourMsgPack);
    if (!f.pyptoPlacementUnreadable) {
        EXPECT_EQ(json, f.json);
        EXPECT_EQ(msgpack, f.msgpack);
    }
    // MessagePack -> JSON -> MessagePack and JSON -> MessagePack -> JSON.
    EXPECT_EQ(write(*read(json, "json"), Format::MsgPack), ourMsgPack);
    EXPECT_EQ(write(*read(msgpack, "msgpack"), Format::Json), ourJson);
}

TEST_P(RoundTrip, OutputIsReadableInPyptoReadOrder) {
    const Fixture& f = GetParam();
    auto doc = read(f.msgpack, f.name);
    ASSERT_TRUE(doc);
    EXPECT_EQ(test::firstReferenceBeforeDefinition(write(*doc, Format::Json)), "");
}

TEST(RoundTripOriginals, HostOrchestrationFilesFromPyptoFailReadOrderReplay) {
    int unreadable = 0;
    for (const Fixture& f : test::allFixtures()) {
        std::string problem = test::firstReferenceBeforeDefinition(f.json);
        EXPECT_EQ(!problem.empty(), f.pyptoPlacementUnreadable) << f.name << ": " << problem;
        unreadable += !problem.empty();
    }
    EXPECT_EQ(unreadable, 4);  // before and after of the two host-orchestration fixtures
}

INSTANTIATE_TEST_SUITE_P(Fixtures, RoundTrip, ::testing::ValuesIn(test::allFixtures()),
                         [](const auto& info) { return test::testName(info.param.name); });

}  // namespace
}  // namespace ptoplug::ir

namespace ptoplug::ir {
namespace {

// `json` read and written back as canonical JSON; "" (and a failure) if either step fails.
std::string rewritten(const std::string& json, const std::string& name) {
    auto doc = readDocument(json, Format::Auto, name, Root::AnyNode);
    EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().format());
    if (!doc.ok()) return "";
    auto out = writeToString(**doc, WriteOptions{Format::Json, false});
    EXPECT_TRUE(out.ok());
    return out.ok() ? *out : "";
}

// docs/ir_format.md §11.5: a node met only under a field pypto never reads (a MakeTuple's type) goes in full
// at its first occurrence in emit order; a node read later than a reference to it moves to the read
// position (here: a Var first used in a WhileStmt condition, which pypto reads before iter_args).
TEST(Placement, UnreadFieldsAndReadOrder) {
    const std::string json =
        R"({"fields":{"elements":[],"span":{"begin_column":-1,"begin_line":-1,"end_column":-1,"end_line":-1,"filename":""},)"
        R"("type":{"type_kind":"TupleType","types":[{"dtype":52,"shape":[{"fields":{"type":{"dtype":21,"type_kind":"ScalarType"},"value":4},"id":1,"type":"ConstInt"}],"type_kind":"TensorType"}]}},"id":0,"type":"MakeTuple"})"
        "\n";
    EXPECT_EQ(rewritten(json, "t.json"), json);

    // While: emit order iter_args, condition; read order condition, iter_args.
    const std::string loop =
        R"({"fields":{"body":{"fields":{"leading_comments":[],"value":[{"ref":1}]},"id":3,"type":"YieldStmt"},)"
        R"("condition":{"ref":1},"iter_args":[{"fields":{"initValue":{"fields":{"type":{"dtype":19,"type_kind":"ScalarType"},"value":0},"id":2,"type":"ConstInt"},)"
        R"("name_hint":"i","type":{"dtype":19,"type_kind":"ScalarType"}},"id":1,"type":"IterArg"}],"leading_comments":[],"return_vars":[]},"id":0,"type":"WhileStmt"})"
        "\n";
    const std::string written = rewritten(loop, "w.json");
    ASSERT_FALSE(written.empty());
    EXPECT_EQ(test::firstReferenceBeforeDefinition(loop).empty(), false);  // pypto's own placement
    EXPECT_EQ(test::firstReferenceBeforeDefinition(written), "");
    EXPECT_NE(written.find(R"("condition":{"fields")"), std::string::npos) << written;
    EXPECT_NE(written.find(R"("iter_args":[{"ref":1}])"), std::string::npos) << written;
}

// docs/ir_format.md §4.5: a tile view is written valid_shape, stride, start_offset (ids in that order) and
// read start_offset first (where a node shared with valid_shape goes in full).
TEST(Placement, TileViewMembersFollowPyptoOrders) {
    const std::string json =
        R"({"fields":{"name_hint":"t","span":{"begin_column":-1,"begin_line":-1,"end_column":-1,"end_line":-1,"filename":""},)"
        R"("type":{"dtype":52,"shape":[],"tile_view":{"start_offset":{"fields":{"type":{"dtype":19,"type_kind":"ScalarType"},"value":0},"id":1,"type":"ConstInt"},)"
        R"("stride":[{"fields":{"type":{"dtype":19,"type_kind":"ScalarType"},"value":1},"id":3,"type":"ConstInt"}],"valid_shape":[{"ref":1},{"fields":{"type":{"dtype":19,"type_kind":"ScalarType"},"value":8},"id":2,"type":"ConstInt"}]},)"
        R"("type_kind":"TileType"}},"id":0,"type":"Var"})"
        "\n";
    const std::string out = rewritten(json, "tile.json");
    EXPECT_EQ(out, json);
    EXPECT_EQ(test::firstReferenceBeforeDefinition(out), "");
}

// Spans are packed into their value when they fit (docs/ir_format.md §3.1): every coordinate a span map
// may hold, and any number of file names, must still read and write back unchanged.
TEST(Spans, EveryCoordinateAndFileNameRoundTrips) {
    const std::vector<std::string> coords = {"-2147483648", "-2", "-1", "0", "65534", "65535", "70000", "2147483647"};
    std::string json = R"({"fields":{"elements":[)";
    size_t count = 0;
    auto span = [&](const std::string& bc, const std::string& bl, const std::string& ec, const std::string& el,
                    const std::string& file) {
        return R"({"begin_column":)" + bc + R"(,"begin_line":)" + bl + R"(,"end_column":)" + ec + R"(,"end_line":)" +
               el + R"(,"filename":")" + file + R"("})";
    };
    auto element = [&](const std::string& s) {
        if (count) json += ',';
        json += R"({"fields":{"span":)" + s + R"(,"type":{"dtype":19,"type_kind":"ScalarType"},"value":0},"id":)" +
                std::to_string(++count) + R"(,"type":"ConstInt"})";
    };
    for (const std::string& c : coords) {
        element(span(c, "7", "8", "9", "a.py"));
        element(span("1", c, "8", "9", "a.py"));
        element(span("1", "7", c, "9", "a.py"));
        element(span("1", "7", "8", c, "a.py"));
    }
    for (int f = 0; f < 66000; ++f) element(span("1", "2", "3", "4", "f" + std::to_string(f) + ".py"));
    json += R"(],"span":)" + span("-1", "-1", "-1", "-1", "") +
            R"(,"type":{"type_kind":"TupleType","types":[]}},"id":0,"type":"MakeTuple"})";
    json += "\n";
    auto doc = readDocument(json, Format::Auto, "spans.json", Root::AnyNode);
    ASSERT_TRUE(doc.ok()) << doc.error().format();
    auto out = writeToString(**doc, WriteOptions{Format::Json, false});
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(*out, json);
}

// Scalar type maps are shared between their occurrences; a node's fields map that happens to look like one
// is not: editing the node must not change a type map elsewhere.
TEST(SharedTypeMaps, ANodeWhoseFieldsLookLikeATypeMapIsItsOwn) {
    const std::string json =
        R"({"fields":{"elements":[{"fields":{"dtype":19,"type_kind":"ScalarType"},"id":1,"type":"Odd"}],)"
        R"("type":{"type_kind":"TupleType","types":[{"dtype":19,"type_kind":"ScalarType"}]}},"id":0,"type":"MakeTuple"})"
        "\n";
    auto doc = readDocument(json, Format::Auto, "t.json", Root::AnyNode);
    ASSERT_TRUE(doc.ok()) << doc.error().format();
    Node* odd = (*doc)->nodes()[0]->type == K::MakeTuple ? (*doc)->nodes()[1] : (*doc)->nodes()[0];
    ASSERT_EQ(odd->type, (*doc)->keys().intern("Odd"));
    (*doc)->set(odd->fields, K::dtype, Value::uinteger(20));
    auto out = writeToString(**doc, WriteOptions{Format::Json, false});
    ASSERT_TRUE(out.ok());
    std::string expected = json;
    expected.replace(expected.find(R"("dtype":19)"), 10, R"("dtype":20)");  // the node's, not the type map's
    EXPECT_EQ(*out, expected);
}

// A program named `text` written as JSON: what was written, and the name as it reads back (or the error).
struct NameRoundTrip {
    std::string json;
    std::string readBack;
};
NameRoundTrip roundTripName(const std::string& text) {
    Document doc;
    test::IrBuilder b(doc);
    b.program({b.function("f", 1, {}, b.seq({b.ret()}))});
    doc.set(doc.root().n->fields, K::name, doc.newString(text));
    auto json = writeToString(doc, WriteOptions{Format::Json, false});
    if (!json.ok()) return {"", json.error().format()};
    auto back = readDocument(*json, Format::Json, "strings.json");
    return {*json, back.ok() ? std::string((*back)->root().n->field(K::name)->strView()) : back.error().format()};
}

// JSON strings: '"', '\\' and control characters escaped (the short forms where JSON has them, \u00XX
// otherwise), everything else as it is (DEL, UTF-8), wherever in the string they are (the writer looks at
// eight bytes at a time); and each string reads back as it was.
TEST(JsonStrings, EscapesAreWrittenWhereverTheyAreAndReadBack) {
    const std::pair<std::string, std::string> cases[] = {
        {"plain", "plain"},
        {"a longer plain name", "a longer plain name"},
        {"q\"uote", "q\\\"uote"},
        {"eight ch\"", "eight ch\\\""},
        {"back\\slash after eight", "back\\\\slash after eight"},
        {"tab\tnew\nline\rret\bbs\fff", "tab\\tnew\\nline\\rret\\bbs\\fff"},
        {std::string("nul\0one\x01us\x1f", 11), "nul\\u0000one\\u0001us\\u001f"},
        {"del\x7f and caf\xc3\xa9 stay", "del\x7f and caf\xc3\xa9 stay"},
        {"0123456789abcdef\"0123456789abcdef\\", "0123456789abcdef\\\"0123456789abcdef\\\\"},
    };
    for (const auto& [text, written] : cases) {
        SCOPED_TRACE(written);
        const NameRoundTrip r = roundTripName(text);
        EXPECT_NE(r.json.find("\"name\":\"" + written + "\","), std::string::npos) << r.json;
        EXPECT_EQ(r.readBack, text);
    }
}

// Both UTF-8 checks settle ASCII a word at a time, a short string in one gathered word (word::anyMarked):
// a byte that is not UTF-8, at each place in strings around a word's length, is refused by the writer
// and, in JSON text, by the reader; a two-byte character at the same places passes both.
TEST(JsonStrings, InvalidUtf8IsFoundAtEveryPlace) {
    for (size_t length = 0; length <= 20; ++length) {
        for (size_t at = 0; at <= length; ++at) {
            std::string text(length, 'x');
            for (size_t i = 0; i < length; ++i) text[i] = static_cast<char>('a' + i);
            std::string bad = text;
            bad.insert(at, "\xff");
            std::string good = text;
            good.insert(at, "\xc3\xa9");
            const NameRoundTrip refused = roundTripName(bad);
            ASSERT_TRUE(refused.json.empty()) << "length " << length << " at " << at;
            EXPECT_NE(refused.readBack.find("not valid UTF-8"), std::string::npos) << refused.readBack;
            const NameRoundTrip kept = roundTripName(good);
            ASSERT_EQ(kept.readBack, good) << kept.json;
            std::string badJson = kept.json;
            badJson.replace(badJson.find(good), good.size(), bad);
            auto read = readDocument(badJson, Format::Json, "bad.json");
            ASSERT_FALSE(read.ok()) << "length " << length << " at " << at;
            EXPECT_NE(read.error().message.find("not valid UTF-8"), std::string::npos) << read.error().format();
        }
    }
}

// The reader takes a string's plain bytes eight at a time (read_json.cpp): each byte that ends such a run,
// at each place in strings around that length, reads back as it was.
TEST(JsonStrings, EveryEscapeAtEveryPlaceReadsBack) {
    for (const std::string special : {"\"", "\\", "\n", "\x01", "\x7f", "\xc3\xa9"}) {
        for (size_t length = 0; length <= 20; ++length) {
            for (size_t at = 0; at <= length; ++at) {
                std::string text(length, 'x');
                for (size_t i = 0; i < length; ++i) text[i] = static_cast<char>('a' + i);
                text.insert(at, special);
                const NameRoundTrip r = roundTripName(text);
                ASSERT_EQ(r.readBack, text) << r.json;
            }
        }
    }
}

// A program large enough that placement runs its two walks on two threads (ir/placement.cpp): what it
// writes reads back in pypto's read order and writes again byte for byte, in both formats.
TEST(Placement, ALargeProgramIsPlacedAsPyptoReadsIt) {
    Document doc;
    tools::generateProgram(doc, 1000, false);
    ASSERT_GT(doc.nodes().size(), 20000u);
    auto json = writeToString(doc, WriteOptions{Format::Json, false});
    ASSERT_TRUE(json.ok());
    EXPECT_EQ(test::firstReferenceBeforeDefinition(*json), "");
    auto reread = readDocument(*json, Format::Auto, "large.json");
    ASSERT_TRUE(reread.ok()) << reread.error().format();
    auto again = writeToString(**reread, WriteOptions{Format::Json, false});
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(*again == *json) << "the second write differs";
    auto packed = writeToString(**reread, WriteOptions{Format::MsgPack, false});
    ASSERT_TRUE(packed.ok());
    auto fromPacked = readDocument(*packed, Format::Auto, "large.msgpack");
    ASSERT_TRUE(fromPacked.ok()) << fromPacked.error().format();
    auto json3 = writeToString(**fromPacked, WriteOptions{Format::Json, false});
    ASSERT_TRUE(json3.ok());
    EXPECT_TRUE(*json3 == *json) << "MessagePack and back differs";
}

}  // namespace
}  // namespace ptoplug::ir
