// Visitor: a read-only traversal to derive from, in the manner of pypto's IRVisitor (part of
// <ptoplug/sdk.hpp>). visit(root) walks root and everything below it in the program's order through the
// host's walk; each node goes to the hook of its kind (visitVar, visitCall, visitAssign, visitFor, ...),
// which by default goes to visitExpr or visitStmt, which by default descend. A hook says what comes
// next: descend into the node's children, skip them, or stop the walk. leave(node) runs after a node's
// children. Hooks may throw (PassError, a failed host call): the exception is held while the host's walk
// unwinds and thrown again from visit(), so it never crosses the C ABI.
#pragma once

#include <exception>

#include "ptoplug/abi.h"
#include "ptoplug/sdk/host.hpp"
#include "ptoplug/sdk/ir.hpp"

namespace ptoplug::plugin {

enum class Next { Descend, Skip, Stop };

class Visitor {
public:
    /// `flags`: PTO_WALK_INTO_TYPES and PTO_WALK_INTO_KWARGS enter shape dimensions and kwargs too.
    explicit Visitor(const Host& host, uint32_t flags = 0) : host_(host), flags_(flags) {}
    virtual ~Visitor() = default;

    void visit(Node root) {
        pto_walk_callbacks cb{sizeof cb, &Visitor::pre, &Visitor::post, this, flags_};
        Host::check("walk", host_.api()->walk(host_.ctx(), root.handle(), &cb));
        if (pending_) std::rethrow_exception(std::exchange(pending_, nullptr));
    }
    void visit(const std::vector<Function>& functions) {
        for (const Function& f : functions) visit(f);
    }

protected:
    const Host& host() const { return host_; }
    /// Where the node being visited sits: its parent, the parent's field and the index in it.
    const pto_walk_position& position() const { return *position_; }

    virtual Next visitExpr(Expr) { return Next::Descend; }
    virtual Next visitStmt(Stmt) { return Next::Descend; }
    virtual Next visitFunction(Function) { return Next::Descend; }
    virtual Next visitOther(Node) { return Next::Descend; }
    virtual Next visitVar(Var v) { return visitExpr(v); }
    virtual Next visitCall(Call c) { return visitExpr(c); }
    virtual Next visitAssign(Stmt s) { return visitStmt(s); }
    virtual Next visitEval(Stmt s) { return visitStmt(s); }
    virtual Next visitSeq(Stmt s) { return visitStmt(s); }
    virtual Next visitIf(Stmt s) { return visitStmt(s); }
    virtual Next visitFor(Stmt s) { return visitStmt(s); }
    virtual Next visitWhile(Stmt s) { return visitStmt(s); }
    virtual Next visitReturn(Stmt s) { return visitStmt(s); }
    virtual Next visitYield(Stmt s) { return visitStmt(s); }
    virtual void leave(Node) {}

private:
    Next dispatch(Node n) {
        switch (const pto_node_kind k = n.kind()) {
            case PTO_NODE_VAR:
            case PTO_NODE_ITER_ARG:
            case PTO_NODE_MEM_REF: return visitVar(Var(host_, n.handle()));
            case PTO_NODE_CALL:
            case PTO_NODE_SUBMIT: return visitCall(Call(host_, n.handle()));
            case PTO_NODE_ASSIGN_STMT: return visitAssign(Stmt(host_, n.handle()));
            case PTO_NODE_EVAL_STMT: return visitEval(Stmt(host_, n.handle()));
            case PTO_NODE_SEQ_STMTS: return visitSeq(Stmt(host_, n.handle()));
            case PTO_NODE_IF_STMT: return visitIf(Stmt(host_, n.handle()));
            case PTO_NODE_FOR_STMT: return visitFor(Stmt(host_, n.handle()));
            case PTO_NODE_WHILE_STMT: return visitWhile(Stmt(host_, n.handle()));
            case PTO_NODE_RETURN_STMT: return visitReturn(Stmt(host_, n.handle()));
            case PTO_NODE_YIELD_STMT: return visitYield(Stmt(host_, n.handle()));
            case PTO_NODE_FUNCTION: return visitFunction(Function(host_, n.handle()));
            default:
                if (pto_node_kind_is_expr(k)) return visitExpr(Expr(host_, n.handle()));
                if (pto_node_kind_is_stmt(k)) return visitStmt(Stmt(host_, n.handle()));
                return visitOther(n);
        }
    }

    // The host's walk is C: these catch everything and stop the walk; visit() throws it again.
    template <class F>
    static pto_walk_result guarded(void* self, const pto_walk_position* at, F&& f) noexcept {
        auto* v = static_cast<Visitor*>(self);
        v->position_ = at;
        try {
            return f(*v);
        } catch (...) {
            v->pending_ = std::current_exception();
            return PTO_WALK_STOP;
        }
    }
    static pto_walk_result pre(pto_run_context*, pto_node n, const pto_walk_position* at, void* self) {
        return guarded(self, at, [n](Visitor& v) {
            switch (v.dispatch(Node(v.host_, n))) {
                case Next::Descend: return PTO_WALK_ADVANCE;
                case Next::Skip: return PTO_WALK_SKIP_CHILDREN;
                case Next::Stop: break;
            }
            return PTO_WALK_STOP;
        });
    }
    static pto_walk_result post(pto_run_context*, pto_node n, const pto_walk_position* at, void* self) {
        return guarded(self, at, [n](Visitor& v) {
            v.leave(Node(v.host_, n));
            return PTO_WALK_ADVANCE;
        });
    }

    const Host& host_;
    uint32_t flags_;
    const pto_walk_position* position_ = nullptr;
    std::exception_ptr pending_;
};

}  // namespace ptoplug::plugin
