// attrs and kwargs (docs/ir_format.md §5): arrays of {key, value}, where a value is plain or tagged
// ({type: tag, value: payload}, or {type: "DataType", code: n}). Plugins read and write them decoded.
#include "abi_host/entries.h"
#include "abi_host/handles.h"
#include "ir/rewrite.h"
#include "ir/schema.h"
#include "ir/validate.h"

namespace ptoplug::host::table {
namespace {

uint32_t listKey(pto_attr_list list) { return list == PTO_ATTR_LIST_KWARGS ? K::kwargs : K::attrs; }

// True if nodes of this type carry the list at all (by the format), whether or not this one has it.
bool carries(const Node* n, uint32_t key) {
    const ir::NodeSchema* schema = ir::schemaFor(n->type);
    if (!schema) return false;
    for (const ir::FieldSpec& f : schema->fields)
        if (f.key == key && f.kind == ir::FieldKind::Attrs) return true;
    return false;
}

// The node's list, or nullptr when it is absent or nil; a status (and reason) when the node has none.
pto_status listOf(pto_run_context* ctx, pto_node node, pto_attr_list list, Node** n, Value** entries) {
    *n = toNode(ctx, node);
    PTO_REQUIRE_WHY(*n, PTO_ERR_INVALID_HANDLE, "the node handle is null, foreign or stale");
    PTO_REQUIRE_WHY(list == PTO_ATTR_LIST_ATTRS || list == PTO_ATTR_LIST_KWARGS, PTO_ERR_INVALID_ARGUMENT,
                    "list is neither PTO_ATTR_LIST_ATTRS nor PTO_ATTR_LIST_KWARGS");
    const uint32_t key = listKey(list);
    PTO_REQUIRE_WHY(carries(*n, key), PTO_ERR_WRONG_KIND,
                    "a " + std::string(typeName(ctx, *n)) + " has no " + std::string(ctx->doc.keys().name(key)));
    Value* v = (*n)->field(key);
    *entries = v && v->kind == Kind::Array ? v : nullptr;
    return PTO_OK;
}

pto_status decode(pto_run_context* ctx, ir::Map* entry, pto_attr* out) {
    PTO_REQUIRE_WHY(out->struct_size >= sizeof(pto_attr), PTO_ERR_INVALID_ARGUMENT,
                    "out->struct_size is smaller than sizeof(pto_attr)");
    const Value* key = entry->find(K::key);
    Value* value = entry->find(K::value);
    PTO_REQUIRE_WHY(key && value, PTO_ERR_WRONG_KIND, "the entry is not a {key, value} map");
    out->key = key->kind == Kind::Str ? str(key->strView()) : pto_string{"", 0};
    out->tag = pto_string{"", 0};
    Value* payload = value;
    ir::Map* payloadMap = entry;
    if (value->kind == Kind::Map) {
        const Value* tag = value->m->find(K::type);
        if (tag && tag->kind == Kind::Str) {
            out->tag = str(tag->strView());
            Value* inner = value->m->find(tag->strView() == "DataType" ? K::code : K::value);
            if (inner) {
                payload = inner;
                payloadMap = value->m;
            }
        }
    }
    out->value = fromValue(ctx, ValueSlot{payload, nullptr, payloadMap, payloadMap->values});
    return PTO_OK;
}

// The entry value stored for (tag, payload): the payload itself, or the tagged map.
Value encode(ir::Document& doc, std::string_view tag, const Value& payload) {
    if (tag.empty()) return ir::copyValue(doc, payload);
    ir::Map* m = doc.newMap(2);
    doc.set(*m, K::type, doc.newString(tag));
    doc.set(*m, tag == "DataType" ? K::code : K::value, ir::copyValue(doc, payload));
    return Value::map(m);
}

}  // namespace

pto_status attrCount(pto_run_context* ctx, pto_node node, pto_attr_list list, size_t* out) {
    Node* n = nullptr;
    Value* entries = nullptr;
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    if (pto_status s = listOf(ctx, node, list, &n, &entries); s != PTO_OK) return s;
    *out = entries ? entries->a->size : 0;
    return PTO_OK;
}

pto_status attrAt(pto_run_context* ctx, pto_node node, pto_attr_list list, size_t index, pto_attr* out) {
    Node* n = nullptr;
    Value* entries = nullptr;
    PTO_REQUIRE(out, PTO_ERR_INVALID_HANDLE);
    if (pto_status s = listOf(ctx, node, list, &n, &entries); s != PTO_OK) return s;
    const size_t size = entries ? entries->a->size : 0;
    PTO_REQUIRE_WHY(index < size, PTO_ERR_OUT_OF_RANGE,
                    "index " + std::to_string(index) + " is past the " + std::to_string(size) + " entries");
    Value& item = entries->a->items[index];
    PTO_REQUIRE_WHY(item.kind == Kind::Map, PTO_ERR_WRONG_KIND, "the entry is not a {key, value} map");
    return decode(ctx, item.m, out);
}

pto_status attrFind(pto_run_context* ctx, pto_node node, pto_attr_list list, pto_string key, pto_attr* out) {
    Node* n = nullptr;
    Value* entries = nullptr;
    PTO_REQUIRE(out && (key.data || !key.size), PTO_ERR_INVALID_HANDLE);
    if (pto_status s = listOf(ctx, node, list, &n, &entries); s != PTO_OK) return s;
    if (ir::Map* entry = ir::findAttrEntry(entries, view(key))) return decode(ctx, entry, out);
    return fail(ctx, PTO_ERR_NOT_FOUND, "no entry '" + std::string(view(key)) + "'");
}

pto_status attrSet(pto_run_context* ctx, pto_node node, pto_attr_list list, pto_string key, pto_string tag,
                   pto_value value) {
    Node* n = nullptr;
    Value* entries = nullptr;
    Value* payload = toValue(ctx, value);
    PTO_REQUIRE_WHY(payload && (key.data || !key.size) && (tag.data || !tag.size), PTO_ERR_INVALID_HANDLE,
                    "the value handle is null, foreign or stale, or a string is NULL with a size");
    if (pto_status s = listOf(ctx, node, list, &n, &entries); s != PTO_OK) return s;
    ir::Document& doc = ctx->doc;
    const uint32_t field = listKey(list);
    if (!entries) {  // absent or nil: start the list
        doc.set(n->fields, field, Value::array(doc.newArray(1)));
        entries = n->field(field);
    }
    Value encoded = encode(doc, view(tag), *payload);
    ir::Map* found = ir::findAttrEntry(entries, view(key));
    Value* existing = found ? found->find(K::value) : nullptr;
    const Value saved = existing ? *existing : Value::null();
    if (existing) {
        *existing = encoded;
    } else {
        ir::Map* entry = doc.newMap(2);
        doc.set(*entry, K::key, doc.newString(view(key)));
        doc.set(*entry, K::value, encoded);
        doc.push(*entries->a, Value::map(entry));
    }
    if (Status s = ir::checkNodeShape(doc, n)) {
        if (existing)
            *existing = saved;
        else
            --entries->a->size;  // the appended entry; nothing can have seen it
        return fail(ctx, PTO_ERR_INVALID_ARGUMENT, s->message);
    }
    ctx->containment.noteEdges(n, encoded);
    return PTO_OK;
}

pto_status attrRemove(pto_run_context* ctx, pto_node node, pto_attr_list list, pto_string key) {
    Node* n = nullptr;
    Value* entries = nullptr;
    PTO_REQUIRE(key.data || !key.size, PTO_ERR_INVALID_HANDLE);
    if (pto_status s = listOf(ctx, node, list, &n, &entries); s != PTO_OK) return s;
    auto drop = [&](const Value& item) { return ir::isAttrEntry(item, view(key)); };
    PTO_REQUIRE_WHY(entries && std::any_of(entries->a->begin(), entries->a->end(), drop), PTO_ERR_NOT_FOUND,
                    "no entry '" + std::string(view(key)) + "'");
    ir::eraseIf(ctx->doc, *entries->a, drop);
    return PTO_OK;
}

pto_status callArgDirections(pto_run_context* ctx, pto_node call, pto_arg_direction* out, size_t capacity,
                             size_t* count) {
    Node* n = toNode(ctx, call);
    PTO_REQUIRE_WHY(n && count && (out || !capacity), PTO_ERR_INVALID_HANDLE,
                    "null call, NULL count, or NULL out with a capacity");
    PTO_REQUIRE_WHY(isCallLike(n), PTO_ERR_WRONG_KIND,
                    "a " + std::string(typeName(ctx, n)) + " is not a Call or Submit");
    const ir::Map* entry = ir::findAttrEntry(n->field(K::attrs), "arg_directions");
    PTO_REQUIRE_WHY(entry, PTO_ERR_NOT_FOUND, "the call has no arg_directions");
    const Value* tagged = entry->find(K::value);
    const Value* codes = tagged->kind == Kind::Map ? tagged->m->find(K::value) : nullptr;
    PTO_REQUIRE_WHY(codes && codes->kind == Kind::Array, PTO_ERR_WRONG_KIND,
                    "arg_directions is not an ArgDirectionVector");
    for (size_t i = 0; i < codes->a->size && i < capacity; ++i)
        out[i] = static_cast<pto_arg_direction>(codes->a->items[i].u);
    *count = codes->a->size;
    return PTO_OK;
}

}  // namespace ptoplug::host::table
