// The C++ SDK's traversals (<ptoplug/sdk.hpp>) over the stub host's table: the Visitor's hooks, order
// and exceptions, the Mutator's copy-on-write rebuild, and the typed handles of the 1.2 functions (a
// variable's uses and definition, appending to a statement list).
#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <ptoplug/sdk.hpp>

#include "abi_host/runner.h"
#include "ir/printer.h"
#include "ir/reader.h"
#include "ir/validate.h"
#include "support/fixtures.h"

namespace ptoplug {
namespace {

using namespace ptoplug::plugin;

using Body = std::function<void(const Host&)>;
Body gBody;
pto_status runBody(const pto_host_api* api, pto_run_context* ctx) {
    return runGuarded(api, ctx, "SdkTest", [](const Host& h) { gBody(h); });
}

// host_orch: data_buf = alloc(256 * 4); signal_buf = alloc(4 * 4); two windows; a loop calling
// chip_orch(data, signal); chip_orch returns data.
class Sdk : public ::testing::Test {
protected:
    Sdk() {
        auto read = ir::readDocument(test::fixtureNamed("host_dispatch_materializes_comm_ctx_args/before").msgpack,
                                     ir::Format::Auto, "before.msgpack");
        if (!read) std::abort();
        doc = std::move(*read);
        original = ir::printProgram(*doc);
    }
    ~Sdk() override { EXPECT_FALSE(ir::checkStructure(*doc).has_value()) << "a test left invalid IR"; }

    pto_status run(Body body) {
        gBody = std::move(body);
        return host::runThroughAbi(*doc, runBody, {}).status;
    }
    std::string printed() const { return ir::printProgram(*doc); }

    std::unique_ptr<ir::Document> doc;
    std::string original;
};

TEST_F(Sdk, VisitorHooksSeeEachKindInProgramOrder) {
    struct Calls : Visitor {
        using Visitor::Visitor;
        std::vector<std::string> seen;
        Next visitCall(Call c) override {
            seen.emplace_back(c.op());
            return Next::Descend;
        }
        Next visitFor(Stmt) override {
            seen.emplace_back("for");
            return Next::Descend;
        }
    };
    EXPECT_EQ(run([](const Host& h) {
                  Calls v(h);
                  v.visit(functions(h));
                  EXPECT_EQ(v.seen,
                            (std::vector<std::string>{
                                "pld.tensor.alloc_window_buffer", "pld.tensor.alloc_window_buffer", "pld.tensor.window",
                                "pld.tensor.window", "for", "pld.system.world_size", "chip_orch"}));
              }),
              PTO_OK);
}

TEST_F(Sdk, VisitorSkipsChildrenAndStops) {
    struct Count : Visitor {
        using Visitor::Visitor;
        int calls = 0, stopAt = 0;
        Next visitCall(Call) override { return ++calls == stopAt ? Next::Stop : Next::Descend; }
        Next visitFor(Stmt) override { return Next::Skip; }
    };
    EXPECT_EQ(run([](const Host& h) {
                  Count v(h);
                  v.visit(Node(h, h.findFunction("host_orch")));
                  EXPECT_EQ(v.calls, 4);  // the loop's two calls are skipped
                  Count stops(h);
                  stops.stopAt = 2;
                  stops.visit(functions(h));
                  EXPECT_EQ(stops.calls, 2);
              }),
              PTO_OK);
}

TEST_F(Sdk, AnExceptionInAHookLeavesTheWalkAndBecomesTheRunsStatus) {
    struct Throws : Visitor {
        using Visitor::Visitor;
        int after = 0;
        Next visitFor(Stmt s) override {
            throw PassError{PTO_SEVERITY_ERROR, "SdkTest/no-loops", "loops are refused", s.handle()};
        }
        Next visitCall(Call) override {
            ++after;
            return Next::Descend;
        }
    };
    int calls = -1;
    EXPECT_EQ(run([&](const Host& h) {
                  Throws v(h);
                  try {
                      v.visit(functions(h));
                  } catch (...) {
                      calls = v.after;  // the walk ended at the loop: its calls were never visited
                      throw;
                  }
              }),
              PTO_ERR_USER);
    EXPECT_EQ(calls, 4);
    EXPECT_EQ(printed(), original);
}

TEST_F(Sdk, AWrongKindIsAnInternalError) {
    EXPECT_EQ(run([](const Host& h) { Node(h, h.findFunction("chip_orch")).as<Stmt>(); }), PTO_ERR_INTERNAL);
    EXPECT_EQ(run([](const Host& h) {
                  const Function f = Node(h, h.findFunction("chip_orch")).as<Function>();
                  EXPECT_EQ(f.name(), "chip_orch");
                  EXPECT_EQ(f.params().size(), 2u);
                  EXPECT_EQ(f.params()[1].name(), "signal");
                  EXPECT_TRUE(f.body().is<Stmt>());
              }),
              PTO_OK);
}

TEST_F(Sdk, AMutatorThatChangesNothingKeepsEveryNode) {
    EXPECT_EQ(run([](const Host& h) {
                  Mutator m(h);
                  for (const Function& f : functions(h)) {
                      const Stmt body = f.body();
                      EXPECT_FALSE(m.run(f));
                      EXPECT_TRUE(f.body() == body);
                  }
              }),
              PTO_OK);
    EXPECT_EQ(printed(), original);
}

Node firstLoop(const Host& h, Node root) {
    struct Find : Visitor {
        using Visitor::Visitor;
        Node found;
        Next visitFor(Stmt s) override {
            found = s;
            return Next::Stop;
        }
    } find(h);
    find.visit(root);
    return find.found;
}

// Swaps the operands of every product: the rebuilt nodes are copies, and only the path to them changes.
TEST_F(Sdk, AMutatorRebuildsOnlyThePathToAChange) {
    struct SwapProducts : Mutator {
        using Mutator::Mutator;
        Node mutateExpr(Expr e) override {
            const Node rebuilt = Mutator::mutateExpr(e);
            if (e.typeName() != "Mul") return rebuilt;
            const Node copy(host(), host().clone(rebuilt.handle()));
            host().replaceChild(copy.handle(), PTO_FIELD_LEFT, 0, rebuilt.child(PTO_FIELD_RIGHT).handle());
            host().replaceChild(copy.handle(), PTO_FIELD_RIGHT, 0, rebuilt.child(PTO_FIELD_LEFT).handle());
            return copy;
        }
    };
    EXPECT_EQ(run([](const Host& h) {
                  SwapProducts m(h);
                  const Function host = Node(h, h.findFunction("host_orch")).as<Function>();
                  const Stmt body = host.body();
                  const Node loop = firstLoop(h, body);
                  EXPECT_TRUE(m.run(host));
                  EXPECT_FALSE(host.body() == body);  // a copy of the sequence
                  // statements without a product are the same nodes in the copy
                  EXPECT_TRUE(loop && firstLoop(h, host.body()) == loop);
                  EXPECT_FALSE(m.run(Node(h, h.findFunction("chip_orch")).as<Function>()));
              }),
              PTO_OK);
    std::string expected = original;
    const std::string product = "alloc_window_buffer(256 * 4";  // 4 * 4 reads the same either way
    ASSERT_NE(expected.find(product), std::string::npos) << original;
    expected.replace(expected.find(product), product.size(), "alloc_window_buffer(4 * 256");
    EXPECT_EQ(printed(), expected);
}

// Var::uses and Var::definition (var_uses, var_definition): a local, a param, one never used.
TEST_F(Sdk, AVariableKnowsItsUsesAndItsDefinition) {
    EXPECT_EQ(run([](const Host& h) {
                  const Function host = Node(h, h.findFunction("host_orch")).as<Function>();
                  struct Locals : Visitor {
                      using Visitor::Visitor;
                      std::vector<Var> bound;
                      Next visitAssign(Stmt s) override {
                          bound.push_back(s.child(PTO_FIELD_VAR).as<Var>());
                          return Next::Descend;
                      }
                  } locals(h);
                  locals.visit(host);
                  ASSERT_EQ(locals.bound.size(), 4u);
                  const Var dataBuf = locals.bound[0];
                  ASSERT_EQ(dataBuf.name(), "data_buf");
                  // The binding is no use; the window call's argument is, and so is each WindowBuffer's base
                  // (the comm domain's slot, the types of the window call and of `data`).
                  const std::vector<pto_walk_position> uses = dataBuf.uses(host);
                  std::vector<std::string> where;
                  for (const pto_walk_position& u : uses)
                      where.push_back(std::string(Node(h, u.parent).typeName()) + "." + std::to_string(u.field) + "[" +
                                      std::to_string(u.index) + "]");
                  const std::string base = "WindowBuffer." + std::to_string(PTO_FIELD_BASE) + "[0]";
                  EXPECT_EQ(where, (std::vector<std::string>{base, "Call." + std::to_string(PTO_FIELD_ARGS) + "[0]",
                                                             base, base}));
                  const std::optional<pto_walk_position> bound = dataBuf.definition(host);
                  ASSERT_TRUE(bound.has_value());
                  EXPECT_EQ(Node(h, bound->parent).kind(), PTO_NODE_ASSIGN_STMT);
                  EXPECT_EQ(bound->field, PTO_FIELD_VAR);

                  const Function chip = Node(h, h.findFunction("chip_orch")).as<Function>();
                  const std::vector<Var> params = chip.params();
                  EXPECT_EQ(params[0].uses(chip).size(), 1u);  // returned
                  EXPECT_TRUE(params[1].uses(chip).empty());
                  ASSERT_TRUE(params[1].definition(chip).has_value());
                  EXPECT_TRUE(pto_node_equal(params[1].definition(chip)->parent, chip.handle()));
                  EXPECT_EQ(params[1].definition(chip)->field, PTO_FIELD_PARAMS);
                  EXPECT_EQ(params[1].definition(chip)->index, 1u);
                  EXPECT_FALSE(dataBuf.definition(chip).has_value());  // bound in another function
                  EXPECT_TRUE(dataBuf.uses(chip).empty());
              }),
              PTO_OK);
    EXPECT_EQ(printed(), original);
}

// SeqStmts::append puts statements at the end of a list, also an empty one, after the pass returns.
TEST_F(Sdk, AStatementListTakesStatementsAtItsEnd) {
    EXPECT_EQ(run([](const Host& h) {
                  const Function host = Node(h, h.findFunction("host_orch")).as<Function>();
                  const Node loop = firstLoop(h, host);
                  const Stmt call = loop.child(PTO_FIELD_BODY).as<Stmt>();
                  const Var r = loop.child(PTO_FIELD_LOOP_VAR).as<Var>();
                  // The loop's body becomes an empty list, then the call and `r_copy = r`.
                  pto_value none{};
                  Host::check("value_make_array", h.api()->value_make_array(h.ctx(), nullptr, 0, &none));
                  const pto_field_value stmts{ps("stmts"), none};
                  pto_node list{};
                  Host::check("create_node", h.api()->create_node(h.ctx(), ps("SeqStmts"), &stmts, 1, &list));
                  h.replaceChild(loop.handle(), PTO_FIELD_BODY, 0, list);
                  const SeqStmts body = Node(h, list).as<SeqStmts>();
                  const Var copy(h, h.createVar("r_copy", r.type(), r.handle()));
                  const Stmt assign(h, h.createAssign(copy.handle(), r.handle(), r.handle()));
                  body.append(std::vector<Stmt>{call, assign});
                  EXPECT_TRUE(body.stmts().empty());  // deferred
                  Host::check("flush_inserts", h.api()->flush_inserts(h.ctx()));
                  ASSERT_EQ(body.stmts().size(), 2u);
                  EXPECT_TRUE(body.stmts()[0] == call);
                  EXPECT_TRUE(body.stmts()[1] == assign);
              }),
              PTO_OK);
    const std::string loop = "        for r in pl.range(pld.system.world_size()):\n";
    EXPECT_NE(printed().find(loop + "            self.chip_orch("), std::string::npos) << printed();
    EXPECT_NE(printed().find("})\n            r_copy: "), std::string::npos) << printed();
    // A list is a SeqStmts: anything else is the pass's internal error, nothing changed.
    const std::string now = printed();
    EXPECT_EQ(run([](const Host& h) {
                  const Function host = Node(h, h.findFunction("host_orch")).as<Function>();
                  host.as<SeqStmts>();
              }),
              PTO_ERR_INTERNAL);
    EXPECT_EQ(run([](const Host& h) {
                  const Function host = Node(h, h.findFunction("host_orch")).as<Function>();
                  h.appendStmts(firstLoop(h, host).handle(), {});
              }),
              PTO_ERR_INTERNAL);
    EXPECT_EQ(printed(), now);
}

// On a host of ABI 1.1 the 1.2 calls are refused with PTO_ERR_UNSUPPORTED, before any call is made.
TEST_F(Sdk, TheOnePointTwoCallsAreUnsupportedOnAnOlderHost) {
    EXPECT_EQ(run([](const Host& h) {
                  pto_host_api older = *h.api();
                  older.struct_size = offsetof(pto_host_api, append_stmts);
                  const Host old(&older, h.ctx());
                  const pto_node f = h.findFunction("chip_orch");
                  const pto_node param = h.child(f, PTO_FIELD_PARAMS, 0);
                  for (const auto& call : std::vector<std::function<void()>>{
                           [&] { old.varUses(f, param); }, [&] { old.varDefinition(f, param); },
                           [&] { old.appendStmts(h.child(f, PTO_FIELD_BODY), {}); }}) {
                      try {
                          call();
                          ADD_FAILURE() << "no exception";
                      } catch (const HostCallFailed& e) {
                          EXPECT_EQ(e.status, PTO_ERR_UNSUPPORTED) << e.function;
                      }
                  }
              }),
              PTO_OK);
}

}  // namespace
}  // namespace ptoplug
