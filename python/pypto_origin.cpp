#include "pypto_origin.h"

#include <string>

namespace ptoplug::python {
namespace {

/// A value flattened: arrays and maps become a header (kind and size) and their contents, a node its
/// identity. Two values hold the same exactly where their flattenings are the same bytes (a string
/// counts as changed when it was replaced, even by the same text: a pass that copies one rebuilds a
/// little more than it must, never less).
void flatten(const ir::Value& v, LargeVector<ir::Value>& out) {
    ir::Value header;
    switch (v.kind) {
        case ir::Kind::Array:
            header.kind = ir::Kind::Array;
            header.aux = v.a->size;
            out.push_back(header);
            for (const ir::Value& item : *v.a) flatten(item, out);
            return;
        case ir::Kind::Map:
            header.kind = ir::Kind::Map;
            header.aux = v.m->size;
            out.push_back(header);
            for (auto member : *v.m) {
                out.push_back(ir::Value::uinteger(member.key));
                flatten(member.value, out);
            }
            return;
        case ir::Kind::Node:
        case ir::Kind::Ref: out.push_back(ir::Value::node(v.n)); return;
        default: out.push_back(v); return;
    }
}

/// The same bits: the union as its widest member, which every constructor of a Value zeroes first.
bool same(const ir::Value& a, const ir::Value& b) {
    return a.kind == b.kind && a.packed == b.packed && a.file == b.file && a.aux == b.aux && a.u == b.u;
}

/// Whether `v` flattens to the values at `at` (and past them, where `at` is left), without flattening it:
/// the walk over every node of a program after a pass allocates nothing.
bool matches(const ir::Value& v, const ir::Value*& at, const ir::Value* end) {
    if (at == end) return false;
    ir::Value header;
    switch (v.kind) {
        case ir::Kind::Array:
            header.kind = ir::Kind::Array;
            header.aux = v.a->size;
            if (!same(*at++, header)) return false;
            for (const ir::Value& item : *v.a)
                if (!matches(item, at, end)) return false;
            return true;
        case ir::Kind::Map:
            header.kind = ir::Kind::Map;
            header.aux = v.m->size;
            if (!same(*at++, header)) return false;
            for (auto member : *v.m)
                if (at == end || !same(*at++, ir::Value::uinteger(member.key)) || !matches(member.value, at, end))
                    return false;
            return true;
        case ir::Kind::Node:
        case ir::Kind::Ref: return same(*at++, ir::Value::node(v.n));
        default: return same(*at++, v);
    }
}

/// "Type: text" of a Python exception, whatever its text holds (its type's name alone if it has none).
std::string describe(const pybind11::object& exception) {
    PyObject* text = PyObject_Str(exception.ptr());
    if (!text) PyErr_Clear();
    PyObject* bytes = text ? PyUnicode_AsEncodedString(text, "utf-8", "backslashreplace") : nullptr;
    if (text && !bytes) PyErr_Clear();
    std::string out = Py_TYPE(exception.ptr())->tp_name;
    if (bytes && PyBytes_GET_SIZE(bytes) > 0) out += std::string(": ") + PyBytes_AS_STRING(bytes);
    Py_XDECREF(bytes);
    Py_XDECREF(text);
    return out;
}

}  // namespace

void PyptoOrigin::record(ir::Node* node, pybind11::object object) {
    // The snapshot of its fields now, while they are in cache: they are final (a node is made after
    // everything it holds).
    if (node->index != nodes_.size()) pybind11::pybind11_fail("a pypto node read out of order");
    nodes_.push_back(node);
    objects_.push_back(std::move(object));
    for (auto member : node->fields) {
        const auto begin = static_cast<uint32_t>(flat_.size());
        flatten(member.value, flat_);
        runs_.push_back({member.key, begin, static_cast<uint32_t>(flat_.size())});
    }
    firstRun_.push_back(static_cast<uint32_t>(runs_.size()));
}

pybind11::object PyptoOrigin::spanObject(uint32_t index) const {
    if (!PyGILState_Check()) pybind11::pybind11_fail("a pypto span read without the GIL");
    if (index >= objects_.size()) throw pybind11::index_error("no node was read as number " + std::to_string(index));
    return objects_[index].attr("span");
}

Expected<ir::Span> PyptoOrigin::span(uint32_t index) const {
    try {
        pybind11::object s = spanObject(index);
        auto coordinate = [&](const char* name) { return s.attr(name).cast<int32_t>(); };
        std::string file;
        try {
            file = s.attr("filename").cast<std::string>();
        } catch (pybind11::error_already_set& e) {
            // pypto keeps a file name as the bytes it was given, which Python reads as UTF-8; bytes that are
            // not are in the decoding error, and are what pypto's serializer writes.
            if (!e.matches(PyExc_UnicodeDecodeError)) throw;
            file = e.value().attr("object").cast<std::string>();
        }
        return ir::Span{*files_.insert(std::move(file)).first, coordinate("begin_column"), coordinate("begin_line"),
                        coordinate("end_column"), coordinate("end_line")};
    } catch (const std::exception& e) {
        // What pypto's object raised, a coordinate that is no int, a number no node was read as, or no GIL.
        Error error;
        error.message = "the span of pypto node " + std::to_string(index) + " (in reading order) cannot be read: ";
        error.hint = "every pypto IR node has a Span with a file name and four int coordinates";
        if (!PyGILState_Check()) {
            error.message += e.what();
            return error;
        }
        // Kept for takeFailure: what Python raised, else a TypeError saying what broke.
        pybind11::object failure;
        if (const auto* raised = dynamic_cast<const pybind11::error_already_set*>(&e))
            failure = raised->value();
        else if (!(failure = pybind11::reinterpret_steal<pybind11::object>(
                       PyObject_CallFunction(PyExc_TypeError, "s", e.what()))))
            PyErr_Clear();
        error.message += failure ? describe(failure) : std::string(e.what());
        if (failure && failure_.is_none()) failure_ = std::move(failure);
        return error;
    }
}

uint32_t PyptoOrigin::changedFields(const ir::Node* n) const {
    const uint32_t first = firstRun_[n->index];
    if (n->fields.size != firstRun_[n->index + 1] - first) return ~0u;
    uint32_t changed = 0;
    for (uint32_t i = 0; i < n->fields.size; ++i) {
        const FieldRun& run = runs_[first + i];
        if (run.key != n->fields.keyAt(i)) return ~0u;
        const ir::Value* at = flat_.data() + run.begin;
        const ir::Value* end = flat_.data() + run.end;
        if (!matches(n->fields.values[i], at, end) || at != end) changed |= 1u << i;
    }
    return changed;
}

}  // namespace ptoplug::python
