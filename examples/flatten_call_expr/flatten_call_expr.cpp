// FlattenCallExpr: pypto's pass (src/ir/transforms/flatten_call_expr_pass.cpp at e2d0f78ae6d7) on the
// SDK's Mutator. It makes three-address code: a Call used as a call argument, a binary or unary
// operand, an if or while condition, a for range bound or a return value, and a Call or Submit used
// as a Submit argument or a yield value, is assigned to a new temporary `t__tmp_vN` (N counts per
// function, in the order the calls are met, inner first), placed just before the statement that used
// it; a statement's hoisted assignments are spliced into its statement list. The output is pypto's
// node for node, node sharing included, so it also rebuilds what pypto's mutator rebuilds: every
// statement list (flattened as SeqStmts::Flatten: one level of nested lists, a single statement
// unwrapped), every if, for and while statement, and an IterArg whose init value changed (one copy
// per function, where the loop body uses it, as pypto's var_remap_ keeps it).
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <ptoplug/sdk.hpp>

#include "../pypto_ports/build.hpp"

namespace {

using namespace ptoplug::plugin;

constexpr char kPass[] = "FlattenCallExpr";

bool isCall(const Node& n) { return n.kind() == PTO_NODE_CALL; }
bool isCallOrSubmit(const Node& n) { return n.is<Call>(); }

class Flatten : public Mutator {
public:
    using Mutator::Mutator;

    /// The function's new body (with the temporaries of a body that is one statement in front), or
    /// the body itself if nothing changed.
    Node flattenBody(Stmt body) {
        Node result = mutate(body);
        if (pending_.empty()) return result;
        std::vector<Node> stmts = std::exchange(pending_, {});
        stmts.push_back(result);
        return ports::flattenSeq(host(), stmts, body);
    }

protected:
    Node mutateSeq(Stmt s) override {
        std::vector<Node> stmts;
        for (const Stmt& stmt : s.list<Stmt>(PTO_FIELD_STMTS)) {
            pending_.clear();
            const Node result = mutate(stmt);
            stmts.insert(stmts.end(), pending_.begin(), pending_.end());
            stmts.push_back(result);
        }
        pending_.clear();
        return ports::flattenSeq(host(), stmts, s);
    }

    Node mutateIf(Stmt s) override {
        const Node copy(host(), host().clone(s.handle()));
        put(copy, PTO_FIELD_CONDITION, hoistIf(mutate(s.child(PTO_FIELD_CONDITION)), isCall));
        put(copy, PTO_FIELD_THEN_BODY, scopeBody(s.child(PTO_FIELD_THEN_BODY)));
        if (const Node otherwise = s.child(PTO_FIELD_ELSE_BODY)) put(copy, PTO_FIELD_ELSE_BODY, scopeBody(otherwise));
        return copy;
    }

    Node mutateFor(Stmt s) override {
        const Node copy(host(), host().clone(s.handle()));
        for (uint32_t field : {PTO_FIELD_START, PTO_FIELD_STOP, PTO_FIELD_STEP})
            put(copy, field, hoistIf(mutate(s.child(field)), isCall));
        put(copy, PTO_FIELD_BODY, scopeBody(s.child(PTO_FIELD_BODY)));
        return copy;
    }

    Node mutateWhile(Stmt s) override {
        const Node copy(host(), host().clone(s.handle()));
        put(copy, PTO_FIELD_CONDITION, hoistIf(mutate(s.child(PTO_FIELD_CONDITION)), isCall));
        put(copy, PTO_FIELD_BODY, scopeBody(s.child(PTO_FIELD_BODY)));
        return copy;
    }

    Node mutateStmt(Stmt s) override {
        switch (s.kind()) {
            case PTO_NODE_RETURN_STMT: return hoistValues(s, isCall);
            case PTO_NODE_YIELD_STMT: return hoistValues(s, isCallOrSubmit);
            case PTO_NODE_IN_CORE_SCOPE_STMT:
            case PTO_NODE_CLUSTER_SCOPE_STMT:
            case PTO_NODE_HIERARCHY_SCOPE_STMT:
            case PTO_NODE_SPMD_SCOPE_STMT:
            case PTO_NODE_SPLIT_AIV_SCOPE_STMT:
            case PTO_NODE_RUNTIME_SCOPE_STMT: {
                const Node body = s.child(PTO_FIELD_BODY);
                const Node result = scopeBody(body);
                if (result == body) return s;
                const Node copy(host(), host().clone(s.handle()));
                put(copy, PTO_FIELD_BODY, result);
                return copy;
            }
            default: return rebuild(s);
        }
    }

    Node mutateCall(Call c) override {
        return hoistChildren(c, PTO_FIELD_ARGS, c.kind() == PTO_NODE_SUBMIT ? isCallOrSubmit : isCall);
    }

    Node mutateExpr(Expr e) override {
        if (e.kind() == PTO_NODE_BINARY) {
            const Node left = hoistIf(mutate(e.child(PTO_FIELD_LEFT)), isCall);
            const Node right = hoistIf(mutate(e.child(PTO_FIELD_RIGHT)), isCall);
            return withChildren(e, {{PTO_FIELD_LEFT, left}, {PTO_FIELD_RIGHT, right}});
        }
        if (e.kind() == PTO_NODE_UNARY)
            return withChildren(e, {{PTO_FIELD_OPERAND, hoistIf(mutate(e.child(PTO_FIELD_OPERAND)), isCall)}});
        return rebuild(e);
    }

    // A use of an IterArg whose init value changes is a copy holding the new value, one per function.
    Node mutateVar(Var v) override {
        if (v.kind() != PTO_NODE_ITER_ARG) return v;
        if (auto it = iterArgCopies_.find(v.handle()); it != iterArgCopies_.end()) return it->second;
        const Node result = withChildren(v, {{PTO_FIELD_INIT_VALUE, mutate(v.child(PTO_FIELD_INIT_VALUE))}});
        if (result != v) iterArgCopies_.emplace(v.handle(), result);
        return result;
    }

private:
    using Wanted = bool (*)(const Node&);
    struct Slot {
        uint32_t field;
        Node node;
    };

    /// `n`, or a temporary assigned `n` before the current statement if `n` is what `wanted` hoists.
    Node hoistIf(Node n, Wanted wanted) {
        if (!wanted(n)) return n;
        const Expr e = n.as<Expr>();
        const Node var(host(), host().createVar("t__tmp_v" + std::to_string(counter_++),
                                                ports::copyValue(host(), e.type()), e.handle()));
        pending_.emplace_back(host(), host().createAssign(var.handle(), e.handle(), e.handle()));
        return var;
    }

    /// `n` with each node of list `field` mutated and hoisted as `wanted` says: a copy if one changed.
    Node hoistChildren(Node n, uint32_t field, Wanted wanted) {
        Node copy;
        const std::vector<Expr> items = n.list<Expr>(field);
        for (size_t i = 0; i < items.size(); ++i) {
            const Node result = hoistIf(mutate(items[i]), wanted);
            if (result == items[i]) continue;
            if (!copy) copy = Node(host(), host().clone(n.handle()));
            host().replaceChild(copy.handle(), field, i, result.handle());
        }
        return copy ? copy : n;
    }

    /// A Return or Yield statement with its values hoisted as `wanted` says.
    Node hoistValues(Stmt s, Wanted wanted) { return hoistChildren(s, PTO_FIELD_VALUE, wanted); }

    /// `n` if every slot holds its node already, else a copy holding them.
    Node withChildren(Node n, std::initializer_list<Slot> slots) {
        Node copy;
        for (const Slot& s : slots) {
            if (s.node == n.child(s.field)) continue;
            if (!copy) copy = Node(host(), host().clone(n.handle()));
            put(copy, s.field, s.node);
        }
        return copy ? copy : n;
    }

    void put(const Node& parent, uint32_t field, const Node& child) {
        if (parent.child(field) != child) host().replaceChild(parent.handle(), field, 0, child.handle());
    }

    /// A loop, branch or scope body: the temporaries it hoists stay inside it (a body that is one
    /// statement becomes a list), while the enclosing statement's own stay pending.
    Node scopeBody(Node body) {
        std::vector<Node> outer = std::exchange(pending_, {});
        Node result = mutate(body);
        if (body.kind() != PTO_NODE_SEQ_STMTS && !pending_.empty()) {
            std::vector<Node> stmts = std::exchange(pending_, {});
            stmts.push_back(result);
            result = ports::flattenSeq(host(), stmts, body);
        }
        pending_ = std::move(outer);
        return result;
    }

    int counter_ = 0;
    std::vector<Node> pending_;  // assignments hoisted out of the statement being rebuilt
    std::unordered_map<pto_node, Node, NodeHash, NodeEq> iterArgCopies_;
};

void flattenCallExpr(const Host& h) {
    for (const Function& fn : functions(h)) {
        Flatten flatten(h);
        const Stmt body = fn.body();
        const Node result = flatten.flattenBody(body);
        if (result != body) h.replaceChild(fn.handle(), PTO_FIELD_BODY, 0, result.handle());
    }
}

constexpr const char* kRequired[] = {"SSAForm", "NormalizedStmtStructure"};
constexpr const char* kProduced[] = {"SSAForm", "NoNestedCalls", "NormalizedStmtStructure"};

constexpr Plugin kPlugin({.name = "flatten-call-expr", .version = "1.0.0"},
                         {{.name = kPass,
                           .description = "Flattens nested calls into assignments to temporaries (pypto's "
                                          "FlattenCallExpr)",
                           .run = guardedRun<kPass, flattenCallExpr>,
                           .required = kRequired,
                           .produced = kProduced}});

}  // namespace

PTOPLUG_PLUGIN_ENTRY(kPlugin)
