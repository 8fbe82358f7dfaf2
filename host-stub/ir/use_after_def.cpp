#include "ir/use_after_def.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ptoplug::ir {
namespace {

// One function's walk, in the order of pypto's IRVisitor (its header, then its body; an assignment's value
// before its variable). The variables in scope are marks by node index with an undo log, so that leaving
// a scope is undoing what it bound. A use is the occurrence of a Var or IterArg where pypto's visitor
// reaches one as an expression: binding places (an assignment's var, a loop's loop_var, iter_args and
// return_vars, a function's params) are not uses.
class ScopeWalk {
public:
    /// The marks of one document, shared by the walks of its functions (a node may be shared by two).
    struct Marks {
        std::vector<uint8_t> bound;       ///< by node index: in scope now
        std::vector<uint32_t> checkedAt;  ///< by node index: the scope version its last check ran under
        uint32_t version = 1;             ///< changes whenever the variables in scope do
    };

    ScopeWalk(ScopeRule rule, bool iterArgCopiesBound, Marks& marks, ScopeCheck& found)
        : rule_(rule),
          copiesBound_(iterArgCopiesBound),
          found_(found),
          bound_(marks.bound),
          checkedAt_(marks.checkedAt),
          version_(marks.version) {}

    void function(const Node& fn) {
        const Value* name = fn.field(K::name);
        function_ = name && name->kind == Kind::Str ? name->strView() : std::string_view();
        const std::span<const Value> params = itemsOf(fn.field(K::params));
        for (const Value& p : params)
            if (p.isNode()) define(p.n);
        // Shape variables of the signature are bound where the parameters are.
        for (const Value& p : params)
            if (p.isNode()) bindTypeVars(p.n->field(K::type));
        for (const Value& t : itemsOf(fn.field(K::return_types))) bindTypeVars(&t);
        // Function attrs are evaluated where the parameters bind.
        attrs(fn.field(K::attrs));
        stmt(fn.field(K::body));
        undo(0);
    }

private:
    bool failed() const { return found_.broken.has_value(); }

    void define(const Node* var) {
        if (bound_[var->index]) return;
        bound_[var->index] = 1;
        log_.push_back(var->index);
        ++version_;
    }
    void forget(const Node* var) {
        bound_[var->index] = 0;
        ++version_;
    }
    size_t mark() const { return log_.size(); }
    void undo(size_t to) {
        while (log_.size() > to) {
            bound_[log_.back()] = 0;
            log_.pop_back();
        }
        ++version_;
    }

    void use(const Value& slot) {
        const Node* var = slot.n;
        if (bound_[var->index]) return typeExprs(var->field(K::type));
        std::string name;
        if (const Value* hint = var->field(K::name_hint); hint && hint->kind == Kind::Str) name = hint->strView();
        const bool copy = copiesBound_ && var->type == K::IterArg && iterArgOfNameBound(name);
        if (copy && found_.copyUses++ > 0) return typeExprs(var->field(K::type));
        std::string message =
            rule_ == ScopeRule::SsaScopes && everBound(var)
                ? "Variable '" + name + "' used outside its defining scope (in function '" + std::string(function_) +
                      "')"
                : "Variable '" + name + "' used before definition in function '" + std::string(function_) + "'";
        RuleBreak found{&slot, std::move(message),
                        "bind every variable before its uses and in a scope that holds them: an assignment before "
                        "the statement that reads it, a loop's variables inside the loop, a branch's or loop's "
                        "results through its return_vars",
                        false};
        if (!copy) {
            found_.broken = std::move(found);
            return;
        }
        found_.firstCopy = std::move(found);
        typeExprs(var->field(K::type));
    }
    bool iterArgOfNameBound(std::string_view name) const {
        for (uint32_t index : log_) {
            auto named = iterArgNames_.find(index);
            if (bound_[index] && named != iterArgNames_.end() && named->second == name) return true;
        }
        return false;
    }
    // Only for the message: whether the variable was bound somewhere in this function's walk so far.
    bool everBound(const Node* var) const {
        for (uint32_t index : everLog_)
            if (index == var->index) return true;
        return false;
    }

    // The expressions inside a type that name variables (ir::forEachTypeExprField). A variable's own type
    // is read where the variable is used.
    void typeExprs(const Value* type) {
        if (failed() || inType_) return;
        inType_ = true;
        forEachTypeExprField(type, [&](const Value* field) {
            if (field->kind == Kind::Array)
                exprList(field);
            else
                expr(field);
        });
        inType_ = false;
    }
    // The variables a type names, bound (a signature's shape variables; in SSA form, an assigned one's).
    void bindTypeVars(const Value* type) {
        forEachTypeExprField(type, [&](const Value* field) {
            forEachNodeSlot(*field, [&](const Value& n) {
                if (n.n->type == K::Var || n.n->type == K::IterArg) define(n.n);
            });
        });
    }

    // Attr values hold nodes as tagged maps (Var, VarList, Expr): every node in them is an expression.
    void attrs(const Value* list) {
        for (const Value& entry : itemsOf(list))
            if (entry.kind == Kind::Map)
                if (const Value* v = entry.m->find(K::value)) forEachNodeSlot(*v, [&](const Value& n) { expr(&n); });
    }
    void exprList(const Value* list) {
        for (const Value& e : itemsOf(list)) expr(&e);
    }
    void expr(const Value* slot) {
        if (!slot || !slot->isNode() || failed()) return;
        const Node& e = *slot->n;
        if (e.type == K::Var || e.type == K::IterArg) return use(*slot);
        // Within one statement nothing is bound: a node met again under the same scope was checked.
        if (checkedAt_[e.index] == version_) return;
        checkedAt_[e.index] = version_;
        switch (e.type) {
            case K::Call: exprList(e.field(K::args)); return attrs(e.field(K::attrs));
            case K::Submit:
                exprList(e.field(K::args));
                exprList(e.field(K::deps));
                expr(e.field(K::core_num));
                expr(e.field(K::predicate));
                return attrs(e.field(K::attrs));
            case K::MakeTuple: return exprList(e.field(K::elements));
            case K::TupleGetItemExpr: return expr(e.field(K::tuple));
            default:
                if (isBinaryOpType(e.type)) {
                    expr(e.field(K::left));
                    return expr(e.field(K::right));
                }
                if (isUnaryOpType(e.type)) return expr(e.field(K::operand));
                return;  // constants, MemRef, WindowBuffer and unknown nodes hold no use pypto's walk sees
        }
    }

    void bind(const Value* slot) {
        if (!slot || !slot->isNode()) return;
        define(slot->n);
        everLog_.push_back(slot->n->index);
        if (slot->n->type != K::IterArg || !copiesBound_) return;
        if (const Value* hint = slot->n->field(K::name_hint); hint && hint->kind == Kind::Str)
            iterArgNames_[slot->n->index] = hint->strView();
    }
    void bindList(const Value* list) {
        for (const Value& v : itemsOf(list)) bind(&v);
    }
    void forgetList(const Value* list) {
        for (const Value& v : itemsOf(list))
            if (v.isNode()) forget(v.n);
    }
    static bool hasItems(const Value* list) { return !itemsOf(list).empty(); }
    void inits(const Value* iterArgs) {
        for (const Value& a : itemsOf(iterArgs))
            if (a.isNode()) expr(a.n->field(K::initValue));
    }
    void stmtList(const Value* list) {
        for (const Value& s : itemsOf(list)) stmt(&s);
    }

    void stmt(const Value* slot) {
        if (!slot || !slot->isNode() || failed()) return;
        const Node& s = *slot->n;
        const bool ssa = rule_ == ScopeRule::SsaScopes;
        switch (s.type) {
            case K::SeqStmts: return stmtList(s.field(K::stmts));
            case K::AssignStmt:
                expr(s.field(K::value));
                bind(s.field(K::var));
                if (ssa)
                    if (const Value* v = s.field(K::var); v && v->isNode()) bindTypeVars(v->n->field(K::type));
                return;
            case K::EvalStmt: return expr(s.field(K::expr));
            case K::ReturnStmt:
            case K::YieldStmt: return exprList(s.field(K::value));
            case K::IfStmt: {
                expr(s.field(K::condition));
                const size_t before = mark();
                stmt(s.field(K::then_body));
                const std::vector<uint32_t> thenBound(log_.begin() + static_cast<long>(before), log_.end());
                undo(before);
                stmt(s.field(K::else_body));
                const Value* results = s.field(K::return_vars);
                if (ssa || hasItems(results)) {
                    undo(before);
                } else {
                    // Before SSA, what either branch binds is visible after the if.
                    for (uint32_t index : thenBound) bound_[index] = 1, log_.push_back(index);
                    ++version_;
                }
                return bindList(results);
            }
            case K::ForStmt:
            case K::WhileStmt: {
                const bool isFor = s.type == K::ForStmt;
                if (isFor) {
                    expr(s.field(K::start));
                    expr(s.field(K::stop));
                    expr(s.field(K::step));
                }
                inits(s.field(K::iter_args));
                const size_t before = mark();
                if (isFor) bind(s.field(K::loop_var));
                bindList(s.field(K::iter_args));
                if (!isFor) expr(s.field(K::condition));
                stmt(s.field(K::body));
                const Value* results = s.field(K::return_vars);
                if (ssa || hasItems(results)) {
                    undo(before);
                } else {
                    // Before SSA, the body's bindings stay visible after the loop; its variables do not.
                    if (const Value* v = s.field(K::loop_var); isFor && v->isNode()) forget(v->n);
                    forgetList(s.field(K::iter_args));
                }
                return bindList(results);
            }
            case K::InCoreScopeStmt:
            case K::HierarchyScopeStmt:
            case K::SplitAivScopeStmt: attrs(s.field(K::attrs)); return stmt(s.field(K::body));
            case K::SpmdScopeStmt:
                expr(s.field(K::core_num));
                attrs(s.field(K::attrs));
                return stmt(s.field(K::body));
            case K::CommDomainScopeStmt: attrs(s.field(K::attrs)); return stmt(s.field(K::body));
            case K::ClusterScopeStmt:
            case K::RuntimeScopeStmt: return stmt(s.field(K::body));
            default: return;  // break, continue, inline code and unknown statements bind and use nothing
        }
    }

    ScopeRule rule_;
    bool copiesBound_;
    ScopeCheck& found_;
    std::vector<uint8_t>& bound_;
    std::vector<uint32_t>& checkedAt_;
    uint32_t& version_;
    std::vector<uint32_t> log_;      ///< what was bound, in order: leaving a scope unbinds back to a mark
    std::vector<uint32_t> everLog_;  ///< everything bound in this function (only to word an error)
    bool inType_ = false;
    std::string_view function_;
    std::unordered_map<uint32_t, std::string_view> iterArgNames_;  ///< of the IterArgs bound (for copies)
};

}  // namespace

ScopeCheck checkUseAfterDef(const Document& doc, ScopeRule rule, bool iterArgCopiesBound) {
    ScopeCheck found;
    const Value& root = doc.root();
    if (!root.isNode() || root.n->type != K::Program) return found;
    const Value* functions = root.n->field(K::functions);
    ScopeWalk::Marks marks{std::vector<uint8_t>(doc.nodes().size()), std::vector<uint32_t>(doc.nodes().size())};
    for (const Value& entry : itemsOf(functions)) {
        const Value* fn = entry.kind == Kind::Map ? entry.m->find(K::value) : nullptr;
        if (!fn || !fn->isNode()) continue;
        ScopeWalk(rule, iterArgCopiesBound, marks, found).function(*fn->n);
        if (found.broken) break;
    }
    return found;
}

}  // namespace ptoplug::ir
