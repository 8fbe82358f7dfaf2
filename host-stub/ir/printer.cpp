#include "ir/printer.h"

#include <charconv>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "base/printable.h"
#include "ir/enum_names.h"
#include "ir/number_format.h"

namespace ptoplug::ir {
namespace {

const char* binaryOperator(uint32_t type) {
    switch (type) {
        case K::Add: return "+";
        case K::Sub: return "-";
        case K::Mul: return "*";
        case K::FloorDiv: return "//";
        case K::FloorMod: return "%";
        case K::FloatDiv: return "/";
        case K::Pow: return "**";
        case K::Eq: return "==";
        case K::Ne: return "!=";
        case K::Lt: return "<";
        case K::Le: return "<=";
        case K::Gt: return ">";
        case K::Ge: return ">=";
        case K::And: return "and";
        case K::Or: return "or";
        case K::Xor: return "^";
        case K::BitAnd: return "&";
        case K::BitOr: return "|";
        case K::BitXor: return "^";
        case K::BitShiftLeft: return "<<";
        case K::BitShiftRight: return ">>";
        default: return nullptr;
    }
}

class Printer {
public:
    explicit Printer(const Document& doc) : doc_(doc) {}

    std::string run() {
        const Value& root = doc_.root();
        if (root.isNode() && root.n->type == K::Program)
            program(*root.n);
        else
            line(0, expr(root));
        return std::move(out_);
    }

private:
    // --- small helpers ----------------------------------------------------------------------------
    const Value* field(const Node& n, uint32_t key) const { return n.field(key); }
    std::string_view str(const Node& n, uint32_t key) const {
        const Value* v = n.field(key);
        return v && v->kind == Kind::Str ? v->strView() : std::string_view();
    }
    static const Value* uintField(const Node& n, uint32_t key) {
        const Value* v = n.field(key);
        return v && v->kind == Kind::UInt ? v : nullptr;
    }
    std::string typeName(const Node& n) const { return std::string(doc_.keys().name(n.type)); }

    // One line whatever the program's strings hold (a name, a comment): what a terminal would act on is shown
    // escaped (base/printable.h), as the printed program goes to stderr with --print-ir-*.
    void line(int indent, const std::string& text) {
        out_.append(static_cast<size_t>(indent) * 4, ' ');
        out_ += printable(text);
        out_ += '\n';
    }

    template <class F>
    std::string joined(const Value* list, F&& render, const char* sep = ", ") const {
        std::string s;
        if (!list || list->kind != Kind::Array) return s;
        for (uint32_t i = 0; i < list->a->size; ++i) {
            if (i) s += sep;
            s += render(list->a->items[i]);
        }
        return s;
    }

    static std::string number(const Value& v) {
        std::string s;
        switch (v.kind) {
            case Kind::UInt: return std::to_string(v.u);
            case Kind::Int: return std::to_string(v.i);
            case Kind::F64:
            case Kind::F32: {
                double d = v.kind == Kind::F64 ? v.d : static_cast<double>(v.f);
                if (std::isnan(d)) return "nan";
                if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
                if (v.kind == Kind::F64)
                    appendCanonicalDouble(s, d);
                else
                    appendCanonicalFloat(s, v.f);
                return s;
            }
            default: return "?";
        }
    }

    static std::string quoted(std::string_view s) {
        std::string q = "'";
        for (char c : s) {
            if (c == '\'' || c == '\\') q += '\\';
            q += c;
        }
        return q + "'";
    }

    // --- types --------------------------------------------------------------------------------------
    std::string dtype(const Value* v) const {
        if (!v || v->kind != Kind::UInt) return "?";
        const char* n = dtypeName(v->u);
        return n ? std::string("pl.") + n : "pl.DataType(" + std::to_string(v->u) + ")";
    }

    std::string shape(const Value* v) const {
        return "[" + joined(v, [&](const Value& d) { return expr(d); }) + "]";
    }

    std::string type(const Value& t) const {
        if (t.kind != Kind::Map) return "?";
        const Value* kind = t.m->find(K::type_kind);
        std::string_view k = kind && kind->kind == Kind::Str ? kind->strView() : std::string_view("?");
        if (k == "ScalarType") return "pl.Scalar[" + dtype(t.m->find(K::dtype)) + "]";
        if (k == "TensorType" || k == "DistributedTensorType" || k == "TileType") {
            std::string s = k == "TensorType" ? "pl.Tensor[" : k == "TileType" ? "pl.Tile[" : "pld.DistributedTensor[";
            s += shape(t.m->find(K::shape)) + ", " + dtype(t.m->find(K::dtype));
            if (const Value* view = t.m->find(K::tensor_view); view && view->kind == Kind::Map)
                s += ", " + tensorView(*view->m);
            return s + "]";
        }
        if (k == "ArrayType") return "pl.Array[" + shape(t.m->find(K::shape)) + ", " + dtype(t.m->find(K::dtype)) + "]";
        if (k == "TupleType")
            return "pl.Tuple[" + joined(t.m->find(K::types), [&](const Value& e) { return type(e); }) + "]";
        if (k == "CommCtxType") return "pld.CommCtxType";
        if (k == "Ptr") return "pl.Ptr";
        return "pl." + std::string(k);
    }

    std::string tensorView(const Map& view) const {
        std::string s = "pl.TensorView(";
        bool first = true;
        auto part = [&](const std::string& text) {
            if (!first) s += ", ";
            s += text;
            first = false;
        };
        if (const Value* stride = view.find(K::stride); stride && stride->kind == Kind::Array && stride->a->size)
            part("stride=" + shape(stride));
        if (const Value* valid = view.find(K::valid_shape); valid && valid->kind == Kind::Array && valid->a->size)
            part("valid_shape=" + shape(valid));
        if (const Value* layout = view.find(K::layout); layout && layout->kind == Kind::Str)
            part("layout=pl.TensorLayout." + std::string(layout->strView()));
        return s + ")";
    }

    // --- expressions ---------------------------------------------------------------------------------
    std::string expr(const Value& v) const {
        if (!v.isNode()) return v.kind == Kind::Null ? "None" : value(v);
        const Node& n = *v.n;
        switch (n.type) {
            case K::Var:
            case K::IterArg:
            case K::MemRef: return varName(n);
            case K::WindowBuffer: {
                // A window buffer is named after (and printed as) its base allocation.
                const Value* base = field(n, K::base);
                return base && base->isNode() ? expr(*base) : varName(n);
            }
            case K::ConstInt: {
                const Value* val = field(n, K::value);
                const Value* t = field(n, K::type);
                const Value* dt = t && t->kind == Kind::Map ? t->m->find(K::dtype) : nullptr;
                std::string text = val ? number(*val) : "?";
                if (dt && dt->kind == Kind::UInt && dt->u == 21) return text;
                return "pl.const(" + text + ", " + dtype(dt) + ")";
            }
            case K::ConstFloat: {
                // pypto packs integral doubles as integers; the constant is still a float.
                const Value* val = field(n, K::value);
                if (val && val->kind == Kind::UInt) return number(Value::f64(static_cast<double>(val->u)));
                if (val && val->kind == Kind::Int) return number(Value::f64(static_cast<double>(val->i)));
                return val ? number(*val) : "?";
            }
            case K::ConstBool: {
                const Value* val = field(n, K::value);
                return val && val->kind == Kind::Bool && val->b ? "True" : "False";
            }
            case K::Call:
            case K::Submit: return call(n);
            case K::MakeTuple:
                return "[" + joined(field(n, K::elements), [&](const Value& e) { return expr(e); }) + "]";
            case K::TupleGetItemExpr: {
                const Value* t = field(n, K::tuple);
                const Value* i = field(n, K::index);
                return (t ? expr(*t) : "?") + "[" + (i ? number(*i) : "?") + "]";
            }
            default: break;
        }
        if (isBinaryOpType(n.type)) {
            const Value* l = field(n, K::left);
            const Value* r = field(n, K::right);
            std::string ls = l ? operand(*l) : "?";
            std::string rs = r ? operand(*r) : "?";
            if (const char* op = binaryOperator(n.type)) return ls + " " + op + " " + rs;
            return std::string(n.type == K::Min ? "pl.min(" : "pl.max(") + ls + ", " + rs + ")";
        }
        if (isUnaryOpType(n.type)) {
            const Value* o = field(n, K::operand);
            std::string os = o ? operand(*o) : "?";
            switch (n.type) {
                case K::Neg: return "-" + os;
                case K::Not: return "not " + os;
                case K::BitNot: return "~" + os;
                case K::Abs: return "abs(" + os + ")";
                default: {
                    const Value* t = field(n, K::type);
                    return "pl.cast(" + os + ", " + (t ? type(*t) : "?") + ")";
                }
            }
        }
        return "<" + typeName(n) + ">";
    }

    // Distinct variables may share a name_hint; each gets its own printed name within a function
    // (the first keeps the hint, later ones get _1, _2, ...), so the text never conflates them.
    std::string varName(const Node& n) const {
        auto it = printedNames_.find(&n);
        if (it != printedNames_.end()) return it->second;
        std::string base(str(n, K::name_hint));
        std::string name = base;
        for (int k = 1; usedNames_.count(name); ++k) name = base + "_" + std::to_string(k);
        usedNames_.insert(name);
        printedNames_.emplace(&n, name);
        return name;
    }

    std::string operand(const Value& v) const {
        bool compound = v.isNode() && (isBinaryOpType(v.n->type) && v.n->type != K::Min && v.n->type != K::Max);
        return compound ? "(" + expr(v) + ")" : expr(v);
    }

    // A kwarg or attr value.
    std::string value(const Value& v) const {
        switch (v.kind) {
            case Kind::Null: return "None";
            case Kind::Bool: return v.b ? "True" : "False";
            case Kind::UInt:
            case Kind::Int:
            case Kind::F64:
            case Kind::F32: return number(v);
            case Kind::Str: return quoted(v.strView());
            case Kind::Array: return "[" + joined(&v, [&](const Value& e) { return value(e); }) + "]";
            case Kind::Node:
            case Kind::Ref: return expr(v);
            case Kind::Map: return taggedValue(*v.m);
            case Kind::Span: return "<span>";
            case Kind::RefId: return "?";
        }
        return "?";
    }

    std::string taggedValue(const Map& m) const {
        const Value* tag = m.find(K::type);
        const Value* payload = m.find(K::value);
        std::string_view t = tag && tag->kind == Kind::Str ? tag->strView() : std::string_view();
        if (t == "DataType") return dtype(m.find(K::code));
        if (t == "ArgDirectionVector" && payload) {
            return "[" +
                   joined(payload,
                          [&](const Value& c) {
                              const char* n = c.kind == Kind::UInt ? argDirectionName(c.u) : nullptr;
                              return n ? std::string("pl.adir.") + n : number(c);
                          }) +
                   "]";
        }
        if (t == "ArgDirection" && payload && payload->kind == Kind::UInt) {
            const char* n = argDirectionName(payload->u);
            return n ? std::string("pl.adir.") + n : number(*payload);
        }
        if ((t == "MemorySpace" || t == "TensorLayout" || t == "TileLayout" || t == "PadValue") && payload &&
            payload->kind == Kind::Str)
            return "pl." + std::string(t) + "." + std::string(payload->strView());
        if (payload) return value(*payload);
        return "{...}";
    }

    std::string call(const Node& n) const {
        const Value* op = field(n, K::op);
        const Value* name = op && op->kind == Kind::Map ? op->m->find(K::name) : nullptr;
        const Value* global = op && op->kind == Kind::Map ? op->m->find(K::is_global_var) : nullptr;
        std::string callee = name && name->kind == Kind::Str ? std::string(name->strView()) : "?";
        if (global && global->kind == Kind::Bool && global->b)
            callee = "self." + callee;
        else if (callee.rfind("tensor.", 0) == 0 || callee.rfind("tile.", 0) == 0 || callee.rfind("test.", 0) == 0)
            callee = "pl." + callee;
        else if (callee.rfind("pld.", 0) != 0)
            callee = "pl." + callee;

        std::string args = joined(field(n, K::args), [&](const Value& a) { return expr(a); });
        auto add = [&](const std::string& part) {
            if (!args.empty()) args += ", ";
            args += part;
        };
        if (const Value* kwargs = field(n, K::kwargs); kwargs && kwargs->kind == Kind::Array) {
            for (const Value& kw : *kwargs->a) {
                if (kw.kind != Kind::Map) continue;
                const Value* k = kw.m->find(K::key);
                const Value* v = kw.m->find(K::value);
                if (k && v && k->kind == Kind::Str) add(std::string(k->strView()) + "=" + value(*v));
            }
        }
        std::string attrs;
        if (const Value* list = field(n, K::attrs); list && list->kind == Kind::Array) {
            for (const Value& a : *list->a) {
                if (a.kind != Kind::Map) continue;
                const Value* k = a.m->find(K::key);
                const Value* v = a.m->find(K::value);
                if (!k || !v || k->kind != Kind::Str) continue;
                if (k->strView() == "device") {
                    add("device=" + value(*v));
                    continue;
                }
                if (!attrs.empty()) attrs += ", ";
                attrs += "\"" + std::string(k->strView()) + "\": " + value(*v);
            }
        }
        if (!attrs.empty()) add("attrs={" + attrs + "}");
        if (n.type == K::Submit) return "pl.submit(" + callee + (args.empty() ? "" : ", " + args) + ")";
        return callee + "(" + args + ")";
    }

    // --- statements ----------------------------------------------------------------------------------
    void comments(const Node& n, int indent) {
        const Value* c = field(n, K::leading_comments);
        if (!c || c->kind != Kind::Array) return;
        for (const Value& text : *c->a)
            if (text.kind == Kind::Str) line(indent, "# " + std::string(text.strView()));
    }

    std::string names(const Value* list) const {
        return joined(list, [&](const Value& v) { return expr(v); });
    }

    // `yieldTargets`: the return_vars of the innermost For/If/While, which a YieldStmt assigns.
    void stmt(const Value& v, int indent, const Value* yieldTargets) {
        if (!v.isNode()) return line(indent, "?");
        const Node& n = *v.n;
        comments(n, indent);
        switch (n.type) {
            case K::SeqStmts: {
                const Value* list = field(n, K::stmts);
                if (list && list->kind == Kind::Array)
                    for (const Value& s : *list->a) stmt(s, indent, yieldTargets);
                if (!list || list->kind != Kind::Array || list->a->size == 0) line(indent, "pass");  // an empty block
                return;
            }
            case K::AssignStmt: {
                const Value* var = field(n, K::var);
                const Value* value = field(n, K::value);
                const Value* t = var && var->isNode() ? var->n->field(K::type) : nullptr;
                line(indent,
                     (var ? expr(*var) : "?") + (t ? ": " + type(*t) : "") + " = " + (value ? expr(*value) : "?"));
                return;
            }
            case K::EvalStmt: {
                const Value* e = field(n, K::expr);
                return line(indent, e ? expr(*e) : "?");
            }
            case K::ReturnStmt: {
                std::string values = names(field(n, K::value));
                return line(indent, values.empty() ? "return" : "return " + values);
            }
            case K::YieldStmt: {
                std::string values = names(field(n, K::value));
                std::string targets = names(yieldTargets);
                return line(indent, (targets.empty() ? "" : targets + " = ") + "pl.yield_(" + values + ")");
            }
            case K::IfStmt: {
                const Value* cond = field(n, K::condition);
                const Value* rv = field(n, K::return_vars);
                line(indent, "if " + (cond ? expr(*cond) : "?") + ":");
                if (const Value* then = field(n, K::then_body)) stmt(*then, indent + 1, rv);
                if (const Value* otherwise = field(n, K::else_body); otherwise && otherwise->isNode()) {
                    line(indent, "else:");
                    stmt(*otherwise, indent + 1, rv);
                }
                return;
            }
            case K::ForStmt: return forStmt(n, indent);
            case K::WhileStmt: {
                const Value* cond = field(n, K::condition);
                std::string iters = names(field(n, K::iter_args));
                line(indent,
                     "while " + (cond ? expr(*cond) : "?") + ":" + (iters.empty() ? "" : "  # carries " + iters));
                if (const Value* body = field(n, K::body)) stmt(*body, indent + 1, field(n, K::return_vars));
                return;
            }
            case K::BreakStmt: return line(indent, "break");
            case K::ContinueStmt: return line(indent, "continue");
            case K::InlineStmt: return line(indent, "pl.inline(" + quoted(str(n, K::body)) + ")");
            case K::CommDomainScopeStmt: {
                const Value* devices = field(n, K::devices);
                std::string devs = devices && devices->kind == Kind::Array && devices->a->size
                                       ? "[" + joined(devices, [&](const Value& d) { return number(d); }) + "]"
                                       : "all";
                line(indent, "# pld.comm_domain: devices=" + devs + ", slots=[" +
                                 joined(field(n, K::slots), [&](const Value& s) { return expr(s); }) + "]");
                if (const Value* body = field(n, K::body)) stmt(*body, indent, yieldTargets);
                return;
            }
            default: break;
        }
        if (isScopeStmtType(n.type)) {
            std::string name = typeName(n);
            name = name.substr(0, name.size() - std::string_view("ScopeStmt").size());
            for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            line(indent, "with pl." + name + "():");
            if (const Value* body = field(n, K::body)) stmt(*body, indent + 1, yieldTargets);
            return;
        }
        line(indent, "<" + typeName(n) + ">");
    }

    void forStmt(const Node& n, int indent) {
        const Value* loopVar = field(n, K::loop_var);
        const Value* start = field(n, K::start);
        const Value* stop = field(n, K::stop);
        const Value* step = field(n, K::step);
        const Value* iterArgs = field(n, K::iter_args);
        auto isConst = [](const Value* v, uint64_t c) {
            if (!v || !v->isNode() || v->n->type != K::ConstInt) return false;
            const Value* val = v->n->field(K::value);
            return val && val->kind == Kind::UInt && val->u == c;
        };
        std::string range;
        if (!isConst(start, 0) || !isConst(step, 1)) range = (start ? expr(*start) : "?") + ", ";
        range += stop ? expr(*stop) : "?";
        if (!isConst(step, 1)) range += ", " + (step ? expr(*step) : "?");
        std::string target = loopVar ? expr(*loopVar) : "?";
        if (iterArgs && iterArgs->kind == Kind::Array && iterArgs->a->size) {
            target += ", (" + names(iterArgs) + ")";
            range += ", init_values=(" +
                     joined(iterArgs,
                            [&](const Value& ia) {
                                const Value* init = ia.isNode() ? ia.n->field(K::initValue) : nullptr;
                                return init ? expr(*init) : std::string("?");
                            }) +
                     ")";
        }
        line(indent, "for " + target + " in pl.range(" + range + "):");
        if (const Value* body = field(n, K::body)) stmt(*body, indent + 1, field(n, K::return_vars));
    }

    // --- functions -----------------------------------------------------------------------------------
    void function(const Node& f) {
        printedNames_.clear();
        usedNames_.clear();
        std::string decorator;
        auto part = [&](const std::string& p) { decorator += (decorator.empty() ? "" : ", ") + p; };
        const Value* funcType = uintField(f, K::func_type);
        if (funcType && funcType->u != 0) {
            const char* n = functionTypeName(funcType->u);
            part(std::string("type=pl.FunctionType.") + (n ? n : "?"));
        }
        if (const Value* level = uintField(f, K::level)) {
            const char* n = levelName(level->u);
            part(std::string("level=pl.Level.") + (n ? n : "?"));
        }
        if (const Value* role = uintField(f, K::role))
            part(role->u == 0 ? "role=pl.Role.Orchestrator" : "role=pl.Role.SubWorker");
        line(1, "@pl.function(" + decorator + ")");

        std::string params;
        bool kernel = funcType && (funcType->u >= 2 && funcType->u <= 7);
        if (!kernel) params = "self";
        const Value* list = field(f, K::params);
        const Value* dirs = field(f, K::param_directions);
        if (list && list->kind == Kind::Array) {
            for (uint32_t i = 0; i < list->a->size; ++i) {
                const Value& p = list->a->items[i];
                const Value* t = p.isNode() ? p.n->field(K::type) : nullptr;
                std::string annotation = t ? type(*t) : "?";
                uint64_t dir = dirs && dirs->kind == Kind::Array && i < dirs->a->size ? dirs->a->items[i].u : 0;
                if (dir == 1) annotation = "pl.Out[" + annotation + "]";
                if (dir == 2) annotation = "pl.InOut[" + annotation + "]";
                params += (params.empty() ? "" : ", ") + expr(p) + ": " + annotation;
            }
        }
        std::string returns;
        if (const Value* rt = field(f, K::return_types); rt && rt->kind == Kind::Array && rt->a->size) {
            std::string types = joined(rt, [&](const Value& t) { return type(t); });
            returns = rt->a->size == 1 ? " -> " + types : " -> tuple[" + types + "]";
        }
        line(1, "def " + std::string(str(f, K::name)) + "(" + params + ")" + returns + ":");
        size_t before = out_.size();
        if (const Value* body = field(f, K::body)) stmt(*body, 2, nullptr);
        if (out_.size() == before) line(2, "pass");
    }

    void program(const Node& p) {
        std::string name(str(p, K::name));
        line(0, "# pypto.program: " + name);
        line(0, "import pypto.language as pl");
        line(0, "");
        line(0, "@pl.program");
        line(0, "class " + name + ":");
        const Value* functions = field(p, K::functions);
        if (!functions || functions->kind != Kind::Array || functions->a->size == 0) return line(1, "pass");
        for (const Value& entry : *functions->a) {
            const Value* fn = entry.kind == Kind::Map ? entry.m->find(K::value) : nullptr;
            if (fn && fn->isNode()) function(*fn->n);
        }
    }

    const Document& doc_;
    std::string out_;
    mutable std::unordered_map<const Node*, std::string> printedNames_;
    mutable std::unordered_set<std::string> usedNames_;
};

}  // namespace

std::string printProgram(const Document& doc) { return Printer(doc).run(); }

}  // namespace ptoplug::ir
