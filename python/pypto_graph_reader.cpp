#include "pypto_graph_reader.h"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include <tsl/robin_map.h>

#include "base/allocator.h"
#include "ir/schema.h"
#include "ir/validate.h"
#include "unsupported.h"

namespace ptoplug::python {
namespace {

namespace py = pybind11;
namespace K = ir::K;
using ir::Value;

/// The members of one inline map being read (a type, an op, an attr entry), on the stack: a vector per
/// map showed in the read.
class Members {
public:
    void emplace_back(uint32_t key, Value value) {
        if (size_ == items_.size()) throw Unsupported{"a map of more members than any pypto writes"};
        items_[size_++] = {key, value};
    }
    std::pair<uint32_t, Value>* begin() { return items_.data(); }
    std::pair<uint32_t, Value>* end() { return items_.data() + size_; }
    uint32_t size() const { return size_; }

private:
    std::array<std::pair<uint32_t, Value>, 16> items_;
    uint32_t size_ = 0;
};

/// A new reference, or the Python error thrown.
py::object owned(PyObject* p) {
    if (!p) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(p);
}

int64_t asInt(PyObject* v) {
    const long long x = PyLong_AsLongLong(v);
    if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
    return x;
}

/// What a read took, as a whole, and the functions its program had.
struct ReadSize {
    PyptoOrigin::Sizes origin;
    size_t arenaBytes = 0;
    size_t functions = 0;

    /// This read scaled to a program of `count` functions.
    ReadSize scaledTo(size_t count) const {
        if (functions == 0) return {};
        auto scale = [&](size_t n) { return static_cast<size_t>(static_cast<double>(n) * count / functions); };
        return {{scale(origin.nodes), scale(origin.runs), scale(origin.values)}, scale(arenaBytes), count};
    }
};

class GraphReader {
public:
    GraphReader(ir::Document& doc, PyptoOrigin& origin, const ReadSize& last)
        : doc_(doc), origin_(origin), last_(last) {
        py::module_ core = py::module_::import("pypto.pypto_core");
        irModule_ = core.attr("ir");
        irNode_ = irModule_.attr("IRNode");
        var_ = irModule_.attr("Var");
        expr_ = irModule_.attr("Expr");
        globalVar_ = irModule_.attr("GlobalVar");
        argDirection_ = irModule_.attr("ArgDirection");
        dataType_ = core.attr("DataType");
        // The enums pypto's serializer writes by their names, which are the Python enums' names.
        for (const char* name : {"TensorLayout", "TileLayout", "PadValue"})
            namedEnums_.emplace_back(irModule_.attr(name), name);
        for (uint32_t key = 0; key < K::kCount; ++key)
            names_[key] = owned(PyUnicode_InternFromString(std::string(ir::kKnownNames[key]).c_str()));
        valueName_ = owned(PyUnicode_InternFromString("value"));
        for (uint32_t key : {K::base, K::byte_offset, K::size, K::is_pinned, K::slot_count, K::slot_index})
            memRefNames_[key] = owned(PyUnicode_InternFromString((std::string(ir::kKnownNames[key]) + "_").c_str()));
        nameName_ = owned(PyUnicode_InternFromString("name"));
        codeName_ = owned(PyUnicode_InternFromString("code"));
    }

    Value node(PyObject* obj) {
        // One probe of the table per object: its entry is the object's place in made_, which holds the node
        // once it is made (a table entry cannot be kept across the reads inside, which insert).
        const auto [it, added] = seen_.try_emplace(obj, static_cast<uint32_t>(made_.size()));
        if (!added) {
            ir::Node* made = made_[it->second];
            if (!made) throw Unsupported{"a node that contains itself"};
            return Value::ref(made);  // pypto writes every later occurrence as a reference (§2)
        }
        const uint32_t place = it->second;
        made_.push_back(nullptr);
        const uint32_t type = nodeType(obj);
        const FieldOrder& order = fieldOrder(type);
        const auto count = static_cast<uint32_t>(order.emit.size());
        std::array<Value, kMaxFields> values;
        for (uint32_t i = 0; i < count; ++i)
            if (order.emit[i]->kind != ir::FieldKind::Span) values[order.slot[i]] = field(obj, type, *order.emit[i]);
        ir::Node* n = doc_.newNode(type, count);
        // The span is read when asked for, from this object (the origin's, by the node's index): a span read
        // here was a sixth of a read, and a pass asks for few.
        if (order.spanSlot != kNoSlot) values[order.spanSlot] = ir::Document::deferredSpan(n->index);
        for (uint32_t j = 0; j < count; ++j) {
            n->fields.values[j] = values[j];
            n->fields.keys()[j] = order.keys[j];
        }
        n->fields.size = count;
        made_[place] = n;
        // The origin keeps the wrapper alive: nanobind gives one C++ object one Python wrapper only while
        // a wrapper lives, and identity is what makes a reference (§2).
        origin_.record(n, py::reinterpret_borrow<py::object>(obj));
        return Value::node(n);
    }

private:
    py::object attr(PyObject* obj, uint32_t key) { return owned(PyObject_GetAttr(obj, names_[key].ptr())); }

    /// The key id of the node's type: its Python class name is pypto's TypeName().
    uint32_t nodeType(PyObject* obj) {
        PyTypeObject* cls = Py_TYPE(obj);
        if (auto it = nodeTypes_.find(cls); it != nodeTypes_.end()) return it->second;
        if (!PyObject_IsInstance(obj, irNode_.ptr())) throw Unsupported{"a node field holding no IR node"};
        const std::string name = py::str(py::handle(reinterpret_cast<PyObject*>(cls)).attr("__name__"));
        const uint32_t type = doc_.keys().intern(name);
        if (!ir::schemaFor(type)) throw Unsupported{"a node of type " + name};
        nodeTypes_.emplace(cls, type);
        return type;
    }

    static constexpr size_t kMaxFields = 16;  ///< more than any node type has
    /// The schema's fields of a node type (every field pypto writes), node-bearing ones in pypto's emit
    /// order first (the first occurrence in that order is the one written in full), and where each goes
    /// among the node's fields, which are in key order (§1).
    static constexpr uint8_t kNoSlot = 0xFF;
    struct FieldOrder {
        std::vector<const ir::FieldSpec*> emit;
        std::vector<uint8_t> slot;   ///< by place in `emit`: the field's place in key order
        std::vector<uint16_t> keys;  ///< the keys in key order
        uint8_t spanSlot = kNoSlot;  ///< the span's place in key order
    };

    const FieldOrder& fieldOrder(uint32_t type) {
        FieldOrder& order = fieldOrders_[type];
        if (order.emit.empty()) {
            const ir::NodeSchema& schema = *ir::schemaFor(type);
            if (schema.fields.size() > kMaxFields) throw Unsupported{"a node type of more fields than expected"};
            for (const ir::FieldSpec& spec : schema.fields) order.emit.push_back(&spec);
            std::stable_sort(order.emit.begin(), order.emit.end(), [&](const ir::FieldSpec* a, const ir::FieldSpec* b) {
                return schema.emitRank[a->key] < schema.emitRank[b->key];
            });
            for (const ir::FieldSpec& spec : schema.fields) order.keys.push_back(static_cast<uint16_t>(spec.key));
            std::sort(order.keys.begin(), order.keys.end(),
                      [&](uint16_t a, uint16_t b) { return doc_.keys().less(a, b); });
            for (const ir::FieldSpec* spec : order.emit) {
                order.slot.push_back(static_cast<uint8_t>(std::find(order.keys.begin(), order.keys.end(), spec->key) -
                                                          order.keys.begin()));
                if (spec->kind == ir::FieldKind::Span) order.spanSlot = order.slot.back();
            }
        }
        return order;
    }

    /// Members sorted by key name, as every map of the format (§1).
    void fill(ir::Map& map, Members& members) {
        const ir::KeyTable& keys = doc_.keys();
        std::sort(members.begin(), members.end(),
                  [&](const auto& a, const auto& b) { return keys.less(a.first, b.first); });
        for (const auto& [key, value] : members) {
            map.values[map.size] = value;
            map.keys()[map.size++] = static_cast<uint16_t>(key);
        }
    }

    Value map(Members& members) {
        ir::Map* m = doc_.newMap(static_cast<uint32_t>(members.size()));
        fill(*m, members);
        return Value::map(m);
    }

    template <class F>
    Value list(PyObject* seq, F&& item) {
        if (!PyList_Check(seq)) throw Unsupported{"a list field holding no list"};
        const auto size = static_cast<uint32_t>(PyList_GET_SIZE(seq));
        ir::Array* a = doc_.newArray(size);
        for (uint32_t i = 0; i < size; ++i) a->items[i] = item(PyList_GET_ITEM(seq, i));
        a->size = size;
        return Value::array(a);
    }

    Value string(PyObject* s) {
        Py_ssize_t size = 0;
        const char* text = PyUnicode_AsUTF8AndSize(s, &size);
        if (!text) throw py::error_already_set();
        return doc_.newString(std::string_view(text, static_cast<size_t>(size)));
    }

    /// An enum's code (its Python `value`), or nil for None.
    Value enumCode(PyObject* e) {
        if (e == Py_None) return Value::null();
        return Value::integer(asInt(owned(PyObject_GetAttr(e, valueName_.ptr())).ptr()));
    }

    /// A double as pypto's MessagePack packer writes it: an integer when it is one (§11.7).
    static Value number(double d) {
        if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 18446744073709551616.0)
            return d >= 0 ? Value::uinteger(static_cast<uint64_t>(d)) : Value::integer(static_cast<int64_t>(d));
        return Value::f64(d);
    }

    Value field(PyObject* obj, uint32_t owner, const ir::FieldSpec& spec) {
        // A MemRef shows its own fields as base_, byte_offset_, ... (the serializer's names and a '_').
        py::object v = owner == K::MemRef && memRefNames_[spec.key]
                           ? owned(PyObject_GetAttr(obj, memRefNames_[spec.key].ptr()))
                           : attr(obj, spec.key);
        PyObject* p = v.ptr();
        switch (spec.kind) {
            case ir::FieldKind::Node: return node(p);
            case ir::FieldKind::OptNode: return p == Py_None ? Value::null() : node(p);
            case ir::FieldKind::NodeList: return list(p, [&](PyObject* item) { return node(item); });
            case ir::FieldKind::Type: return type(p);
            case ir::FieldKind::TypeList: return list(p, [&](PyObject* item) { return type(item); });
            case ir::FieldKind::Str: return string(p);
            case ir::FieldKind::StrList: return list(p, [&](PyObject* item) { return string(item); });
            case ir::FieldKind::Bool: return Value::boolean(PyObject_IsTrue(p) == 1);
            case ir::FieldKind::Int64:
            case ir::FieldKind::Int32:
            case ir::FieldKind::UInt64: return Value::integer(asInt(p));
            case ir::FieldKind::Float: return number(PyFloat_AsDouble(p));
            case ir::FieldKind::Attrs: return attrs(p);
            case ir::FieldKind::Op: return op(p);
            case ir::FieldKind::Functions: return functions(p);
            case ir::FieldKind::Int64List: return list(p, [](PyObject* item) { return Value::integer(asInt(item)); });
            case ir::FieldKind::Enum: return enumCode(p);
            case ir::FieldKind::EnumList: return list(p, [&](PyObject* item) { return enumCode(item); });
            case ir::FieldKind::Span:  // read when asked for (node())
            case ir::FieldKind::Any: break;
        }
        throw Unsupported{"a field of no known kind"};
    }

    Value dtype(PyObject* t) {
        py::object d = attr(t, K::dtype);
        return Value::integer(asInt(owned(PyObject_CallMethodNoArgs(d.ptr(), codeName_.ptr())).ptr()));
    }

    Value nodes(PyObject* seq) {
        return list(seq, [&](PyObject* item) { return node(item); });
    }

    /// A type map as SerializeType writes it (§4): nodes in the order pypto visits them.
    Value type(PyObject* t) {
        const TypeClass cls = typeClass(t);
        Members m;
        m.emplace_back(K::type_kind, cls.typeKind);
        switch (cls.form) {
            case TypeForm::Scalar: m.emplace_back(K::dtype, dtype(t)); break;
            case TypeForm::Tensor:
            case TypeForm::DistributedTensor:
            case TypeForm::Tile: {
                m.emplace_back(K::dtype, dtype(t));
                m.emplace_back(K::shape, nodes(attr(t, K::shape).ptr()));
                if (py::object memRef = attr(t, K::memref); !memRef.is_none())
                    m.emplace_back(K::memref, inlineMemRef(memRef.ptr()));
                if (cls.form == TypeForm::Tile) {
                    if (py::object view = attr(t, K::tile_view); !view.is_none())
                        m.emplace_back(K::tile_view, tileView(view.ptr()));
                    if (py::object space = attr(t, K::memory_space); !space.is_none())
                        m.emplace_back(K::memory_space, enumCode(space.ptr()));
                    break;
                }
                if (py::object view = attr(t, K::tensor_view); !view.is_none())
                    m.emplace_back(K::tensor_view, tensorView(view.ptr()));
                if (cls.form == TypeForm::DistributedTensor)
                    if (py::object window = attr(t, K::window_buffer); !window.is_none())
                        m.emplace_back(K::window_buffer, node(window.ptr()));
                break;
            }
            case TypeForm::Array: {
                m.emplace_back(K::dtype, dtype(t));
                py::object shape = attr(t, K::shape);  // pypto writes the extent only
                if (!PyList_Check(shape.ptr()) || PyList_GET_SIZE(shape.ptr()) < 1)
                    throw Unsupported{"an ArrayType without extent"};
                ir::Array* a = doc_.newArray(1);
                a->items[a->size++] = node(PyList_GET_ITEM(shape.ptr(), 0));
                m.emplace_back(K::shape, Value::array(a));
                break;
            }
            case TypeForm::Tuple:
                m.emplace_back(K::types, list(attr(t, K::types).ptr(), [&](PyObject* item) { return type(item); }));
                break;
            case TypeForm::Marker: break;
        }
        return map(m);
    }

    enum class TypeForm : uint8_t { Scalar, Tensor, DistributedTensor, Tile, Array, Tuple, Marker };
    struct TypeClass {
        TypeForm form;
        Value typeKind;  ///< pypto's TypeName(), in the document
    };

    TypeClass typeClass(PyObject* t) {
        PyTypeObject* cls = Py_TYPE(t);
        if (auto it = typeClasses_.find(cls); it != typeClasses_.end()) return it->second;
        const std::string name = py::str(py::handle(reinterpret_cast<PyObject*>(cls)).attr("__name__"));
        if (name == "Type") return unboundType(t);
        const std::string_view typeKind = name == "PtrType" ? std::string_view("Ptr") : std::string_view(name);
        if (!ir::isKnownTypeKind(typeKind)) throw Unsupported{"a type " + name};
        const TypeForm form = name == "ScalarType"              ? TypeForm::Scalar
                              : name == "TensorType"            ? TypeForm::Tensor
                              : name == "DistributedTensorType" ? TypeForm::DistributedTensor
                              : name == "TileType"              ? TypeForm::Tile
                              : name == "ArrayType"             ? TypeForm::Array
                              : name == "TupleType"             ? TypeForm::Tuple
                                                                : TypeForm::Marker;
        const TypeClass c{form, doc_.newString(typeKind)};
        typeClasses_.emplace(cls, c);
        return c;
    }

    /// A type whose class pypto does not show to Python (MemRefType, a MemRef's type) comes as a plain Type;
    /// pypto's type printer names it ("pl.MemRefType"). Only such a type of no fields is read.
    TypeClass unboundType(PyObject* t) {
        const std::string printed = py::str(irModule_.attr("python_print_type")(py::handle(t)));
        const std::string_view typeKind = std::string_view(printed).substr(printed.rfind('.') + 1);
        if (typeKind != "MemRefType") throw Unsupported{"a type printed " + printed};
        return TypeClass{TypeForm::Marker, doc_.newString(typeKind)};
    }

    Value enumName(PyObject* e) { return string(owned(PyObject_GetAttr(e, nameName_.ptr())).ptr()); }

    /// A type's MemRef, inline as SerializeMemRef writes it (§4.4): the optional members only where they
    /// differ from what pypto's reader defaults to.
    Value inlineMemRef(PyObject* r) {
        auto own = [&](uint32_t key) { return owned(PyObject_GetAttr(r, memRefNames_[key].ptr())); };
        Members m;
        py::object base = own(K::base);
        m.emplace_back(K::base, string(attr(base.ptr(), K::name_hint).ptr()));
        m.emplace_back(K::base_node, node(base.ptr()));
        m.emplace_back(K::byte_offset, node(own(K::byte_offset).ptr()));
        m.emplace_back(K::size, Value::integer(asInt(own(K::size).ptr())));
        if (PyObject_IsTrue(own(K::is_pinned).ptr()) == 1) m.emplace_back(K::is_pinned, Value::boolean(true));
        if (const int64_t slots = asInt(own(K::slot_count).ptr()); slots != 1)
            m.emplace_back(K::slot_count, Value::integer(slots));
        if (py::object slot = own(K::slot_index); !slot.is_none()) m.emplace_back(K::slot_index, node(slot.ptr()));
        return map(m);
    }

    Value tensorView(PyObject* v) {
        Members m;
        m.emplace_back(K::stride, nodes(attr(v, K::stride).ptr()));
        m.emplace_back(K::layout, enumName(attr(v, K::layout).ptr()));
        m.emplace_back(K::valid_shape, nodes(attr(v, K::valid_shape).ptr()));
        m.emplace_back(K::pad, enumName(attr(v, K::pad).ptr()));
        return map(m);
    }

    Value tileView(PyObject* v) {
        Members m;
        m.emplace_back(K::valid_shape, nodes(attr(v, K::valid_shape).ptr()));
        m.emplace_back(K::stride, nodes(attr(v, K::stride).ptr()));
        py::object start = attr(v, K::start_offset);
        m.emplace_back(K::start_offset, start.is_none() ? Value::null() : node(start.ptr()));
        m.emplace_back(K::blayout, enumName(attr(v, K::blayout).ptr()));
        m.emplace_back(K::slayout, enumName(attr(v, K::slayout).ptr()));
        m.emplace_back(K::fractal, Value::integer(asInt(attr(v, K::fractal).ptr())));
        m.emplace_back(K::pad, enumName(attr(v, K::pad).ptr()));
        m.emplace_back(K::compact, enumName(attr(v, K::compact).ptr()));
        return map(m);
    }

    Value op(PyObject* o) {
        Members m;
        m.emplace_back(K::is_global_var, Value::boolean(isA(o, globalVar_)));
        m.emplace_back(K::name, string(attr(o, K::name).ptr()));
        return map(m);
    }

    /// A dict as the list of {key, value} maps pypto's serializer writes for it (the functions, §5's kwargs and
    /// attrs), in the dict's order.
    template <class Key, class Item>
    Value keyValueList(PyObject* dict, const char* what, Key&& key, Item&& value) {
        if (!PyDict_Check(dict)) throw Unsupported{what};
        ir::Array* a = doc_.newArray(static_cast<uint32_t>(PyDict_GET_SIZE(dict)));
        Py_ssize_t pos = 0;
        PyObject *k = nullptr, *v = nullptr;
        while (PyDict_Next(dict, &pos, &k, &v)) {
            Members entry;
            entry.emplace_back(K::key, key(k));
            entry.emplace_back(K::value, value(k, v));
            a->items[a->size++] = map(entry);
        }
        return Value::array(a);
    }

    Value functions(PyObject* dict) {
        if (PyDict_Check(dict)) reserve(last_.scaledTo(static_cast<size_t>(PyDict_GET_SIZE(dict))));
        return keyValueList(
            dict, "functions that are no dict", [&](PyObject* k) { return op(k); },
            [&](PyObject*, PyObject* v) { return node(v); });
    }

    /// Room for a read of this size at once (see readPyptoGraph). The object table's buckets are made as it
    /// is sized: hence a size scaled to this program, not the last one's.
    void reserve(const ReadSize& expected) {
        doc_.reserveNodes(expected.origin.nodes);
        doc_.arena().expect(expected.arenaBytes);
        origin_.reserve(expected.origin);
        seen_.reserve(expected.origin.nodes);
        made_.reserve(expected.origin.nodes);
    }

    Value tagged(std::string_view tag, Value value) {
        Members m;
        m.emplace_back(K::type, doc_.newString(tag));
        m.emplace_back(K::value, value);
        return map(m);
    }

    bool isA(PyObject* v, const py::object& cls) {
        const int r = PyObject_IsInstance(v, cls.ptr());
        if (r < 0) throw py::error_already_set();
        return r == 1;
    }

    /// A kwargs or attrs dict as the list pypto's serializer writes (§5). Python shows some values alike
    /// that the serializer tells apart; those are read the way pypto's own constructors store them from
    /// Python (by key), or not read.
    Value attrs(PyObject* dict) {
        return keyValueList(
            dict, "attrs that are no dict", [&](PyObject* k) { return string(k); },
            [&](PyObject* k, PyObject* v) { return attrValue(k, v); });
    }

    Value attrValue(PyObject* key, PyObject* v) {
        const std::string_view name = PyUnicode_AsUTF8(key);
        if (PyBool_Check(v)) return Value::boolean(v == Py_True);
        if (PyLong_CheckExact(v)) return Value::integer(asInt(v));
        if (PyUnicode_Check(v)) return string(v);
        if (PyFloat_Check(v)) {
            // A float32 and a float64 attr are both a Python float; only an integral one is written alike.
            const Value n = number(PyFloat_AS_DOUBLE(v));
            if (n.kind == ir::Kind::F64) throw Unsupported{"a float attribute '" + std::string(name) + "'"};
            return n;
        }
        if (isA(v, dataType_)) {
            Members m;
            m.emplace_back(K::code, Value::integer(asInt(owned(PyObject_CallMethodNoArgs(v, codeName_.ptr())).ptr())));
            m.emplace_back(K::type, doc_.newString("DataType"));
            return map(m);
        }
        if (isA(v, argDirection_)) return tagged("ArgDirection", enumCode(v));
        for (const auto& [cls, tag] : namedEnums_)
            if (isA(v, cls)) return tagged(tag, enumName(v));
        if (isA(v, irNode_) && isA(v, expr_))
            return tagged(name == "task_id_var" && isA(v, var_) ? "Var" : "Expr", node(v));
        if (PyList_Check(v)) return attrList(name, v);
        throw Unsupported{"an attribute '" + std::string(name) + "' of type " + Py_TYPE(v)->tp_name};
    }

    /// A list attr: its items say what it is; an empty one is what pypto's constructor makes of it.
    Value attrList(std::string_view name, PyObject* v) {
        const Py_ssize_t size = PyList_GET_SIZE(v);
        bool directions = true, ints = true, vars = true;
        for (Py_ssize_t i = 0; i < size; ++i) {
            PyObject* item = PyList_GET_ITEM(v, i);
            directions = directions && isA(item, argDirection_);
            ints = ints && PyLong_CheckExact(item);
            vars = vars && isA(item, var_);
        }
        if (size == 0) {
            ints = name == "arg_direction_overrides";
            vars = name == "manual_dep_edges" || name == "compiler_manual_dep_edges" ||
                   name == "arg_direction_overrides_vars" || name == "dump_vars";
        }
        if (ints) return tagged("Int32Vector", list(v, [](PyObject* item) { return Value::integer(asInt(item)); }));
        if (vars) return tagged("VarList", list(v, [&](PyObject* item) { return node(item); }));
        if (directions) return tagged("ArgDirectionVector", list(v, [&](PyObject* item) { return enumCode(item); }));
        throw Unsupported{"a list attribute '" + std::string(name) + "' of mixed items"};
    }

    ir::Document& doc_;
    PyptoOrigin& origin_;
    const ReadSize last_;
    py::object irModule_, irNode_, var_, expr_, globalVar_, argDirection_, dataType_;
    std::vector<std::pair<py::object, const char*>> namedEnums_;
    std::array<py::object, K::kCount> names_;
    py::object valueName_, nameName_, codeName_;
    std::array<py::object, K::kCount> memRefNames_;  ///< a MemRef's own fields, by key: "base_", ...
    /// Every object read (its wrapper kept alive by the origin) and its place in made_; both on huge pages,
    /// see PyptoOrigin.
    tsl::robin_map<PyObject*, uint32_t, std::hash<PyObject*>, std::equal_to<>,
                   LargeAllocator<std::pair<PyObject*, uint32_t>>>
        seen_;
    LargeVector<ir::Node*> made_;  ///< by place: the node made of the object, null while it is being read
    tsl::robin_map<PyTypeObject*, uint32_t> nodeTypes_;
    std::array<FieldOrder, K::kCount> fieldOrders_;  ///< by node type (known types only)
    tsl::robin_map<PyTypeObject*, TypeClass> typeClasses_;
};

}  // namespace

std::unique_ptr<ir::Document> readPyptoGraph(PyObject* program, const std::shared_ptr<PyptoOrigin>& origin,
                                             std::string& unsupported) {
    // A read takes at once the room the last one took, scaled by the functions of the two programs: tables
    // that grow step by step are copied and land on fresh 4 KiB pages each time (after the first call in a
    // process, about 1,500 page faults a read of 1,000 of pto-gen's functions, a quarter of its time).
    // Mostly address space: pages are touched as filled. Read at the start and written at the end, with no
    // Python code between that could let another thread's read run (it is only a hint).
    static ReadSize last;
    auto doc = std::make_unique<ir::Document>();
    doc->setSpanSource(origin);
    std::unique_ptr<GraphReader> reader;
    try {
        reader = std::make_unique<GraphReader>(*doc, *origin, last);
    } catch (const py::error_already_set&) {
        unsupported = "a pypto without its object model (pypto.pypto_core.ir)";
        return nullptr;
    }
    try {
        doc->root() = reader->node(program);
        if (doc->nodeType(doc->root().n->index) != K::Program) throw Unsupported{"a root that is no Program"};
    } catch (const Unsupported& u) {
        unsupported = u.what;
        return nullptr;
    }
    // The reader's rules (field kinds, node classes, pypto's program rules) hold for what pypto's objects
    // hold, except what pypto's constructors let through and its reader refuses: that goes the serializer's
    // way, which reports it as reading pypto's bytes of it does.
    if (ir::checkStructure(*doc)) {
        unsupported = "a program pypto's reader refuses";
        return nullptr;
    }
    doc->setInputFormat(ir::Format::MsgPack);
    last = {origin->sizes(), doc->arena().bytesReserved(), ir::itemsOf(doc->root().n->field(K::functions)).size()};
    return doc;
}

}  // namespace ptoplug::python
