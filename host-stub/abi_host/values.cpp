// Values: reading any value a pto_value names (its kind, scalars, arrays, maps, types), and building
// values (numbers, strings, arrays, maps, nodes, types). Every value made here is host-owned and never
// goes stale; storing one in the IR copies it (ir::copyValue).
#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "ir/rewrite.h"
#include "ir/schema.h"

namespace ptoplug::host::table {

// --- reads ---------------------------------------------------------------------------------------

pto_status valueKind(pto_run_context* ctx, pto_value value, pto_value_kind* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    switch (v->kind) {
        case Kind::Null: *out = PTO_VALUE_NULL; break;
        case Kind::Bool: *out = PTO_VALUE_BOOL; break;
        case Kind::UInt:
        case Kind::Int: *out = PTO_VALUE_INT; break;
        case Kind::F64:
        case Kind::F32: *out = PTO_VALUE_FLOAT; break;
        case Kind::Str: *out = PTO_VALUE_STRING; break;
        case Kind::Array: *out = PTO_VALUE_ARRAY; break;
        case Kind::Map:
        case Kind::Span: *out = PTO_VALUE_MAP; break;
        case Kind::Node:
        case Kind::Ref: *out = PTO_VALUE_NODE; break;
        case Kind::RefId: return PTO_ERR_INTERNAL;
    }
    return PTO_OK;
}

pto_status valueAsBool(pto_run_context* ctx, pto_value value, int* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->kind == Kind::Bool, PTO_ERR_WRONG_KIND);
    *out = v->b;
    return PTO_OK;
}

pto_status valueAsInt64(pto_run_context* ctx, pto_value value, int64_t* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->isInteger(), PTO_ERR_WRONG_KIND);
    PTO_REQUIRE(v->kind == Kind::Int || v->u <= INT64_MAX, PTO_ERR_OUT_OF_RANGE);
    *out = v->kind == Kind::Int ? v->i : static_cast<int64_t>(v->u);
    return PTO_OK;
}

pto_status valueAsUInt64(pto_run_context* ctx, pto_value value, uint64_t* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->isInteger(), PTO_ERR_WRONG_KIND);
    PTO_REQUIRE(v->kind == Kind::UInt, PTO_ERR_OUT_OF_RANGE);
    *out = v->u;
    return PTO_OK;
}

pto_status valueAsDouble(pto_run_context* ctx, pto_value value, double* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    switch (v->kind) {
        case Kind::F64: *out = v->d; return PTO_OK;
        case Kind::F32: *out = static_cast<double>(v->f); return PTO_OK;
        case Kind::UInt: *out = static_cast<double>(v->u); return PTO_OK;
        case Kind::Int: *out = static_cast<double>(v->i); return PTO_OK;
        default: return PTO_ERR_WRONG_KIND;
    }
}

pto_status valueAsString(pto_run_context* ctx, pto_value value, pto_string* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->kind == Kind::Str, PTO_ERR_WRONG_KIND);
    *out = str(v->strView());
    return PTO_OK;
}

pto_status valueAsNode(pto_run_context* ctx, pto_value value, pto_node* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->isNode(), PTO_ERR_WRONG_KIND);
    *out = fromSlot(ctx, *v);
    return PTO_OK;
}

namespace {

// A span is exposed as the map it stands for.
Value spanAsMap(pto_run_context* ctx, const ir::Span& sp) {
    ir::Map* m = ctx->doc.newMap(5);
    ctx->doc.set(*m, K::begin_column, Value::integer(sp.beginColumn));
    ctx->doc.set(*m, K::begin_line, Value::integer(sp.beginLine));
    ctx->doc.set(*m, K::end_column, Value::integer(sp.endColumn));
    ctx->doc.set(*m, K::end_line, Value::integer(sp.endLine));
    ctx->doc.set(*m, K::filename, Value::str(sp.file));
    return Value::map(m);
}

// The map `v` is, in `out`. A span is read as the map it stands for: made in place, so that a change through
// a handle into it changes the node's span; a copy for a verifier, whose program is read-only (a write
// into it faults).
pto_status asMap(pto_run_context* ctx, Value* v, ir::Map** out) {
    if (v->kind == Kind::Span) {
        Expected<ir::Span> read = ctx->doc.span(*v);
        if (!read) return fail(ctx, PTO_ERR_INTERNAL, read.error().message);
        const Value map = spanAsMap(ctx, *read);
        if (!ctx->settings.readOnly) *v = map;
        *out = map.m;
        return PTO_OK;
    }
    if (v->kind != Kind::Map) return PTO_ERR_WRONG_KIND;
    *out = v->m;
    return PTO_OK;
}

}  // namespace

pto_status valueSize(pto_run_context* ctx, pto_value value, size_t* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    if (v->kind == Kind::Array)
        *out = v->a->size;
    else if (v->kind == Kind::Span)
        *out = 5;
    else if (v->kind == Kind::Map)
        *out = v->m->size;
    else
        return PTO_ERR_WRONG_KIND;
    return PTO_OK;
}

pto_status valueArrayAt(pto_run_context* ctx, pto_value value, size_t index, pto_value* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->kind == Kind::Array, PTO_ERR_WRONG_KIND);
    PTO_REQUIRE(index < v->a->size, PTO_ERR_OUT_OF_RANGE);
    return guarded([&] {
        *out = fromValue(ctx, ValueSlot{&v->a->items[index], v->a, nullptr, v->a->items});
        return PTO_OK;
    });
}

pto_status valueMapAt(pto_run_context* ctx, pto_value value, size_t index, pto_string* key, pto_value* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && key && out, PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        ir::Map* m = nullptr;
        if (pto_status s = asMap(ctx, v, &m); s != PTO_OK) return s;
        if (index >= m->size) return PTO_ERR_OUT_OF_RANGE;
        *key = str(ctx->doc.keys().name(m->keyAt(index)));
        *out = fromValue(ctx, ValueSlot{&m->values[index], nullptr, m, m->values});
        return PTO_OK;
    });
}

pto_status valueMapFind(pto_run_context* ctx, pto_value value, pto_string key, pto_value* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out && (key.data || !key.size), PTO_ERR_INVALID_HANDLE);
    return guarded([&] {
        ir::Map* m = nullptr;
        if (pto_status s = asMap(ctx, v, &m); s != PTO_OK) return s;
        for (ir::Member member : *m)
            if (ctx->doc.keys().name(member.key) == view(key)) {
                *out = fromValue(ctx, ValueSlot{&member.value, nullptr, m, m->values});
                return PTO_OK;
            }
        return PTO_ERR_NOT_FOUND;
    });
}

pto_status valueTypeKind(pto_run_context* ctx, pto_value value, pto_type_kind* out) {
    Value* v = toValue(ctx, value);
    PTO_REQUIRE(v && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE(v->kind == Kind::Map && v->m->find(K::type_kind), PTO_ERR_WRONG_KIND);
    *out = typeKindOf(v);
    return PTO_OK;
}

// --- building ------------------------------------------------------------------------------------

pto_status valueMakeNull(pto_run_context* ctx, pto_value* out) {
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    *out = madeValue(ctx, Value::null());
    return PTO_OK;
}

pto_status valueMakeBool(pto_run_context* ctx, int value, pto_value* out) {
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    *out = madeValue(ctx, Value::boolean(value != 0));
    return PTO_OK;
}

pto_status valueMakeInt(pto_run_context* ctx, int64_t value, pto_value* out) {
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    *out = madeValue(ctx, Value::integer(value));
    return PTO_OK;
}

pto_status valueMakeDouble(pto_run_context* ctx, double value, pto_value* out) {
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    *out = madeValue(ctx, Value::f64(value));
    return PTO_OK;
}

pto_status valueMakeString(pto_run_context* ctx, pto_string value, pto_value* out) {
    PTO_REQUIRE_WHY(out && (value.data || !value.size), PTO_ERR_INVALID_HANDLE, "NULL out, or NULL data with a size");
    *out = madeValue(ctx, ctx->doc.newString(view(value)));
    return PTO_OK;
}

pto_status valueMakeNode(pto_run_context* ctx, pto_node node, pto_value* out) {
    Node* n = toNode(ctx, node);
    PTO_REQUIRE_WHY(n && out, PTO_ERR_INVALID_HANDLE, "the node handle is null or from another run");
    *out = madeValue(ctx, Value::node(n));
    return PTO_OK;
}

pto_status valueMakeArray(pto_run_context* ctx, const pto_value* items, size_t count, pto_value* out) {
    PTO_REQUIRE_WHY(out && (items || !count), PTO_ERR_INVALID_HANDLE, "NULL out, or NULL items with a count");
    PTO_REQUIRE_WHY(count <= UINT32_MAX, PTO_ERR_INVALID_ARGUMENT, "more than 2^32-1 items");
    ir::Array* a = ctx->doc.newArray(static_cast<uint32_t>(count));
    for (size_t i = 0; i < count; ++i) {
        Value* v = toValue(ctx, items[i]);
        if (!v) return fail(ctx, PTO_ERR_INVALID_HANDLE, "item " + std::to_string(i) + " is not a live value");
        ctx->doc.push(*a, ir::copyValue(ctx->doc, *v));
    }
    *out = madeValue(ctx, Value::array(a));
    return PTO_OK;
}

pto_status valueMakeMap(pto_run_context* ctx, const pto_string* keys, const pto_value* values, size_t count,
                        pto_value* out) {
    PTO_REQUIRE_WHY(out && ((keys && values) || !count), PTO_ERR_INVALID_HANDLE,
                    "NULL out, or NULL keys or values with a count");
    PTO_REQUIRE_WHY(count <= UINT32_MAX, PTO_ERR_INVALID_ARGUMENT, "more than 2^32-1 entries");
    ir::Map* m = ctx->doc.newMap(static_cast<uint32_t>(count));
    for (size_t i = 0; i < count; ++i) {
        Value* v = toValue(ctx, values[i]);
        if (!v || (!keys[i].data && keys[i].size))
            return fail(ctx, PTO_ERR_INVALID_HANDLE, "entry " + std::to_string(i) + " has no live value or key");
        uint32_t key = keyId(ctx, view(keys[i]));
        if (key == ir::KeyTable::kFull) return PTO_ERR_INVALID_ARGUMENT;
        if (m->find(key))
            return fail(ctx, PTO_ERR_INVALID_ARGUMENT, "key '" + std::string(view(keys[i])) + "' is given twice");
        ctx->doc.set(*m, key, ir::copyValue(ctx->doc, *v));
    }
    *out = madeValue(ctx, Value::map(m));
    return PTO_OK;
}

namespace {

const char* typeKindName(pto_type_kind kind) {
    switch (kind) {
        case PTO_TYPE_SCALAR: return "ScalarType";
        case PTO_TYPE_TENSOR: return "TensorType";
        case PTO_TYPE_DISTRIBUTED_TENSOR: return "DistributedTensorType";
        case PTO_TYPE_TUPLE: return "TupleType";
        case PTO_TYPE_COMM_CTX: return "CommCtxType";
        case PTO_TYPE_PTR: return "Ptr";
        default: return nullptr;
    }
}

// The type map a type value holds, or nullptr (with last_error's reason).
ir::Map* typeMap(pto_run_context* ctx, pto_value type) {
    Value* v = toValue(ctx, type);
    if (!v) return nullptr;
    if (v->kind != Kind::Map || !v->m->find(K::type_kind)) {
        fail(ctx, PTO_ERR_WRONG_KIND, "the value is not a type (a map with 'type_kind')");
        return nullptr;
    }
    return v->m;
}

pto_status typeFailure(pto_run_context* ctx, pto_value type) {
    return toValue(ctx, type) ? PTO_ERR_WRONG_KIND : PTO_ERR_INVALID_HANDLE;
}

}  // namespace

pto_status makeType(pto_run_context* ctx, const pto_type_desc* desc, pto_value* out) {
    PTO_REQUIRE_WHY(desc && out, PTO_ERR_INVALID_HANDLE, "NULL desc or out");
    PTO_REQUIRE_WHY(desc->struct_size >= sizeof(pto_type_desc), PTO_ERR_INVALID_ARGUMENT,
                    "desc->struct_size is smaller than sizeof(pto_type_desc)");
    const char* kindName = typeKindName(desc->kind);
    PTO_REQUIRE_WHY(kindName, PTO_ERR_INVALID_ARGUMENT,
                    "make_type builds Scalar, Tensor, DistributedTensor, Tuple, CommCtx and Ptr types");
    const bool shaped = desc->kind == PTO_TYPE_TENSOR || desc->kind == PTO_TYPE_DISTRIBUTED_TENSOR;
    const bool typed = shaped || desc->kind == PTO_TYPE_SCALAR;
    PTO_REQUIRE_WHY(!typed || ir::enumCodeValid(ir::EnumSet::DataType, static_cast<uint64_t>(desc->dtype)),
                    PTO_ERR_INVALID_ARGUMENT, "dtype is not a DataType code (docs/ir_format.md §7)");
    PTO_REQUIRE_WHY((desc->shape || !desc->rank) && (desc->elements || !desc->element_count), PTO_ERR_INVALID_HANDLE,
                    "NULL shape or elements with a count");
    ir::Document& doc = ctx->doc;
    ir::Map* m = doc.newMap(3);
    doc.set(*m, K::type_kind, doc.newString(kindName));
    if (typed) doc.set(*m, K::dtype, Value::uinteger(static_cast<uint64_t>(desc->dtype)));
    if (shaped) {
        ir::Array* shape = doc.newArray(static_cast<uint32_t>(desc->rank));
        for (size_t i = 0; i < desc->rank; ++i) {
            Node* dim = toNode(ctx, desc->shape[i]);
            if (!dim) return fail(ctx, PTO_ERR_INVALID_HANDLE, "shape[" + std::to_string(i) + "] is not a live node");
            if (!ir::nodeFitsClass(dim->type, ir::NodeClass::Expr))
                return fail(ctx, PTO_ERR_WRONG_KIND, "shape[" + std::to_string(i) + "] is not an expression");
            doc.push(*shape, Value::node(dim));
        }
        doc.set(*m, K::shape, Value::array(shape));
    }
    if (desc->kind == PTO_TYPE_TUPLE) {
        ir::Array* types = doc.newArray(static_cast<uint32_t>(desc->element_count));
        for (size_t i = 0; i < desc->element_count; ++i) {
            if (!typeMap(ctx, desc->elements[i])) return typeFailure(ctx, desc->elements[i]);
            doc.push(*types, ir::copyValue(doc, *toValue(ctx, desc->elements[i])));
        }
        doc.set(*m, K::types, Value::array(types));
    }
    *out = madeValue(ctx, Value::map(m));
    return PTO_OK;
}

pto_status typeDtype(pto_run_context* ctx, pto_value type, pto_data_type* out) {
    ir::Map* m = typeMap(ctx, type);
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    if (!m) return typeFailure(ctx, type);
    const Value* dtype = m->find(K::dtype);
    PTO_REQUIRE_WHY(dtype && dtype->kind == Kind::UInt && dtype->u <= INT32_MAX, PTO_ERR_WRONG_KIND,
                    "this type has no dtype (only Scalar, Tensor, DistributedTensor and Tile types do)");
    *out = static_cast<pto_data_type>(dtype->u);
    return PTO_OK;
}

pto_status typeRank(pto_run_context* ctx, pto_value type, size_t* out) {
    ir::Map* m = typeMap(ctx, type);
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    if (!m) return typeFailure(ctx, type);
    const Value* shape = m->find(K::shape);
    if (!shape) {
        PTO_REQUIRE_WHY(m->find(K::dtype), PTO_ERR_WRONG_KIND, "this type has no shape");
        *out = 0;  // a scalar
        return PTO_OK;
    }
    PTO_REQUIRE_WHY(shape->kind == Kind::Array, PTO_ERR_WRONG_KIND, "the type's shape is not an array");
    *out = shape->a->size;
    return PTO_OK;
}

pto_status typeDim(pto_run_context* ctx, pto_value type, size_t index, pto_node* out) {
    ir::Map* m = typeMap(ctx, type);
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    if (!m) return typeFailure(ctx, type);
    const Value* shape = m->find(K::shape);
    PTO_REQUIRE_WHY(shape && shape->kind == Kind::Array, PTO_ERR_WRONG_KIND, "this type has no shape");
    PTO_REQUIRE_WHY(index < shape->a->size, PTO_ERR_OUT_OF_RANGE,
                    "index " + std::to_string(index) + " is past the rank " + std::to_string(shape->a->size));
    const Value& dim = shape->a->items[index];
    PTO_REQUIRE_WHY(dim.isNode(), PTO_ERR_WRONG_KIND, "the dimension is not a node");
    *out = fromSlot(ctx, dim);
    return PTO_OK;
}

pto_status makeSingletonType(pto_run_context* ctx, pto_type_kind kind, pto_value* out) {
    PTO_REQUIRE(ctx && out, PTO_ERR_INVALID_HANDLE);
    PTO_REQUIRE_WHY(kind == PTO_TYPE_COMM_CTX || kind == PTO_TYPE_PTR, PTO_ERR_INVALID_ARGUMENT,
                    "the singleton types are PTO_TYPE_COMM_CTX and PTO_TYPE_PTR");
    const pto_type_desc desc{sizeof desc, kind, PTO_DTYPE_BOOL, nullptr, 0, nullptr, 0};
    return table::makeType(ctx, &desc, out);
}

}  // namespace ptoplug::host::table
