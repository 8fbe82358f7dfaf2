// Bad input gives one clear error naming the file and the place, never a crash or a hang.
#include <gtest/gtest.h>

#include <string>

#include "generator/program_generator.h"
#include "ir/document.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "support/fixtures.h"

namespace ptoplug::ir {
namespace {

const char* const kSmall = "materialized_comm_ctx_param_name_avoids_existing_local/before";

// A small valid program, one node per line so that line numbers are meaningful.
const std::string kProgram = R"({"fields": {"functions": [{"key": {"is_global_var": true, "name": "f"},
"value": {"fields": {"body": {"fields": {"value": [{"ref": 2}]}, "id": 3, "type": "ReturnStmt"},
"name": "f", "param_directions": [0],
"params": [{"fields": {"name_hint": "x", "type": {"dtype": 52, "shape": [{"fields": {"type": {"dtype": 21, "type_kind": "ScalarType"}, "value": 4}, "id": 4, "type": "ConstInt"}], "type_kind": "TensorType"}}, "id": 2, "type": "Var"}],
"return_types": []}, "id": 1, "type": "Function"}}],
"name": "p"}, "id": 0, "type": "Program"})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

Error expectError(const std::string& bytes, const std::string& messagePart) {
    auto doc = readDocument(bytes, Format::Auto, "input.json");
    EXPECT_FALSE(doc.ok()) << "accepted: " << bytes.substr(0, 200);
    if (doc.ok()) return {};
    const Error& e = doc.error();
    EXPECT_EQ(e.file, "input.json");
    EXPECT_NE(e.message.find(messagePart), std::string::npos) << e.format();
    EXPECT_FALSE(e.hint.empty()) << e.format();
    return e;
}

TEST(ReadErrors, BaseProgramIsValid) {
    auto doc = readDocument(kProgram, Format::Auto, "input.json");
    ASSERT_TRUE(doc.ok()) << doc.error().format();
}

TEST(ReadErrors, EmptyFile) {
    expectError("", "empty file");
    expectError("  \n ", "empty file");
}

TEST(ReadErrors, NeitherJsonNorMessagePack) {
    Error e = expectError("hello world", "neither JSON nor MessagePack");
    EXPECT_EQ(e.offset, 0);
}

// Files that are almost IR get a message that says what they are and how to fix them.
TEST(ReadErrors, AlmostIrFilesAreNamedForWhatTheyAre) {
    const struct {
        std::string bytes, message, hint;
    } cases[] = {
        {"\xEF\xBB\xBF" + kProgram, "UTF-8 byte order mark", "without one"},
        {std::string("\xFF\xFE{\0", 4), "UTF-16 text (little-endian", "as UTF-8"},
        {std::string("\xFE\xFF\0{", 4), "UTF-16 text (big-endian", "as UTF-8"},
        {std::string("\x1F\x8B\x08\0", 4), "gzip-compressed", "gunzip"},
        {std::string("\x28\xB5\x2F\xFD\0", 5), "zstd-compressed", "zstd -d"},
        {" \n[" + kProgram + "]", "JSON whose root is an array", "a file of its own"},
        {"\x91" + std::string(test::fixtureNamed(kSmall).msgpack), "MessagePack whose root is an array",
         "a file of its own"},
    };
    for (const auto& c : cases) {
        Error e = expectError(c.bytes, c.message);
        EXPECT_NE(e.hint.find(c.hint), std::string::npos) << e.format();
        EXPECT_EQ(e.offset, c.bytes[0] == ' ' ? 2 : 0) << e.format();
    }
}

TEST(ReadErrors, EveryTruncationOfAFixtureFails) {
    const test::Fixture& f = test::fixtureNamed(kSmall);
    // The canonical JSON ends with "}\n": every prefix shorter than the closing brace is truncated.
    for (size_t n = 1; n + 1 < f.json.size(); ++n) {
        auto doc = readDocument(std::string_view(f.json).substr(0, n), Format::Auto, "t.json");
        ASSERT_FALSE(doc.ok()) << "prefix " << n;
        ASSERT_GT(doc.error().line, 0) << doc.error().format();
        ASSERT_EQ(doc.error().file, "t.json");
    }
    for (size_t n = 1; n < f.msgpack.size(); ++n) {
        auto doc = readDocument(std::string_view(f.msgpack).substr(0, n), Format::Auto, "t.msgpack");
        ASSERT_FALSE(doc.ok()) << "prefix " << n;
        ASSERT_FALSE(doc.error().message.empty());
    }
}

TEST(ReadErrors, TruncatedJsonNamesLineAndColumn) {
    Error e = expectError(kProgram.substr(0, 120), "invalid JSON");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.hint, "the file is truncated");
}

TEST(ReadErrors, UnknownReferenceId) {
    Error e = expectError(replaced(kProgram, R"({"ref": 2})", R"({"ref": 99})"), "unknown node id 99");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/body/fields/value/0");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 52);
}

TEST(ReadErrors, DuplicateId) {
    Error e = expectError(replaced(kProgram, R"("id": 4, "type": "ConstInt")", R"("id": 2, "type": "ConstInt")"),
                          "duplicate node id 2");
    // The ConstInt completes first; the Var holding it is the second node with id 2.
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/params/0/id");
}

TEST(ReadErrors, ReferenceCycle) {
    // The shape dimension of x refers to x itself.
    std::string cyclic = replaced(
        kProgram,
        R"({"fields": {"type": {"dtype": 21, "type_kind": "ScalarType"}, "value": 4}, "id": 4, "type": "ConstInt"})",
        R"({"ref": 2})");
    Error e = expectError(cyclic, "reference cycle");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/params/0/fields/type/shape/0");
    EXPECT_EQ(e.line, 4);  // the reference itself
    EXPECT_EQ(e.column, 74);
}

TEST(ReadErrors, StringWhereANodeIsExpected) {
    Error e = expectError(replaced(kProgram, R"([{"ref": 2}])", R"(["x"])"), "expected a node");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/body/fields/value/0");
    EXPECT_NE(e.message.find("ReturnStmt.value[0]"), std::string::npos) << e.message;
}

// A large input is checked another way (references resolved without a walk, nodes and graph on two
// threads): each broken rule must still be reported as on a small input, at the same place. kProgram's
// function, with ids of its own, goes first in a large program; the prefix before it is the same.
TEST(ReadErrors, ALargeInputReportsEachErrorAsASmallOneDoes) {
    std::string entry = kProgram.substr(0, kProgram.find(R"(],
"name": "p"})"));
    const std::string head = R"({"fields": {"functions": [)";
    ASSERT_EQ(entry.rfind(head, 0), 0u);
    entry.erase(0, head.size());
    for (const char* id : {"1", "2", "3", "4"}) {
        entry = replaced(entry, std::string(R"("id": )") + id + ",", std::string(R"("id": 90000)") + id + ",");
    }
    entry = replaced(entry, R"({"ref": 2})", R"({"ref": 900002})");
    const std::string small = head + entry + R"(],
"name": "p"}, "id": 0, "type": "Program"})";
    Document generated;
    tools::generateProgram(generated, 1000, false);
    ASSERT_GE(generated.nodes().size(), kParallelWalkNodes);
    auto largeJson = writeToString(generated, WriteOptions{Format::Json, false});
    ASSERT_TRUE(largeJson.ok());
    const std::string compactHead = R"({"fields":{"functions":[)";
    ASSERT_EQ(largeJson->rfind(compactHead, 0), 0u);
    const std::string large = head + entry + ", " + largeJson->substr(compactHead.size());
    ASSERT_TRUE(readDocument(large, Format::Auto, "input.json").ok());

    struct Corruption {
        std::string from, to, message;
    };
    const std::vector<Corruption> corruptions = {
        {R"({"ref": 900002}]})", R"({"ref": 900099}]})", "unknown node id 900099"},
        {R"({"fields": {"type": {"dtype": 21, "type_kind": "ScalarType"}, "value": 4}, "id": 900004, "type": "ConstInt"})",
         R"({"ref": 900002})", "reference cycle"},
        {R"([{"ref": 900002}])", R"(["x"])", "expected a node"},
        {R"("dtype": 52)", R"("dtype": 99)", "DataType code 99 out of range"},
        // Placed at a reference, whose input offset the message gives.
        {R"("type": "Var"}],)", R"("type": "Var"}, {"ref": 900004}],)", "expected a Var"},
    };
    for (const Corruption& c : corruptions) {
        Error want = expectError(replaced(small, c.from, c.to), c.message);
        Error got = expectError(replaced(large, c.from, c.to), c.message);
        EXPECT_EQ(got.message, want.message);
        EXPECT_EQ(got.pointer, want.pointer) << c.message;
        EXPECT_EQ(got.hint, want.hint) << c.message;
        EXPECT_EQ(got.line, want.line) << c.message;
        EXPECT_EQ(got.column, want.column) << c.message;
        EXPECT_EQ(got.offset, want.offset) << c.message;
    }
}

TEST(ReadErrors, OtherWrongValueKinds) {
    expectError(replaced(kProgram, R"("name": "f", "param)", R"("name": 5, "param)"),
                "expected a string for Function.name");
    expectError(replaced(kProgram, R"("return_types": [])", R"("return_types": {})"), "expected an array");
    expectError(replaced(kProgram, R"("id": 3,)", R"("id": "3",)"), "node id must be an unsigned integer");
    expectError(replaced(kProgram, R"("value": 4})", R"("value": true})"), "expected an integer");
}

TEST(ReadErrors, MissingRequiredField) {
    Error e = expectError(replaced(kProgram, R"("return_types": [])", R"("zzz": [])"),
                          "missing required field 'return_types' of a Function node");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value");
}

TEST(ReadErrors, DeepNestingIsRejectedWithoutOverflow) {
    const size_t depth = 100000;
    std::string json = "{\"a\":" + std::string(depth, '[') + std::string(depth, ']') + "}";
    Error e = expectError(json, "nesting deeper than");
    EXPECT_GT(e.line, 0);

    std::string msgpack =
        "\x81\xa1"
        "a";
    msgpack += std::string(depth, '\x91');
    msgpack += '\xc0';
    auto doc = readDocument(msgpack, Format::Auto, "deep.msgpack");
    ASSERT_FALSE(doc.ok());
    EXPECT_NE(doc.error().message.find("nesting deeper than"), std::string::npos);
}

TEST(ReadErrors, EnumCodeOutOfRange) {
    Error e = expectError(replaced(kProgram, R"("param_directions": [0])", R"("param_directions": [7])"),
                          "ParamDirection code 7 out of range");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/param_directions/0");
    expectError(replaced(kProgram, R"("dtype": 52)", R"("dtype": 99)"), "DataType code 99 out of range");
}

TEST(ReadErrors, IntegerOutOfRange) {
    expectError(replaced(kProgram, R"("value": 4})", R"("value": 9223372036854775808})"),
                "integer out of range for int64");
    Error e = expectError(replaced(kProgram, R"("value": 4})", R"("value": 18446744073709551616})"), "out of range");
    EXPECT_EQ(e.line, 4);
    expectError(replaced(kProgram, R"("value": 4})", R"("value": -9223372036854775809})"), "out of range");
}

TEST(ReadErrors, TrailingData) {
    expectError(kProgram + " {}", "invalid JSON");
    const test::Fixture& f = test::fixtureNamed(kSmall);
    auto doc = readDocument(f.msgpack + "\xc0", Format::Auto, "t.msgpack");
    ASSERT_FALSE(doc.ok());
    EXPECT_NE(doc.error().message.find("trailing bytes"), std::string::npos);
}

// JSON text is UTF-8: a string or key that is not (an overlong form, a surrogate, a stray continuation
// byte, past the first eight ASCII bytes or within them) is refused at its place; escapes are fine.
TEST(ReadErrors, JsonStringsAndKeysMustBeUtf8) {
    for (const std::string bad : {"\xc0\xaf", "\xed\xa0\x80", "\x80", "abcdefghij\xff", "\xf4\x90\x80\x80"}) {
        Error value =
            expectError(replaced(kProgram, "\"name\": \"p\"", "\"name\": \"p" + bad + "\""), "not valid UTF-8");
        EXPECT_EQ(value.line, 6) << value.format();
        EXPECT_EQ(value.pointer, "/fields/name");
        Error key = expectError(replaced(kProgram, "\"name\": \"f\"", "\"name" + bad + "\": \"f\""), "not valid UTF-8");
        EXPECT_EQ(key.line, 1) << key.format();
        EXPECT_EQ(key.pointer, "/fields/functions/0/key");
    }
    auto escaped =
        readDocument(replaced(kProgram, "\"name\": \"p\"", "\"name\": \"p\\u00e9\xc3\xa9\""), Format::Auto, "ok.json");
    EXPECT_TRUE(escaped.ok()) << escaped.error().format();
}

TEST(WriteErrors, InvalidUtf8CannotBeWrittenAsJsonButSurvivesMessagePack) {
    const test::Fixture& f = test::fixtureNamed(kSmall);
    // Replace the first byte of the program name string with 0xff, keeping the length.
    std::string bytes = f.msgpack;
    size_t at = bytes.find("test_materialize_dist_tensor_ctx.py");
    ASSERT_NE(at, std::string::npos);
    bytes[at] = '\xff';
    auto doc = readDocument(bytes, Format::Auto, "bad.msgpack");
    ASSERT_TRUE(doc.ok()) << doc.error().format();
    auto json = writeToString(**doc, WriteOptions{Format::Json, false});
    ASSERT_FALSE(json.ok());
    EXPECT_NE(json.error().message.find("not valid UTF-8"), std::string::npos);
    EXPECT_NE(json.error().pointer.find("/span/filename"), std::string::npos) << json.error().pointer;
    auto msgpack = writeToString(**doc, WriteOptions{Format::MsgPack, false});
    ASSERT_TRUE(msgpack.ok());
    EXPECT_EQ(*msgpack, bytes);
}

TEST(ReadErrors, InputBytesAreNeverModified) {
    const test::Fixture& f = test::fixtureNamed(kSmall);
    std::string copy = f.msgpack;
    auto doc = readDocument(copy, Format::Auto, "t.msgpack");
    ASSERT_TRUE(doc.ok());
    EXPECT_EQ(copy, f.msgpack);
}

}  // namespace
}  // namespace ptoplug::ir

namespace ptoplug::ir {
namespace {

// What pypto's constructors and type reader reject is bad input here too, with its place.
TEST(ReadErrors, ParamDirectionsMustMatchTheParams) {
    Error e = expectError(replaced(kProgram, R"("param_directions": [0])", R"("param_directions": [0, 1])"),
                          "Function.param_directions has 2 entries for 1 params");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/param_directions");
}

TEST(ReadErrors, ArgDirectionsMustMatchTheArgs) {
    const std::string call =
        R"({"fields": {"args": [{"ref": 2}], "attrs": [{"key": "arg_directions", "value": {"type": "ArgDirectionVector", "value": [0, 5]}}], "kwargs": [], "op": {"is_global_var": false, "name": "tensor.view"}, "type": {"type_kind": "TupleType", "types": []}}, "id": 5, "type": "Call"})";
    Error e = expectError(replaced(kProgram, R"("value": [{"ref": 2}])", R"("value": [)" + call + "]"),
                          "Call attrs['arg_directions'] size (2) must match args size (1)");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/body/fields/value/0/fields/attrs/0/value/value");
}

// Map keys are stored as 16-bit ids: a file with more distinct names than that is refused, not truncated.
TEST(ReadErrors, MoreDistinctKeysThanTheKeyTableHolds) {
    std::string many = R"({"fields":{"elements":[],"odd":{)";
    for (int i = 0; i < 70000; ++i) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
    many += R"(}},"id":0,"type":"MakeTuple"})";
    Error e = expectError(many, "more than 65535 distinct map keys");
    EXPECT_EQ(e.pointer, "/fields/odd");  // the map where the table ran out
}

TEST(ReadErrors, UnknownTypeKind) {
    Error e = expectError(replaced(kProgram, R"("type_kind": "TensorType")", R"("type_kind": "TensorTyp")"),
                          "unknown type_kind 'TensorTyp'");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/params/0/fields/type/type_kind");
}

TEST(ReadErrors, AMisspelledNodeTypeWhereAVarMustStand) {
    Error e = expectError(replaced(kProgram, R"("id": 2, "type": "Var")", R"("id": 2, "type": "Vwr")"),
                          "expected a Var (or IterArg, MemRef) for Function.params[0], found a 'Vwr' node");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/params/0");
    EXPECT_NE(e.hint.find("not a pypto node type"), std::string::npos);
}

TEST(ReadErrors, AnExpressionWhereAStatementGoes) {
    Error e =
        expectError(replaced(kProgram, R"("body": {"fields": {"value": [{"ref": 2}]}, "id": 3, "type": "ReturnStmt"})",
                             R"("body": {"ref": 2})"),
                    "expected a statement for Function.body, found a 'Var' node");
    EXPECT_EQ(e.pointer, "/fields/functions/0/value/fields/body");
}

TEST(ReadErrors, UnknownNodeTypesStayWhereAnyExpressionMayStand) {
    auto doc = readDocument(replaced(kProgram, R"("id": 4, "type": "ConstInt")", R"("id": 4, "type": "FutureConst")"),
                            Format::Auto, "input.json");
    ASSERT_TRUE(doc.ok()) << doc.error().format();
    std::string written = *writeToString(**doc, WriteOptions{Format::Json, false});
    EXPECT_NE(written.find(R"("value":4},"id":3,"type":"FutureConst")"), std::string::npos) << written;
}

}  // namespace
}  // namespace ptoplug::ir
