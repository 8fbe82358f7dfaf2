// The host table's promises to plugins that misuse it: a NULL run context, edits that would break the
// program (wrong node class, a cycle) and value handles whose slot a rewrite moved all give an error
// status and leave the IR unchanged; nothing crashes.
#include <gtest/gtest.h>

#include <functional>

#include "abi_host/runner.h"
#include "ir/reader.h"
#include "ir/validate.h"
#include "ir/writer.h"
#include "support/fixtures.h"

namespace ptoplug {
namespace {

// A pass made of a test body: runThroughAbi takes a plain function, the body travels beside it.
std::function<pto_status(const pto_host_api*, pto_run_context*)> gBody;
pto_status runBody(const pto_host_api* host, pto_run_context* ctx) { return gBody(host, ctx); }

class HostTable : public ::testing::Test {
protected:
    HostTable() {
        auto read = ir::readDocument(test::fixtureNamed("buffer_aliasing_view_inherits_source_context/before").msgpack,
                                     ir::Format::Auto, "before.msgpack");
        if (!read) std::abort();
        doc = std::move(*read);
    }
    // Runs `body` as a pass; returns its status.
    pto_status run(std::function<pto_status(const pto_host_api*, pto_run_context*)> body) {
        gBody = std::move(body);
        return host::runThroughAbi(*doc, runBody).status;
    }
    std::unique_ptr<ir::Document> doc;
};

// The first node below `root` (pre-order) for which `match` holds; null if none.
pto_node firstWhere(const pto_host_api* h, pto_run_context* ctx, pto_node root,
                    const std::function<bool(pto_node)>& match) {
    struct Search {
        const std::function<bool(pto_node)>& match;
        pto_node found;
    } search{match, {}};
    pto_walk_callbacks cb{};
    cb.struct_size = sizeof cb;
    cb.user_data = &search;
    cb.pre = [](pto_run_context*, pto_node n, const pto_walk_position*, void* user) {
        auto* s = static_cast<Search*>(user);
        if (!s->match(n)) return PTO_WALK_ADVANCE;
        s->found = n;
        return PTO_WALK_STOP;
    };
    h->walk(ctx, root, &cb);
    return search.found;
}

pto_node firstOfKind(const pto_host_api* h, pto_run_context* ctx, pto_node root, pto_node_kind kind) {
    return firstWhere(h, ctx, root, [&](pto_node n) {
        pto_node_kind k;
        return h->node_kind(ctx, n, &k) == PTO_OK && k == kind;
    });
}

TEST_F(HostTable, ANullRunContextIsAnErrorStatus) {
    EXPECT_EQ(run([](const pto_host_api* h, pto_run_context* ctx) {
                  pto_node program, child;
                  pto_node_kind kind;
                  pto_value value;
                  size_t count;
                  h->program(ctx, &program);
                  EXPECT_EQ(h->program(nullptr, &program), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->program_function_count(nullptr, &count), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->node_kind(nullptr, program, &kind), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->node_child(nullptr, program, PTO_FIELD_BODY, 0, &child), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->make_singleton_type(nullptr, PTO_TYPE_COMM_CTX, &value), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->walk(nullptr, program, nullptr), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->replace_child(nullptr, program, PTO_FIELD_BODY, 0, program), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->flush_inserts(nullptr), PTO_ERR_INVALID_HANDLE);
                  EXPECT_EQ(h->emit_diagnostic(nullptr, nullptr), PTO_ERR_INVALID_HANDLE);
                  return PTO_OK;
              }),
              PTO_OK);
}

TEST_F(HostTable, EditsThatWouldBreakTheProgramAreRefusedAndChangeNothing) {
    EXPECT_EQ(run([](const pto_host_api* h, pto_run_context* ctx) {
                  pto_node program, fn, param;
                  h->program(ctx, &program);
                  pto_node seq = firstOfKind(h, ctx, program, PTO_NODE_SEQ_STMTS);
                  pto_node call = firstOfKind(h, ctx, program, PTO_NODE_CALL);
                  EXPECT_FALSE(pto_node_is_null(seq) || pto_node_is_null(call));
                  EXPECT_EQ(h->program_function_at(ctx, 0, &fn), PTO_OK);
                  EXPECT_EQ(h->node_child(ctx, fn, PTO_FIELD_PARAMS, 0, &param), PTO_OK);
                  // An expression where a statement goes; a statement where an expression goes.
                  EXPECT_EQ(h->replace_child(ctx, seq, PTO_FIELD_STMTS, 0, param), PTO_ERR_WRONG_KIND);
                  EXPECT_EQ(h->call_append_arg(ctx, call, seq), PTO_ERR_WRONG_KIND);
                  EXPECT_EQ(h->function_append_param(ctx, fn, call, PTO_PARAM_IN), PTO_ERR_WRONG_KIND);
                  EXPECT_EQ(h->insert_before(ctx, seq, PTO_FIELD_STMTS, 0, &param, 1), PTO_ERR_WRONG_KIND);
                  // A node inside itself.
                  EXPECT_EQ(h->replace_child(ctx, seq, PTO_FIELD_STMTS, 0, seq), PTO_ERR_INVALID_ARGUMENT);
                  EXPECT_EQ(h->replace_child(ctx, fn, PTO_FIELD_BODY, 0, seq), PTO_OK);  // fine: no cycle
                  EXPECT_EQ(h->insert_before(ctx, seq, PTO_FIELD_STMTS, 0, &seq, 1), PTO_ERR_INVALID_ARGUMENT);
                  pto_node var;
                  pto_value ctxType;
                  EXPECT_EQ(h->make_singleton_type(ctx, PTO_TYPE_COMM_CTX, &ctxType), PTO_OK);
                  EXPECT_EQ(h->create_var(ctx, pto_string{"v", 1}, ctxType, program, &var), PTO_OK);
                  pto_node assign;
                  EXPECT_EQ(h->create_assign(ctx, call, var, program, &assign), PTO_ERR_WRONG_KIND);
                  return PTO_OK;
              }),
              PTO_OK);
    EXPECT_EQ(ir::checkStructure(*doc), std::nullopt);
}

TEST_F(HostTable, AValueHandleWhoseSlotMovedIsStale) {
    EXPECT_EQ(run([](const pto_host_api* h, pto_run_context* ctx) {
                  pto_node program;
                  h->program(ctx, &program);
                  // The first call that has arg_directions.
                  pto_value directions{}, codes{}, first{};
                  pto_node call = firstWhere(h, ctx, program, [&](pto_node n) {
                      pto_node_kind k;
                      return h->node_kind(ctx, n, &k) == PTO_OK && k == PTO_NODE_CALL &&
                             h->call_attr(ctx, n, pto_string{"arg_directions", 14}, &directions) == PTO_OK;
                  });
                  EXPECT_FALSE(pto_node_is_null(call));
                  EXPECT_EQ(h->value_map_find(ctx, directions, pto_string{"value", 5}, &codes), PTO_OK);
                  size_t before = 0;
                  EXPECT_EQ(h->value_size(ctx, codes, &before), PTO_OK);
                  EXPECT_EQ(h->value_array_at(ctx, codes, 0, &first), PTO_OK);
                  uint64_t code = 0;
                  EXPECT_EQ(h->value_as_uint64(ctx, first, &code), PTO_OK);
                  // The list grows into a new buffer: the element's handle is stale, the list's is not.
                  pto_arg_direction scalar = PTO_ARG_SCALAR;
                  int present = 0;
                  EXPECT_EQ(h->call_extend_arg_directions(ctx, call, &scalar, 1, &present), PTO_OK);
                  EXPECT_TRUE(present);
                  EXPECT_EQ(h->value_as_uint64(ctx, first, &code), PTO_ERR_INVALID_HANDLE);
                  size_t after = 0;
                  EXPECT_EQ(h->value_size(ctx, codes, &after), PTO_OK);
                  EXPECT_EQ(after, before + 1);
                  EXPECT_EQ(h->value_array_at(ctx, codes, after - 1, &first), PTO_OK);
                  EXPECT_EQ(h->value_as_uint64(ctx, first, &code), PTO_OK);
                  EXPECT_EQ(code, uint64_t{PTO_ARG_SCALAR});
                  // A type the host made belongs to no list and never goes stale.
                  pto_value type;
                  pto_type_kind kind;
                  EXPECT_EQ(h->make_singleton_type(ctx, PTO_TYPE_COMM_CTX, &type), PTO_OK);
                  EXPECT_EQ(h->call_extend_arg_directions(ctx, call, &scalar, 1, &present), PTO_OK);
                  EXPECT_EQ(h->value_type_kind(ctx, type, &kind), PTO_OK);
                  return PTO_OK;
              }),
              PTO_OK);
}

// A walk's position locates the node: the parent's child at that field and index is the node itself, for
// every node met below a function (nodes held inside inline values, such as the program's function
// table, have only their field's position). A field the ABI names is given as its pto_field.
TEST_F(HostTable, AWalkPositionLocatesTheNode) {
    struct Tally {
        const pto_host_api* h;
        size_t located = 0, misplaced = 0, roots = 0, unnamed = 0;
    } tally{};
    size_t functions = 0;
    EXPECT_EQ(run([&](const pto_host_api* h, pto_run_context* ctx) {
                  tally.h = h;
                  pto_walk_callbacks cb{};
                  cb.struct_size = sizeof cb;
                  cb.user_data = &tally;
                  cb.pre = [](pto_run_context* c, pto_node n, const pto_walk_position* at, void* user) {
                      auto* t = static_cast<Tally*>(user);
                      pto_node child{};
                      if (at->field > PTO_FIELD_NAME_HINT) ++t->unnamed;
                      if (pto_node_is_null(at->parent))
                          ++t->roots;
                      else if (t->h->node_child(c, at->parent, at->field, at->index, &child) == PTO_OK &&
                               pto_node_equal(child, n))
                          ++t->located;
                      else
                          ++t->misplaced;
                      return PTO_WALK_ADVANCE;
                  };
                  EXPECT_EQ(h->program_function_count(ctx, &functions), PTO_OK);
                  for (size_t i = 0; i < functions; ++i) {
                      pto_node fn{};
                      EXPECT_EQ(h->program_function_at(ctx, i, &fn), PTO_OK);
                      EXPECT_EQ(h->walk(ctx, fn, &cb), PTO_OK);
                  }
                  return PTO_OK;
              }),
              PTO_OK);
    EXPECT_EQ(tally.roots, functions);
    EXPECT_GT(tally.located, 10u);
    EXPECT_EQ(tally.misplaced, 0u);
    EXPECT_EQ(tally.unnamed, 0u);  // pypto's node-bearing fields are all named by the ABI
}

}  // namespace
}  // namespace ptoplug
