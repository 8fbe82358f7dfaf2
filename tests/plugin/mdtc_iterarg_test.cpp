// docs/pass.md §12.4: IterArgs whose init value the pass rewrites, as pypto's mutator treats them. The
// loop's own iter_args entry becomes a copy with the init rewritten once; every later occurrence in
// the loop (walk order) becomes a further copy whose init is the previous one's rewritten again; a copy
// has no context of its own. Each case is a program of our own, compared whole.
#include <algorithm>
#include <functional>
#include <set>

#include "rules_fixture.h"

namespace ptoplug {
namespace {

using ir::Node;
using test::Rules;

// How stage() prints after the pass: every expected program ends with it.
const std::string kStageAfter =
    "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
    "    def stage(s: pld.DistributedTensor[[4], pl.FP32], s_ctx: pld.CommCtxType) -> "
    "pld.DistributedTensor[[4], pl.FP32]:\n"
    "        return s\n";

class IterArgInit : public Rules {
protected:
    // The printer names copies by appearance (acc, acc_1, ...) but shows no init values: this lists
    // every IterArg of the output, in the order they were made, as "name = init".
    std::string iterArgInits() {
        std::set<const Node*> seen;
        std::vector<const Node*> found;
        std::function<void(const ir::Value&)> walk = [&](const ir::Value& v) {
            if (v.isNode()) {
                if (!seen.insert(v.n).second) return;
                if (v.n->type == ir::K::IterArg) found.push_back(v.n);
                for (const ir::Member& m : v.n->fields) walk(m.value);
            } else if (v.kind == ir::Kind::Array) {
                for (const ir::Value& item : *v.a) walk(item);
            } else if (v.kind == ir::Kind::Map) {
                for (const ir::Member& m : *v.m) walk(m.value);
            }
        };
        walk(doc.root());
        std::sort(found.begin(), found.end(), [](const Node* a, const Node* b) { return a->index < b->index; });
        std::string out;
        for (const Node* ia : found) out += name(ia) + " = " + describe(ia->field(ir::K::initValue)->n) + "\n";
        return out;
    }
    static std::string name(const Node* n) { return std::string(n->field(ir::K::name_hint)->strView()); }
    static std::string describe(const Node* e) {
        if (e->type == ir::K::Var || e->type == ir::K::IterArg) return name(e);
        if (e->type != ir::K::Call) return "?";
        std::string out(e->field(ir::K::op)->m->find(ir::K::name)->strView());
        out += "(";
        for (const ir::Value& a : *e->field(ir::K::args)->a) out += (out.back() == '(' ? "" : ", ") + describe(a.n);
        return out + ")";
    }

    // stage(s: dist) -> dist, an InCore function the pass plans.
    Node* stage() {
        Node* s = b.var("s", dist());
        return b.function("stage", 2, {s}, b.ret({s}), {0}, {dist()});
    }
    Node* view(Node* of) { return b.opCall("pl.tensor.view", {of}, dist()); }
};

TEST_F(IterArgInit, ForWithACallInitCopiesTheIterArgAtEveryUse) {
    Node* x = b.var("x", dist());
    Node* i = b.var("i", b.scalar(21));
    Node* acc = b.iterArg("acc", dist(), b.call("stage", {x}, dist(), {0}));
    Node* v = b.var("v", dist());
    Node* w = b.var("w", dist());
    Node* out = b.var("out", dist());
    Node* loop = b.forLoop(i, 2, {acc}, b.seq({b.assign(v, view(acc)), b.assign(w, view(acc)), b.yield({acc})}), {out});
    b.program({b.function("k", 1, {x}, b.seq({loop, b.ret()})), stage()});
    EXPECT_EQ(transformed(),
              "    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
              "    def k(self, x: pld.DistributedTensor[[4], pl.FP32], x_ctx: pld.CommCtxType):\n"
              "        for i, (acc) in pl.range(2, init_values=(self.stage(x, x_ctx, attrs={\"arg_directions\": "
              "[pl.adir.input, pl.adir.scalar]}))):\n"
              "            v: pld.DistributedTensor[[4], pl.FP32] = pl.pl.tensor.view(acc_1)\n"
              "            w: pld.DistributedTensor[[4], pl.FP32] = pl.pl.tensor.view(acc_2)\n"
              "            out = pl.yield_(acc_3)\n"
              "        return\n" +
                  kStageAfter);
    // The header's init is rewritten once; each use's copy once more than the one before.
    EXPECT_EQ(iterArgInits(),
              "acc = stage(x, x_ctx)\n"
              "acc = stage(x, x_ctx, x_ctx)\n"
              "acc = stage(x, x_ctx, x_ctx, x_ctx)\n"
              "acc = stage(x, x_ctx, x_ctx, x_ctx, x_ctx)\n");
}

TEST_F(IterArgInit, WhileWithAQueryInitMapsEveryUseToOneCopy) {
    Node* x = b.var("x", dist());
    Node* c = b.iterArg("c", ctxType(), b.opCall("pld.system.get_comm_ctx", {x}, ctxType()));
    Node* r = b.var("r", b.scalar());
    Node* out = b.var("out", ctxType());
    Node* loop = b.whileLoop(b.opCall("pld.system.rank", {c}, b.scalar()), {c},
                             b.seq({b.assign(r, b.opCall("pld.system.rank", {c}, b.scalar())), b.yield({c})}), {out});
    b.program({b.function("k", 2, {x}, b.seq({loop, b.ret()}))});
    // Rewritten once, the init is the context itself, which a second rewrite leaves alone: the header
    // and every use (condition, body, yield) share one copy.
    EXPECT_EQ(transformed(),
              "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
              "    def k(x: pld.DistributedTensor[[4], pl.FP32], x_ctx: pld.CommCtxType):\n"
              "        while pld.system.rank(c):  # carries c\n"
              "            r: pl.Scalar[pl.INT32] = pld.system.rank(c)\n"
              "            out = pl.yield_(c)\n"
              "        return\n");
    EXPECT_EQ(iterArgInits(), "c = x_ctx\n");
}

TEST_F(IterArgInit, ACopyPassedToAPlannedCalleeHasNoContext) {
    Node* x = b.var("x", dist());
    Node* i = b.var("i", b.scalar(21));
    Node* acc = b.iterArg("acc", dist(), b.call("stage", {x}, dist(), {0}));
    Node* out = b.var("out", dist());
    Node* use = b.call("stage", {acc}, dist(), {0});
    Node* loop = b.forLoop(i, 2, {acc}, b.seq({b.eval(use), b.yield({acc})}), {out});
    b.program({b.function("k", 1, {x}, b.seq({loop, b.ret()})), stage()});
    // The original IterArg would resolve through the loop carry; its copy is in no alias map (E4).
    EXPECT_EQ(failure(),
              "MaterializeDistTensorCtx/unresolved-context|" + lineOf(use) +
                  "|Cannot determine the communication context of DistributedTensor 'acc' passed from 'k'. "
                  "Only host orchestration can query a context at runtime; a chip-orchestration or device "
                  "function must reach its DistributedTensor from one of its own parameters. Take 'acc' as a "
                  "parameter of this function (or return it from a callee that does) instead of producing it "
                  "locally.");
}

TEST_F(IterArgInit, InHostOrchestrationACopyGetsASynthesizedQuery) {
    Node* x = b.var("x", dist());
    Node* i = b.var("i", b.scalar(21));
    Node* acc = b.iterArg("acc", dist(), b.call("stage", {x}, dist(), {0}));
    Node* out = b.var("out", dist());
    Node* loop = b.forLoop(i, 2, {acc}, b.seq({b.eval(b.call("stage", {acc}, dist(), {0})), b.yield({acc})}), {out});
    b.program({b.hostFunction("main", {x}, b.seq({loop, b.ret()})), stage()});
    EXPECT_EQ(transformed(),
              "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
              "    def main(self, x: pld.DistributedTensor[[4], pl.FP32], x_ctx: pld.CommCtxType):\n"
              "        for i, (acc) in pl.range(2, init_values=(self.stage(x, x_ctx, attrs={\"arg_directions\": "
              "[pl.adir.input, pl.adir.scalar]}))):\n"
              "            acc_ctx: pld.CommCtxType = pld.system.get_comm_ctx(acc_1)\n"
              "            self.stage(acc_1, acc_ctx, attrs={\"arg_directions\": [pl.adir.input, pl.adir.scalar]})\n"
              "            out = pl.yield_(acc_2)\n"
              "        return\n" +
                  kStageAfter);
    // The query's argument is the copy itself, and the copy is the one the call passes.
    EXPECT_EQ(iterArgInits(),
              "acc = stage(x, x_ctx)\n"
              "acc = stage(x, x_ctx, x_ctx)\n"
              "acc = stage(x, x_ctx, x_ctx, x_ctx)\n");
}

TEST_F(IterArgInit, ANestedLoopSeededFromACopyRewritesItAgain) {
    Node* x = b.var("x", dist());
    Node* i = b.var("i", b.scalar(21));
    Node* j = b.var("j", b.scalar(21));
    Node* acc = b.iterArg("acc", dist(), b.call("stage", {x}, dist(), {0}));
    Node* inner = b.iterArg("inner", dist(), acc);
    Node* v = b.var("v", dist());
    Node* innerOut = b.var("inner_out", dist());
    Node* out = b.var("out", dist());
    Node* innerLoop = b.forLoop(j, 2, {inner}, b.seq({b.assign(v, view(inner)), b.yield({inner})}), {innerOut});
    Node* loop = b.forLoop(i, 2, {acc}, b.seq({innerLoop, b.yield({innerOut})}), {out});
    b.program({b.function("k", 1, {x}, b.seq({loop, b.ret()})), stage()});
    EXPECT_EQ(transformed(),
              "    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
              "    def k(self, x: pld.DistributedTensor[[4], pl.FP32], x_ctx: pld.CommCtxType):\n"
              "        for i, (acc) in pl.range(2, init_values=(self.stage(x, x_ctx, attrs={\"arg_directions\": "
              "[pl.adir.input, pl.adir.scalar]}))):\n"
              "            for j, (inner) in pl.range(2, init_values=(acc_1)):\n"
              "                v: pld.DistributedTensor[[4], pl.FP32] = pl.pl.tensor.view(inner_1)\n"
              "                inner_out = pl.yield_(inner_2)\n"
              "            out = pl.yield_(inner_out)\n"
              "        return\n" +
                  kStageAfter);
    // The inner header is seeded from a copy of acc; each inner use rewrites that copy once more.
    EXPECT_EQ(iterArgInits(),
              "acc = stage(x, x_ctx)\n"
              "acc = stage(x, x_ctx, x_ctx)\n"
              "inner = acc\n"
              "acc = stage(x, x_ctx, x_ctx, x_ctx)\n"
              "inner = acc\n"
              "acc = stage(x, x_ctx, x_ctx, x_ctx, x_ctx)\n"
              "inner = acc\n");
}

// The IR is a DAG: a call the pass changes may occur in two places. pypto rebuilds each occurrence into
// its own node; so does the plugin (the first keeps the edited original, the second gets a copy).
TEST_F(IterArgInit, ASharedCallIsRebuiltPerOccurrence) {
    Node* x = b.var("x", dist());
    Node* shared = b.call("stage", {x}, dist(), {0});
    Node* cond = b.var("cond", b.scalar(0));
    Node* branch = b.ifStmt(cond, b.ret({shared}), b.ret({shared}), {});
    b.program({b.function("k", 1, {x, cond}, branch, {}, {dist()}), stage()});
    const std::string text = transformed();
    EXPECT_NE(text.find("        if cond:\n"
                        "            return self.stage(x, x_ctx, attrs={\"arg_directions\": [pl.adir.input, "
                        "pl.adir.scalar]})\n"
                        "        else:\n"
                        "            return self.stage(x, x_ctx, attrs={\"arg_directions\": [pl.adir.input, "
                        "pl.adir.scalar]})\n"),
              std::string::npos)
        << text;
    const Node* thenCall = branch->field(ir::K::then_body)->n->field(ir::K::value)->a->items[0].n;
    const Node* elseCall = branch->field(ir::K::else_body)->n->field(ir::K::value)->a->items[0].n;
    EXPECT_EQ(thenCall, shared);
    EXPECT_NE(elseCall, shared);
    // Each has its own args: one context each, not two on a shared node.
    EXPECT_EQ(thenCall->field(ir::K::args)->a->size, 2u);
    EXPECT_EQ(elseCall->field(ir::K::args)->a->size, 2u);
}

// An IterArg whose init the pass rewrites, used inside an attribute (a dump_vars VarList), leaves its copy
// nowhere to go: I6, which pypto calls internal; the input causes it, so here it is an error.
TEST_F(IterArgInit, AnIterArgWhoseInitIsRewrittenUsedInsideAnAttributeIsAnInputError) {
    Node* x = b.var("x", dist());
    Node* i = b.var("i", b.scalar(21));
    Node* acc = b.iterArg("acc", dist(), b.call("stage", {x}, dist(), {0}));
    Node* v = b.var("v", dist());
    Node* out = b.var("out", dist());
    Node* use = view(x);
    ir::Map* vars = doc.newMap(2);
    ir::Array* listed = doc.newArray(1);
    doc.push(*listed, ir::Value::ref(acc));
    doc.set(*vars, ir::K::type, doc.newString("VarList"));
    doc.set(*vars, ir::K::value, ir::Value::array(listed));
    ir::Map* entry = doc.newMap(2);
    doc.set(*entry, ir::K::key, doc.newString("dump_vars"));
    doc.set(*entry, ir::K::value, ir::Value::map(vars));
    ir::Array* attrs = doc.newArray(1);
    doc.push(*attrs, ir::Value::map(entry));
    doc.set(use->fields, ir::K::attrs, ir::Value::array(attrs));
    Node* loop = b.forLoop(i, 2, {acc}, b.seq({b.assign(v, use), b.yield({acc})}), {out});
    b.program({b.function("k", 1, {x}, b.seq({loop, b.ret()})), stage()});
    const std::string f = failure();
    EXPECT_EQ(ruleOf(f), "MaterializeDistTensorCtx/iter-arg-in-attribute") << f;
    EXPECT_NE(f.find("|MaterializeDistTensorCtx: an IterArg whose init value this pass rewrites is used inside an "
                     "attribute"),
              std::string::npos)
        << f;
    EXPECT_EQ(severity, PTO_SEVERITY_ERROR) << "the input's fault, not a bug";
}

}  // namespace
}  // namespace ptoplug
