// RemoveDeadAssignments: removes `x = value` when x is never used in its function and evaluating value
// has no effect: value is built only of variables, constants, arithmetic and tuples (no Call or Submit,
// no node type this ABI version does not name). Removing one can make another dead, so it repeats until
// nothing changes; the host's var_uses (ABI 1.2) counts uses everywhere a variable can occur (types,
// attrs and kwargs included).
#include <vector>

#include <ptoplug/sdk.hpp>

namespace {

using namespace ptoplug::plugin;

constexpr char kPass[] = "RemoveDeadAssignments";

struct Assignment {
    Var var;
    Expr value;
    pto_walk_position at;
};

// Every assignment of a function.
struct Assignments : Visitor {
    using Visitor::Visitor;
    std::vector<Assignment> found;

    Next visitAssign(Stmt s) override {
        found.push_back({s.child(PTO_FIELD_VAR).as<Var>(), s.child(PTO_FIELD_VALUE).as<Expr>(), position()});
        return Next::Descend;
    }
};

// Whether evaluating an expression can have an effect.
struct EffectSearch : Visitor {
    explicit EffectSearch(const Host& h) : Visitor(h, PTO_WALK_INTO_TYPES) {}
    bool effect = false;
    Next visitExpr(Expr e) override {
        switch (e.kind()) {
            case PTO_NODE_VAR:
            case PTO_NODE_ITER_ARG:
            case PTO_NODE_CONST_INT:
            case PTO_NODE_CONST_FLOAT:
            case PTO_NODE_CONST_BOOL:
            case PTO_NODE_BINARY:
            case PTO_NODE_UNARY:
            case PTO_NODE_MAKE_TUPLE:
            case PTO_NODE_TUPLE_GET_ITEM: return Next::Descend;
            default: effect = true; return Next::Stop;
        }
    }
    Next visitVar(Var v) override { return visitExpr(v); }
    Next visitCall(Call c) override { return visitExpr(c); }
    Next visitOther(Node) override {
        effect = true;
        return Next::Stop;
    }
};

bool pure(const Host& h, Expr value) {
    EffectSearch search(h);
    search.visit(value);
    return !search.effect;
}

void removeDeadAssignments(const Host& h) {
    for (const Function& fn : functions(h)) {
        for (bool removed = true; removed;) {
            Assignments scan(h);
            scan.visit(fn);
            removed = false;
            for (const Assignment& a : scan.found) {
                if (!a.var.uses(fn).empty() || !pure(h, a.value)) continue;
                Host::check("remove_stmt", h.api()->remove_stmt(h.ctx(), a.at.parent, a.at.field, a.at.index));
                removed = true;
            }
            if (removed) Host::check("flush_inserts", h.api()->flush_inserts(h.ctx()));
        }
    }
}

constexpr Plugin kPlugin({.name = "remove-dead-assignments", .version = "1.1.0", .abiMinorMin = 2},  // 1.2: var_uses
                         {{.name = kPass,
                           .description = "Removes assignments to unused variables whose value has no effect",
                           .run = guardedRun<kPass, removeDeadAssignments>}});

}  // namespace

PTOPLUG_PLUGIN_ENTRY(kPlugin)
