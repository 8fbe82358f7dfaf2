// ir/use_after_def.h: definition before use within scope, rule by rule (pypto's UseAfterDef, and SSA's
// scopes), and the same verdict as pypto's own verifier on every fixture program.
#include "ir/use_after_def.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "ir/pointer.h"
#include "ir/reader.h"
#include "support/fixtures.h"
#include "support/ir_builder.h"

namespace ptoplug::ir {
namespace {

using test::IrBuilder;

// "" if `rule` holds on the program of `doc`, else the message and the place.
std::string verdict(const Document& doc, ScopeRule rule = ScopeRule::UseAfterDef) {
    ScopeCheck found = checkUseAfterDef(doc, rule);
    if (!found.broken) return "";
    EXPECT_FALSE(found.broken->hint.empty());
    return found.broken->message + " at " + pointerTo(doc, found.broken->where);
}

const std::string kBody = "/fields/functions/0/value/fields/body/fields/stmts/";

TEST(UseAfterDef, ParamsAndEarlierAssignmentsReachTheirUses) {
    Document doc;
    IrBuilder b(doc);
    Node* x = b.var("x", b.scalar());
    Node* t = b.var("t", b.scalar());
    b.program({b.function("f", 0, {x}, b.seq({b.assign(t, b.opCall("add", {x, x}, b.scalar())), b.ret({t})}))});
    EXPECT_EQ(verdict(doc), "");
}

TEST(UseAfterDef, AUseBeforeItsAssignmentIsReportedAtTheUse) {
    Document doc;
    IrBuilder b(doc);
    Node* x = b.var("x", b.scalar());
    Node* t = b.var("t", b.scalar());
    Node* u = b.var("u", b.scalar());
    b.program({b.function("f", 0, {x},
                          b.seq({b.assign(u, b.opCall("add", {t, x}, b.scalar())), b.assign(t, x), b.ret({u})}))});
    EXPECT_EQ(verdict(doc),
              "Variable 't' used before definition in function 'f' at " + kBody + "0/fields/value/fields/args/0");
}

// An assignment's value is evaluated before its variable is bound: `t = t + 1` with no earlier t.
TEST(UseAfterDef, AnAssignmentDoesNotReachItsOwnValue) {
    Document doc;
    IrBuilder b(doc);
    Node* t = b.var("t", b.scalar());
    b.program({b.function("f", 0, {}, b.seq({b.assign(t, b.opCall("inc", {t}, b.scalar())), b.ret()}))});
    EXPECT_EQ(verdict(doc),
              "Variable 't' used before definition in function 'f' at " + kBody + "0/fields/value/fields/args/0");
}

// The loop variable and the iter_args live in the loop; its return_vars after it. Before SSA, what the
// body of a loop without return_vars assigns stays visible after it; in SSA form it does not.
TEST(UseAfterDef, LoopVariablesLiveInTheLoopAndItsResultsAfterIt) {
    auto program = [](Document& doc, const char* usedAfter) {
        IrBuilder b(doc);
        Node* i = b.var("i", b.scalar());
        Node* acc = b.iterArg("acc", b.scalar(), b.constInt(0));
        Node* inner = b.var("inner", b.scalar());
        Node* out = b.var("out", b.scalar());
        Node* loop = b.forLoop(
            i, 4, {acc}, b.seq({b.assign(inner, b.opCall("add", {acc, i}, b.scalar())), b.yield({inner})}), {out});
        const std::map<std::string, Node*> byName{{"i", i}, {"acc", acc}, {"inner", inner}, {"out", out}};
        Node* used = byName.at(usedAfter);
        b.program({b.function("f", 0, {}, b.seq({loop, b.ret({used})}))});
    };
    for (const char* name : {"i", "acc"}) {
        Document doc;
        program(doc, name);
        EXPECT_EQ(verdict(doc), "Variable '" + std::string(name) + "' used before definition in function 'f' at " +
                                    kBody + "1/fields/value/0");
    }
    Document out;
    program(out, "out");
    EXPECT_EQ(verdict(out), "");
    EXPECT_EQ(verdict(out, ScopeRule::SsaScopes), "");
    Document inner;
    program(inner, "inner");
    EXPECT_EQ(verdict(inner),
              "Variable 'inner' used before definition in function 'f' at " + kBody + "1/fields/value/0")
        << "what leaves a loop with return_vars leaves through them";

    // Without return_vars (before SSA) the body's assignments stay visible after the loop.
    Document leak;
    IrBuilder b(leak);
    Node* i = b.var("i", b.scalar());
    Node* last = b.var("last", b.scalar());
    b.program({b.function("f", 0, {}, b.seq({b.forLoop(i, 4, {}, b.seq({b.assign(last, i)}), {}), b.ret({last})}))});
    EXPECT_EQ(verdict(leak), "");
    EXPECT_EQ(verdict(leak, ScopeRule::SsaScopes),
              "Variable 'last' used outside its defining scope (in function 'f') at " + kBody + "1/fields/value/0");
}

// A branch does not see the other's assignments; after an if without return_vars both leak (before SSA).
TEST(UseAfterDef, BranchesAreScopesOfTheirOwn) {
    Document doc;
    IrBuilder b(doc);
    Node* c = b.var("c", b.scalar(0));
    Node* a = b.var("a", b.scalar());
    Node* x = b.var("x", b.scalar());
    Node* branch = b.ifStmt(c, b.seq({b.assign(a, x)}), b.seq({b.eval(b.opCall("use", {a}, b.scalar()))}), {});
    b.program({b.function("f", 0, {c, x}, b.seq({branch, b.ret()}))});
    EXPECT_EQ(verdict(doc), "Variable 'a' used before definition in function 'f' at " + kBody +
                                "0/fields/else_body/fields/stmts/0/fields/expr/fields/args/0");

    Document leak;
    IrBuilder l(leak);
    Node* c2 = l.var("c", l.scalar(0));
    Node* a2 = l.var("a", l.scalar());
    Node* x2 = l.var("x", l.scalar());
    Node* branch2 = l.ifStmt(c2, l.seq({l.assign(a2, x2)}), l.seq({l.assign(a2, x2)}), {});
    l.program({l.function("f", 0, {c2, x2}, l.seq({branch2, l.ret({a2})}))});
    EXPECT_EQ(verdict(leak), "");
    EXPECT_EQ(verdict(leak, ScopeRule::SsaScopes),
              "Variable 'a' used outside its defining scope (in function 'f') at " + kBody + "1/fields/value/0");
}

// pypto's mutator rebuilds an IterArg whose init it rewrites into a copy of the same name, and leaves uses
// of the copy in the loop (docs/pass.md §12.4): by identity unbound; taken as bound when asked.
TEST(UseAfterDef, AnIterArgCopyIsUnboundByIdentityAndCountedWhenTakenAsBound) {
    Document doc;
    IrBuilder b(doc);
    Node* i = b.var("i", b.scalar());
    Node* acc = b.iterArg("acc", b.scalar(), b.constInt(0));
    Node* copy = b.iterArg("acc", b.scalar(), b.constInt(1));
    Node* next = b.var("next", b.scalar());
    Node* out = b.var("out", b.scalar());
    Node* loop = b.forLoop(i, 4, {acc},
                           b.seq({b.assign(next, b.opCall("add", {copy, copy}, b.scalar())), b.yield({next})}), {out});
    b.program({b.function("f", 0, {}, b.seq({loop, b.ret({out})}))});
    const std::string at = kBody + "0/fields/body/fields/stmts/0/fields/value/fields/args/";
    EXPECT_EQ(verdict(doc), "Variable 'acc' used before definition in function 'f' at " + at + "0");
    ScopeCheck tolerant = checkUseAfterDef(doc, ScopeRule::UseAfterDef, true);
    EXPECT_FALSE(tolerant.broken);
    ASSERT_TRUE(tolerant.firstCopy);
    EXPECT_EQ(pointerTo(doc, tolerant.firstCopy->where), at + "0");
    EXPECT_EQ(tolerant.copyUses, 2u);
}

// Shared expressions are checked once per statement: 64 levels of a call holding the level below twice
// would be 2^64 visits as a tree.
TEST(UseAfterDef, SharedExpressionsAreCheckedOncePerStatement) {
    Document doc;
    IrBuilder b(doc);
    Node* x = b.var("x", b.scalar());
    Node* late = b.var("late", b.scalar());
    Node* e = b.opCall("leaf", {late}, b.scalar());
    for (int level = 0; level < 64; ++level) e = b.opCall("pair", {e, e}, b.scalar());
    Node* t = b.var("t", b.scalar());
    b.program({b.function("f", 0, {x}, b.seq({b.assign(t, e), b.assign(late, x), b.ret({t})}))});
    std::string expected = "Variable 'late' used before definition in function 'f' at " + kBody + "0/fields/value";
    for (int level = 0; level < 65; ++level) expected += "/fields/args/0";
    EXPECT_EQ(verdict(doc), expected);
}

// The host's check and pypto's verify_properties({UseAfterDef}) give the same verdict on every program of
// the fixtures and of their outputs fed back (pypto's verdicts made by scripts/make-pypto-verdicts.sh).
TEST(UseAfterDef, AgreesWithPyptosVerifierOnEveryFixture) {
    std::ifstream verdicts(test::dataDir() + "/pypto-use-after-def.txt");
    ASSERT_TRUE(verdicts);
    int programs = 0, refused = 0;
    for (std::string line; std::getline(verdicts, line);) {
        std::istringstream fields(line);
        std::string pypto, file;
        fields >> pypto >> file;
        auto doc = readFile(test::dataDir() + "/" + file);
        ASSERT_TRUE(doc.ok()) << file << ": " << doc.error().format();
        const bool holds = !checkUseAfterDef(**doc, ScopeRule::UseAfterDef).broken;
        EXPECT_EQ(holds, pypto == "OK") << file;
        ++programs;
        refused += pypto == "FAIL";
    }
    EXPECT_GT(programs, 300);
    EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace ptoplug::ir
