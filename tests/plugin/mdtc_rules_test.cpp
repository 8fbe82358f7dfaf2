// MaterializeDistTensorCtx rule by rule (docs/pass.md §3-§7, §11) beyond pypto's fixtures: each test
// builds a program, runs the plugin through the ABI, and asserts the whole printed output program
// or the exact diagnostic.
#include <gtest/gtest.h>

#include "rules_fixture.h"

namespace ptoplug {
namespace {

using ir::Node;
using ir::Value;
using test::Rules;

// §3.1, §3.4: any function kind with a dist param is planned; others are untouched.
TEST_F(Rules, PlansEveryFunctionWithADistParamAndOnlyThose) {
    Node* x = b.var("x", dist());
    Node* t = b.var("t", b.tensor({4}, false));
    b.program({b.function("opaque_fn", 0, {x}, b.ret()), b.function("plain", 2, {t}, b.ret())});
    EXPECT_EQ(transformed(),
              "    @pl.function()\n"
              "    def opaque_fn(self, x: pld.DistributedTensor[[4], pl.FP32], x_ctx: pld.CommCtxType):\n"
              "        return\n"
              "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
              "    def plain(t: pl.Tensor[[4], pl.FP32]):\n"
              "        return\n");
}

// §3.3, §3.5, §12.1: base before the first "__"; params and body names are used, iter-arg names not.
TEST_F(Rules, NamesUseTheAutoNameBaseAndAvoidUsedNames) {
    Node* a = b.var("a__b__c", dist());
    Node* x1 = b.var("x__ssa_v1", dist());
    Node* x2 = b.var("x__ssa_v2", dist());
    Node* under = b.var("__tmp", dist());
    Node* local = b.var("x_ctx", b.scalar());
    Node* i = b.var("i", b.scalar(21));
    Node* carried = b.iterArg("a_ctx", b.scalar(), b.constInt(0));
    Node* out = b.var("out", b.scalar());
    Node* body =
        b.seq({b.assign(local, b.constInt(1, 19)), b.forLoop(i, 2, {carried}, b.yield({carried}), {out}), b.ret()});
    b.program({b.function("k", 2, {a, x1, x2, under}, body)});
    EXPECT_EQ(transformed(),
              "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
              "    def k(a__b__c: pld.DistributedTensor[[4], pl.FP32], x__ssa_v1: pld.DistributedTensor[[4], pl.FP32], "
              "x__ssa_v2: pld.DistributedTensor[[4], pl.FP32], __tmp: pld.DistributedTensor[[4], pl.FP32], "
              "a_ctx: pld.CommCtxType, x_ctx_1: pld.CommCtxType, x_ctx_2: pld.CommCtxType, _ctx: pld.CommCtxType):\n"
              "        x_ctx: pl.Scalar[pl.INT32] = pl.const(1, pl.INT32)\n"
              "        for i, (a_ctx_1) in pl.range(2, init_values=(0)):\n"
              "            out = pl.yield_(a_ctx_1)\n"
              "        return\n");
}

// §3.5: a name counts where the standard walk reads it (an assigned var, a TensorType's shape) and
// not elsewhere (the shape of a DistributedTensorType); suffixed names count like any other. (The
// printer, like pypto's, tells the two Vars named x_ctx_2 apart by printing the later one as x_ctx_2_1.)
TEST_F(Rules, BodyNamesCountOnlyWhereTheStandardWalkReadsThem) {
    auto withDim = [&](Value type, Node* dim) {
        type.m->find(ir::K::shape)->a->items[0] = Value::node(dim);
        return type;
    };
    Node* x = b.var("x", dist());
    Node* suffixed = b.var("x_ctx_1", b.scalar());
    Node* plain = b.var("t", withDim(b.tensor({4}, false), b.var("x_ctx", b.scalar(21))));
    Node* distributed = b.var("d", withDim(dist(), b.var("x_ctx_2", b.scalar(21))));
    Node* body = b.seq({b.assign(suffixed, b.constInt(1, 19)), b.assign(plain, b.opCall("tensor.create", {}, none())),
                        b.assign(distributed, b.opCall("tensor.create", {}, none())), b.ret()});
    b.program({b.function("k", 2, {x}, body)});
    EXPECT_EQ(transformed(),
              "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
              "    def k(x: pld.DistributedTensor[[4], pl.FP32], x_ctx_2: pld.CommCtxType):\n"
              "        x_ctx_1: pl.Scalar[pl.INT32] = pl.const(1, pl.INT32)\n"
              "        t: pl.Tensor[[x_ctx], pl.FP32] = pl.tensor.create()\n"
              "        d: pld.DistributedTensor[[x_ctx_2_1], pl.FP32] = pl.tensor.create()\n"
              "        return\n");
}

// §2.2: no planned function -> unchanged, get_comm_ctx left for the verifier (§10) to report.
TEST_F(Rules, ProgramWithoutDistParamsIsUnchangedAndTheVerifierReportsQueries) {
    Node* t = b.var("t", b.tensor({4}, false));
    Node* ctx = b.var("ctx", ctxType());
    b.program({b.function("k", 2, {t},
                          b.seq({b.assign(ctx, b.opCall("pld.system.get_comm_ctx", {t}, ctxType())), b.ret()}))});
    std::string before = ir::printProgram(doc);
    EXPECT_FALSE(run().failed());
    EXPECT_EQ(ir::printProgram(doc), before);
    host::RunOutcome v = verify();
    ASSERT_EQ(v.diagnostics.size(), 1u);
    EXPECT_EQ(v.diagnostics[0].rule, "DistTensorCtxMaterialized");
    EXPECT_EQ(v.diagnostics[0].message.rfind("Function 'k' still calls pld.system.get_comm_ctx.", 0), 0u);
}

// §4.1: writeback ops inherit their reused input, view ops arg 0; other ops inherit nothing.
TEST_F(Rules, ContextFlowsThroughWritebackAndViewOps) {
    Node* data = b.var("data", dist());
    Node* src = b.var("src", dist());
    Node* p = b.var("p", dist());
    Node* kernel = b.function("kernel", 2, {p}, b.ret());
    Node* stored = b.var("stored", dist());
    Node* viewed = b.var("viewed", dist());
    Node* body = b.seq({b.assign(stored, b.opCall("tile.store", {src, src, data}, dist())),
                        b.assign(viewed, b.opCall("tensor.reshape", {stored}, dist())),
                        b.eval(b.call("kernel", {viewed}, none(), {0})), b.ret()});
    b.program({kernel, b.function("main", 1, {data, src}, body)});
    std::string text = transformed();
    EXPECT_NE(text.find("self.kernel(viewed, data_ctx, attrs={\"arg_directions\": [pl.adir.input, pl.adir.scalar]})"),
              std::string::npos)
        << text;
}

TEST_F(Rules, OpsOutsideTheTablesInheritNothing) {
    Node* data = b.var("data", dist());
    Node* p = b.var("p", dist());
    Node* t = b.var("t", dist());
    Node* call = b.call("kernel", {t}, none(), {0});
    Node* body = b.seq({b.assign(t, b.opCall("tensor.transpose", {data}, dist())), b.eval(call), b.ret()});
    b.program({b.function("kernel", 2, {p}, b.ret()), b.function("main", 1, {data}, body)});
    EXPECT_EQ(failure(),
              "MaterializeDistTensorCtx/unresolved-context|" + lineOf(call) +
                  "|Cannot determine the communication context of DistributedTensor 't' passed from 'main'. Only host "
                  "orchestration can query a context at runtime; a chip-orchestration or device function must reach "
                  "its DistributedTensor from one of its own parameters. Take 't' as a parameter of this function (or "
                  "return it from a callee that does) instead of producing it locally.");
}

// §4.3: only a returned *param* counts; a returned alias does not.
TEST_F(Rules, ReturnedAliasesDoNotCarryContexts) {
    Node* p = b.var("p", dist());
    Node* alias = b.var("alias", dist());
    Node* producer = b.function("producer", 2, {p}, b.seq({b.assign(alias, p), b.ret({alias})}), {}, {dist()});
    Node* q = b.var("q", dist());
    Node* data = b.var("data", dist());
    Node* r = b.var("r", dist());
    Node* body = b.seq(
        {b.assign(r, b.call("producer", {data}, dist(), {0})), b.eval(b.call("kernel", {r}, none(), {0})), b.ret()});
    b.program({producer, b.function("kernel", 2, {q}, b.ret()), b.function("main", 1, {data}, body)});
    EXPECT_EQ(ruleOf(failure()), "MaterializeDistTensorCtx/unresolved-context");
}

// §4.4 If merge: both branches yield dist values with different contexts -> E1.
TEST_F(Rules, IfBranchesWithDifferentContextsAreRejected) {
    Node* a = b.var("a", dist());
    Node* c = b.var("c", dist());
    Node* cond = b.var("cond", b.scalar(0));
    Node* merged = b.var("merged", dist());
    Node* branch = b.ifStmt(cond, b.yield({a}), b.yield({c}), {merged});
    b.program({b.function("k", 2, {a, c, cond}, b.seq({branch, b.ret()}))});
    std::string f = failure();
    EXPECT_EQ(f.substr(0, f.find('|', f.find('|') + 1) + 1),
              "MaterializeDistTensorCtx/branch-context-conflict|" + lineOf(branch) + "|")
        << f;
    EXPECT_NE(f.find("|Assigning a different DistributedTensor in each branch of an `if` is not supported: 'merged' "
                     "would take its data pointer from one allocation and its communication context from another."),
              std::string::npos)
        << f;
}

// §4.4 If merge with one context: the merged var forwards it.
TEST_F(Rules, IfBranchesWithOneContextForwardIt) {
    Node* a = b.var("a", dist());
    Node* cond = b.var("cond", b.scalar(0));
    Node* merged = b.var("merged", dist());
    Node* p = b.var("p", dist());
    Node* branch = b.ifStmt(cond, b.yield({a}), b.yield({a}), {merged});
    Node* body = b.seq({branch, b.eval(b.call("kernel", {merged}, none(), {0})), b.ret()});
    b.program({b.function("kernel", 2, {p}, b.ret()), b.function("main", 1, {a, cond}, body)});
    std::string text = transformed();
    EXPECT_NE(text.find("self.kernel(merged, a_ctx, attrs="), std::string::npos) << text;
}

// §5.3 A: a nested get_comm_ctx argument is replaced in place; E3 when unresolvable.
TEST_F(Rules, DeviceQueriesAreReplacedWhereTheyStand) {
    Node* data = b.var("data", dist());
    Node* rank = b.var("rank", b.scalar());
    Node* query = b.opCall("pld.system.get_comm_ctx", {data}, ctxType());
    b.program({b.function("k", 2, {data},
                          b.seq({b.assign(rank, b.opCall("pld.system.rank", {query}, b.scalar())), b.ret()}))});
    EXPECT_EQ(transformed(),
              "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
              "    def k(data: pld.DistributedTensor[[4], pl.FP32], data_ctx: pld.CommCtxType):\n"
              "        rank: pl.Scalar[pl.INT32] = pld.system.rank(data_ctx)\n"
              "        return\n");
    EXPECT_FALSE(verify().failed());
}

// §5.3 A: one query node used twice is replaced at both places.
TEST_F(Rules, ASharedQueryIsReplacedWhereverItOccurs) {
    Node* data = b.var("data", dist());
    Node* r1 = b.var("r1", b.scalar());
    Node* r2 = b.var("r2", b.scalar());
    Node* query = b.opCall("pld.system.get_comm_ctx", {data}, ctxType());
    Node* body = b.seq({b.assign(r1, b.opCall("pld.system.rank", {query}, b.scalar())),
                        b.assign(r2, b.opCall("pld.system.world_size", {query}, b.scalar())), b.ret()});
    b.program({b.function("k", 2, {data}, body)});
    EXPECT_EQ(transformed(),
              "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
              "    def k(data: pld.DistributedTensor[[4], pl.FP32], data_ctx: pld.CommCtxType):\n"
              "        r1: pl.Scalar[pl.INT32] = pld.system.rank(data_ctx)\n"
              "        r2: pl.Scalar[pl.INT32] = pld.system.world_size(data_ctx)\n"
              "        return\n");
    EXPECT_FALSE(verify().failed());
}

TEST_F(Rules, UnresolvableDeviceQueryIsE3) {
    Node* data = b.var("data", dist());
    Node* local = b.var("local", dist());
    Node* ctx = b.var("ctx", ctxType());
    Node* body = b.seq({b.assign(local, b.opCall("tensor.create", {}, dist())),
                        b.assign(ctx, b.opCall("pld.system.get_comm_ctx", {local}, ctxType())), b.ret()});
    b.program({b.function("k", 2, {data}, body)});
    std::string f = failure();
    EXPECT_EQ(
        f.substr(f.find('|', f.find('|') + 1)),
        "|Cannot resolve pld.system.get_comm_ctx('local') in 'k'. Outside host orchestration the query has no "
        "runtime representation, so the context must be reachable from a parameter of this function. Take 'local' "
        "as a parameter (or return it from a callee that does) instead of producing it locally.");
    EXPECT_EQ(ruleOf(f), "MaterializeDistTensorCtx/unresolved-query");
}

TEST_F(Rules, QueryWithTwoArgsIsI1) {
    Node* data = b.var("data", dist());
    Node* ctx = b.var("ctx", ctxType());
    b.program(
        {b.function("k", 2, {data},
                    b.seq({b.assign(ctx, b.opCall("pld.system.get_comm_ctx", {data, data}, ctxType())), b.ret()}))});
    std::string f = failure();
    EXPECT_EQ(ruleOf(f), "MaterializeDistTensorCtx/query-arity");
    EXPECT_EQ(severity, PTO_SEVERITY_ERROR) << "the input's fault, not a bug";
    EXPECT_NE(f.find("|MaterializeDistTensorCtx: pld.system.get_comm_ctx expects exactly one argument"),
              std::string::npos);
}

// §5.3 B: arg_directions extended only when present; present but empty is an error.
TEST_F(Rules, ArgDirectionsAreExtendedOnlyWhenPresent) {
    Node* data = b.var("data", dist());
    Node* p = b.var("p", dist());
    Node* body = b.seq({b.eval(b.call("kernel", {data}, none(), {}, false)), b.ret()});
    b.program({b.function("kernel", 2, {p}, b.ret()), b.function("main", 1, {data}, body)});
    std::string text = transformed();
    EXPECT_NE(text.find("        self.kernel(data, data_ctx)\n"), std::string::npos) << text;
}

TEST_F(Rules, EmptyArgDirectionsCannotDescribeTheNewArgs) {
    Node* data = b.var("data", dist());
    Node* p = b.var("p", dist());
    Node* body = b.seq({b.eval(b.call("kernel", {data}, none(), {})), b.ret()});
    b.program({b.function("kernel", 2, {p}, b.ret()), b.function("main", 1, {data}, body)});
    EXPECT_EQ(ruleOf(failure()), "MaterializeDistTensorCtx/empty-arg-directions");
    EXPECT_EQ(severity, PTO_SEVERITY_ERROR) << "the input's fault, not a bug";
}

// §5.4, §5.5, §7: host orchestration synthesizes one query per dist arg, before the statement; a lone
// loop body is wrapped in a new sequence; non-var args are named "dist".
TEST_F(Rules, HostOrchestrationSynthesizesQueriesBeforeTheStatement) {
    Node* p = b.var("p", dist());
    Node* q = b.var("q", dist());
    Node* data = b.var("data", dist());
    Node* i = b.var("i", b.scalar(21));
    Node* view = b.opCall("tensor.view", {data}, dist());
    Node* loop = b.forLoop(i, 4, {}, b.eval(b.call("pair", {data, data}, none(), {0, 0})), {});
    Node* body = b.seq({b.assign(data, b.opCall("pld.tensor.window", {}, dist())), loop,
                        b.eval(b.call("kernel", {view}, none(), {0})), b.ret()});
    b.program({b.function("kernel", 2, {p}, b.ret()), b.function("pair", 2, {p, q}, b.ret()),
               b.hostFunction("host", {}, body)});
    std::string text = transformed();
    EXPECT_NE(text.find("    def host(self):\n"
                        "        data: pld.DistributedTensor[[4], pl.FP32] = pld.tensor.window()\n"
                        "        for i in pl.range(4):\n"
                        "            data_ctx: pld.CommCtxType = pld.system.get_comm_ctx(data)\n"
                        "            data_ctx_1: pld.CommCtxType = pld.system.get_comm_ctx(data)\n"
                        "            self.pair(data, data, data_ctx, data_ctx_1, attrs={\"arg_directions\": "
                        "[pl.adir.input, pl.adir.input, pl.adir.scalar, pl.adir.scalar]})\n"
                        "        dist_ctx: pld.CommCtxType = pld.system.get_comm_ctx(pl.tensor.view(data))\n"
                        "        self.kernel(pl.tensor.view(data), dist_ctx, attrs={\"arg_directions\": "
                        "[pl.adir.input, pl.adir.scalar]})\n"
                        "        return\n"),
              std::string::npos)
        << text;
}

// §7: the literal rule: level HOST with role SubWorker is not host orchestration -> E4, not synthesis.
TEST_F(Rules, HostLevelWithoutOrchestratorRoleIsNotHostOrchestration) {
    Node* p = b.var("p", dist());
    Node* data = b.var("data", dist());
    Node* host = b.hostFunction("host", {},
                                b.seq({b.assign(data, b.opCall("pld.tensor.window", {}, dist())),
                                       b.eval(b.call("kernel", {data}, none(), {0})), b.ret()}));
    doc.set(host->fields, ir::K::role, Value::uinteger(1));
    b.program({b.function("kernel", 2, {p}, b.ret()), host});
    EXPECT_EQ(ruleOf(failure()), "MaterializeDistTensorCtx/unresolved-context");
}

// §5.5: synthesis where no statement can be prefixed (a loop bound) is I3.
TEST_F(Rules, SynthesisOutsideAStatementIsI3) {
    Node* p = b.var("p", dist());
    Node* data = b.var("data", dist());
    Node* i = b.var("i", b.scalar(21));
    Node* loop = b.forLoop(i, 4, {}, b.ret(), {});
    Node* stop = b.call("count", {data}, b.scalar(21), {0});
    doc.set(loop->fields, ir::K::stop, Value::node(stop));
    Node* host = b.hostFunction("host", {}, b.seq({b.assign(data, b.opCall("pld.tensor.window", {}, dist())), loop}));
    b.program({b.function("count", 2, {p}, b.ret()), host});
    std::string f = failure();
    EXPECT_EQ(ruleOf(f), "MaterializeDistTensorCtx/no-statement-for-query");
    EXPECT_EQ(severity, PTO_SEVERITY_ERROR) << "the input's fault, not a bug";
    EXPECT_NE(f.find("cannot synthesize get_comm_ctx prefix in this expression context"), std::string::npos);
}

// §5.3 B / §12.3: a Submit whose args stop before a callee dist param is I4; a non-dist arg at a
// dist index is I5. pypto calls them internal errors; the input causes them, so here they are errors.
TEST_F(Rules, MissingOrNonDistArgsAtDistIndicesAreInputErrors) {
    Node* scratch = b.var("scratch", b.tensor({4}, false));
    Node* p = b.var("p", dist());
    Node* data = b.var("data", dist());
    Node* t = b.var("t", b.tensor({4}, false));
    Node* stage = b.function("stage", 2, {scratch, p}, b.ret(), {1, 0});
    Node* body = b.seq({b.eval(b.submit("stage", {t}, b.scalar(80), {1})), b.ret()});
    b.program({stage, b.function("main", 1, {data, t}, body)});
    std::string f = failure();
    EXPECT_EQ(ruleOf(f), "MaterializeDistTensorCtx/missing-dist-arg");
    EXPECT_EQ(severity, PTO_SEVERITY_ERROR) << "the input's fault, not a bug";
    EXPECT_NE(f.find("does not provide DistributedTensor arg at callee param index 1"), std::string::npos) << f;
}

TEST_F(Rules, NonDistArgAtADistIndexIsI5) {
    Node* p = b.var("p", dist());
    Node* data = b.var("data", dist());
    Node* t = b.var("t", b.tensor({4}, false));
    Node* body = b.seq({b.eval(b.call("kernel", {t}, none(), {0})), b.ret()});
    b.program({b.function("kernel", 2, {p}, b.ret()), b.function("main", 1, {data, t}, body)});
    std::string f = failure();
    EXPECT_EQ(ruleOf(f), "MaterializeDistTensorCtx/arg-not-dist");
    EXPECT_EQ(severity, PTO_SEVERITY_ERROR) << "the input's fault, not a bug";
    EXPECT_NE(f.find("expected DistributedTensor arg at callee param index 0"), std::string::npos) << f;
}

// §11: the pass is not idempotent; a second run adds another set of contexts.
TEST_F(Rules, RunningTwiceAddsAnotherSetOfContexts) {
    Node* p = b.var("p", dist());
    Node* data = b.var("data", dist());
    Node* body = b.seq({b.eval(b.call("kernel", {data}, none(), {0})), b.ret()});
    b.program({b.function("kernel", 2, {p}, b.ret()), b.function("main", 1, {data}, body)});
    EXPECT_FALSE(run().failed());
    std::string text = transformed();
    EXPECT_NE(text.find("def kernel(p: pld.DistributedTensor[[4], pl.FP32], p_ctx: pld.CommCtxType, "
                        "p_ctx_1: pld.CommCtxType):"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("self.kernel(data, data_ctx, data_ctx_1, attrs={\"arg_directions\": [pl.adir.input, "
                        "pl.adir.scalar, pl.adir.scalar]})"),
              std::string::npos)
        << text;
}

}  // namespace
}  // namespace ptoplug
