#include "pypto_graph_writer.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tsl/robin_map.h>

#include "base/allocator.h"
#include "ir/schema.h"
#include "unsupported.h"

namespace ptoplug::python {
namespace {

namespace py = pybind11;
namespace K = ir::K;
using ir::Value;

class GraphWriter {
public:
    GraphWriter(const ir::Document& doc, const PyptoOrigin& origin)
        : doc_(doc),
          origin_(origin),
          spanSource_(dynamic_cast<const PyptoOrigin*>(doc.spanSource())),
          built_(doc.nodes().size()),
          state_(doc.nodes().size(), State::Unknown),
          changed_(doc.nodes().size(), 0) {
        for (uint32_t key = 0; key < K::kCount; ++key)
            names_[key] = py::reinterpret_steal<py::object>(
                PyUnicode_InternFromString(std::string(ir::kKnownNames[key]).c_str()));
        py::module_ core = py::module_::import("pypto.pypto_core");
        ir_ = core.attr("ir");
        py::object dataType = core.attr("DataType");
        for (py::handle name : py::reinterpret_steal<py::list>(PyObject_Dir(dataType.ptr()))) {
            py::object value = dataType.attr(name);
            if (!py::isinstance(value, dataType)) continue;
            const auto code = value.attr("code")().cast<uint64_t>();
            if (code >= dataTypes_.size()) dataTypes_.resize(code + 1);
            dataTypes_[code] = value;
        }
        const std::pair<ir::EnumSet, const char*> enums[] = {
            {ir::EnumSet::FunctionType, "FunctionType"},
            {ir::EnumSet::Level, "Level"},
            {ir::EnumSet::Role, "Role"},
            {ir::EnumSet::ParamDirection, "ParamDirection"},
            {ir::EnumSet::ArgDirection, "ArgDirection"},
            {ir::EnumSet::ForKind, "ForKind"},
            {ir::EnumSet::SplitMode, "SplitMode"},
            {ir::EnumSet::MemorySpace, "MemorySpace"},
            {ir::EnumSet::InlineLanguage, "InlineLanguage"},
        };
        for (const auto& [set, name] : enums) enums_[static_cast<size_t>(set)] = ir_.attr(name);
    }

    py::object node(const ir::Node* n) {
        py::object& built = built_[n->index];
        if (!built) built = rebuilt(n) ? build(n) : *origin_.objectOf(n);
        return built;
    }

private:
    enum class State : uint8_t { Unknown, Visiting, Kept, Rebuilt };

    /// Whether `n` needs a new pypto object: it is new, a field of it changed, or a node it holds does
    /// (pypto's objects are immutable: a parent of a new object is new). Notes which fields changed.
    bool rebuilt(const ir::Node* n) {
        State& s = state_[n->index];
        if (s == State::Visiting) throw Unsupported{"a node that contains itself"};
        if (s != State::Unknown) return s == State::Rebuilt;
        s = State::Visiting;
        uint32_t changed = origin_.objectOf(n) ? origin_.changedFields(n) : ~0u;
        for (uint32_t i = 0; i < n->fields.size; ++i)
            if (!(changed >> i & 1) && holdsRebuilt(n->fields.values[i])) changed |= 1u << i;
        changed_[n->index] = changed;
        state_[n->index] = changed ? State::Rebuilt : State::Kept;
        return changed != 0;
    }

    bool holdsRebuilt(const Value& v) {
        bool any = false;
        ir::forEachNodeSlot(v, [&](const Value& slot) { any = any || rebuilt(slot.n); });
        return any;
    }

    const Value& require(const ir::Node* n, uint32_t key) {
        const Value* v = n->field(key);
        if (!v) throw Unsupported{"a node without its field " + std::string(doc_.keys().name(key))};
        return *v;
    }

    /// Field `key` of `n`: the input's own Python value where the field is as read and holds no new node
    /// (read again from the input's object: pypto gives the same objects), else made from the document.
    py::object field(const ir::Node* n, uint32_t key) {
        const Value& v = require(n, key);
        if (const py::object* from = origin_.objectOf(n); from && !(changed_[n->index] >> n->fields.indexOf(key) & 1))
            return from->attr(names_[key]);
        const ir::NodeSchema* schema = ir::schemaFor(n->type);
        for (const ir::FieldSpec& spec : schema->fields)
            if (spec.key == key) return value(spec, v);
        throw Unsupported{"a field outside the schema"};
    }

    py::object value(const ir::FieldSpec& spec, const Value& v) {
        switch (spec.kind) {
            case ir::FieldKind::Node: return nodeValue(v);
            case ir::FieldKind::OptNode: return v.kind == ir::Kind::Null ? py::object(py::none()) : nodeValue(v);
            case ir::FieldKind::NodeList: return list(v, [&](const Value& item) { return nodeValue(item); });
            case ir::FieldKind::Type: return type(v);
            case ir::FieldKind::TypeList: return list(v, [&](const Value& item) { return type(item); });
            case ir::FieldKind::Span: return span(v);
            case ir::FieldKind::Str: return string(v);
            case ir::FieldKind::StrList: return list(v, [&](const Value& item) { return string(item); });
            case ir::FieldKind::Bool: return py::bool_(v.kind == ir::Kind::Bool && v.b);
            case ir::FieldKind::Int64:
            case ir::FieldKind::Int32:
            case ir::FieldKind::UInt64:
            case ir::FieldKind::Int64List:
                if (v.kind == ir::Kind::Array) return list(v, [&](const Value& item) { return integer(item); });
                return integer(v);
            case ir::FieldKind::Float:
                return py::float_(v.kind == ir::Kind::F64    ? v.d
                                  : v.kind == ir::Kind::UInt ? static_cast<double>(v.u)
                                                             : static_cast<double>(v.i));
            case ir::FieldKind::Attrs: return attrs(v);
            case ir::FieldKind::Op: return op(v);
            case ir::FieldKind::Enum: return enumValue(spec.enumSet, v);
            case ir::FieldKind::EnumList:
                return list(v, [&](const Value& item) { return enumValue(spec.enumSet, item); });
            case ir::FieldKind::Functions:
            case ir::FieldKind::Any: break;
        }
        throw Unsupported{"a field of no kind built here"};
    }

    py::object nodeValue(const Value& v) {
        if (!v.isNode()) throw Unsupported{"a node field holding no node"};
        return node(v.n);
    }

    template <class F>
    py::list list(const Value& v, F&& item) {
        if (v.kind != ir::Kind::Array) throw Unsupported{"a list field holding no list"};
        py::list out(v.a->size);
        for (uint32_t i = 0; i < v.a->size; ++i) out[i] = item(v.a->items[i]);
        return out;
    }

    static py::object string(const Value& v) {
        if (v.kind != ir::Kind::Str) throw Unsupported{"a string field holding no string"};
        return py::str(v.s, v.aux);
    }

    static py::object integer(const Value& v) {
        if (v.kind == ir::Kind::UInt) return py::int_(v.u);
        if (v.kind == ir::Kind::Int) return py::int_(v.i);
        throw Unsupported{"an integer field holding no integer"};
    }

    py::object enumValue(ir::EnumSet set, const Value& v) {
        if (v.kind == ir::Kind::Null) return py::none();
        const py::object& cls = enums_[static_cast<size_t>(set)];
        if (!cls || v.kind != ir::Kind::UInt) throw Unsupported{"an enum built here"};
        return cls(v.u);
    }

    py::object dataType(const Value* code) {
        if (!code || code->kind != ir::Kind::UInt || code->u >= dataTypes_.size() || !dataTypes_[code->u])
            throw Unsupported{"a dtype code pypto does not name"};
        return dataTypes_[code->u];
    }

    /// The dtype of expression `n`'s type (what pypto's scalar constructors take instead of a type).
    py::object dtypeOf(const ir::Node* n) {
        const Value& t = require(n, K::type);
        return dataType(t.kind == ir::Kind::Map ? t.m->find(K::dtype) : nullptr);
    }

    /// A span as pypto's Span: a span read from the input is its node's own; one object per span value (a
    /// Span is copied into the node made with it, and the new nodes of a pass mostly take the span of the
    /// node they stand for).
    py::object span(const Value& v) {
        if (v.kind != ir::Kind::Span) throw Unsupported{"a span that is no span"};
        const std::pair<uint64_t, uint64_t> key{v.u, uint64_t{v.aux} << 24 | uint64_t{v.packed} << 16 | v.file};
        const bool cached = v.packed != ir::kSpanInArena;
        if (cached)
            if (auto it = spans_.find(key); it != spans_.end()) return it->second;
        py::object out;
        if (spanSource_ && v.packed == ir::kSpanDeferred) {
            out = spanSource_->spanObject(v.aux);
        } else {
            Expected<ir::Span> s = doc_.span(v);
            if (!s) throw Unsupported{s.error().message};
            out = ir_.attr("Span")(py::str(s->file.data(), s->file.size()), s->beginLine, s->beginColumn, s->endLine,
                                   s->endColumn);
        }
        if (cached) spans_.emplace(key, out);
        return out;
    }

    py::object op(const Value& v) {
        const Value* global = v.kind == ir::Kind::Map ? v.m->find(K::is_global_var) : nullptr;
        const Value* name = v.kind == ir::Kind::Map ? v.m->find(K::name) : nullptr;
        if (!global || !name || name->kind != ir::Kind::Str) throw Unsupported{"an op that is no op"};
        // A GlobalVar or Op of the name, as pypto's deserializer makes them; one object a name (an op names
        // what it calls and holds nothing else, and pypto's own calls share the registry's).
        const bool isGlobal = global->kind == ir::Kind::Bool && global->b;
        py::object& made = ops_[isGlobal][std::string(name->strView())];
        if (!made) made = ir_.attr(isGlobal ? "GlobalVar" : "Op")(string(*name));
        return made;
    }

    /// The nodes listed under `key` of an inline map (none when absent, as pypto writes no empty list there).
    py::list nodesAt(const ir::Map& m, uint32_t key) {
        const Value* nodes = m.find(key);
        return nodes ? list(*nodes, [&](const Value& item) { return nodeValue(item); }) : py::list();
    }

    /// A type map (§4) as pypto's type object.
    py::object type(const Value& v) {
        const Value* kind = v.kind == ir::Kind::Map ? v.m->find(K::type_kind) : nullptr;
        if (!kind || kind->kind != ir::Kind::Str) throw Unsupported{"a type that is no type"};
        const ir::Map& m = *v.m;
        const std::string_view name = kind->strView();
        auto nodes = [&](uint32_t key) { return nodesAt(m, key); };
        if (name == "ScalarType") return ir_.attr("ScalarType")(dataType(m.find(K::dtype)));
        if (name == "TensorType" || name == "DistributedTensorType") {
            if (m.find(K::memref)) throw Unsupported{"a type with a MemRef"};
            py::object cls = ir_.attr(py::str(name.data(), name.size()));
            const Value* window = m.find(K::window_buffer);
            const Value* view = m.find(K::tensor_view);
            if (window && view) throw Unsupported{"a window's type with a tensor view"};
            if (window)
                return cls(nodes(K::shape), dataType(m.find(K::dtype)), py::arg("window_buffer") = nodeValue(*window));
            return cls(nodes(K::shape), dataType(m.find(K::dtype)), py::none(),
                       view ? tensorView(*view) : py::object(py::none()));
        }
        if (name == "TileType") {
            if (m.find(K::memref)) throw Unsupported{"a type with a MemRef"};
            const Value* view = m.find(K::tile_view);
            const Value* space = m.find(K::memory_space);
            return ir_.attr("TileType")(
                nodes(K::shape), dataType(m.find(K::dtype)), py::arg("memref") = py::none(),
                py::arg("tile_view") = view ? tileView(*view) : py::object(py::none()),
                py::arg("memory_space") = space ? enumValue(ir::EnumSet::MemorySpace, *space) : py::object(py::none()));
        }
        if (name == "ArrayType") {
            py::list shape = nodes(K::shape);
            if (shape.empty()) throw Unsupported{"an ArrayType without extent"};
            return ir_.attr("ArrayType")(dataType(m.find(K::dtype)), shape[0]);
        }
        if (name == "TupleType") {
            const Value* types = m.find(K::types);
            return ir_.attr("TupleType")(types ? list(*types, [&](const Value& item) { return type(item); })
                                               : py::list());
        }
        if (m.size == 1) {
            // A type of no fields is one object for all (pypto's types are immutable and shared).
            py::object& marker = markerTypes_[std::string(name)];
            const std::string cls = name == "Ptr" ? "PtrType" : std::string(name);
            if (!marker && !py::hasattr(ir_, cls.c_str())) throw Unsupported{"a type " + cls + " Python cannot make"};
            if (!marker) marker = ir_.attr(cls.c_str())();
            return marker;
        }
        throw Unsupported{"a type " + std::string(name)};
    }

    py::object named(const char* enumName, const Value* v) {
        if (!v || v->kind != ir::Kind::Str) throw Unsupported{"an enum name that is no string"};
        return ir_.attr(enumName).attr(string(*v));
    }

    py::object tensorView(const Value& v) {
        if (v.kind != ir::Kind::Map) throw Unsupported{"a tensor view that is no map"};
        const ir::Map& m = *v.m;
        auto nodes = [&](uint32_t key) { return nodesAt(m, key); };
        return ir_.attr("TensorView")(nodes(K::stride), named("TensorLayout", m.find(K::layout)), nodes(K::valid_shape),
                                      named("PadValue", m.find(K::pad)));
    }

    py::object tileView(const Value& v) {
        if (v.kind != ir::Kind::Map) throw Unsupported{"a tile view that is no map"};
        const ir::Map& m = *v.m;
        auto nodes = [&](uint32_t key) { return nodesAt(m, key); };
        const Value* start = m.find(K::start_offset);
        const Value* fractal = m.find(K::fractal);
        return ir_.attr("TileView")(nodes(K::valid_shape), nodes(K::stride),
                                    start && start->isNode() ? nodeValue(*start) : py::object(py::none()),
                                    named("TileLayout", m.find(K::blayout)), named("TileLayout", m.find(K::slayout)),
                                    fractal ? integer(*fractal) : py::int_(512), named("PadValue", m.find(K::pad)),
                                    named("CompactMode", m.find(K::compact)));
    }

    /// A kwargs or attrs list (§5) as the dict pypto's constructors take, of the values the reader reads.
    py::object attrs(const Value& v) {
        if (v.kind == ir::Kind::Null) return py::none();
        if (v.kind != ir::Kind::Array) throw Unsupported{"attrs that are no list"};
        py::dict out;
        for (const Value& entry : *v.a) {
            const Value* key = entry.kind == ir::Kind::Map ? entry.m->find(K::key) : nullptr;
            const Value* value = entry.kind == ir::Kind::Map ? entry.m->find(K::value) : nullptr;
            if (!key || !value || key->kind != ir::Kind::Str) throw Unsupported{"an attr that is no entry"};
            py::object name = string(*key);
            if (out.contains(name)) throw Unsupported{"an attr given twice"};
            out[name] = attrValue(*value);
        }
        return out;
    }

    py::object attrValue(const Value& v) {
        switch (v.kind) {
            case ir::Kind::Bool: return py::bool_(v.b);
            case ir::Kind::UInt:
            case ir::Kind::Int: return integer(v);
            case ir::Kind::Str: return string(v);
            case ir::Kind::F64: return py::float_(v.d);
            case ir::Kind::Map: break;
            default: throw Unsupported{"an attr value built here"};
        }
        const Value* tag = v.m->find(K::type);
        const Value* value = v.m->find(K::value);
        if (!tag || tag->kind != ir::Kind::Str) throw Unsupported{"an untagged attr value"};
        const std::string_view t = tag->strView();
        if (t == "DataType") return dataType(v.m->find(K::code));
        if (!value) throw Unsupported{"a tagged attr without its value"};
        if (t == "ArgDirection") return enumValue(ir::EnumSet::ArgDirection, *value);
        if (t == "ArgDirectionVector")
            return list(*value, [&](const Value& item) { return enumValue(ir::EnumSet::ArgDirection, item); });
        if (t == "Int32Vector") return list(*value, [&](const Value& item) { return integer(item); });
        if (t == "VarList") return list(*value, [&](const Value& item) { return nodeValue(item); });
        if (t == "Var" || t == "Expr") return nodeValue(*value);
        if (t == "TensorLayout" || t == "TileLayout" || t == "PadValue") return named(std::string(t).c_str(), value);
        throw Unsupported{"an attr of type " + std::string(t)};
    }

    /// The Python class of `n`'s type (pypto's classes are named as its node types). A new reference: the
    /// table grows while the nodes inside are built.
    py::object cls(const ir::Node* n) {
        if (n->type >= classes_.size()) classes_.resize(n->type + 1);
        py::object& c = classes_[n->type];
        if (!c) c = ir_.attr(py::str(std::string(doc_.keys().name(n->type))));
        return c;
    }

    /// A new pypto object for `n`, by its Python constructor, from its fields.
    py::object build(const ir::Node* n) {
        const uint32_t t = n->type;
        auto f = [&](uint32_t key) { return field(n, key); };
        py::object span = f(K::span);
        const py::object c = cls(n);
        py::object out;
        if (ir::isBinaryOpType(t)) {
            out = c(f(K::left), f(K::right), dtypeOf(n), span);
        } else if (ir::isUnaryOpType(t)) {
            out = c(f(K::operand), dtypeOf(n), span);
        } else if (ir::isScopeStmtType(t)) {
            out = scope(n, c, span);
        } else {
            switch (t) {
                case K::Var: out = c(f(K::name_hint), f(K::type), span); break;
                case K::IterArg: out = c(f(K::name_hint), f(K::type), f(K::initValue), span); break;
                case K::ConstInt:
                case K::ConstFloat: out = c(f(K::value), dtypeOf(n), span); break;
                case K::ConstBool: out = c(f(K::value), span); break;
                case K::Call: out = c(f(K::op), f(K::args), f(K::kwargs), f(K::attrs), f(K::type), span); break;
                case K::Submit:
                    out = c(f(K::op), f(K::args), f(K::deps), f(K::kwargs), f(K::attrs), f(K::type), span,
                            py::arg("core_num") = f(K::core_num), py::arg("sync_start") = f(K::sync_start),
                            py::arg("allow_early_resolve") = f(K::allow_early_resolve),
                            py::arg("predicate") = f(K::predicate));
                    break;
                case K::MakeTuple: out = c(f(K::elements), span); break;
                case K::TupleGetItemExpr: out = c(f(K::tuple), f(K::index), span); break;
                case K::AssignStmt: out = c(f(K::var), f(K::value), span); break;
                case K::EvalStmt: out = c(f(K::expr), span); break;
                case K::ReturnStmt:
                case K::YieldStmt: out = c(f(K::value), span); break;
                case K::SeqStmts: out = c(f(K::stmts), span); break;
                case K::IfStmt:
                    out = c(f(K::condition), f(K::then_body), f(K::else_body), f(K::return_vars), span);
                    break;
                case K::ForStmt:
                    out = c(f(K::loop_var), f(K::start), f(K::stop), f(K::step), f(K::iter_args), f(K::body),
                            f(K::return_vars), span, py::arg("kind") = f(K::kind), py::arg("attrs") = f(K::attrs));
                    break;
                case K::WhileStmt:
                    out = c(f(K::condition), f(K::iter_args), f(K::body), f(K::return_vars), span);
                    break;
                case K::BreakStmt:
                case K::ContinueStmt: out = c(span); break;
                case K::InlineStmt: out = c(f(K::body), f(K::language), span); break;
                case K::WindowBuffer: out = windowBuffer(n, c, span); break;
                case K::Function: out = function(n, c, span); break;
                case K::Program: out = program(n, c, span); break;
                default: throw Unsupported{"a new " + std::string(doc_.keys().name(t))};
            }
        }
        if (ir::isStmtType(t))
            if (const Value* comments = n->field(K::leading_comments); comments && ir::itemsOf(comments).size())
                ir_.attr("attach_leading_comments")(out, f(K::leading_comments));
        return out;
    }

    /// A scope statement: pypto's constructors take no attrs, so only one without any is built here.
    py::object scope(const ir::Node* n, const py::object& c, const py::object& span) {
        auto f = [&](uint32_t key) { return field(n, key); };
        if (!ir::itemsOf(n->field(K::attrs)).empty()) throw Unsupported{"a new scope with attrs"};
        auto common = [&](auto&&... own) {
            return c(own..., py::arg("name_hint") = f(K::name_hint), py::arg("body") = f(K::body),
                     py::arg("span") = span);
        };
        switch (n->type) {
            case K::InCoreScopeStmt:
                if (require(n, K::split).kind == ir::Kind::Null)
                    throw Unsupported{"a new InCoreScopeStmt without split"};
                return common(py::arg("split") = f(K::split));
            case K::ClusterScopeStmt: return common();
            case K::HierarchyScopeStmt: return common(py::arg("level") = f(K::level), py::arg("role") = f(K::role));
            case K::SpmdScopeStmt:
                return common(py::arg("core_num") = f(K::core_num), py::arg("sync_start") = f(K::sync_start));
            case K::SplitAivScopeStmt: return common(py::arg("split") = f(K::split), py::arg("count") = f(K::count));
            case K::RuntimeScopeStmt: return common(py::arg("manual") = f(K::manual));
            case K::CommDomainScopeStmt:
                return common(py::arg("devices") = f(K::devices), py::arg("slots") = f(K::slots));
            default: throw Unsupported{"a new " + std::string(doc_.keys().name(n->type))};
        }
    }

    /// pypto's constructor names a WindowBuffer after its base and types it WindowBufferType: one that is
    /// named or typed otherwise is not built here.
    py::object windowBuffer(const ir::Node* n, const py::object& c, const py::object& span) {
        const Value& base = require(n, K::base);
        const Value* baseName = base.isNode() ? base.n->field(K::name_hint) : nullptr;
        const Value& name = require(n, K::name_hint);
        const Value& type = require(n, K::type);
        const Value* kind = type.kind == ir::Kind::Map ? type.m->find(K::type_kind) : nullptr;
        if (!baseName || baseName->kind != ir::Kind::Str || name.kind != ir::Kind::Str ||
            baseName->strView() != name.strView() || !kind || kind->kind != ir::Kind::Str ||
            kind->strView() != "WindowBufferType")
            throw Unsupported{"a new WindowBuffer named or typed apart from its base"};
        return c(field(n, K::base), field(n, K::size), field(n, K::load_from_host), field(n, K::store_to_host), span);
    }

    py::object function(const ir::Node* n, const py::object& c, const py::object& span) {
        auto f = [&](uint32_t key) { return field(n, key); };
        py::list params = f(K::params);
        py::list directions = f(K::param_directions);
        if (directions.size() != params.size()) throw Unsupported{"a function with a direction per param missing"};
        py::list withDirections;
        for (size_t i = 0; i < params.size(); ++i) withDirections.append(py::make_tuple(params[i], directions[i]));
        return c(f(K::name), withDirections, f(K::return_types), f(K::body), span, py::arg("type") = f(K::func_type),
                 py::arg("level") = f(K::level), py::arg("role") = f(K::role), py::arg("attrs") = f(K::attrs),
                 py::arg("requires_runtime_binding") = f(K::requires_runtime_binding));
    }

    py::object program(const ir::Node* n, const py::object& c, const py::object& span) {
        py::list functions;
        for (const Value& entry : ir::itemsOf(&require(n, K::functions))) {
            const Value* fn = entry.kind == ir::Kind::Map ? entry.m->find(K::value) : nullptr;
            if (!fn) throw Unsupported{"a function entry without its function"};
            functions.append(nodeValue(*fn));
        }
        return c(functions, field(n, K::name), span);
    }

    const ir::Document& doc_;
    const PyptoOrigin& origin_;
    /// Where the document's deferred spans come from: its own source, as the origin written against may be
    /// another (an empty one: all new).
    const PyptoOrigin* spanSource_;
    // By node index, on huge pages as the document's tables.
    LargeVector<py::object> built_;  ///< its pypto object, once made or found
    LargeVector<State> state_;
    LargeVector<uint32_t> changed_;            ///< its fields that changed (rebuilt), by place
    std::array<py::object, K::kCount> names_;  ///< the known names as Python attribute names
    py::object ir_;
    std::vector<py::object> dataTypes_;  ///< by code
    std::vector<py::object> classes_;    ///< by node type
    struct PairHash {
        size_t operator()(const std::pair<uint64_t, uint64_t>& p) const noexcept {
            // Mixed so that the low bits (the table's) depend on every coordinate.
            uint64_t h = (p.first ^ (p.second * 0x9E3779B97F4A7C15ULL)) * 0xFF51AFD7ED558CCDULL;
            return static_cast<size_t>(h ^ (h >> 32));
        }
    };
    tsl::robin_map<std::pair<uint64_t, uint64_t>, py::object, PairHash> spans_;  ///< by span value
    std::unordered_map<std::string, py::object> markerTypes_;                    ///< by type_kind
    std::unordered_map<std::string, py::object> ops_[2];                         ///< by name: Ops, GlobalVars
    std::array<py::object, static_cast<size_t>(ir::EnumSet::InlineLanguage) + 1> enums_;
};

}  // namespace

py::object writePyptoGraph(const ir::Document& doc, const PyptoOrigin& origin, std::string& unsupported) {
    try {
        GraphWriter writer(doc, origin);
        return writer.node(doc.root().n);
    } catch (const Unsupported& u) {
        unsupported = u.what;
        return py::none();
    } catch (py::error_already_set& e) {
        // A constructor that refuses what pypto's deserializer may take (it reads fields, not through the
        // Python constructors): that way gives what it gives, as before. Only errors, not interrupts.
        if (!e.matches(PyExc_Exception)) throw;
        unsupported = std::string("pypto's constructor refused it: ") + e.what();
        return py::none();
    }
}

}  // namespace ptoplug::python
