#include "ir/validate.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "ir/graph.h"
#include "ir/pointer.h"
#include "ir/program_rules.h"
#include "ir/schema.h"

namespace ptoplug::ir {
namespace {

const char* kindName(const Value& v) {
    switch (v.kind) {
        case Kind::Null: return "nil";
        case Kind::Bool: return "a boolean";
        case Kind::UInt:
        case Kind::Int: return "an integer";
        case Kind::F64:
        case Kind::F32: return "a float";
        case Kind::Str: return "a string";
        case Kind::Array: return "an array";
        case Kind::Map:
        case Kind::Span: return "a map";
        case Kind::Node:
        case Kind::Ref:
        case Kind::RefId: return "a node";
    }
    return "a value";
}

// The place a check is at, for messages only: a chain of parts that becomes text ("Call.args[2]",
// "Var.type.dtype") when a message needs it. The checks run on every field of every node (again after
// every pass) and messages are rare, so no text is built on the way.
class Where {
public:
    static Where field(std::string_view node, std::string_view key) { return Where(nullptr, node, ".", key); }
    static Where member(const Where& parent, std::string_view key) { return Where(&parent, {}, ".", key); }
    static Where item(const Where& parent, uint32_t index) {
        Where w(&parent, {}, {}, {});
        w.index_ = index;
        return w;
    }
    static Where attr(const Where& parent, std::string_view name) { return Where(&parent, "['", name, "']"); }

    std::string text() const {
        std::string out = parent_ ? parent_->text() : std::string();
        if (index_ != UINT32_MAX) return out + "[" + std::to_string(index_) + "]";
        out.append(a_).append(b_).append(c_);
        return out;
    }

private:
    Where(const Where* parent, std::string_view a, std::string_view b, std::string_view c)
        : parent_(parent), a_(a), b_(b), c_(c) {}
    const Where* parent_;
    std::string_view a_, b_, c_;
    uint32_t index_ = UINT32_MAX;
};

class Validator {
public:
    /// `edgesIndexed`: every node value's aux is its node's index (Value::aux), as in any document once read.
    Validator(Document& doc, const NodeOrigins* origins, bool edgesIndexed)
        : doc_(doc), origins_(origins), edgesIndexed_(edgesIndexed) {}

    Status run() {
        walk(doc_.root());
        if (!failed_) checkGraph();
        if (!failed_) checkProgram();
        return failed_ ? Status(error_) : std::nullopt;
    }

    /// The rules on the program as a whole (ir/program_rules.h), its nodes and graph checked already.
    void checkProgram() {
        locate_ = nullptr;  // the graph holds: a place is found by a walk from the root
        if (auto broken = checkProgramRules(doc_)) failAt(broken->where, broken->message, broken->hint);
    }

    /// Only whether the rules hold, with no error to report: a failure just marks the run failed.
    void quietly() { quiet_ = true; }
    bool failed() const { return failed_; }

    // After a pass: every node reachable from the root checked against the schema, once (unless
    // `checkNodes` is false: the graph alone), and the graph checked for cycles and depth (ir/graph.h: a
    // plugin may have built a cycle, so nothing here may recurse along node edges, including the search for
    // an error's place).
    Status runStructural(bool checkNodes = true) {
        Value& root = doc_.root();
        if (!root.isNode()) return std::nullopt;
        DepthFirst walk(doc_.nodes().size());
        locate_ = [&](const Value* where) { return pathPointer(walk, where); };
        auto enter = [&](Node& n) {
            if (checkNodes)
                if (const NodeSchema* schema = schemaFor(n.type)) checkNode(Value::node(&n), *schema);
            return !failed_;
        };
        GraphFault fault = walk.walk(
            root.n, kMaxNodeDepth, enter, [](Value&) {}, [](Node&, auto) { return true; });
        if (fault.kind == GraphFault::Kind::TooDeep)
            failAt(&root, nodesNestedTooDeep(), "a pass built an impossibly deep program");
        else if (fault.kind == GraphFault::Kind::Cycle)
            failAt(fault.edge, "a cycle: a '" + nodeName(*fault.edge->n) + "' node contains itself",
                   "IR is acyclic: a node may only refer to nodes outside itself");
        if (!failed_ && checkNodes) checkProgram();
        return failed_ ? Status(error_) : std::nullopt;
    }

    /// Nodes [begin, end) of the document against their schemas, reachable or not. `numberEdges`: also
    /// gives every full occurrence in their fields its node's index (Value::aux; a second part's are
    /// renumbered when the parts join), here, where the node's fields are in cache.
    void checkNodes(size_t begin, size_t end, bool numberEdges) {
        const std::vector<Node*>& all = doc_.nodes();
        for (size_t i = begin; i < end && !failed_; ++i) {
            Node* n = all[i];
            if (const NodeSchema* schema = schemaFor(n->type)) checkNode(Value::node(n), *schema);
            if (numberEdges)
                for (Member m : n->fields)
                    forEachNodeSlot(m.value, [](Value& edge) {
                        if (edge.kind == Kind::Node) edge.aux = edge.n->index;
                    });
        }
    }

    /// Reference cycles and depth alone, references resolved already. A quiet run changes nothing (each
    /// reference keeps its input offset in Value::aux, for the messages of a run that follows).
    bool graphHolds() {
        checkGraph();
        return !failed_;
    }

    Status runNode(Node* n) {
        locate_ = [this, n](const Value* where) { return inNode(n, where); };
        if (const NodeSchema* schema = schemaFor(n->type)) checkNode(Value::node(n), *schema);
        return failed_ ? Status(error_) : std::nullopt;
    }

private:
    // The pointer of `target` inside `node`'s own fields (not inside other nodes); false if absent.
    bool localPointer(const Value& v, const Value* target, std::string& path) const {
        if (&v == target) return true;
        size_t mark = path.size();
        if (v.kind == Kind::Array) {
            for (uint32_t i = 0; i < v.a->size; ++i) {
                path += '/' + std::to_string(i);
                if (localPointer(v.a->items[i], target, path)) return true;
                path.resize(mark);
            }
        } else if (v.kind == Kind::Map) {
            for (const Member& m : *v.m) {
                path += '/';
                appendPointerToken(path, doc_.keys().name(m.key));
                if (localPointer(m.value, target, path)) return true;
                path.resize(mark);
            }
        }
        return false;
    }

    std::string inNode(const Node* node, const Value* target) const {
        std::string path = "/fields";
        for (const Member& m : node->fields) {
            size_t mark = path.size();
            path += '/';
            appendPointerToken(path, doc_.keys().name(m.key));
            if (localPointer(m.value, target, path)) return path;
            path.resize(mark);
        }
        return "";
    }

    // The pointer of `where` along the walk's current path from the root.
    std::string pathPointer(const DepthFirst& walk, const Value* where) const {
        const std::vector<DepthFirst::Frame>& path = walk.path();
        std::string pointer;
        for (size_t i = 0; i + 1 < path.size(); ++i) pointer += inNode(path[i].node, walk.edgeTaken(i));
        if (!path.empty()) pointer += inNode(path.back().node, where);
        return pointer;
    }

    void failAt(const Value* where, std::string message, std::string hint) {
        if (failed_) return;
        failed_ = true;
        if (quiet_) return;
        error_.pointer = locate_ ? locate_(where) : pointerTo(doc_, where);
        error_.message = std::move(message);
        error_.hint = std::move(hint);
        uint32_t offset = kUnknownOffset;
        if (where->kind == Kind::Ref || where->kind == Kind::RefId)
            offset = where->aux;
        else if (where->kind == Kind::Node)
            offset = offsetOf(*where->n);
        else
            offset = nearestNodeOffset_;
        if (offset != kUnknownOffset) error_.offset = offset;
    }

    void walk(Value& v) {
        if (failed_) return;
        switch (v.kind) {
            case Kind::RefId: {
                Node* target = origins_->byId(v.u);
                if (!target) {
                    failAt(&v, "reference to unknown node id " + std::to_string(v.u),
                           "every {\"ref\": id} must name the id of a node written in full somewhere in the file");
                    return;
                }
                uint32_t offset = v.aux;
                v = Value::ref(target);
                v.aux = offset;  // until checkGraph has checked this edge (Value::aux)
                return;
            }
            case Kind::Array:
                for (Value& item : *v.a) walk(item);
                return;
            case Kind::Map:
                for (Member m : *v.m) walk(m.value);
                return;
            case Kind::Node: {
                uint32_t saved = nearestNodeOffset_;
                nearestNodeOffset_ = offsetOf(*v.n);
                for (Member m : v.n->fields) walk(m.value);
                if (const NodeSchema* schema = schemaFor(v.n->type)) checkNode(v, *schema);
                nearestNodeOffset_ = saved;
                return;
            }
            default: return;
        }
    }

    uint32_t offsetOf(const Node& n) const {
        return origins_ && n.index < origins_->offsets.size() ? origins_->offsets[n.index] : kUnknownOffset;
    }

    std::string nodeName(const Node& n) const { return std::string(doc_.keys().name(n.type)); }

    void checkNode(const Value& nodeValue, const NodeSchema& schema) {
        const Node& n = *nodeValue.n;
        for (const FieldSpec& spec : schema.fields) {
            const Value* field = n.field(spec.key);
            if (!field) {
                if (spec.required)
                    failAt(&nodeValue,
                           "missing required field '" + std::string(doc_.keys().name(spec.key)) + "' of a " +
                               nodeName(n) + " node",
                           "add the field; see docs/ir_format.md §6 for the fields of " + nodeName(n));
                continue;
            }
            if (spec.nullable && field->kind == Kind::Null) continue;
            checkField(*field, spec.kind, spec.enumSet,
                       Where::field(doc_.keys().name(n.type), doc_.keys().name(spec.key)), spec.nodeClass);
            if (failed_) return;
        }
        if (auto broken = checkNodeRules(doc_, n)) failAt(broken->where, broken->message, broken->hint);
    }

    void expected(const Value& v, const std::string& what, const Where& where, const char* expectedText) {
        failAt(&v, "expected " + std::string(expectedText) + " for " + where.text() + ", found " + kindName(v),
               what.empty() ? "see docs/ir_format.md §6 for the field kinds" : what);
    }

    void checkInt(const Value& v, const Where& where, int64_t lo, int64_t hi, const char* what) {
        bool ok = (v.kind == Kind::UInt && v.u <= static_cast<uint64_t>(hi)) || (v.kind == Kind::Int && v.i >= lo);
        if (ok) return;
        if (v.isInteger())
            failAt(&v, "integer out of range for " + std::string(what) + " in " + where.text(),
                   "the value must lie in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        else
            expected(v, "", where, "an integer");
    }

    // A node of a type that `cls` does not allow (a statement where an expression goes, a misspelled
    // type where a Var must stand, ...).
    void checkNodeClass(const Value& v, NodeClass cls, const Where& where) {
        if (!v.isNode()) return;
        // Once read, the type is read from the dense table, not from the child itself (a cache miss per
        // edge, most of them references that the writer, walking beside, never follows).
        const uint32_t type = edgesIndexed_ ? doc_.nodeType(v.aux) : v.n->type;
        if (nodeFitsClass(type, cls)) return;
        failAt(&v,
               "expected " + std::string(nodeClassName(cls)) + " for " + where.text() + ", found a '" + nodeName(*v.n) +
                   "' node",
               schemaFor(v.n->type) ? "see docs/ir_format.md §6 for what each field holds"
                                    : "'" + nodeName(*v.n) + "' is not a pypto node type; check its spelling");
    }

    void checkField(const Value& v, FieldKind kind, EnumSet enumSet, const Where& where,
                    NodeClass cls = NodeClass::Any) {
        switch (kind) {
            case FieldKind::Any: return;
            case FieldKind::Node:
                if (!v.isNode())
                    return expected(v, "", where, "a node ({\"fields\",\"id\",\"type\"} or {\"ref\": id})");
                return checkNodeClass(v, cls, where);
            case FieldKind::OptNode:
                if (!v.isNode() && v.kind != Kind::Null) return expected(v, "", where, "a node or nil");
                return checkNodeClass(v, cls, where);
            case FieldKind::NodeList:
            case FieldKind::TypeList:
            case FieldKind::StrList:
            case FieldKind::Int64List:
            case FieldKind::EnumList: {
                if (v.kind != Kind::Array) return expected(v, "", where, "an array");
                FieldKind item = kind == FieldKind::NodeList   ? FieldKind::Node
                                 : kind == FieldKind::TypeList ? FieldKind::Type
                                 : kind == FieldKind::StrList  ? FieldKind::Str
                                 : kind == FieldKind::EnumList ? FieldKind::Enum
                                                               : FieldKind::Int64;
                for (uint32_t i = 0; i < v.a->size && !failed_; ++i)
                    checkField(v.a->items[i], item, enumSet, Where::item(where, i), cls);
                return;
            }
            case FieldKind::Type: return checkType(v, where);
            case FieldKind::Span: {
                if (v.kind == Kind::Span) return;
                if (v.kind != Kind::Map) return expected(v, "", where, "a span map");
                for (const Member& m : *v.m) {
                    if (m.key == K::filename) {
                        if (m.value.kind != Kind::Str)
                            expected(m.value, "", Where::member(where, "filename"), "a string");
                    } else if (m.key == K::begin_line || m.key == K::begin_column || m.key == K::end_line ||
                               m.key == K::end_column) {
                        checkInt(m.value, where, std::numeric_limits<int64_t>::min(),
                                 std::numeric_limits<int64_t>::max(), "int64");
                    } else if (m.value.isNode() || m.value.kind == Kind::Array || m.value.kind == Kind::Map) {
                        expected(m.value, "", Where::member(where, doc_.keys().name(m.key)), "a plain value");
                    }
                }
                return;
            }
            case FieldKind::Str:
                if (v.kind != Kind::Str) expected(v, "", where, "a string");
                return;
            case FieldKind::Bool:
                if (v.kind != Kind::Bool) expected(v, "", where, "a boolean");
                return;
            case FieldKind::Int64:
                return checkInt(v, where, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                                "int64");
            case FieldKind::UInt64:
                if (v.kind == Kind::Int)
                    failAt(&v, "integer out of range for uint64 in " + where.text(), "the value must not be negative");
                else if (v.kind != Kind::UInt)
                    expected(v, "", where, "an unsigned integer");
                return;
            case FieldKind::Int32:
                return checkInt(v, where, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
                                "int32");
            case FieldKind::Float:
                if (v.kind != Kind::F64 && !v.isInteger()) expected(v, "", where, "a number");
                return;
            case FieldKind::Enum:
                if (v.kind != Kind::UInt) return expected(v, "", where, "an enum code (unsigned integer)");
                if (!enumCodeValid(enumSet, v.u))
                    failAt(&v,
                           std::string(enumSetName(enumSet)) + " code " + std::to_string(v.u) + " out of range in " +
                               where.text(),
                           "see docs/ir_format.md §7 for the valid codes");
                return;
            case FieldKind::Attrs: return checkAttrs(v, where);
            case FieldKind::Op: return checkOp(v, where);
            case FieldKind::Functions: {
                if (v.kind != Kind::Array) return expected(v, "", where, "an array of {key, value} maps");
                for (const Value& entry : *v.a) {
                    if (failed_) return;
                    if (entry.kind != Kind::Map) return expected(entry, "", where, "a {key, value} map");
                    const Value* key = entry.m->find(K::key);
                    const Value* fn = entry.m->find(K::value);
                    if (!key || !fn)
                        return failAt(&entry, "function entry without 'key' or 'value' in " + where.text(),
                                      "each entry is {\"key\": {\"is_global_var\": true, \"name\": ...}, "
                                      "\"value\": <Function node>}");
                    checkOp(*key, Where::member(where, "key"));
                    if (!fn->isNode() || fn->n->type != K::Function)
                        expected(*fn, "", Where::member(where, "value"), "a Function node");
                }
                return;
            }
        }
    }

    void checkOp(const Value& v, const Where& where) {
        if (v.kind != Kind::Map) return expected(v, "", where, "an op map {is_global_var, name}");
        const Value* global = v.m->find(K::is_global_var);
        const Value* name = v.m->find(K::name);
        if (!global || !name)
            return failAt(&v, "op map without 'is_global_var' or 'name' in " + where.text(),
                          "write ops as {\"is_global_var\": bool, \"name\": string}");
        if (global->kind != Kind::Bool)
            return expected(*global, "", Where::member(where, "is_global_var"), "a boolean");
        if (name->kind != Kind::Str) expected(*name, "", Where::member(where, "name"), "a string");
    }

    void checkType(const Value& v, const Where& where) {
        if (v.kind != Kind::Map) return expected(v, "", where, "a type map");
        const Value* kind = v.m->find(K::type_kind);
        if (!kind)
            return failAt(&v, "type map without 'type_kind' in " + where.text(), "every type names its type_kind");
        if (kind->kind != Kind::Str) return expected(*kind, "", Where::member(where, "type_kind"), "a string");
        if (!isKnownTypeKind(kind->strView()))
            return failAt(
                kind, "unknown type_kind '" + std::string(kind->strView()) + "' in " + where.text(),
                "pypto's reader rejects it (\"Unknown Type kind\"); see docs/ir_format.md §4 for the type kinds");
        for (const Member& m : *v.m) {
            if (failed_) return;
            switch (m.key) {
                case K::dtype:
                    checkField(m.value, FieldKind::Enum, EnumSet::DataType, Where::member(where, "dtype"));
                    break;
                case K::shape:
                    checkField(m.value, FieldKind::NodeList, EnumSet::None, Where::member(where, "shape"),
                               NodeClass::Expr);
                    break;
                case K::types:
                    checkField(m.value, FieldKind::TypeList, EnumSet::None, Where::member(where, "types"));
                    break;
                case K::window_buffer:
                    checkField(m.value, FieldKind::Node, EnumSet::None, Where::member(where, "window_buffer"),
                               NodeClass::WindowBuffer);
                    break;
                case K::memory_space:
                    checkField(m.value, FieldKind::Enum, EnumSet::MemorySpace, Where::member(where, "memory_space"));
                    break;
                default: break;
            }
        }
        if (failed_) return;
        if (auto broken = checkTypeRules(v, kind->strView())) failAt(broken->where, broken->message, broken->hint);
    }

    void checkAttrs(const Value& v, const Where& where) {
        if (v.kind != Kind::Array) return expected(v, "", where, "an array of {key, value} maps");
        for (const Value& entry : *v.a) {
            if (failed_) return;
            if (entry.kind != Kind::Map) return expected(entry, "", where, "a {key, value} map");
            const Value* key = entry.m->find(K::key);
            const Value* value = entry.m->find(K::value);
            if (!key || !value)
                return failAt(&entry, "attribute without 'key' or 'value' in " + where.text(),
                              "each attribute is {\"key\": string, \"value\": ...}");
            if (key->kind != Kind::Str) return expected(*key, "", Where::member(where, "key"), "a string");
            Where at = Where::attr(where, key->strView());
            if (value->kind == Kind::Map) checkTaggedValue(*value, at);
            if (failed_) return;
            if (auto broken = checkAttrRules(*value, key->strView()))
                return failAt(broken->where, broken->message, broken->hint);
        }
    }

    void checkTaggedValue(const Value& v, const Where& where) {
        const Value* tag = v.m->find(K::type);
        const Value* payload = v.m->find(K::value);
        if (!tag || tag->kind != Kind::Str) return;
        std::string_view t = tag->strView();
        auto need = [&](FieldKind kind, EnumSet e) {
            if (!payload) return failAt(&v, std::string(t) + " value without 'value' in " + where.text(), "");
            checkField(*payload, kind, e, where);
        };
        if (t == "ArgDirectionVector")
            need(FieldKind::EnumList, EnumSet::ArgDirection);
        else if (t == "ArgDirection")
            need(FieldKind::Enum, EnumSet::ArgDirection);
        else if (t == "Int32Vector") {
            if (!payload) return need(FieldKind::Any, EnumSet::None);
            if (payload->kind != Kind::Array) return expected(*payload, "", where, "an array");
            for (const Value& item : *payload->a) checkField(item, FieldKind::Int32, EnumSet::None, where);
        } else if (t == "Var" || t == "Expr") {
            if (payload && payload->kind != Kind::Null)
                checkField(*payload, FieldKind::Node, EnumSet::None, where,
                           t == "Var" ? NodeClass::Var : NodeClass::Expr);
        } else if (t == "VarList") {
            if (!payload) return need(FieldKind::Any, EnumSet::None);
            if (payload->kind != Kind::Array) return expected(*payload, "", where, "an array");
            for (const Value& item : *payload->a)
                if (item.kind != Kind::Null) checkField(item, FieldKind::Node, EnumSet::None, where, NodeClass::Var);
        } else if (t == "DataType") {
            const Value* code = v.m->find(K::code);
            if (!code) return failAt(&v, "DataType value without 'code' in " + where.text(), "");
            checkField(*code, FieldKind::Enum, EnumSet::DataType, where);
        }
    }

    // Rejects reference cycles and node chains deeper than kMaxNodeDepth (ir/graph.h).
    void checkGraph() {
        const GraphFault fault = ir::checkGraph(doc_, !quiet_);
        if (fault.kind == GraphFault::Kind::Cycle) {
            failAt(fault.edge,
                   "reference cycle: node " + std::to_string(origins_->idOf(*fault.edge->n)) +
                       " contains a reference to itself",
                   "IR is acyclic: a node may only refer to nodes outside itself");
        } else if (fault.kind == GraphFault::Kind::TooDeep) {
            failed_ = true;
            error_.pointer = pointerToNode(doc_, fault.node);
            error_.message = nodesNestedTooDeep();
            error_.hint = "pypto IR is never this deep; the file is corrupt or not pypto IR";
            if (uint32_t at = offsetOf(*fault.node); at != kUnknownOffset) error_.offset = at;
        }
    }

    Document& doc_;
    const NodeOrigins* origins_;                       ///< while reading; nullptr for checks of a document in memory
    std::function<std::string(const Value*)> locate_;  ///< set for runStructural, else pointerTo
    bool edgesIndexed_;
    bool failed_ = false;
    bool quiet_ = false;
    Error error_;
    uint32_t nearestNodeOffset_ = kUnknownOffset;
};

// A large document's check on two threads: the other thread checks every node's fields (which reads the
// document only, and with `numberEdges` writes full occurrences' aux, which no graph check reads) in chunks
// taken from a shared counter, while this one checks the graph with `graphHolds`, then takes the chunks
// left. True if every rule holds. Unreachable nodes are checked too; any failure is reported by the single
// walk that follows, as on a small document.
bool checkedOnTwoThreads(Document& doc, const std::function<bool()>& graphHolds, bool numberEdges) {
    constexpr size_t kChunk = 4096;
    std::atomic<size_t> next{0};
    std::atomic<bool> nodesFailed{false};
    auto checkChunks = [&] {
        Validator nodes(doc, nullptr, !numberEdges);
        nodes.quietly();
        const size_t count = doc.nodes().size();
        for (size_t begin = next.fetch_add(kChunk); begin < count && !nodesFailed; begin = next.fetch_add(kChunk)) {
            nodes.checkNodes(begin, std::min(begin + kChunk, count), numberEdges);
            if (nodes.failed()) nodesFailed = true;
        }
    };
    std::thread other;
    try {
        other = std::thread([&] {
            try {
                checkChunks();
            } catch (...) {  // out of memory: the single walk meets it again
                nodesFailed = true;
            }
        });
    } catch (const std::system_error&) {
        return false;
    }
    bool graphOk = false;
    try {
        graphOk = graphHolds();
        if (graphOk) checkChunks();
    } catch (...) {
        other.join();
        throw;
    }
    other.join();
    return graphOk && !nodesFailed;
}

bool passesOnTwoThreads(Document& doc, Layout* layout) {
    Validator graph(doc, nullptr, true);
    graph.quietly();
    auto graphHolds = [&] {
        if (!layout) return !graph.runStructural(false);
        return layOut(doc, *layout, true);  // the layout's walk checks the graph on its way
    };
    return checkedOnTwoThreads(doc, graphHolds, false);
}

// A large input's check on two threads: its references are resolved through the list of their slots (no
// walk), then checked as above. True if every rule holds. Otherwise the single walk runs after it (references resolved
// here stay resolved, with their input offsets) and reports the first problem in document order, as on a small input.
bool resolvesOnTwoThreads(Document& doc, const NodeOrigins& origins) {
    for (Value* slot : origins.refSlots) {
        if (slot->kind != Kind::RefId) continue;
        Node* target = origins.byId(slot->u);
        if (!target) return false;
        const uint32_t offset = slot->aux;
        *slot = Value::ref(target);
        slot->aux = offset;
    }
    Validator graph(doc, &origins, false);
    graph.quietly();
    if (!checkedOnTwoThreads(
            doc, [&] { return graph.graphHolds(); }, true))
        return false;
    for (Value* slot : origins.refSlots)
        if (slot->kind == Kind::Ref) slot->aux = slot->n->index;
    return true;
}

}  // namespace

Status resolveAndValidate(Document& doc, const NodeOrigins& origins) {
    if (doc.nodes().size() >= kParallelWalkNodes && resolvesOnTwoThreads(doc, origins) && !checkProgramRules(doc))
        return std::nullopt;
    return Validator(doc, &origins, false).run();
}

Status checkStructure(Document& doc, Layout* layout) {
    // The program's own rules first (they read only the function list): a layout made is one to write.
    if (doc.nodes().size() >= kParallelWalkNodes && !checkProgramRules(doc) && passesOnTwoThreads(doc, layout))
        return std::nullopt;
    Status broken = Validator(doc, nullptr, true).runStructural();
    // Finished on every path, so that a writer following the layout never waits for ever. A large
    // document's may be whole already (a problem in an unreachable node fails the quick check alone).
    if (layout && broken) layout->finish(false);
    if (layout && !broken && !layout->finished()) layOut(doc, *layout);
    return broken;
}

Status checkNodeShape(Document& doc, Node* node) { return Validator(doc, nullptr, true).runNode(node); }

}  // namespace ptoplug::ir
