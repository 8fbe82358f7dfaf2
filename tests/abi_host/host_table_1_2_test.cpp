// The contract of every ABI 1.2 table function (append_stmts, var_uses, var_definition), as
// host_table_1_1_test does for 1.1: valid arguments, then null, foreign handles and wrong kinds, each
// with its status, its last_error message and an unchanged, still valid program.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "abi_host/table_fixture.h"
#include "ir/reader.h"
#include "ir/writer.h"

namespace ptoplug {
namespace {

using namespace table_test;

class HostTable12 : public HostTableTest {};

// A new statement `name = 1` (an Int32 scalar).
pto_node assignOne(const T& t, const char* name) {
    pto_type_desc d{sizeof d, PTO_TYPE_SCALAR, PTO_DTYPE_INT32, nullptr, 0, nullptr, 0};
    pto_value type{}, one{};
    pto_node var{}, value{}, stmt{};
    EXPECT_EQ(t.h->make_type(t.ctx, &d, &type), PTO_OK);
    EXPECT_EQ(t.h->create_var(t.ctx, S(name), type, pto_node{}, &var), PTO_OK);
    EXPECT_EQ(t.h->value_make_int(t.ctx, 1, &one), PTO_OK);
    pto_field_value fields[] = {{S("value"), one}, {S("type"), type}};
    EXPECT_EQ(t.h->create_node(t.ctx, S("ConstInt"), fields, 2, &value), PTO_OK);
    EXPECT_EQ(t.h->create_assign(t.ctx, var, value, pto_node{}, &stmt), PTO_OK);
    return stmt;
}

std::vector<pto_walk_position> uses(const T& t, pto_node root, pto_node var) {
    size_t n = 0;
    EXPECT_EQ(t.h->var_uses(t.ctx, root, var, nullptr, 0, &n), PTO_OK);
    std::vector<pto_walk_position> out(n);
    size_t again = 0;
    EXPECT_EQ(t.h->var_uses(t.ctx, root, var, out.data(), out.size(), &again), PTO_OK);
    EXPECT_EQ(again, n);
    return out;
}

// A type read from one node and given to create_var (or create_op_call) is copied: were its map shared by
// two nodes, the shape's nodes inside it would be written in full twice, and the file would not read back.
TEST_F(HostTable12, ATypeReadFromANodeIsCopiedWhereItIsUsedAgain) {
    EXPECT_EQ(run([](const pto_host_api* h, pto_run_context* ctx) {
                  T t{h, ctx};
                  const pto_node chip = t.function("chip_orch");
                  const pto_node data = t.child(chip, PTO_FIELD_PARAMS, 0);
                  const pto_value type = t.field(data, PTO_FIELD_TYPE);
                  pto_node copy{};
                  EXPECT_EQ(h->create_var(ctx, S("data_again"), type, data, &copy), PTO_OK);
                  EXPECT_EQ(h->function_append_param(ctx, chip, copy, PTO_PARAM_IN), PTO_OK);
                  return PTO_OK;
              }),
              PTO_OK);
    auto bytes = ir::writeToString(*doc, ir::WriteOptions{ir::Format::MsgPack, false});
    ASSERT_TRUE(bytes.ok()) << bytes.error().format();
    auto back = ir::readDocument(*bytes, ir::Format::MsgPack, "out.msgpack");
    EXPECT_TRUE(back.ok()) << back.error().format();
}

TEST_F(HostTable12, AppendStmtsFillsAnEmptyListAndGoesAfterEverythingElse) {
    EXPECT_EQ(run([](const pto_host_api* h, pto_run_context* ctx) {
                  T t{h, ctx};
                  const pto_node loop = t.first(t.function("host_orch"), PTO_NODE_FOR_STMT);
                  // The loop's body becomes an empty SeqStmts.
                  pto_value none{};
                  EXPECT_EQ(h->value_make_array(ctx, nullptr, 0, &none), PTO_OK);
                  pto_field_value stmts{S("stmts"), none};
                  pto_node body{};
                  EXPECT_EQ(h->create_node(ctx, S("SeqStmts"), &stmts, 1, &body), PTO_OK);
                  EXPECT_EQ(h->replace_child(ctx, loop, PTO_FIELD_BODY, 0, body), PTO_OK);
                  size_t n = 0;
                  EXPECT_EQ(h->node_child_count(ctx, body, PTO_FIELD_STMTS, &n), PTO_OK);
                  EXPECT_EQ(n, 0u);
                  EXPECT_EQ(h->insert_after(ctx, body, PTO_FIELD_STMTS, 0, nullptr, 0), PTO_ERR_OUT_OF_RANGE);
                  const pto_node a = assignOne(t, "a"), b = assignOne(t, "b");
                  EXPECT_EQ(h->append_stmts(ctx, body, &a, 1), PTO_OK);
                  EXPECT_EQ(h->append_stmts(ctx, body, &b, 1), PTO_OK);
                  EXPECT_EQ(h->node_child_count(ctx, body, PTO_FIELD_STMTS, &n), PTO_OK);
                  EXPECT_EQ(n, 0u);  // deferred
                  EXPECT_EQ(h->flush_inserts(ctx), PTO_OK);
                  EXPECT_EQ(h->node_child_count(ctx, body, PTO_FIELD_STMTS, &n), PTO_OK);
                  EXPECT_EQ(n, 2u);
                  // At the end of a list that has statements: after what insert_after puts after the last.
                  const pto_node c = assignOne(t, "c"), d = assignOne(t, "d");
                  EXPECT_EQ(h->append_stmts(ctx, body, &d, 1), PTO_OK);
                  EXPECT_EQ(h->insert_after(ctx, body, PTO_FIELD_STMTS, 1, &c, 1), PTO_OK);
                  EXPECT_EQ(h->append_stmts(ctx, body, nullptr, 0), PTO_OK);  // nothing
                  return PTO_OK;  // the rest is applied when the pass returns
              }),
              PTO_OK);
    const std::string loop = "        for r in pl.range(pld.system.world_size()):\n";
    std::string body;
    for (const char* v : {"a", "b", "c", "d"})
        body += std::string("            ") + v + ": pl.Scalar[pl.INT32] = pl.const(1, pl.INT32)\n";
    const std::string p = printed();
    EXPECT_NE(p.find(loop + body + "        return 0\n"), std::string::npos) << p;
}

TEST_F(HostTable12, AppendStmtsRefusesWhatIsNoStatementList) {
    EXPECT_EQ(run([](const pto_host_api* h, pto_run_context* ctx) {
                  T t{h, ctx};
                  const pto_node host = t.function("host_orch");
                  const pto_node loop = t.first(host, PTO_NODE_FOR_STMT);
                  const pto_node body = t.first(host, PTO_NODE_SEQ_STMTS);
                  const pto_node a = assignOne(t, "a");
                  EXPECT_ERR(h->append_stmts(ctx, loop, &a, 1), PTO_ERR_WRONG_KIND,
                             "append_stmts: PTO_ERR_WRONG_KIND: `seq` is a ForStmt, not a SeqStmts");
                  const pto_node call = t.first(host, PTO_NODE_CALL);
                  EXPECT_ERR(h->append_stmts(ctx, body, &call, 1), PTO_ERR_WRONG_KIND, "stmts[0] is a Call");
                  const pto_node scope = t.child(host, PTO_FIELD_BODY);  // holds `body`
                  EXPECT_ERR(h->append_stmts(ctx, body, &scope, 1), PTO_ERR_INVALID_ARGUMENT, "(a cycle)");
                  EXPECT_ERR(h->append_stmts(ctx, body, nullptr, 1), PTO_ERR_INVALID_HANDLE, "NULL stmts");
                  EXPECT_ERR(h->append_stmts(ctx, pto_node{}, &a, 1), PTO_ERR_INVALID_HANDLE, "null seq");
                  const pto_node junk{{~0ull, 5}};
                  EXPECT_EQ(h->append_stmts(ctx, body, &junk, 1), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->append_stmts(nullptr, body, &a, 1), PTO_ERR_INVALID_HANDLE);
                  return PTO_OK;
              }),
              PTO_OK);
    EXPECT_EQ(printed(), original);
}

TEST_F(HostTable12, UsesAndDefinitionOfAParamAndOfALoopVariable) {
    EXPECT_EQ(run([](const pto_host_api* h, pto_run_context* ctx) {
                  T t{h, ctx};
                  const pto_node chip = t.function("chip_orch");
                  const pto_node data = t.child(chip, PTO_FIELD_PARAMS, 0);
                  const pto_node signal = t.child(chip, PTO_FIELD_PARAMS, 1);
                  pto_walk_position at{};
                  EXPECT_EQ(h->var_definition(ctx, chip, data, &at), PTO_OK);
                  EXPECT_TRUE(pto_node_equal(at.parent, chip));
                  EXPECT_EQ(at.field, PTO_FIELD_PARAMS);
                  EXPECT_EQ(at.index, 0u);
                  const auto dataUses = uses(t, chip, data);  // `return data`
                  EXPECT_EQ(dataUses.size(), 1u);
                  EXPECT_EQ(t.kind(dataUses[0].parent), PTO_NODE_RETURN_STMT);
                  EXPECT_EQ(dataUses[0].field, PTO_FIELD_VALUE);
                  EXPECT_TRUE(uses(t, chip, signal).empty());
                  // Bound above the body: not found below it.
                  EXPECT_ERR(h->var_definition(ctx, t.child(chip, PTO_FIELD_BODY), data, &at), PTO_ERR_NOT_FOUND,
                             "var_definition: PTO_ERR_NOT_FOUND: the variable is bound nowhere");
                  // The loop variable r: bound by the loop, used in the call's attrs (device=r).
                  const pto_node host = t.function("host_orch");
                  const pto_node loop = t.first(host, PTO_NODE_FOR_STMT);
                  const pto_node r = t.child(loop, PTO_FIELD_LOOP_VAR);
                  EXPECT_EQ(h->var_definition(ctx, host, r, &at), PTO_OK);
                  EXPECT_TRUE(pto_node_equal(at.parent, loop));
                  EXPECT_EQ(at.field, PTO_FIELD_LOOP_VAR);
                  const auto rUses = uses(t, host, r);
                  EXPECT_EQ(rUses.size(), 1u);
                  EXPECT_EQ(t.kind(rUses[0].parent), PTO_NODE_CALL);
                  EXPECT_EQ(rUses[0].field, PTO_FIELD_ATTRS);
                  // A capacity below the count writes that many and says the total.
                  pto_walk_position one{};
                  size_t n = 0;
                  EXPECT_EQ(h->var_uses(ctx, host, r, &one, 0, &n), PTO_OK);
                  EXPECT_EQ(n, 1u);
                  EXPECT_TRUE(pto_node_is_null(one.parent));
                  return PTO_OK;
              }),
              PTO_OK);
    EXPECT_EQ(printed(), original);
}

TEST_F(HostTable12, UsesAndDefinitionRefuseNullsAndWhatIsNoVariable) {
    pto_node foreign{};
    run([&](const pto_host_api* h, pto_run_context* ctx) {
        foreign = T{h, ctx}.function("chip_orch");
        return PTO_OK;
    });
    EXPECT_EQ(run([&](const pto_host_api* h, pto_run_context* ctx) {
                  T t{h, ctx};
                  const pto_node chip = t.function("chip_orch");
                  const pto_node data = t.child(chip, PTO_FIELD_PARAMS, 0);
                  pto_walk_position at{};
                  size_t n = 0;
                  EXPECT_EQ(h->var_uses(nullptr, chip, data, nullptr, 0, &n), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->var_definition(nullptr, chip, data, &at), PTO_ERR_INVALID_HANDLE);
                  EXPECT_ERR(h->var_uses(ctx, chip, data, nullptr, 0, nullptr), PTO_ERR_INVALID_HANDLE,
                             "var_uses: PTO_ERR_INVALID_HANDLE: NULL count");
                  EXPECT_ERR(h->var_uses(ctx, chip, data, nullptr, 1, &n), PTO_ERR_INVALID_HANDLE,
                             "NULL out with a capacity");
                  EXPECT_ERR(h->var_definition(ctx, chip, data, nullptr), PTO_ERR_INVALID_HANDLE, "NULL out");
                  EXPECT_ERR(h->var_uses(ctx, foreign, data, nullptr, 0, &n), PTO_ERR_INVALID_HANDLE, "var_uses");
                  EXPECT_ERR(h->var_definition(ctx, chip, foreign, &at), PTO_ERR_INVALID_HANDLE, "var_definition");
                  EXPECT_ERR(h->var_uses(ctx, chip, pto_node{}, nullptr, 0, &n), PTO_ERR_INVALID_HANDLE,
                             "null, foreign or stale");
                  EXPECT_ERR(h->var_uses(ctx, chip, chip, nullptr, 0, &n), PTO_ERR_WRONG_KIND,
                             "`var` is a Function, not a Var, IterArg or MemRef");
                  const pto_node ret = t.first(chip, PTO_NODE_RETURN_STMT);
                  EXPECT_ERR(h->var_definition(ctx, chip, ret, &at), PTO_ERR_WRONG_KIND, "`var` is a ReturnStmt");
                  EXPECT_EQ(n, 0u);  // outputs unchanged on errors
                  return PTO_OK;
              }),
              PTO_OK);
    EXPECT_EQ(printed(), original);
}

// Reading uses is allowed in a verifier; appending is a change, refused there.
TEST_F(HostTable12, VerifiersReadUsesAndCannotAppend) {
    host::RunSettings settings;
    settings.readOnly = true;
    EXPECT_EQ(run(
                  [](const pto_host_api* h, pto_run_context* ctx) {
                      T t{h, ctx};
                      const pto_node chip = t.function("chip_orch");
                      size_t n = 0;
                      EXPECT_EQ(h->var_uses(ctx, chip, t.child(chip, PTO_FIELD_PARAMS, 0), nullptr, 0, &n), PTO_OK);
                      EXPECT_EQ(n, 1u);
                      const pto_node body =
                          t.child(t.first(t.function("host_orch"), PTO_NODE_FOR_STMT), PTO_FIELD_BODY);
                      const pto_node a = assignOne(t, "a");
                      EXPECT_ERR(h->append_stmts(ctx, body, &a, 1), PTO_ERR_UNSUPPORTED, "append_stmts");
                      return PTO_OK;
                  },
                  settings),
              PTO_OK);
    EXPECT_EQ(printed(), original);
}

}  // namespace
}  // namespace ptoplug
