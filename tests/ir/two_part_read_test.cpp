// A large input is read on two threads (ir/two_part_read.h, Builder::appendPart): the document must be
// the one a single pass builds, and whatever the parts disagree on (or any broken rule) must fall back to
// the single pass, which reports it as always.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <thread>

#include "generator/program_generator.h"
#include "ir/builder.h"
#include "ir/consumed_input.h"
#include "ir/reader.h"
#include "ir/two_part_read.h"
#include "ir/writer.h"
#include "support/fixtures.h"

namespace ptoplug::ir {
namespace {

std::string write(const Document& doc, Format format) {
    auto out = writeToString(doc, WriteOptions{format, false});
    EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().format());
    return out.ok() ? *out : std::string();
}

/// The single-pass reading of `bytes`: the document, or the error it reports.
Expected<std::unique_ptr<Document>> readInOnePart(const std::string& bytes, Format format = Format::MsgPack) {
    auto doc = std::make_unique<Document>();
    Builder builder(*doc);
    ConsumedInput untracked;
    Error parseError;
    bool ok = format == Format::Json ? parseJson(bytes, builder, untracked, parseError)
                                     : parseMsgPack(bytes, builder, untracked, parseError);
    if (ok) return doc;
    return builder.failed() ? builder.error() : parseError;
}

std::string largeProgram(Format format = Format::MsgPack) {
    Document doc;
    tools::generateProgram(doc, 1000, false);
    return write(doc, format);
}

class TwoPartRead : public ::testing::TestWithParam<Format> {};

TEST_P(TwoPartRead, EveryFixtureReadsAsInOnePart) {
    size_t inTwoParts = 0;
    for (const test::Fixture& f : test::allFixtures()) {
        const std::string& bytes = GetParam() == Format::Json ? f.json : f.msgpack;
        auto one = readInOnePart(bytes, GetParam());
        ASSERT_TRUE(one.ok()) << f.name;
        auto two = readInTwoParts(bytes, GetParam(), ConsumedInput{});
        if (!two) continue;
        ++inTwoParts;
        EXPECT_EQ(write(*two, Format::MsgPack), write(**one, Format::MsgPack)) << f.name;
        EXPECT_EQ(two->nodes().size(), (*one)->nodes().size()) << f.name;
    }
    EXPECT_GT(inTwoParts, test::allFixtures().size() / 2) << "most fixtures have an array at their middle";
}

// pypto's 100 generated programs, before and after the pass, as JSON and as our MessagePack of them.
TEST_P(TwoPartRead, EveryRandomProgramReadsAsInOnePart) {
    size_t read = 0;
    size_t inTwoParts = 0;
    for (const auto& dir :
         std::filesystem::directory_iterator(std::filesystem::path(test::dataDir()) / "pypto-random")) {
        for (const char* stage : {"before.json", "after.json"}) {
            if (!std::filesystem::exists(dir.path() / stage)) continue;
            std::string bytes = test::readBytes((dir.path() / stage).string());
            if (GetParam() == Format::MsgPack) {
                auto doc = readInOnePart(bytes, Format::Json);
                ASSERT_TRUE(doc.ok()) << dir.path() << " " << doc.error().format();
                bytes = write(**doc, Format::MsgPack);
            }
            auto one = readInOnePart(bytes, GetParam());
            ASSERT_TRUE(one.ok()) << dir.path();
            ++read;
            auto two = readInTwoParts(bytes, GetParam(), ConsumedInput{});
            if (!two) continue;
            ++inTwoParts;
            EXPECT_EQ(write(*two, Format::MsgPack), write(**one, Format::MsgPack)) << dir.path() << " " << stage;
        }
    }
    EXPECT_GT(read, 150u);
    EXPECT_GT(inTwoParts, read / 2) << "most programs have an array at their middle";
}

TEST_P(TwoPartRead, ALargeProgramIsReadInTwoPartsAsInOne) {
    const std::string bytes = largeProgram(GetParam());
    ASSERT_GT(bytes.size(), size_t{4} << 20) << "readDocument reads inputs this large in two parts";
    auto two = readInTwoParts(bytes, GetParam(), ConsumedInput{});
    ASSERT_TRUE(two);
    auto one = readInOnePart(bytes, GetParam());
    ASSERT_TRUE(one.ok()) << one.error().format();
    EXPECT_TRUE(write(*two, Format::Json) == write(**one, Format::Json));
    auto viaReader = readDocument(bytes, Format::Auto, "large");
    ASSERT_TRUE(viaReader.ok()) << viaReader.error().format();
    EXPECT_TRUE(write(**viaReader, GetParam()) == bytes);
}

TEST_P(TwoPartRead, ABrokenRuleInTheSecondPartIsReportedAsInOnePart) {
    std::string bytes = largeProgram(GetParam());
    size_t at = bytes.find("ScalarType", bytes.size() * 3 / 4);
    ASSERT_NE(at, std::string::npos);
    bytes[at + 9] = 'f';
    EXPECT_EQ(readInTwoParts(bytes, GetParam(), ConsumedInput{}), nullptr);
    auto one = readInOnePart(bytes, GetParam());
    ASSERT_FALSE(one.ok());
    auto viaReader = readDocument(bytes, GetParam(), "kind");
    ASSERT_FALSE(viaReader.ok());
    EXPECT_NE(viaReader.error().message.find("ScalarTypf"), std::string::npos) << viaReader.error().format();
    EXPECT_EQ(viaReader.error().message, one.error().message);
    EXPECT_EQ(viaReader.error().pointer, one.error().pointer);
    EXPECT_EQ(viaReader.error().offset, one.error().offset);
    EXPECT_EQ(viaReader.error().hint, one.error().hint);
}

TEST_P(TwoPartRead, TrailingBytesAreLeftToTheSinglePass) {
    std::string bytes = largeProgram(GetParam()) + (GetParam() == Format::Json ? "x" : "\xc0");
    EXPECT_EQ(readInTwoParts(bytes, GetParam(), ConsumedInput{}), nullptr);
    auto one = readInOnePart(bytes, GetParam());
    ASSERT_FALSE(one.ok());
    auto viaReader = readDocument(bytes, GetParam(), "trailing");
    ASSERT_FALSE(viaReader.ok());
    EXPECT_EQ(viaReader.error().message, one.error().message);
}

// The first part reads while the scan goes: each wait ends with more to read than it knew, or with the
// end final or abandoned, and the last end it sees is the one the scan finished with.
TEST(TwoPartReadableEnd, TheFirstPartFollowsTheScanToItsEnd) {
    for (const bool finishes : {true, false}) {
        ReadableEnd readable;
        std::thread scan([&] {
            for (size_t at = 10; at <= 1000; at += 10) {
                readable.publish(at);
                if (at % 200 == 0) std::this_thread::yield();
            }
            finishes ? readable.finish(1005) : readable.abandon();
        });
        size_t known = 0;
        ReadableEnd::Extent extent{};
        do {
            extent = readable.await(known);
            if (!extent.abandoned) {
                EXPECT_TRUE(extent.end > known || extent.final) << known << " " << extent.end;
            }
            known = extent.end;
        } while (!extent.final && !extent.abandoned);
        scan.join();
        EXPECT_EQ(extent.final, finishes);
        EXPECT_EQ(extent.abandoned, !finishes);
        if (finishes) {
            EXPECT_EQ(extent.end, 1005u);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, TwoPartRead, ::testing::Values(Format::MsgPack, Format::Json),
                         [](const ::testing::TestParamInfo<Format>& info) {
                             return info.param == Format::Json ? "Json" : "MsgPack";
                         });

TEST(TwoPartReadJson, IndentedJsonIsReadInTwoPartsAsInOne) {
    Document doc;
    tools::generateProgram(doc, 300, false);
    auto pretty = writeToString(doc, WriteOptions{Format::Json, true});
    ASSERT_TRUE(pretty.ok());
    auto two = readJsonInTwoParts(*pretty, ConsumedInput{});
    ASSERT_TRUE(two);
    auto one = readInOnePart(*pretty, Format::Json);
    ASSERT_TRUE(one.ok()) << one.error().format();
    EXPECT_TRUE(write(*two, Format::MsgPack) == write(**one, Format::MsgPack));
}

// The second part replays the keys on the way to the middle as they are written: an escaped one keeps
// the file in one part (read as always).
TEST(TwoPartReadJson, AnEscapedKeyOnTheWayKeepsTheFileInOnePart) {
    std::string bytes = largeProgram(Format::Json);
    size_t at = bytes.find("\"fields\"");
    ASSERT_NE(at, std::string::npos);
    bytes.replace(at, 8, "\"fi\\u0065lds\"");
    EXPECT_EQ(readJsonInTwoParts(bytes, ConsumedInput{}), nullptr);
    auto viaReader = readDocument(bytes, Format::Json, "escaped.json");
    ASSERT_TRUE(viaReader.ok()) << viaReader.error().format();
    EXPECT_TRUE(write(**viaReader, Format::Json) == largeProgram(Format::Json));
}

// JSON errors name line and column: after a two-part attempt, they are the single pass's.
TEST(TwoPartReadJson, ASyntaxErrorInTheSecondPartNamesItsLine) {
    std::string bytes = largeProgram(Format::Json);
    size_t at = bytes.find("\"type\":", bytes.size() * 3 / 4);
    ASSERT_NE(at, std::string::npos);
    bytes[at + 6] = ';';
    EXPECT_EQ(readJsonInTwoParts(bytes, ConsumedInput{}), nullptr);
    auto viaReader = readDocument(bytes, Format::Json, "syntax.json");
    ASSERT_FALSE(viaReader.ok());
    EXPECT_EQ(viaReader.error().offset, static_cast<int64_t>(at + 6));
    EXPECT_GT(viaReader.error().line, 0);
}

/// Offset of the first `"id": <integer of this MessagePack type>` at or after `from`.
size_t idAt(const std::string& bytes, size_t from, char width) {
    const std::string key = std::string("\xa2id") + width;
    size_t at = bytes.find(key, from);
    return at == std::string::npos ? at : at + 3;
}

// An id in the second half repeats one of the first: the parts cannot see it, the merge does, and the
// single pass names the place.
TEST(TwoPartReadMsgPack, ADuplicateIdAcrossThePartsIsReportedAsInOnePart) {
    std::string bytes = largeProgram();
    const char uint16 = '\xcd';
    size_t first = idAt(bytes, 0, uint16);
    size_t second = idAt(bytes, bytes.size() * 3 / 4, uint16);
    ASSERT_NE(first, std::string::npos);
    ASSERT_NE(second, std::string::npos);
    bytes.replace(second, 3, bytes, first, 3);
    EXPECT_EQ(readMsgPackInTwoParts(bytes, ConsumedInput{}), nullptr);
    auto one = readInOnePart(bytes);
    ASSERT_FALSE(one.ok());
    auto viaReader = readDocument(bytes, Format::MsgPack, "dup.msgpack");
    ASSERT_FALSE(viaReader.ok());
    EXPECT_NE(viaReader.error().message.find("duplicate node id"), std::string::npos) << viaReader.error().format();
    EXPECT_EQ(viaReader.error().message, one.error().message);
    EXPECT_EQ(viaReader.error().pointer, one.error().pointer);
}

// The first part stops early on a byte that is no MessagePack type: its containers then hold fewer
// members than their headers promise (whichever container the byte is in), and nothing is joined.
TEST(TwoPartReadMsgPack, ABrokenByteInTheFirstPartIsReportedAsInOnePart) {
    Document doc;
    tools::generateProgram(doc, 200, false);
    const std::string good = write(doc, Format::MsgPack);
    const std::string nodeStart =
        "\x83\xa6"
        "fields";
    size_t tried = 0;
    for (size_t at = good.find(nodeStart, good.size() / 4); at < good.size() / 2 && tried < 60;
         at = good.find(nodeStart, at + good.size() / 200), ++tried) {
        std::string bytes = good;
        bytes[at] = '\xc1';
        EXPECT_EQ(readMsgPackInTwoParts(bytes, ConsumedInput{}), nullptr) << "broken at " << at;
        auto one = readInOnePart(bytes);
        ASSERT_FALSE(one.ok());
        auto viaReader = readDocument(bytes, Format::MsgPack, "byte.msgpack");
        ASSERT_FALSE(viaReader.ok());
        EXPECT_EQ(viaReader.error().message, one.error().message);
        EXPECT_EQ(viaReader.error().offset, one.error().offset);
    }
    EXPECT_GT(tried, 20u);
}

// Names are numbered in the order they are first met; two parts agree only if the second met no name
// the first had not met in the same order.
TEST(TwoPartDocuments, JoinOnlyWhereTheirNamesAgree) {
    Document whole;
    Document part;
    whole.keys().intern("zz_first");
    part.keys().intern("zz_first");
    part.keys().intern("zz_only_in_part");
    part.makeSpan(Span{"a.py", 1, 1, 1, 2});
    EXPECT_TRUE(whole.absorb(part));
    EXPECT_EQ(whole.keys().name(whole.keys().intern("zz_only_in_part")), "zz_only_in_part");

    Document a;
    Document b;
    a.keys().intern("zz_a");
    b.keys().intern("zz_b");
    EXPECT_FALSE(a.absorb(b));

    Document c;
    Document d;
    c.makeSpan(Span{"c.py", 1, 1, 1, 2});
    d.makeSpan(Span{"d.py", 1, 1, 1, 2});
    EXPECT_FALSE(c.absorb(d));
}

TEST(TwoPartDocuments, NodesOfThePartAreRenumberedAfterTheWhole) {
    Document whole;
    Document part;
    whole.newNode(K::Var, 0);
    Node* n = part.newNode(K::ConstInt, 0);
    ASSERT_TRUE(whole.absorb(part));
    ASSERT_EQ(whole.nodes().size(), 2u);
    EXPECT_EQ(whole.nodes()[1], n);
    EXPECT_EQ(n->index, 1u);
    EXPECT_EQ(whole.nodeType(1), static_cast<uint32_t>(K::ConstInt));
    EXPECT_TRUE(part.nodes().empty());
}

}  // namespace
}  // namespace ptoplug::ir
