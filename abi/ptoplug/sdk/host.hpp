// Host: C++ convenience over the ptoplug host table (ABI 1.1: plugins using it declare minor 1 as their
// minimum; the 1.2 functions throw HostCallFailed with PTO_ERR_UNSUPPORTED on an older host), and
// runGuarded, which turns whatever a pass body does into a status (part of <ptoplug/sdk.hpp>). A failed
// host call throws HostCallFailed, which runGuarded turns into PTO_ERR_INTERNAL: exceptions stay inside
// the plugin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ptoplug/abi.h"

namespace ptoplug::plugin {

struct HostCallFailed {
    const char* function;
    pto_status status;
};

/// [1.2] In a pass's check of its option values: `option`'s value is refused, `message` saying why
/// (runGuarded hands it to the host's refuse_option).
struct OptionRefused {
    std::string option;
    std::string message;
};

/// A user error or internal error found by a pass: becomes one diagnostic and the run's status.
struct PassError {
    pto_severity severity;
    std::string rule;
    std::string message;
    pto_node node;
};

struct NodeHash {
    size_t operator()(const pto_node& n) const noexcept {
        return static_cast<size_t>(n.opaque[0] * 0x9E3779B97F4A7C15ull ^ n.opaque[1]);
    }
};
struct NodeEq {
    bool operator()(const pto_node& a, const pto_node& b) const noexcept { return pto_node_equal(a, b); }
};

inline std::string_view sv(pto_string s) { return s.data ? std::string_view(s.data, s.size) : std::string_view(); }
inline pto_string ps(std::string_view s) { return pto_string{s.data(), s.size()}; }

class Host {
public:
    Host(const pto_host_api* api, pto_run_context* ctx) : api_(api), ctx_(ctx) {}

    const pto_host_api* api() const { return api_; }
    pto_run_context* ctx() const { return ctx_; }

    // --- program ---
    pto_node program() const { return out<pto_node>("program", api_->program); }
    size_t functionCount() const { return out<size_t>("program_function_count", api_->program_function_count); }
    pto_node functionAt(size_t i) const {
        pto_node n{};
        check("program_function_at", api_->program_function_at(ctx_, i, &n));
        return n;
    }
    /// The function called `name`, or the null handle.
    pto_node findFunction(std::string_view name) const {
        pto_node n{};
        pto_status s = api_->program_find_function(ctx_, ps(name), &n);
        if (s == PTO_ERR_NOT_FOUND) return pto_node{};
        check("program_find_function", s);
        return n;
    }

    // --- nodes ---
    pto_node_kind kind(pto_node n) const { return out<pto_node_kind>("node_kind", api_->node_kind, n); }
    pto_type_kind typeKind(pto_node n) const { return out<pto_type_kind>("node_type_kind", api_->node_type_kind, n); }
    std::string_view name(pto_node n) const { return sv(out<pto_string>("node_name", api_->node_name, n)); }
    std::string_view typeName(pto_node n) const {
        return sv(out<pto_string>("node_type_name", api_->node_type_name, n));
    }
    pto_value field(pto_node n, uint32_t field) const {
        pto_value v{};
        check("node_field", api_->node_field(ctx_, n, field, &v));
        return v;
    }
    pto_span span(pto_node n) const { return out<pto_span>("node_span", api_->node_span, n); }
    /// Count of nodes in `field`; 0 if the node has no such field.
    size_t count(pto_node n, uint32_t field) const {
        size_t c = 0;
        pto_status s = api_->node_child_count(ctx_, n, field, &c);
        if (s == PTO_ERR_NOT_FOUND) return 0;
        check("node_child_count", s);
        return c;
    }
    pto_node child(pto_node n, uint32_t field, size_t i = 0) const {
        pto_node c{};
        check("node_child", api_->node_child(ctx_, n, field, i, &c));
        return c;
    }
    /// The single node of `field`, or the null handle if absent or nil.
    pto_node optChild(pto_node n, uint32_t field) const { return count(n, field) ? child(n, field) : pto_node{}; }
    std::vector<pto_node> children(pto_node n, uint32_t field) const {
        std::vector<pto_node> out(count(n, field));
        for (size_t i = 0; i < out.size(); ++i) out[i] = child(n, field, i);
        return out;
    }
    pto_function_info functionInfo(pto_node f) const {
        pto_function_info info{};
        info.struct_size = sizeof info;
        check("function_info", api_->function_info(ctx_, f, &info));
        return info;
    }
    /// The op name and whether it is a GlobalVar.
    std::pair<std::string_view, bool> callOp(pto_node c) const {
        pto_string name{};
        int global = 0;
        check("call_op", api_->call_op(ctx_, c, &name, &global));
        return {sv(name), global != 0};
    }
    /// Attribute `key` of `n`'s attrs, decoded; false if absent.
    bool findAttr(pto_node n, std::string_view key, pto_attr* out) const {
        *out = pto_attr{};
        out->struct_size = sizeof(pto_attr);
        pto_status s = api_->attr_find(ctx_, n, PTO_ATTR_LIST_ATTRS, ps(key), out);
        if (s == PTO_ERR_NOT_FOUND) return false;
        check("attr_find", s);
        return true;
    }
    bool hasAttr(pto_node c, std::string_view key) const {
        pto_attr a{};
        return findAttr(c, key, &a);
    }
    /// The length of a list-valued attribute (a vector or VarList), or -1 if absent.
    int64_t attrListLength(pto_node c, std::string_view key) const {
        pto_attr a{};
        if (!findAttr(c, key, &a)) return -1;
        size_t n = 0;
        if (api_->value_size(ctx_, a.value, &n) != PTO_OK) return -1;
        return static_cast<int64_t>(n);
    }
    int64_t tupleIndex(pto_node n) const { return out<int64_t>("tuple_get_item_index", api_->tuple_get_item_index, n); }

    /// Calls `f(node)` for every node held by Var/VarList/Expr-valued attributes of `call`, in order.
    template <class F>
    void forEachAttrNode(pto_node call, F&& f) const {
        size_t n = 0;
        check("attr_count", api_->attr_count(ctx_, call, PTO_ATTR_LIST_ATTRS, &n));
        for (size_t i = 0; i < n; ++i) {
            pto_attr a{};
            a.struct_size = sizeof a;
            check("attr_at", api_->attr_at(ctx_, call, PTO_ATTR_LIST_ATTRS, i, &a));
            const std::string_view tag = sv(a.tag);
            pto_node node{};
            if (tag == "Var" || tag == "Expr") {
                if (api_->value_as_node(ctx_, a.value, &node) == PTO_OK) f(node);
            } else if (tag == "VarList") {
                size_t m = 0;
                check("value_size", api_->value_size(ctx_, a.value, &m));
                for (size_t j = 0; j < m; ++j) {
                    pto_value item{};
                    check("value_array_at", api_->value_array_at(ctx_, a.value, j, &item));
                    if (api_->value_as_node(ctx_, item, &node) == PTO_OK) f(node);
                }
            }
        }
    }

    /// Nodes of the shape of the node's type (for a type of exactly `kind`), else none.
    std::vector<pto_node> shapeDims(pto_node n, pto_type_kind kind) const {
        std::vector<pto_node> dims;
        if (typeKind(n) != kind) return dims;
        pto_value type{};
        check("node_field", api_->node_field(ctx_, n, PTO_FIELD_TYPE, &type));
        size_t rank = 0;
        check("type_rank", api_->type_rank(ctx_, type, &rank));
        dims.resize(rank);
        for (size_t i = 0; i < rank; ++i) check("type_dim", api_->type_dim(ctx_, type, i, &dims[i]));
        return dims;
    }

    // --- rewriting ---
    pto_value singletonType(pto_type_kind kind) const {
        pto_value v{};
        check("make_singleton_type", api_->make_singleton_type(ctx_, kind, &v));
        return v;
    }
    pto_node createVar(std::string_view name, pto_value type, pto_node spanSource) const {
        pto_node n{};
        check("create_var", api_->create_var(ctx_, ps(name), type, spanSource, &n));
        return n;
    }
    pto_node createOpCall(std::string_view op, std::span<const pto_node> args, pto_value type,
                          pto_node spanSource) const {
        pto_node n{};
        check("create_op_call", api_->create_op_call(ctx_, ps(op), args.data(), args.size(), type, spanSource, &n));
        return n;
    }
    pto_node createAssign(pto_node var, pto_node value, pto_node spanSource) const {
        pto_node n{};
        check("create_assign", api_->create_assign(ctx_, var, value, spanSource, &n));
        return n;
    }
    void appendParam(pto_node f, pto_node p, pto_param_direction d) const {
        check("function_append_param", api_->function_append_param(ctx_, f, p, d));
    }
    void appendArg(pto_node call, pto_node arg) const {
        check("call_append_arg", api_->call_append_arg(ctx_, call, arg));
    }
    bool extendArgDirections(pto_node call, std::span<const pto_arg_direction> codes) const {
        int present = 0;
        check("call_extend_arg_directions",
              api_->call_extend_arg_directions(ctx_, call, codes.data(), codes.size(), &present));
        return present != 0;
    }
    void insertBefore(pto_node parent, uint32_t field, size_t index, std::span<const pto_node> stmts) const {
        check("insert_before", api_->insert_before(ctx_, parent, field, index, stmts.data(), stmts.size()));
    }
    void replaceChild(pto_node parent, uint32_t field, size_t index, pto_node replacement) const {
        check("replace_child", api_->replace_child(ctx_, parent, field, index, replacement));
    }
    /// [1.2] Appends `stmts` at the end of SeqStmts `seq`, also an empty one (deferred as insertBefore).
    void appendStmts(pto_node seq, std::span<const pto_node> stmts) const {
        require12("append_stmts");
        check("append_stmts", api_->append_stmts(ctx_, seq, stmts.data(), stmts.size()));
    }
    /// A copy of `n` sharing its children, to change one occurrence of a shared node (copy-on-write).
    pto_node clone(pto_node n) const { return out<pto_node>("clone_node", api_->clone_node, n); }

    // --- uses and definitions [1.2] ---
    /// Where `var` is used at and below `root` (binding places left out), in walk order.
    std::vector<pto_walk_position> varUses(pto_node root, pto_node var) const {
        require12("var_uses");
        size_t count = 0;
        check("var_uses", api_->var_uses(ctx_, root, var, nullptr, 0, &count));
        std::vector<pto_walk_position> uses(count);
        check("var_uses", api_->var_uses(ctx_, root, var, uses.data(), uses.size(), &count));
        return uses;
    }
    /// Where `var` is bound at or below `root`, or nothing if it is bound nowhere there.
    std::optional<pto_walk_position> varDefinition(pto_node root, pto_node var) const {
        require12("var_definition");
        pto_walk_position at{};
        pto_status s = api_->var_definition(ctx_, root, var, &at);
        if (s == PTO_ERR_NOT_FOUND) return std::nullopt;
        check("var_definition", s);
        return at;
    }

    // --- pass options (declared in the pass's descriptor) ---
    pto_value option(std::string_view name) const {
        pto_value v{};
        check("pass_option", api_->pass_option(ctx_, ps(name), &v));
        return v;
    }
    std::string_view stringOption(std::string_view name) const {
        pto_string s{};
        check("value_as_string", api_->value_as_string(ctx_, option(name), &s));
        return sv(s);
    }
    int64_t intOption(std::string_view name) const {
        int64_t i = 0;
        check("value_as_int64", api_->value_as_int64(ctx_, option(name), &i));
        return i;
    }
    bool boolOption(std::string_view name) const {
        int b = 0;
        check("value_as_bool", api_->value_as_bool(ctx_, option(name), &b));
        return b != 0;
    }

    /// [1.2] In a pass's check of its option values: refuses `option`'s value (the first refusal counts).
    void refuseOption(std::string_view option, std::string_view message) const {
        if (!PTO_HOST_HAS(api_, refuse_option)) throw HostCallFailed{"refuse_option", PTO_ERR_UNSUPPORTED};
        check("refuse_option", api_->refuse_option(ctx_, ps(option), ps(message)));
    }

    void emit(pto_severity severity, std::string_view rule, std::string_view message, pto_node node) const {
        pto_diagnostic d{sizeof(pto_diagnostic), severity, ps(rule), ps(message), node};
        check("emit_diagnostic", api_->emit_diagnostic(ctx_, &d));
    }

    static void check(const char* function, pto_status s) {
        if (s != PTO_OK) throw HostCallFailed{function, s};
    }

private:
    // The three 1.2 functions end the table: a host of an older minor has none of them.
    void require12(const char* function) const {
        if (!PTO_HOST_HAS(api_, var_definition)) throw HostCallFailed{function, PTO_ERR_UNSUPPORTED};
    }
    template <class T, class Fn>
    T out(const char* what, Fn fn) const {
        T v{};
        check(what, fn(ctx_, &v));
        return v;
    }
    template <class T, class Fn>
    T out(const char* what, Fn fn, pto_node n) const {
        T v{};
        check(what, fn(ctx_, n, &v));
        return v;
    }

    const pto_host_api* api_;
    pto_run_context* ctx_;
};

/// Runs `body` and converts every outcome into a status: PassError into a diagnostic, OptionRefused (in a
/// check of option values) into the host's refuse_option, a failed host call or any other exception into
/// PTO_ERR_INTERNAL. For use in every plugin entry point.
template <class F>
pto_status runGuarded(const pto_host_api* api, pto_run_context* ctx, const char* passName, F&& body) noexcept {
    if (!api || !ctx) return PTO_ERR_INVALID_HANDLE;
    try {
        Host host(api, ctx);
        try {
            body(host);
            return PTO_OK;
        } catch (const OptionRefused& e) {
            host.refuseOption(e.option, e.message);
            return PTO_OK;
        } catch (const PassError& e) {
            host.emit(e.severity, e.rule, e.message, e.node);
            return e.severity == PTO_SEVERITY_ERROR ? PTO_ERR_USER : PTO_ERR_INTERNAL;
        } catch (const HostCallFailed& e) {
            pto_string why{};
            api->last_error(ctx, &why);
            std::string message = std::string(passName) + ": host call " + e.function + " failed with status " +
                                  std::to_string(static_cast<int>(e.status)) + " (" + std::string(sv(why)) + ")";
            host.emit(PTO_SEVERITY_INTERNAL_ERROR, std::string(passName) + "/host-call-failed", message, pto_node{});
            return PTO_ERR_INTERNAL;
        }
    } catch (...) {
        return PTO_ERR_INTERNAL;
    }
}

}  // namespace ptoplug::plugin
