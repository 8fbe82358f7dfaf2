// The C++ SDK's traversals (<ptoplug/sdk.hpp>) over the stub host's table: the Visitor's hooks, order
// and exceptions, and the Mutator's copy-on-write rebuild.
#include <gtest/gtest.h>

#include <functional>
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

}  // namespace
}  // namespace ptoplug
