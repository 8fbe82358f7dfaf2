// Builds large realistic programs in memory (see program_generator.h).
#include "generator/program_generator.h"

#include <cstdio>
#include <string>
#include <vector>

#include "ir/rewrite.h"

namespace ptoplug::tools {
using namespace ir;

namespace {

constexpr uint64_t kIndex = 21, kFp32 = 52, kInt32 = 19;

class Generator {
public:
    explicit Generator(Document& doc) : doc_(doc) {}

    Value span(int32_t line, int32_t col, int32_t endCol) {
        return doc_.makeSpan(Span{kFile, col, line, endCol, line});
    }
    Value scalarType(uint64_t dtype) {
        Map* m = doc_.newMap(2);
        doc_.set(*m, K::dtype, Value::uinteger(dtype));
        doc_.set(*m, K::type_kind, Value::str("ScalarType"));
        return Value::map(m);
    }
    Value list(std::initializer_list<Value> items) {
        Array* a = doc_.newArray(static_cast<uint32_t>(items.size()));
        for (const Value& v : items) doc_.push(*a, v);
        return Value::array(a);
    }
    Value empty() { return Value::array(doc_.newArray(0)); }
    // `members`: the node's field count, so that it is allocated at its exact size, as readers do.
    Node* node(uint32_t type, uint32_t members, Value sp) {
        Node* n = doc_.newNode(type, members);
        doc_.set(n->fields, K::span, sp);
        return n;
    }
    Node* constInt(int64_t v, Value sp) {
        Node* n = node(K::ConstInt, 3, sp);
        doc_.set(n->fields, K::type, scalarType(kIndex));
        doc_.set(n->fields, K::value, Value::integer(v));
        return n;
    }
    Value distType(Node* dim, uint64_t dtype, Node* windowBuffer) {
        Map* m = doc_.newMap(4);
        doc_.set(*m, K::dtype, Value::uinteger(dtype));
        doc_.set(*m, K::shape, list({Value::ref(dim)}));
        doc_.set(*m, K::type_kind, Value::str("DistributedTensorType"));
        if (windowBuffer) doc_.set(*m, K::window_buffer, Value::ref(windowBuffer));
        return Value::map(m);
    }
    Node* var(std::string_view name, Value type, Value sp) {
        Node* v = node(K::Var, 3, sp);
        doc_.set(v->fields, K::name_hint, doc_.newString(name));
        doc_.set(v->fields, K::type, type);
        return v;
    }
    Value kv(std::string_view key, Value value) {
        Map* m = doc_.newMap(2);
        doc_.set(*m, K::key, doc_.newString(key));
        doc_.set(*m, K::value, value);
        return Value::map(m);
    }
    Value tagged(std::string_view tag, Value value, uint32_t valueKey = K::value) {
        Map* m = doc_.newMap(2);
        doc_.set(*m, K::type, Value::str(tag));
        doc_.set(*m, valueKey, value);
        return Value::map(m);
    }
    Value op(std::string_view name, bool global) {
        Map* m = doc_.newMap(2);
        doc_.set(*m, K::is_global_var, Value::boolean(global));
        doc_.set(*m, K::name, doc_.newString(name));
        return Value::map(m);
    }
    Node* call(Value opValue, Value args, Value attrs, Value kwargs, Value type, Value sp) {
        Node* c = node(K::Call, 6, sp);
        doc_.set(c->fields, K::args, args);
        doc_.set(c->fields, K::attrs, attrs);
        doc_.set(c->fields, K::kwargs, kwargs);
        doc_.set(c->fields, K::op, opValue);
        doc_.set(c->fields, K::type, type);
        return c;
    }
    Node* stmt(uint32_t type, uint32_t members, Value sp) {
        Node* s = node(type, members, sp);
        doc_.set(s->fields, K::leading_comments, empty());
        return s;
    }
    Node* assign(Node* v, Node* value, Value sp) {
        Node* s = stmt(K::AssignStmt, 4, sp);
        doc_.set(s->fields, K::var, Value::node(v));
        doc_.set(s->fields, K::value, Value::node(value));
        return s;
    }

    Node* chipFunction(const std::string& name, int32_t line) {
        Node* f = node(K::Function, 11, span(line, 9, 9));
        Node* d256 = constInt(256, span(-1, -1, -1));
        Node* d4 = constInt(4, span(-1, -1, -1));
        Node* data = var("data", distType(d256, kFp32, nullptr), span(line + 2, 13, 56));
        Node* signal = var("signal", distType(d4, kInt32, nullptr), span(line + 3, 13, 57));
        Node* ret = stmt(K::ReturnStmt, 3, span(line + 5, 13, 24));
        doc_.set(ret->fields, K::value, list({Value::ref(data)}));
        doc_.set(f->fields, K::attrs, empty());
        doc_.set(f->fields, K::body, Value::node(ret));
        doc_.set(f->fields, K::func_type, Value::uinteger(1));
        doc_.set(f->fields, K::level, Value::uinteger(4));
        doc_.set(f->fields, K::name, doc_.newString(name));
        doc_.set(f->fields, K::param_directions, list({Value::uinteger(2), Value::uinteger(0)}));
        doc_.set(f->fields, K::params, list({Value::node(data), Value::node(signal)}));
        doc_.set(f->fields, K::requires_runtime_binding, Value::boolean(false));
        doc_.set(f->fields, K::return_types, list({distType(d256, kFp32, nullptr)}));
        doc_.set(f->fields, K::role, Value::uinteger(0));
        return f;
    }

    struct Window {
        Node* buffer;
        Node* tensor;
        Node* windowBuffer;
        std::vector<Node*> stmts;
    };

    Window window(const std::string& name, int64_t extent, uint64_t dtype, int32_t line) {
        Window w;
        Node* bufVar = var(
            name + "_buf",
            [&] {
                Map* m = doc_.newMap(1);
                doc_.set(*m, K::type_kind, Value::str("Ptr"));
                return Value::map(m);
            }(),
            span(line, 24, 73));
        Node* size = node(K::Mul, 4, span(line, 48, 72));
        doc_.set(size->fields, K::left, Value::node(constInt(extent, span(line, 48, 51))));
        doc_.set(size->fields, K::right, Value::node(constInt(4, span(line, 54, 72))));
        doc_.set(size->fields, K::type, scalarType(kIndex));
        Node* alloc = call(op("pld.tensor.alloc_window_buffer", false), list({Value::node(size)}), empty(),
                           list({kv("name", doc_.newString(name + "_buf"))}), bufVar->fields.find(K::type)[0],
                           span(line, 24, 73));
        w.stmts.push_back(assign(bufVar, alloc, span(line, 24, 73)));

        Node* wb = node(K::WindowBuffer, 7, span(line + 1, 16, 66));
        doc_.set(wb->fields, K::base, Value::ref(bufVar));
        doc_.set(wb->fields, K::load_from_host, Value::boolean(false));
        doc_.set(wb->fields, K::name_hint, doc_.newString(name + "_buf"));
        doc_.set(wb->fields, K::size, Value::ref(size));
        doc_.set(wb->fields, K::store_to_host, Value::boolean(false));
        Map* wbt = doc_.newMap(1);
        doc_.set(*wbt, K::type_kind, Value::str("WindowBufferType"));
        doc_.set(wb->fields, K::type, Value::map(wbt));

        Node* dim = constInt(extent, span(line + 1, 40, 43));
        Node* tensor = var(name, distType(dim, dtype, wb), span(line + 1, 16, 66));
        Node* shape = node(K::MakeTuple, 3, span(line + 1, 40, 45));
        doc_.set(shape->fields, K::elements, list({Value::ref(dim)}));
        Map* tt = doc_.newMap(2);
        doc_.set(*tt, K::type_kind, Value::str("TupleType"));
        doc_.set(*tt, K::types, list({scalarType(kIndex)}));
        doc_.set(shape->fields, K::type, Value::map(tt));
        Node* win = call(op("pld.tensor.window", false), list({Value::ref(bufVar), Value::node(shape)}), empty(),
                         list({kv("dtype", tagged("DataType", Value::uinteger(dtype), K::code))}),
                         distType(dim, dtype, nullptr), span(line + 1, 16, 66));
        w.stmts.push_back(assign(tensor, win, span(line + 1, 16, 66)));
        w.buffer = bufVar;
        w.tensor = tensor;
        w.windowBuffer = wb;
        return w;
    }

    void build(int n, bool sameWindow) {
        Node* program = node(K::Program, 3, span(1, 1, 1));
        doc_.set(program->fields, K::name, Value::str("Generated"));
        Array* functions = doc_.newArray(static_cast<uint32_t>(n + 1));
        std::vector<std::string> names;
        int chips = sameWindow ? 1 : n;
        for (int i = 0; i < chips; ++i) {
            char name[32];
            std::snprintf(name, sizeof name, "chip_orch_%05d", i);
            names.emplace_back(name);
        }
        int32_t line = 10;
        for (const std::string& name : names) {
            Map* entry = doc_.newMap(2);
            doc_.set(*entry, K::key, op(name, true));
            doc_.set(*entry, K::value, Value::node(chipFunction(name, line)));
            doc_.push(*functions, Value::map(entry));
            line += 8;
        }

        // Host orchestration: windows, then the dispatch loop.
        std::vector<Node*> body;
        std::vector<Value> slots;
        std::vector<std::pair<Node*, Node*>> pairs;
        for (int i = 0; i < chips; ++i) {
            Window d = window("data_" + std::to_string(i), 256, kFp32, line);
            Window s = window("signal_" + std::to_string(i), 4, kInt32, line + 2);
            line += 4;
            body.insert(body.end(), d.stmts.begin(), d.stmts.end());
            body.insert(body.end(), s.stmts.begin(), s.stmts.end());
            slots.push_back(Value::ref(d.windowBuffer));
            slots.push_back(Value::ref(s.windowBuffer));
            pairs.emplace_back(d.tensor, s.tensor);
        }
        Node* r = var("r", scalarType(kIndex), span(line, 13, 14));
        Node* world =
            call(op("pld.system.world_size", false), empty(), empty(), empty(), scalarType(kIndex), span(line, 27, 50));
        Array* loopBody = doc_.newArray(static_cast<uint32_t>(n));
        for (int i = 0; i < n; ++i) {
            auto [data, signal] = pairs[sameWindow ? 0 : i];
            Value sp = span(line + 1 + i, 13, 90);
            Node* dispatch = call(
                op(names[sameWindow ? 0 : i], true), list({Value::ref(data), Value::ref(signal)}),
                list({kv("device", tagged("Expr", Value::ref(r))),
                      kv("arg_directions",
                         tagged("ArgDirectionVector", list({Value::uinteger(0), Value::uinteger(0)})))}),
                empty(),
                [&] {
                    Map* m = doc_.newMap(2);
                    doc_.set(*m, K::type_kind, Value::str("TupleType"));
                    doc_.set(*m, K::types, empty());
                    return Value::map(m);
                }(),
                sp);
            Node* eval = stmt(K::EvalStmt, 3, sp);
            doc_.set(eval->fields, K::expr, Value::node(dispatch));
            doc_.push(*loopBody, Value::node(eval));
        }
        Node* seq = stmt(K::SeqStmts, 3, span(line + 1, 13, 13));
        doc_.set(seq->fields, K::stmts, Value::array(loopBody));
        Node* loop = stmt(K::ForStmt, 11, span(line, 9, 9));
        doc_.set(loop->fields, K::attrs, empty());
        doc_.set(loop->fields, K::body, Value::node(seq));
        doc_.set(loop->fields, K::iter_args, empty());
        doc_.set(loop->fields, K::kind, Value::uinteger(0));
        doc_.set(loop->fields, K::loop_var, Value::node(r));
        doc_.set(loop->fields, K::return_vars, empty());
        doc_.set(loop->fields, K::start, Value::node(constInt(0, span(-1, -1, -1))));
        doc_.set(loop->fields, K::step, Value::node(constInt(1, span(-1, -1, -1))));
        doc_.set(loop->fields, K::stop, Value::node(world));
        body.push_back(loop);
        Node* ret = stmt(K::ReturnStmt, 3, span(line + n + 1, 9, 17));
        doc_.set(ret->fields, K::value, list({Value::node(constInt(0, span(line + n + 1, 16, 17)))}));
        body.push_back(ret);

        Node* inner = stmt(K::SeqStmts, 3, span(line, 9, 9));
        Array* innerStmts = doc_.newArray(static_cast<uint32_t>(body.size()));
        for (Node* s : body) doc_.push(*innerStmts, Value::node(s));
        doc_.set(inner->fields, K::stmts, Value::array(innerStmts));
        Node* scope = node(K::CommDomainScopeStmt, 7, span(line, 9, 9));
        doc_.set(scope->fields, K::attrs, empty());
        doc_.set(scope->fields, K::body, Value::node(inner));
        doc_.set(scope->fields, K::devices, empty());
        doc_.set(scope->fields, K::leading_comments, empty());
        doc_.set(scope->fields, K::name_hint, Value::str(""));
        Array* slotArray = doc_.newArray(static_cast<uint32_t>(slots.size()));
        for (const Value& s : slots) doc_.push(*slotArray, s);
        doc_.set(scope->fields, K::slots, Value::array(slotArray));

        Node* host = node(K::Function, 11, span(line, 9, 9));
        doc_.set(host->fields, K::attrs, empty());
        doc_.set(host->fields, K::body, Value::node(scope));
        doc_.set(host->fields, K::func_type, Value::uinteger(0));
        doc_.set(host->fields, K::level, Value::uinteger(5));
        doc_.set(host->fields, K::name, Value::str("host_orch"));
        doc_.set(host->fields, K::param_directions, empty());
        doc_.set(host->fields, K::params, empty());
        doc_.set(host->fields, K::requires_runtime_binding, Value::boolean(false));
        doc_.set(host->fields, K::return_types, empty());
        doc_.set(host->fields, K::role, Value::uinteger(0));
        Map* entry = doc_.newMap(2);
        doc_.set(*entry, K::key, op("host_orch", true));
        doc_.set(*entry, K::value, Value::node(host));
        doc_.push(*functions, Value::map(entry));

        doc_.set(program->fields, K::functions, Value::array(functions));
        doc_.root() = Value::node(program);
    }

private:
    static constexpr std::string_view kFile = "generated_program.py";
    Document& doc_;
};

}  // namespace

void generateProgram(ir::Document& doc, int n, bool sameWindow) { Generator(doc).build(n, sameWindow); }

}  // namespace ptoplug::tools
