// Mutator: a rewriting traversal to derive from, in the manner of pypto's IRMutator (part of
// <ptoplug/sdk.hpp>). mutate(node) returns the node to put in its place: by default the node itself when
// none of its children changed, else a copy (clone_node) with the changed children put in
// (replace_child), so a node shared by several places changes only where the rewrite reached it
// (copy-on-write, as pypto rebuilds). A hook of a kind (mutateVar, mutateCall, mutateAssign, mutateFor,
// ...) returns its replacement; by default it goes to mutateExpr or mutateStmt, which rebuild from the
// children. run(function) mutates a function's body and puts the result in. Attrs, kwargs and types are
// not entered (pypto's mutator keeps them too); variables are not renamed at their uses (replace_uses
// does that).
#pragma once

#include <utility>
#include <vector>

#include "ptoplug/abi.h"
#include "ptoplug/sdk/host.hpp"
#include "ptoplug/sdk/ir.hpp"

namespace ptoplug::plugin {

class Mutator {
public:
    explicit Mutator(const Host& host) : host_(host) {}
    virtual ~Mutator() = default;

    Node mutate(Node n) {
        switch (const pto_node_kind k = n.kind()) {
            case PTO_NODE_VAR:
            case PTO_NODE_ITER_ARG:
            case PTO_NODE_MEM_REF: return mutateVar(Var(host_, n.handle()));
            case PTO_NODE_CALL:
            case PTO_NODE_SUBMIT: return mutateCall(Call(host_, n.handle()));
            case PTO_NODE_ASSIGN_STMT: return mutateAssign(Stmt(host_, n.handle()));
            case PTO_NODE_EVAL_STMT: return mutateEval(Stmt(host_, n.handle()));
            case PTO_NODE_SEQ_STMTS: return mutateSeq(Stmt(host_, n.handle()));
            case PTO_NODE_IF_STMT: return mutateIf(Stmt(host_, n.handle()));
            case PTO_NODE_FOR_STMT: return mutateFor(Stmt(host_, n.handle()));
            case PTO_NODE_WHILE_STMT: return mutateWhile(Stmt(host_, n.handle()));
            default:
                if (pto_node_kind_is_expr(k)) return mutateExpr(Expr(host_, n.handle()));
                if (pto_node_kind_is_stmt(k)) return mutateStmt(Stmt(host_, n.handle()));
                return rebuild(n);
        }
    }

    /// Mutates `f`'s body; true if it changed.
    bool run(Function f) {
        const Stmt body = f.body();
        const Node result = mutate(body);
        if (result == body) return false;
        host_.replaceChild(f.handle(), PTO_FIELD_BODY, 0, result.handle());
        return true;
    }

protected:
    const Host& host() const { return host_; }

    virtual Node mutateExpr(Expr e) { return rebuild(e); }
    virtual Node mutateStmt(Stmt s) { return rebuild(s); }
    virtual Node mutateVar(Var v) { return v; }  // a variable is a leaf: its uses stay the same node
    virtual Node mutateCall(Call c) { return mutateExpr(c); }
    virtual Node mutateAssign(Stmt s) { return mutateStmt(s); }
    virtual Node mutateEval(Stmt s) { return mutateStmt(s); }
    virtual Node mutateSeq(Stmt s) { return mutateStmt(s); }
    virtual Node mutateIf(Stmt s) { return mutateStmt(s); }
    virtual Node mutateFor(Stmt s) { return mutateStmt(s); }
    virtual Node mutateWhile(Stmt s) { return mutateStmt(s); }

    /// The node's children in the program's order, each with its field and index (attrs, kwargs and
    /// types left out).
    struct Child {
        uint32_t field;
        size_t index;
        Node node;
    };
    std::vector<Child> children(Node n) const {
        struct Collect {
            pto_node root;
            std::vector<std::pair<pto_walk_position, pto_node>> found;
        } collect{n.handle(), {}};
        pto_walk_callbacks cb{sizeof cb,
                              [](pto_run_context*, pto_node c, const pto_walk_position* at, void* data) {
                                  auto* self = static_cast<Collect*>(data);
                                  if (pto_node_equal(c, self->root)) return PTO_WALK_ADVANCE;
                                  self->found.emplace_back(*at, c);
                                  return PTO_WALK_SKIP_CHILDREN;
                              },
                              nullptr, &collect, 0};
        Host::check("walk", host_.api()->walk(host_.ctx(), n.handle(), &cb));
        std::vector<Child> out;
        for (const auto& [at, c] : collect.found)
            if (at.field != PTO_FIELD_ATTRS && at.field != PTO_FIELD_KWARGS && at.field != PTO_FIELD_TYPE)
                out.push_back({at.field, at.index, Node(host_, c)});
        return out;
    }

    /// `n` with every child mutated: `n` itself if none changed, else a copy holding the new children.
    Node rebuild(Node n) {
        Node copy;
        for (const Child& c : children(n)) {
            const Node result = mutate(c.node);
            if (result == c.node) continue;
            if (!copy) copy = Node(host_, host_.clone(n.handle()));
            host_.replaceChild(copy.handle(), c.field, c.index, result.handle());
        }
        return copy ? copy : n;
    }

private:
    const Host& host_;
};

}  // namespace ptoplug::plugin
