#include "support/ir_builder.h"

#include <algorithm>

namespace ptoplug::test {

using ir::Node;
using ir::Value;
namespace K = ir::K;

Value IrBuilder::span() {
    int32_t line = line_++;
    return doc_.makeSpan(ir::Span{"t.py", 1, line, 10, line});
}

Value IrBuilder::list(const std::vector<Node*>& nodes) {
    ir::Array* a = doc_.newArray(static_cast<uint32_t>(nodes.size()));
    for (Node* n : nodes) doc_.push(*a, Value::node(n));
    return Value::array(a);
}

Value IrBuilder::codes(const std::vector<uint64_t>& values) {
    ir::Array* a = doc_.newArray(static_cast<uint32_t>(values.size()));
    for (uint64_t v : values) doc_.push(*a, Value::uinteger(v));
    return Value::array(a);
}

Node* IrBuilder::node(uint32_t type) {
    Node* n = doc_.newNode(type, 8);
    doc_.set(n->fields, K::span, span());
    return n;
}

Node* IrBuilder::stmt(uint32_t type) {
    Node* n = node(type);
    doc_.set(n->fields, K::leading_comments, Value::array(doc_.newArray(0)));
    return n;
}

Value IrBuilder::scalar(uint64_t dtype) {
    ir::Map* m = doc_.newMap(2);
    doc_.set(*m, K::dtype, Value::uinteger(dtype));
    doc_.set(*m, K::type_kind, Value::str("ScalarType"));
    return Value::map(m);
}

Value IrBuilder::tensor(std::initializer_list<int64_t> dims, bool distributed) {
    std::vector<Node*> shape;
    for (int64_t d : dims) shape.push_back(constInt(d));
    ir::Map* m = doc_.newMap(3);
    doc_.set(*m, K::dtype, Value::uinteger(52));
    doc_.set(*m, K::shape, list(shape));
    doc_.set(*m, K::type_kind, Value::str(distributed ? "DistributedTensorType" : "TensorType"));
    return Value::map(m);
}

Value IrBuilder::tuple(std::initializer_list<Value> types) {
    ir::Array* a = doc_.newArray(static_cast<uint32_t>(types.size()));
    for (const Value& t : types) doc_.push(*a, t);
    ir::Map* m = doc_.newMap(2);
    doc_.set(*m, K::type_kind, Value::str("TupleType"));
    doc_.set(*m, K::types, Value::array(a));
    return Value::map(m);
}

Value IrBuilder::singleton(const char* kind) {
    ir::Map* m = doc_.newMap(1);
    doc_.set(*m, K::type_kind, doc_.newString(kind));
    return Value::map(m);
}

Node* IrBuilder::var(const std::string& name, Value type) {
    Node* v = node(K::Var);
    doc_.set(v->fields, K::name_hint, doc_.newString(name));
    doc_.set(v->fields, K::type, type);
    return v;
}

Node* IrBuilder::iterArg(const std::string& name, Value type, Node* init) {
    Node* v = node(K::IterArg);
    doc_.set(v->fields, K::initValue, Value::node(init));
    doc_.set(v->fields, K::name_hint, doc_.newString(name));
    doc_.set(v->fields, K::type, type);
    return v;
}

Node* IrBuilder::constInt(int64_t v, uint64_t dtype) {
    Node* c = node(K::ConstInt);
    doc_.set(c->fields, K::type, scalar(dtype));
    doc_.set(c->fields, K::value, Value::integer(v));
    return c;
}

Value IrBuilder::op(const std::string& name, bool global) {
    ir::Map* m = doc_.newMap(2);
    doc_.set(*m, K::is_global_var, Value::boolean(global));
    doc_.set(*m, K::name, doc_.newString(name));
    return Value::map(m);
}

Value IrBuilder::attrDirs(const std::vector<uint64_t>& dirs, bool present) {
    ir::Array* attrs = doc_.newArray(1);
    if (present) {
        ir::Map* tagged = doc_.newMap(2);
        doc_.set(*tagged, K::type, Value::str("ArgDirectionVector"));
        doc_.set(*tagged, K::value, codes(dirs));
        ir::Map* entry = doc_.newMap(2);
        doc_.set(*entry, K::key, Value::str("arg_directions"));
        doc_.set(*entry, K::value, Value::map(tagged));
        doc_.push(*attrs, Value::map(entry));
    }
    return Value::array(attrs);
}

Node* IrBuilder::call(const std::string& fn, std::vector<Node*> args, Value type, std::vector<uint64_t> dirs,
                      bool withDirs) {
    Node* c = node(K::Call);
    doc_.set(c->fields, K::args, list(args));
    doc_.set(c->fields, K::attrs, attrDirs(dirs, withDirs));
    doc_.set(c->fields, K::kwargs, Value::array(doc_.newArray(0)));
    doc_.set(c->fields, K::op, op(fn, true));
    doc_.set(c->fields, K::type, type);
    return c;
}

Node* IrBuilder::opCall(const std::string& name, std::vector<Node*> args, Value type) {
    Node* c = node(K::Call);
    doc_.set(c->fields, K::args, list(args));
    doc_.set(c->fields, K::attrs, Value::array(doc_.newArray(0)));
    doc_.set(c->fields, K::kwargs, Value::array(doc_.newArray(0)));
    doc_.set(c->fields, K::op, op(name, false));
    doc_.set(c->fields, K::type, type);
    return c;
}

Node* IrBuilder::submit(const std::string& fn, std::vector<Node*> args, Value type, std::vector<uint64_t> dirs) {
    Node* s = node(K::Submit);
    doc_.set(s->fields, K::args, list(args));
    doc_.set(s->fields, K::attrs, attrDirs(dirs, true));
    doc_.set(s->fields, K::deps, Value::array(doc_.newArray(0)));
    doc_.set(s->fields, K::kwargs, Value::array(doc_.newArray(0)));
    doc_.set(s->fields, K::op, op(fn, true));
    doc_.set(s->fields, K::type, type);
    return s;
}

Node* IrBuilder::getItem(Node* tuple, int64_t index, Value type) {
    Node* g = node(K::TupleGetItemExpr);
    doc_.set(g->fields, K::index, Value::integer(index));
    doc_.set(g->fields, K::tuple, Value::node(tuple));
    doc_.set(g->fields, K::type, type);
    return g;
}

Node* IrBuilder::assign(Node* v, Node* value) {
    Node* s = stmt(K::AssignStmt);
    doc_.set(s->fields, K::value, Value::node(value));
    doc_.set(s->fields, K::var, Value::node(v));
    return s;
}

Node* IrBuilder::eval(Node* expr) {
    Node* s = stmt(K::EvalStmt);
    doc_.set(s->fields, K::expr, Value::node(expr));
    return s;
}

Node* IrBuilder::ret(std::vector<Node*> values) {
    Node* s = stmt(K::ReturnStmt);
    doc_.set(s->fields, K::value, list(values));
    return s;
}

Node* IrBuilder::yield(std::vector<Node*> values) {
    Node* s = stmt(K::YieldStmt);
    doc_.set(s->fields, K::value, list(values));
    return s;
}

Node* IrBuilder::seq(std::vector<Node*> stmts) {
    Node* s = stmt(K::SeqStmts);
    doc_.set(s->fields, K::stmts, list(stmts));
    return s;
}

Node* IrBuilder::forLoop(Node* loopVar, int64_t stop, std::vector<Node*> iterArgs, Node* body,
                         std::vector<Node*> returnVars) {
    Node* s = stmt(K::ForStmt);
    doc_.set(s->fields, K::attrs, Value::array(doc_.newArray(0)));
    doc_.set(s->fields, K::body, Value::node(body));
    doc_.set(s->fields, K::iter_args, list(iterArgs));
    doc_.set(s->fields, K::kind, Value::uinteger(0));
    doc_.set(s->fields, K::loop_var, Value::node(loopVar));
    doc_.set(s->fields, K::return_vars, list(returnVars));
    doc_.set(s->fields, K::start, Value::node(constInt(0)));
    doc_.set(s->fields, K::step, Value::node(constInt(1)));
    doc_.set(s->fields, K::stop, Value::node(constInt(stop)));
    return s;
}

Node* IrBuilder::whileLoop(Node* cond, std::vector<Node*> iterArgs, Node* body, std::vector<Node*> returnVars) {
    Node* s = stmt(K::WhileStmt);
    doc_.set(s->fields, K::body, Value::node(body));
    doc_.set(s->fields, K::condition, Value::node(cond));
    doc_.set(s->fields, K::iter_args, list(iterArgs));
    doc_.set(s->fields, K::return_vars, list(returnVars));
    return s;
}

Node* IrBuilder::ifStmt(Node* cond, Node* thenBody, Node* elseBody, std::vector<Node*> returnVars) {
    Node* s = stmt(K::IfStmt);
    doc_.set(s->fields, K::condition, Value::node(cond));
    doc_.set(s->fields, K::else_body, elseBody ? Value::node(elseBody) : Value::null());
    doc_.set(s->fields, K::return_vars, list(returnVars));
    doc_.set(s->fields, K::then_body, Value::node(thenBody));
    return s;
}

Node* IrBuilder::function(const std::string& name, int funcType, std::vector<Node*> params, Node* body,
                          std::vector<uint64_t> dirs, std::vector<Value> returnTypes) {
    Node* f = node(K::Function);
    if (dirs.empty()) dirs.assign(params.size(), 0);
    static const int levels[] = {-1, 4, 3};  // by func_type: Opaque none, Orchestration CHIP, InCore CHIP_DIE
    static const int roles[] = {-1, 0, 1};
    ir::Array* rt = doc_.newArray(static_cast<uint32_t>(returnTypes.size()));
    for (const Value& t : returnTypes) doc_.push(*rt, t);
    doc_.set(f->fields, K::attrs, Value::array(doc_.newArray(0)));
    doc_.set(f->fields, K::body, Value::node(body));
    doc_.set(f->fields, K::func_type, Value::uinteger(static_cast<uint64_t>(funcType)));
    doc_.set(f->fields, K::level, levels[funcType] < 0 ? Value::null() : Value::uinteger(levels[funcType]));
    doc_.set(f->fields, K::name, doc_.newString(name));
    doc_.set(f->fields, K::param_directions, codes(dirs));
    doc_.set(f->fields, K::params, list(params));
    doc_.set(f->fields, K::requires_runtime_binding, Value::boolean(false));
    doc_.set(f->fields, K::return_types, Value::array(rt));
    doc_.set(f->fields, K::role, roles[funcType] < 0 ? Value::null() : Value::uinteger(roles[funcType]));
    return f;
}

Node* IrBuilder::hostFunction(const std::string& name, std::vector<Node*> params, Node* body) {
    Node* f = function(name, 0, std::move(params), body);
    doc_.set(f->fields, K::level, Value::uinteger(5));
    doc_.set(f->fields, K::role, Value::uinteger(0));
    return f;
}

void IrBuilder::program(std::vector<Node*> functions) {
    auto nameOf = [](Node* f) { return f->field(K::name)->strView(); };
    std::sort(functions.begin(), functions.end(), [&](Node* a, Node* b) { return nameOf(a) < nameOf(b); });
    Node* p = node(K::Program);
    ir::Array* fns = doc_.newArray(static_cast<uint32_t>(functions.size()));
    for (Node* f : functions) {
        ir::Map* entry = doc_.newMap(2);
        doc_.set(*entry, K::key, op(std::string(nameOf(f)), true));
        doc_.set(*entry, K::value, Value::node(f));
        doc_.push(*fns, Value::map(entry));
    }
    doc_.set(p->fields, K::functions, Value::array(fns));
    doc_.set(p->fields, K::name, Value::str("T"));
    doc_.root() = Value::node(p);
}

Node* IrBuilder::chain(size_t length) {
    const uint32_t link = doc_.keys().intern("Link"), next = doc_.keys().intern("next");
    Node* top = doc_.newNode(link, 0);
    for (size_t i = 1; i < length; ++i) {
        Node* above = doc_.newNode(link, 1);
        doc_.set(above->fields, next, Value::node(top));
        top = above;
    }
    return top;
}

}  // namespace ptoplug::test
