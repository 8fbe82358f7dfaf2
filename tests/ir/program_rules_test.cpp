// ir/program_rules.h on reading: what pypto's deserializer and constructors refuse is bad input (exit 3 in
// pto-host) with pypto's message where it has one, and its place; what pypto accepts and the host does not
// know stays accepted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ir/reader.h"
#include "ir/writer.h"
#include "support/ir_builder.h"

namespace ptoplug::ir {
namespace {

using json = nlohmann::json;

// f (InCore): t = g(x) with arg_directions, e = pair[1], return; g (Opaque): return. As canonical JSON, with
// every node in full where pypto's reader first meets it.
json baseProgram() {
    Document doc;
    test::IrBuilder b(doc);
    Node* x = b.var("x", b.tensor({4}, false));
    Node* pair = b.var("pair", b.tuple({b.scalar(), b.scalar()}));
    Node* t = b.var("t", b.tensor({4}, false));
    Node* e = b.var("e", b.scalar());
    Node* y = b.var("y", b.tensor({4}, false));
    Node* body = b.seq({b.assign(t, b.call("g", {x}, b.tensor({4}, false), {0})),
                        b.assign(e, b.getItem(pair, 1, b.scalar())), b.ret()});
    b.program({b.function("f", 2, {x, pair}, body), b.function("g", 0, {y}, b.ret())});
    auto text = writeToString(doc, WriteOptions{Format::Json, false});
    EXPECT_TRUE(text.ok());
    return json::parse(*text);
}

// Places in baseProgram, as JSON Pointers.
const std::string kF = "/fields/functions/0/value/fields";
const std::string kG = "/fields/functions/1/value/fields";
const std::string kCall = kF + "/body/fields/stmts/0/fields/value/fields";
const std::string kGetItem = kF + "/body/fields/stmts/1/fields/value/fields";
const std::string kX = kF + "/params/0/fields";
const std::string kPair = kF + "/params/1/fields";

Error expectRefused(const json& program, const std::string& messagePart, const std::string& pointer) {
    auto doc = readDocument(program.dump(), Format::Auto, "input.json");
    EXPECT_FALSE(doc.ok()) << "accepted: " << messagePart;
    if (doc.ok()) return {};
    const Error& err = doc.error();
    EXPECT_NE(err.message.find(messagePart), std::string::npos) << err.format();
    EXPECT_EQ(err.pointer, pointer) << err.format();
    EXPECT_FALSE(err.hint.empty()) << err.format();
    return err;
}

void expectAccepted(const json& program) {
    auto doc = readDocument(program.dump(), Format::Auto, "input.json");
    EXPECT_TRUE(doc.ok()) << doc.error().format();
}

json with(const std::string& pointer, json value) {
    json program = baseProgram();
    program[json::json_pointer(pointer)] = std::move(value);
    return program;
}

TEST(ProgramRules, TheBaseProgramIsAccepted) { expectAccepted(baseProgram()); }

TEST(ProgramRules, TheRootIsAProgram) {
    json program = baseProgram();
    auto doc = readDocument(program[json::json_pointer(kX.substr(0, kX.size() - 7))].dump(), Format::Auto, "x.json");
    ASSERT_FALSE(doc.ok());
    EXPECT_EQ(doc.error().format(),
              "x.json:1:1: error: the document's root is a 'Var' node, not a Program (at byte 0)\n  hint: an IR file "
              "holds one serialized pypto Program, {\"type\": \"Program\", ...}");
    EXPECT_TRUE(readDocument(program[json::json_pointer(kX.substr(0, kX.size() - 7))].dump(), Format::Auto, "x.json",
                             Root::AnyNode)
                    .ok());
}

// pypto keys functions by name: a second one of a name would silently replace the first.
TEST(ProgramRules, FunctionsAreNamedOnceEachAndKeyedByTheirNames) {
    json dup = with(kG + "/name", "f");
    dup[json::json_pointer("/fields/functions/1/key/name")] = "f";
    expectRefused(dup, "Duplicate function name \"f\"", kG + "/name");
    expectRefused(with("/fields/functions/1/key/name", "f"), "Duplicate function name \"f\" among the keys",
                  "/fields/functions/1");
    expectRefused(with("/fields/functions/1/key/name", "h"), "the entry of function 'g' is keyed 'h'",
                  "/fields/functions/1");
    json empty = with(kG + "/name", "");
    empty[json::json_pointer("/fields/functions/1/key/name")] = "";
    expectRefused(empty, "Program constructor encountered empty function name", kG + "/name");
}

TEST(ProgramRules, ArgDirectionsAreAnArgDirectionVectorOfOneCodePerArg) {
    const std::string value = kCall + "/attrs/0/value";
    for (const json& wrong : {json{{"type", "Int32Vector"}, {"value", {0}}}, json(0), json("In"),
                              json{{"type", "ArgDirection"}, {"value", 0}}, json{{"type", "Future"}}})
        expectRefused(with(value, wrong), "Call attrs['arg_directions'] must be std::vector<ArgDirection>", value);
    expectRefused(with(value + "/value", {0, 0}), "Call attrs['arg_directions'] size (2) must match args size (1)",
                  value + "/value");
    expectAccepted(with(value + "/value", json::array()));
    // The legacy field pypto still reads.
    expectRefused(with(kCall + "/arg_directions", "In"), "Invalid arg_directions field for Call: expected ARRAY",
                  kCall + "/arg_directions");
    expectRefused(with(kCall + "/arg_directions", {0, 6}), "Invalid ArgDirection value", kCall + "/arg_directions/1");
    expectRefused(with(kCall + "/arg_directions", {0, 0}), "Call arg_directions size (2) must match args size (1)",
                  kCall + "/arg_directions");
    expectAccepted(with(kCall + "/arg_directions", {0}));
}

TEST(ProgramRules, ASubmitThatSyncsItsStartIsAnSpmdLaunch) {
    json submit = baseProgram();
    submit[json::json_pointer(kCall.substr(0, kCall.size() - 7) + "/type")] = "Submit";
    submit[json::json_pointer(kCall + "/deps")] = json::array();
    submit[json::json_pointer(kCall + "/sync_start")] = false;
    expectAccepted(submit);
    submit[json::json_pointer(kCall + "/sync_start")] = true;
    expectRefused(submit, "Submit sync_start=true requires core_num (an SPMD launch)", kCall + "/sync_start");
}

TEST(ProgramRules, AFunctionsLevelAndRoleAgreeWithItsType) {
    expectRefused(
        with(kF + "/level", 4),
        "Function 'f' has func_type=InCore which implies level=CHIP_DIE, but explicit level=CHIP was provided",
        kF + "/level");
    expectRefused(with(kF + "/role", 0),
                  "Function 'f' has func_type=InCore which implies role=SubWorker, but explicit role=Orchestrator was "
                  "provided",
                  kF + "/role");
    expectAccepted(with(kG + "/level", 5));  // Opaque implies nothing
}

TEST(ProgramRules, ATupleItemIsOfATupleWithinItsSize) {
    expectRefused(with(kGetItem + "/index", 2), "TupleGetItemExpr index 2 out of bounds for tuple with 2 elements",
                  kGetItem + "/index");
    expectRefused(with(kPair + "/type", {{"type_kind", "ScalarType"}, {"dtype", 19}}),
                  "TupleGetItemExpr requires tuple to have TupleType, got ScalarType", kGetItem + "/tuple");
}

TEST(ProgramRules, ConstantsAndOperatorsHaveScalarTypes) {
    expectRefused(with(kX + "/type/shape/0/fields/type", {{"type_kind", "TupleType"}, {"types", json::array()}}),
                  "ConstInt is expected to have ScalarType type, but got TupleType", kX + "/type/shape/0/fields/type");
}

TEST(ProgramRules, TypesAndTheirInlinePartsAreOnesPyptoKnows) {
    expectRefused(with(kX + "/type", {{"type_kind", "ArrayType"}, {"dtype", 19}, {"shape", json::array()}}),
                  "ArrayType must have rank-1 shape, got 0", kX + "/type/shape");
    expectRefused(with(kX + "/type/tensor_view", {{"layout", "XY"}}), "Unknown value 'XY' for TensorView.layout",
                  kX + "/type/tensor_view/layout");
    expectRefused(with(kX + "/type/memref", {{"base", "b"}}),
                  "MemRef missing required fields (base, byte_offset, or size)", kX + "/type/memref");
}

TEST(ProgramRules, AttrValuesAreOnesPyptoReadsAndUnknownTagsStayAccepted) {
    const std::string added = kCall + "/attrs/1";
    expectRefused(with(added, {{"key", "pad"}, {"value", {{"type", "PadValue"}, {"value", "nan"}}}}),
                  "Unknown PadValue: nan for kwarg: pad", added + "/value/value");
    expectRefused(with(added, {{"key", "layout"}, {"value", {{"type", "TensorLayout"}}}}),
                  "Missing 'value' field for TensorLayout kwarg: layout", added + "/value");
    expectRefused(with(added, {{"key", "k"}, {"value", nullptr}}), "Invalid kwarg type for key: k", added + "/value");
    expectRefused(with(added, {{"key", "k"}, {"value", 4294967296}}), "attr 'k' holds an integer out of the range",
                  added + "/value");
    expectAccepted(with(added, {{"key", "k"}, {"value", {{"type", "FutureThing"}, {"value", {1, 2}}}}}));
}

TEST(ProgramRules, AnAivSplitHasTwoSubCores) {
    json scope = {{"id", 9000},
                  {"type", "SplitAivScopeStmt"},
                  {"fields",
                   {{"split", 1},
                    {"count", 3},
                    {"body", {{"id", 9001}, {"type", "ReturnStmt"}, {"fields", {{"value", json::array()}}}}}}}};
    const std::string stmt = kF + "/body/fields/stmts/2";
    expectRefused(with(stmt, scope), "SplitAivScopeStmt count must be 2 (AIV sub-core count), got 3",
                  stmt + "/fields/count");
    scope["fields"]["count"] = 2;
    expectAccepted(with(stmt, scope));
}

}  // namespace
}  // namespace ptoplug::ir
