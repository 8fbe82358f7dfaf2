// Typed handles over the host table (part of <ptoplug/sdk.hpp>), in the manner of pypto's ExprPtr,
// StmtPtr, VarPtr, CallPtr and FunctionPtr: a Node is a handle plus the Host that reads it, and each
// class checks its kind when made with as<T>() (a wrong kind is a PassError of severity internal: the
// pass assumed a shape the program does not have). Reading goes through the table on every call;
// nothing is cached, so a handle stays right after a rewrite.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ptoplug/abi.h"
#include "ptoplug/sdk/host.hpp"

namespace ptoplug::plugin {

class Node {
public:
    Node() = default;
    Node(const Host& host, pto_node node) : host_(&host), node_(node) {}

    static bool classof(pto_node_kind) { return true; }

    explicit operator bool() const { return host_ && !pto_node_is_null(node_); }
    pto_node handle() const { return node_; }
    const Host& host() const { return *host_; }
    pto_node_kind kind() const { return host_->kind(node_); }
    /// The serialized type name ("Add", "ForStmt", ...): tells apart the operators of one kind.
    std::string_view typeName() const { return host_->typeName(node_); }
    friend bool operator==(const Node& a, const Node& b) { return pto_node_equal(a.node_, b.node_); }

    template <class T>
    bool is() const {
        return *this && T::classof(kind());
    }
    /// This node as a T; throws PassError (internal) if it is not one.
    template <class T>
    T as() const {
        if (!is<T>())
            throw PassError{PTO_SEVERITY_INTERNAL_ERROR, "sdk/wrong-kind",
                            std::string("expected ") + T::kWhat + ", found " +
                                (*this ? std::string(typeName()) : std::string("nothing")),
                            node_};
        return T(*host_, node_);
    }

    /// The single node of `field`, or a null Node if absent or nil.
    Node child(uint32_t field) const { return {*host_, host_->optChild(node_, field)}; }
    template <class T>
    std::vector<T> list(uint32_t field) const {
        std::vector<T> out;
        for (pto_node n : host_->children(node_, field)) out.push_back(Node(*host_, n).as<T>());
        return out;
    }

protected:
    const Host* host_ = nullptr;
    pto_node node_{};
};

class Expr : public Node {
public:
    static constexpr const char* kWhat = "an expression";
    using Node::Node;
    static bool classof(pto_node_kind k) { return pto_node_kind_is_expr(k); }
    pto_type_kind typeKind() const { return host_->typeKind(node_); }
    pto_value type() const { return host_->field(node_, PTO_FIELD_TYPE); }
};

/// Var, IterArg or MemRef: what statements bind and expressions use.
class Var : public Expr {
public:
    static constexpr const char* kWhat = "a variable";
    using Expr::Expr;
    static bool classof(pto_node_kind k) {
        return k == PTO_NODE_VAR || k == PTO_NODE_ITER_ARG || k == PTO_NODE_MEM_REF;
    }
    std::string_view name() const { return host_->name(node_); }
    /// [1.2] Where this variable is used at and below `root` (usually its Function), binding places left
    /// out, uses in types, attrs and kwargs counted: pypto's use-def chains over the host's walk.
    std::vector<pto_walk_position> uses(const Node& root) const { return host_->varUses(root.handle(), node_); }
    /// [1.2] Where it is bound at or below `root` (a param, an assignment, a loop), or nothing.
    std::optional<pto_walk_position> definition(const Node& root) const {
        return host_->varDefinition(root.handle(), node_);
    }
};

/// Call or Submit.
class Call : public Expr {
public:
    static constexpr const char* kWhat = "a call";
    using Expr::Expr;
    static bool classof(pto_node_kind k) { return k == PTO_NODE_CALL || k == PTO_NODE_SUBMIT; }
    std::string_view op() const { return host_->callOp(node_).first; }
    bool callsFunction() const { return host_->callOp(node_).second; }
    std::vector<Expr> args() const { return list<Expr>(PTO_FIELD_ARGS); }
};

class Stmt : public Node {
public:
    static constexpr const char* kWhat = "a statement";
    using Node::Node;
    static bool classof(pto_node_kind k) { return pto_node_kind_is_stmt(k); }
};

/// A statement list (pypto's SeqStmts).
class SeqStmts : public Stmt {
public:
    static constexpr const char* kWhat = "a statement list";
    using Stmt::Stmt;
    static bool classof(pto_node_kind k) { return k == PTO_NODE_SEQ_STMTS; }
    std::vector<Stmt> stmts() const { return list<Stmt>(PTO_FIELD_STMTS); }
    /// [1.2] Appends `stmts` at the end, also to an empty list; deferred like every statement insertion
    /// (applied when the pass returns or at flush_inserts).
    void append(std::span<const Stmt> stmts) const {
        std::vector<pto_node> handles;
        for (const Stmt& s : stmts) handles.push_back(s.handle());
        host_->appendStmts(node_, handles);
    }
};

class Function : public Node {
public:
    static constexpr const char* kWhat = "a function";
    using Node::Node;
    static bool classof(pto_node_kind k) { return k == PTO_NODE_FUNCTION; }
    std::string_view name() const { return host_->name(node_); }
    std::vector<Var> params() const { return list<Var>(PTO_FIELD_PARAMS); }
    Stmt body() const { return child(PTO_FIELD_BODY).as<Stmt>(); }
    pto_function_info info() const { return host_->functionInfo(node_); }
};

/// The program's functions, in program order (by name).
inline std::vector<Function> functions(const Host& h) {
    std::vector<Function> out;
    for (size_t i = 0; i < h.functionCount(); ++i) out.push_back(Node(h, h.functionAt(i)).as<Function>());
    return out;
}

}  // namespace ptoplug::plugin
