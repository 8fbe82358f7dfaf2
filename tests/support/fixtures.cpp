#include "support/fixtures.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unordered_map>

namespace ptoplug::test {
namespace fs = std::filesystem;

std::string dataDir() { return PTOPLUG_TEST_DATA; }

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::vector<Fixture>& allFixtures() {
    static const std::vector<Fixture> fixtures = [] {
        std::vector<Fixture> out;
        std::vector<fs::path> cases;
        for (const auto& e : fs::directory_iterator(fs::path(dataDir()) / "pypto-unit")) cases.push_back(e.path());
        cases.push_back(fs::path(dataDir()) / "format_torture");
        std::sort(cases.begin(), cases.end());
        const std::set<std::string> hostOrch = {"host_dispatch_materializes_comm_ctx_args",
                                                "device_get_comm_ctx_is_replaced_by_materialized_context"};
        for (const auto& dir : cases) {
            for (const char* stage : {"before", "after"}) {
                if (!fs::exists(dir / (std::string(stage) + ".json"))) continue;
                Fixture f;
                f.name = dir.filename().string() + "/" + stage;
                f.json = readBytes((dir / (std::string(stage) + ".json")).string());
                f.msgpack = readBytes((dir / (std::string(stage) + ".msgpack")).string());
                f.text = readBytes((dir / (std::string(stage) + ".txt")).string());
                f.pyptoPlacementUnreadable = hostOrch.count(dir.filename().string()) > 0;
                out.push_back(std::move(f));
            }
        }
        return out;
    }();
    return fixtures;
}

const Fixture& fixtureNamed(const std::string& name) {
    for (const Fixture& f : allFixtures())
        if (f.name == name) return f;
    std::fprintf(stderr, "no fixture named %s\n", name.c_str());
    std::abort();
}

std::string testName(const std::string& fixtureName) {
    std::string s = fixtureName;
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

namespace {

void render(const ir::Document& doc, const ir::Value& v, std::unordered_map<const ir::Node*, size_t>& seen,
            std::string& out) {
    using ir::Kind;
    switch (v.kind) {
        case Kind::Null: out += "null"; return;
        case Kind::Bool: out += v.b ? "true" : "false"; return;
        case Kind::UInt: out += std::to_string(v.u); return;
        case Kind::Int: out += std::to_string(v.i); return;
        case Kind::F64: {
            std::ostringstream s;
            s.precision(17);
            s << v.d;
            out += "f64:" + s.str();
            return;
        }
        case Kind::F32: out += "f32:" + std::to_string(v.f); return;
        case Kind::Str: out += '"' + std::string(v.strView()) + '"'; return;
        case Kind::Span: {
            const ir::Span sp = *doc.span(v);  // documents read from bytes: every span is in them
            out += "span(" + std::string(sp.file) + ":" + std::to_string(sp.beginLine) + ":" +
                   std::to_string(sp.beginColumn) + "-" + std::to_string(sp.endLine) + ":" +
                   std::to_string(sp.endColumn) + ")";
            return;
        }
        case Kind::Array:
            out += '[';
            for (const ir::Value& item : *v.a) {
                render(doc, item, seen, out);
                out += ',';
            }
            out += ']';
            return;
        case Kind::Map:
            out += '{';
            for (const ir::Member& m : *v.m) {
                out += std::string(doc.keys().name(m.key)) + ':';
                render(doc, m.value, seen, out);
                out += ',';
            }
            out += '}';
            return;
        case Kind::Node:
        case Kind::Ref:
        case Kind::RefId: {
            auto it = seen.find(v.n);
            if (it != seen.end()) {
                out += "#" + std::to_string(it->second);
                return;
            }
            size_t k = seen.size();
            seen.emplace(v.n, k);
            out += "#" + std::to_string(k) + "=" + std::string(doc.keys().name(v.n->type)) + "{";
            for (const ir::Member& m : v.n->fields) {
                out += std::string(doc.keys().name(m.key)) + ':';
                render(doc, m.value, seen, out);
                out += ',';
            }
            out += '}';
            return;
        }
    }
}

using json = nlohmann::json;

// pypto's read order of node-bearing fields per node type (docs/ir_format.md §6).
const std::map<std::string, std::vector<std::string>>& readOrders() {
    static const std::map<std::string, std::vector<std::string>> orders = [] {
        std::map<std::string, std::vector<std::string>> o = {
            {"Program", {"functions"}},
            {"Function", {"params", "return_types", "attrs", "body"}},
            {"Var", {"type"}},
            {"IterArg", {"type", "initValue"}},
            {"MemRef", {"byte_offset", "base", "slot_index"}},
            {"WindowBuffer", {"base", "size"}},
            {"ConstInt", {"type"}},
            {"ConstFloat", {"type"}},
            {"ConstBool", {}},
            {"Call", {"type", "args", "attrs", "kwargs"}},
            {"Submit", {"type", "args", "deps", "core_num", "predicate", "attrs", "kwargs"}},
            {"MakeTuple", {"elements"}},
            {"TupleGetItemExpr", {"tuple"}},
            {"AssignStmt", {"var", "value"}},
            {"EvalStmt", {"expr"}},
            {"ReturnStmt", {"value"}},
            {"YieldStmt", {"value"}},
            {"SeqStmts", {"stmts"}},
            {"IfStmt", {"condition", "then_body", "else_body", "return_vars"}},
            {"ForStmt", {"loop_var", "start", "stop", "step", "iter_args", "body", "return_vars", "attrs"}},
            {"WhileStmt", {"condition", "iter_args", "body", "return_vars"}},
            {"SpmdScopeStmt", {"core_num", "body", "attrs"}},
            {"CommDomainScopeStmt", {"slots", "body", "attrs"}},
        };
        for (const char* s :
             {"InCoreScopeStmt", "ClusterScopeStmt", "HierarchyScopeStmt", "SplitAivScopeStmt", "RuntimeScopeStmt"})
            o[s] = {"body", "attrs"};
        for (const char* b : {"Add", "Sub", "Mul",    "FloorDiv", "FloorMod", "FloatDiv",     "Min",          "Max",
                              "Pow", "Eq",  "Ne",     "Lt",       "Le",       "Gt",           "Ge",           "And",
                              "Or",  "Xor", "BitAnd", "BitOr",    "BitXor",   "BitShiftLeft", "BitShiftRight"})
            o[b] = {"type", "left", "right"};
        for (const char* u : {"Abs", "Neg", "Not", "BitNot", "Cast"}) o[u] = {"type", "operand"};
        return o;
    }();
    return orders;
}

struct Replay {
    std::set<uint64_t> registered;
    std::string problem;

    void value(const json& j, const std::string& where, const std::string& parentKey) {
        if (!problem.empty()) return;
        if (j.is_array()) {
            for (size_t i = 0; i < j.size(); ++i) value(j[i], where + "/" + std::to_string(i), parentKey);
        } else if (j.is_object()) {
            if (j.contains("ref")) {
                if (!registered.count(j["ref"].get<uint64_t>()))
                    problem = "reference to " + j["ref"].dump() + " at " + where + " precedes its full node";
            } else if (j.contains("fields") && j.contains("id")) {
                node(j, where);
            } else if (j.contains("type_kind")) {
                // Type maps: keys in stored order, then memref, views and window_buffer (§4.3).
                for (const auto& [k, v] : j.items())
                    if (k == "shape" || k == "types") value(v, where + "/" + k, k);
                for (const char* k : {"memref", "tensor_view", "tile_view", "window_buffer"})
                    if (j.contains(k)) value(j[k], where + "/" + k, k);
            } else if (parentKey == "tile_view") {
                for (const char* k : {"start_offset", "stride", "valid_shape"})
                    if (j.contains(k)) value(j[k], where + "/" + k, k);
            } else {
                for (const auto& [k, v] : j.items()) value(v, where + "/" + k, k);
            }
        }
    }

    void node(const json& j, const std::string& where) {
        const std::string type = j["type"].get<std::string>();
        const json& fields = j["fields"];
        auto it = readOrders().find(type);
        if (it != readOrders().end()) {
            for (const std::string& k : it->second)
                if (fields.contains(k)) value(fields[k], where + "/fields/" + k, k);
        } else {
            for (const auto& [k, v] : fields.items()) value(v, where + "/fields/" + k, k);
        }
        registered.insert(j["id"].get<uint64_t>());
    }
};

}  // namespace

std::string resolvedJson(const ir::Document& doc) {
    std::unordered_map<const ir::Node*, size_t> seen;
    std::string out;
    render(doc, doc.root(), seen, out);
    return out;
}

std::string firstReferenceBeforeDefinition(const std::string& jsonText) {
    Replay r;
    r.value(json::parse(jsonText), "", "");
    return r.problem;
}

}  // namespace ptoplug::test
