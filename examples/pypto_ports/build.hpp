// What the ports of pypto's passes (examples/flatten_call_expr, examples/unroll_loops) build that the
// SDK has no wrapper for: values, statement lists as pypto's SeqStmts makes them, field reads by name.
#pragma once

#include <string_view>
#include <vector>

#include <ptoplug/sdk.hpp>

namespace ptoplug::plugin::ports {

inline pto_value nodeValue(const Host& h, const Node& n) {
    pto_value v{};
    Host::check("value_make_node", h.api()->value_make_node(h.ctx(), n.handle(), &v));
    return v;
}

/// A field of `n` by its name in the format (the fields pto_field does not list: "kind", "value", ...).
inline pto_value namedField(const Host& h, const Node& n, std::string_view name) {
    uint32_t id = 0;
    Host::check("field_from_name", h.api()->field_from_name(h.ctx(), ps(name), &id));
    return h.field(n.handle(), id);
}

inline int64_t asInt(const Host& h, pto_value v) {
    int64_t i = 0;
    Host::check("value_as_int64", h.api()->value_as_int64(h.ctx(), v, &i));
    return i;
}

/// `v` with every array and map rebuilt, so that the nodes in it (shape dimensions) occur in it anew.
/// A value read from one node and given as it is to another occurs twice at one address, and pto-host
/// then writes its nodes in full twice (the output fails to read: duplicate node id).
inline pto_value copyValue(const Host& h, pto_value v) {
    const pto_host_api* api = h.api();
    pto_value_kind kind{};
    Host::check("value_kind", api->value_kind(h.ctx(), v, &kind));
    if (kind != PTO_VALUE_ARRAY && kind != PTO_VALUE_MAP) return v;
    size_t n = 0;
    Host::check("value_size", api->value_size(h.ctx(), v, &n));
    std::vector<pto_string> keys(n);
    std::vector<pto_value> items(n);
    for (size_t i = 0; i < n; ++i) {
        if (kind == PTO_VALUE_ARRAY)
            Host::check("value_array_at", api->value_array_at(h.ctx(), v, i, &items[i]));
        else
            Host::check("value_map_at", api->value_map_at(h.ctx(), v, i, &keys[i], &items[i]));
        items[i] = copyValue(h, items[i]);
    }
    pto_value out{};
    if (kind == PTO_VALUE_ARRAY)
        Host::check("value_make_array", api->value_make_array(h.ctx(), items.data(), n, &out));
    else
        Host::check("value_make_map", api->value_make_map(h.ctx(), keys.data(), items.data(), n, &out));
    return out;
}

/// A new SeqStmts of `stmts` (as they are: pypto's SeqStmts constructor) with the span of `spanOf`.
inline Node makeSeq(const Host& h, const std::vector<Node>& stmts, const Node& spanOf) {
    std::vector<pto_value> items;
    for (const Node& s : stmts) items.push_back(nodeValue(h, s));
    pto_field_value fields[2] = {{ps("stmts"), {}}, {ps("span"), h.field(spanOf.handle(), PTO_FIELD_SPAN)}};
    Host::check("value_make_array", h.api()->value_make_array(h.ctx(), items.data(), items.size(), &fields[0].value));
    pto_node seq{};
    Host::check("create_node", h.api()->create_node(h.ctx(), ps("SeqStmts"), fields, 2, &seq));
    return Node(h, seq);
}

/// pypto's SeqStmts::Flatten: the statements of nested lists (two levels) spliced in, a single
/// statement unwrapped, else a new SeqStmts with the span of `spanOf`.
inline Node flattenSeq(const Host& h, const std::vector<Node>& stmts, const Node& spanOf) {
    std::vector<Node> flat;
    for (const Node& s : stmts) {
        if (s.kind() != PTO_NODE_SEQ_STMTS) {
            flat.push_back(s);
            continue;
        }
        for (const Stmt& inner : s.list<Stmt>(PTO_FIELD_STMTS)) {
            if (inner.kind() != PTO_NODE_SEQ_STMTS)
                flat.push_back(inner);
            else
                for (const Stmt& innermost : inner.list<Stmt>(PTO_FIELD_STMTS)) flat.push_back(innermost);
        }
    }
    return flat.size() == 1 ? flat[0] : makeSeq(h, flat, spanOf);
}

/// pypto's IRMutator on a SeqStmts: each statement mutated (`mutate`); if one changed, the new
/// statements flattened (flattenSeq), else `seq` itself.
template <class Mutate>
Node rebuildSeq(const Host& h, const Stmt& seq, Mutate&& mutate) {
    bool changed = false;
    std::vector<Node> stmts;
    for (const Stmt& s : seq.list<Stmt>(PTO_FIELD_STMTS)) {
        stmts.push_back(mutate(s));
        changed = changed || stmts.back() != s;
    }
    return changed ? flattenSeq(h, stmts, seq) : Node(seq);
}

}  // namespace ptoplug::plugin::ports
