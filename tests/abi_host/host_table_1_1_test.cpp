// The contract of every ABI 1.1 table function, in the manner of PJRT's C API tests: valid arguments,
// then null, foreign (another run's) and stale handles, wrong kinds and out-of-range indices, each
// with its status, its last_error message and an unchanged, still valid program.
#include <gtest/gtest.h>

#include <string>

#include "abi_host/table_fixture.h"

namespace ptoplug {
namespace {

using namespace table_test;

class HostTable11 : public HostTableTest {};

TEST_F(HostTable11, LastErrorNamesTheFunctionTheStatusAndWhy) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        EXPECT_EQ(t.error(), "");  // nothing failed yet
        pto_node n{};
        EXPECT_EQ(h->program_function_at(ctx, 99, &n), PTO_ERR_OUT_OF_RANGE);
        EXPECT_EQ(t.error(), "program_function_at: PTO_ERR_OUT_OF_RANGE: an index is past the end of its list");
        pto_value v{};
        EXPECT_ERR(h->value_make_string(ctx, pto_string{nullptr, 3}, &v), PTO_ERR_INVALID_HANDLE,
                   "value_make_string: PTO_ERR_INVALID_HANDLE: NULL out, or NULL data with a size");
        // A success does not clear it: it describes the most recent failure.
        EXPECT_EQ(h->value_make_int(ctx, 1, &v), PTO_OK);
        EXPECT_NE(t.error().find("value_make_string"), std::string::npos);
        EXPECT_EQ(h->last_error(ctx, nullptr), PTO_ERR_INVALID_HANDLE);
        return PTO_OK;
    });
}

TEST_F(HostTable11, EveryNewFunctionRefusesANullRunContext) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        pto_node node{};
        pto_value v{};
        pto_string s{};
        size_t n = 0;
        pto_attr a{sizeof(pto_attr), {}, {}, {}};
        pto_type_desc d{sizeof d, PTO_TYPE_SCALAR, PTO_DTYPE_INT32, nullptr, 0, nullptr, 0};
        h->program(ctx, &node);
        EXPECT_EQ(h->last_error(nullptr, &s), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->value_make_null(nullptr, &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->value_make_bool(nullptr, 1, &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->value_make_int(nullptr, 1, &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->value_make_double(nullptr, 1, &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->value_make_string(nullptr, S("x"), &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->value_make_node(nullptr, node, &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->value_make_array(nullptr, nullptr, 0, &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->value_make_map(nullptr, nullptr, nullptr, 0, &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->make_type(nullptr, &d, &v), PTO_ERR_INVALID_HANDLE);
        pto_data_type dt{};
        EXPECT_EQ(h->type_dtype(nullptr, v, &dt), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->type_rank(nullptr, v, &n), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->type_dim(nullptr, v, 0, &node), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->create_node(nullptr, S("ConstInt"), nullptr, 0, &node), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->node_set_field(nullptr, node, PTO_FIELD_NAME, v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->insert_after(nullptr, node, PTO_FIELD_BODY, 0, nullptr, 0), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->remove_stmt(nullptr, node, PTO_FIELD_BODY, 0), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->move_stmt(nullptr, node, PTO_FIELD_BODY, 0, node, PTO_FIELD_BODY, 0), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->replace_uses(nullptr, node, node, node, &n), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->attr_count(nullptr, node, PTO_ATTR_LIST_ATTRS, &n), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->attr_at(nullptr, node, PTO_ATTR_LIST_ATTRS, 0, &a), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->attr_find(nullptr, node, PTO_ATTR_LIST_ATTRS, S("k"), &a), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->attr_set(nullptr, node, PTO_ATTR_LIST_ATTRS, S("k"), S(""), v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->attr_remove(nullptr, node, PTO_ATTR_LIST_ATTRS, S("k")), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->call_arg_directions(nullptr, node, nullptr, 0, &n), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->function_rename(nullptr, node, S("f")), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->create_call(nullptr, PTO_NODE_CALL, node, nullptr, 0, v, node, &node), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->call_set_op(nullptr, node, S("f"), 1), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->function_calls(nullptr, node, nullptr, 0, &n), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->pass_option(nullptr, S("x"), &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->clone_node(nullptr, node, &node), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->node_set_fields(nullptr, node, nullptr, 0), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->program_add_function(nullptr, node), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->program_remove_function(nullptr, node), PTO_ERR_INVALID_HANDLE);
        return PTO_OK;
    });
    EXPECT_EQ(printed(), original);
}

TEST_F(HostTable11, HandlesFromAnotherRunAreRefused) {
    pto_node foreignNode{};
    pto_value foreignValue{};
    run([&](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        foreignNode = t.function("chip_orch");
        foreignValue = t.make(7);
        return PTO_OK;
    });
    run([&](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_value v{};
        size_t n = 0;
        pto_node out{};
        EXPECT_ERR(h->value_make_node(ctx, foreignNode, &v), PTO_ERR_INVALID_HANDLE, "from another run");
        EXPECT_EQ(h->value_make_array(ctx, &foreignValue, 1, &v), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->function_rename(ctx, foreignNode, S("g")), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->function_calls(ctx, foreignNode, nullptr, 0, &n), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->attr_count(ctx, foreignNode, PTO_ATTR_LIST_ATTRS, &n), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->node_set_field(ctx, t.function("chip_orch"), PTO_FIELD_ATTRS, foreignValue),
                  PTO_ERR_INVALID_HANDLE);
        pto_field_value f{S("value"), foreignValue};
        EXPECT_EQ(h->create_node(ctx, S("ConstInt"), &f, 1, &out), PTO_ERR_INVALID_HANDLE);
        return PTO_OK;
    });
    EXPECT_EQ(printed(), original);
}

TEST_F(HostTable11, ValuesAreBuiltReadBackAndNeverStale) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_value i = t.make(-5), b{}, d{}, s{}, nil{}, node{};
        EXPECT_EQ(h->value_make_bool(ctx, 7, &b), PTO_OK);
        EXPECT_EQ(h->value_make_double(ctx, 0.5, &d), PTO_OK);
        EXPECT_EQ(h->value_make_string(ctx, S("hi"), &s), PTO_OK);
        EXPECT_EQ(h->value_make_null(ctx, &nil), PTO_OK);
        EXPECT_EQ(h->value_make_node(ctx, t.function("chip_orch"), &node), PTO_OK);
        int64_t iv = 0;
        int bv = 0;
        double dv = 0;
        pto_string sv{};
        pto_node nv{};
        pto_value_kind k{};
        EXPECT_EQ(h->value_as_int64(ctx, i, &iv), PTO_OK);
        EXPECT_EQ(iv, -5);
        EXPECT_EQ(h->value_as_bool(ctx, b, &bv), PTO_OK);
        EXPECT_EQ(bv, 1);
        EXPECT_EQ(h->value_as_double(ctx, d, &dv), PTO_OK);
        EXPECT_EQ(dv, 0.5);
        EXPECT_EQ(h->value_as_string(ctx, s, &sv), PTO_OK);
        EXPECT_EQ(text(sv), "hi");
        EXPECT_EQ(h->value_kind(ctx, nil, &k), PTO_OK);
        EXPECT_EQ(k, PTO_VALUE_NULL);
        EXPECT_EQ(h->value_as_node(ctx, node, &nv), PTO_OK);
        EXPECT_TRUE(pto_node_equal(nv, t.function("chip_orch")));

        const pto_value items[] = {i, s};
        pto_value array{}, map{};
        EXPECT_EQ(h->value_make_array(ctx, items, 2, &array), PTO_OK);
        size_t n = 0;
        EXPECT_EQ(h->value_size(ctx, array, &n), PTO_OK);
        EXPECT_EQ(n, 2u);
        const pto_string keys[] = {S("b"), S("a")};
        EXPECT_EQ(h->value_make_map(ctx, keys, items, 2, &map), PTO_OK);
        pto_string key{};
        pto_value first{};
        EXPECT_EQ(h->value_map_at(ctx, map, 0, &key, &first), PTO_OK);
        EXPECT_EQ(text(key), "a");  // maps keep keys sorted, as the format does
        const pto_string twice[] = {S("a"), S("a")};
        EXPECT_ERR(h->value_make_map(ctx, twice, items, 2, &map), PTO_ERR_INVALID_ARGUMENT, "key 'a' is given twice");
        EXPECT_EQ(h->value_make_array(ctx, nullptr, 1, &array), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->value_make_int(ctx, 1, nullptr), PTO_ERR_INVALID_HANDLE);

        // A value read from a list goes stale when the list moves; a made value never does.
        pto_node chip = t.function("chip_orch");
        pto_value params = t.field(chip, PTO_FIELD_PARAMS), param0{};
        EXPECT_EQ(h->value_array_at(ctx, params, 0, &param0), PTO_OK);
        pto_value ctxType{};
        EXPECT_EQ(h->make_singleton_type(ctx, PTO_TYPE_COMM_CTX, &ctxType), PTO_OK);
        for (int k2 = 0; k2 < 8; ++k2) {
            pto_node extra{};
            EXPECT_EQ(h->create_var(ctx, S("extra_ctx"), ctxType, pto_node{}, &extra), PTO_OK);
            EXPECT_EQ(h->function_append_param(ctx, chip, extra, PTO_PARAM_IN), PTO_OK);
        }
        EXPECT_ERR(h->value_make_array(ctx, &param0, 1, &array), PTO_ERR_INVALID_HANDLE, "item 0 is not a live value");
        EXPECT_ERR(h->value_as_node(ctx, param0, &nv), PTO_ERR_INVALID_HANDLE, "a pto_value is stale");
        EXPECT_EQ(h->value_as_int64(ctx, i, &iv), PTO_OK);
        return PTO_OK;
    });
}

TEST_F(HostTable11, TypesAreBuiltAndReadTyped) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node data = t.child(t.function("chip_orch"), PTO_FIELD_PARAMS, 0);
        pto_value type = t.field(data, PTO_FIELD_TYPE);
        pto_data_type dtype{};
        size_t rank = 0;
        pto_node dim{};
        EXPECT_EQ(h->type_dtype(ctx, type, &dtype), PTO_OK);
        EXPECT_EQ(dtype, PTO_DTYPE_FP32);
        EXPECT_EQ(h->type_rank(ctx, type, &rank), PTO_OK);
        EXPECT_EQ(rank, 1u);
        EXPECT_EQ(h->type_dim(ctx, type, 0, &dim), PTO_OK);
        EXPECT_EQ(t.kind(dim), PTO_NODE_CONST_INT);
        EXPECT_ERR(h->type_dim(ctx, type, 1, &dim), PTO_ERR_OUT_OF_RANGE, "past the rank 1");
        EXPECT_ERR(h->type_dtype(ctx, t.make(3), &dtype), PTO_ERR_WRONG_KIND, "not a type");

        const pto_node shape[] = {dim, dim};
        pto_type_desc d{sizeof d, PTO_TYPE_DISTRIBUTED_TENSOR, PTO_DTYPE_BF16, shape, 2, nullptr, 0};
        pto_value made{}, scalar{}, tuple{};
        EXPECT_EQ(h->make_type(ctx, &d, &made), PTO_OK);
        pto_type_kind tk{};
        EXPECT_EQ(h->value_type_kind(ctx, made, &tk), PTO_OK);
        EXPECT_EQ(tk, PTO_TYPE_DISTRIBUTED_TENSOR);
        EXPECT_EQ(h->type_rank(ctx, made, &rank), PTO_OK);
        EXPECT_EQ(rank, 2u);
        d = pto_type_desc{sizeof d, PTO_TYPE_SCALAR, PTO_DTYPE_INT64, nullptr, 0, nullptr, 0};
        EXPECT_EQ(h->make_type(ctx, &d, &scalar), PTO_OK);
        EXPECT_EQ(h->type_rank(ctx, scalar, &rank), PTO_OK);
        EXPECT_EQ(rank, 0u);
        const pto_value elements[] = {scalar, made};
        d = pto_type_desc{sizeof d, PTO_TYPE_TUPLE, PTO_DTYPE_BOOL, nullptr, 0, elements, 2};
        EXPECT_EQ(h->make_type(ctx, &d, &tuple), PTO_OK);
        EXPECT_ERR(h->type_dtype(ctx, tuple, &dtype), PTO_ERR_WRONG_KIND, "has no dtype");

        d = pto_type_desc{sizeof d, PTO_TYPE_SCALAR, static_cast<pto_data_type>(99), nullptr, 0, nullptr, 0};
        EXPECT_ERR(h->make_type(ctx, &d, &made), PTO_ERR_INVALID_ARGUMENT, "not a DataType code");
        d = pto_type_desc{sizeof d, PTO_TYPE_TILE, PTO_DTYPE_FP16, nullptr, 0, nullptr, 0};
        EXPECT_EQ(h->make_type(ctx, &d, &made), PTO_ERR_INVALID_ARGUMENT);
        const pto_node notExpr[] = {t.child(t.function("chip_orch"), PTO_FIELD_BODY)};
        d = pto_type_desc{sizeof d, PTO_TYPE_TENSOR, PTO_DTYPE_FP16, notExpr, 1, nullptr, 0};
        EXPECT_ERR(h->make_type(ctx, &d, &made), PTO_ERR_WRONG_KIND, "shape[0] is not an expression");
        d.struct_size = 8;
        EXPECT_EQ(h->make_type(ctx, &d, &made), PTO_ERR_INVALID_ARGUMENT);
        return PTO_OK;
    });
    EXPECT_EQ(printed(), original);
}

// A span reads as the map it stands for: in place in a pass (a change through the map's handles is the
// node's), as a copy in a verifier, whose program is read-only: a write into it would fault.
TEST_F(HostTable11, ASpanReadsAsItsMapInAPassAndInAVerifierOverAReadOnlyProgram) {
    Body readSpan = [](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node chip = t.function("chip_orch");
        pto_span span{};
        EXPECT_EQ(h->node_span(ctx, chip, &span), PTO_OK);
        EXPECT_GT(span.begin_line, 0);
        pto_value asMap = t.field(chip, PTO_FIELD_SPAN), line{}, file{};
        int64_t read = 0;
        EXPECT_EQ(h->value_map_find(ctx, asMap, S("begin_line"), &line), PTO_OK);
        EXPECT_EQ(h->value_as_int64(ctx, line, &read), PTO_OK);
        EXPECT_EQ(read, span.begin_line);
        pto_string key{};
        EXPECT_EQ(h->value_map_at(ctx, asMap, 4, &key, &file), PTO_OK);
        EXPECT_EQ(text(key), "filename");
        pto_string name{};
        EXPECT_EQ(h->value_as_string(ctx, file, &name), PTO_OK);
        EXPECT_EQ(text(name), text(span.filename));
        return PTO_OK;
    };
    ASSERT_TRUE(doc->arena().protect(true));
    EXPECT_EQ(run(readSpan, host::RunSettings{.options = nullptr, .readOnly = true}), PTO_OK);
    ASSERT_TRUE(doc->arena().protect(false));
    EXPECT_EQ(run(readSpan), PTO_OK);
    EXPECT_EQ(printed(), original);
}

// A span the host cannot read from where the program came from (a Python host's pypto objects) is an
// error, never an invented span.
TEST_F(HostTable11, ASpanTheHostCannotReadIsAnInternalError) {
    struct Unreadable final : ir::SpanSource {
        Expected<ir::Span> span(uint32_t) const override {
            Error e;
            e.message = "the object raised";
            return e;
        }
    };
    doc->setSpanSource(std::make_shared<Unreadable>());
    ir::Node* chipNode = nullptr;
    for (ir::Node* n : doc->nodes())
        if (const ir::Value* name = n->field(ir::K::name);
            name && name->kind == ir::Kind::Str && name->strView() == "chip_orch")
            chipNode = n;
    ASSERT_NE(chipNode, nullptr);
    ir::Value* span = chipNode->field(ir::K::span);
    const ir::Value kept = *span;
    *span = ir::Document::deferredSpan(0);
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node chip = t.function("chip_orch");
        pto_span read{};
        EXPECT_ERR(h->node_span(ctx, chip, &read), PTO_ERR_INTERNAL, "the object raised");
        pto_value line{};
        EXPECT_ERR(h->value_map_find(ctx, t.field(chip, PTO_FIELD_SPAN), S("begin_line"), &line), PTO_ERR_INTERNAL,
                   "the object raised");
        pto_diagnostic d{sizeof d, PTO_SEVERITY_WARNING, S("rule"), S("placed on chip_orch"), chip};
        EXPECT_ERR(h->emit_diagnostic(ctx, &d), PTO_ERR_INTERNAL, "the object raised");
        return PTO_OK;
    });
    *span = kept;
}

TEST_F(HostTable11, CreateNodeChecksFieldsAsTheReaderDoes) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_data_type dt{};
        pto_node data = t.child(t.function("chip_orch"), PTO_FIELD_PARAMS, 0);
        pto_value index = t.field(t.child(t.function("chip_orch"), PTO_FIELD_PARAMS, 0), PTO_FIELD_TYPE);
        pto_type_desc d{sizeof d, PTO_TYPE_SCALAR, PTO_DTYPE_INDEX, nullptr, 0, nullptr, 0};
        EXPECT_EQ(h->make_type(ctx, &d, &index), PTO_OK);
        pto_field_value fields[] = {{S("type"), index}, {S("value"), t.make(42)}};
        pto_node c{};
        EXPECT_EQ(h->create_node(ctx, S("ConstInt"), fields, 2, &c), PTO_OK);
        EXPECT_EQ(t.kind(c), PTO_NODE_CONST_INT);
        pto_span span{};
        EXPECT_EQ(h->node_span(ctx, c, &span), PTO_OK);
        EXPECT_EQ(span.begin_line, -1);  // the unknown span by default
        EXPECT_EQ(h->type_dtype(ctx, t.field(c, PTO_FIELD_TYPE), &dt), PTO_OK);

        EXPECT_ERR(h->create_node(ctx, S("ConstInt"), fields, 1, &c), PTO_ERR_INVALID_ARGUMENT,
                   "missing required field 'value' of a ConstInt node");
        pto_value str{};
        EXPECT_EQ(h->value_make_string(ctx, S("x"), &str), PTO_OK);
        pto_field_value wrong[] = {{S("type"), index}, {S("value"), str}};
        EXPECT_ERR(h->create_node(ctx, S("ConstInt"), wrong, 2, &c), PTO_ERR_INVALID_ARGUMENT, "ConstInt.value");
        EXPECT_ERR(h->create_node(ctx, S("Vwr"), fields, 2, &c), PTO_ERR_INVALID_ARGUMENT, "'Vwr' is not a node type");
        EXPECT_ERR(h->create_node(ctx, S("Program"), nullptr, 0, &c), PTO_ERR_INVALID_ARGUMENT, "not Program");
        pto_field_value twice[] = {{S("value"), t.make(1)}, {S("value"), t.make(2)}};
        EXPECT_ERR(h->create_node(ctx, S("ConstInt"), twice, 2, &c), PTO_ERR_INVALID_ARGUMENT, "given twice");
        // A node of the wrong class in a node field: an AssignStmt's var must be a Var.
        pto_value constant{}, var{};
        EXPECT_EQ(h->value_make_node(ctx, c, &constant), PTO_OK);
        EXPECT_EQ(h->value_make_node(ctx, data, &var), PTO_OK);
        pto_field_value assign[] = {{S("var"), constant}, {S("value"), constant}};
        EXPECT_ERR(h->create_node(ctx, S("AssignStmt"), assign, 2, &c), PTO_ERR_INVALID_ARGUMENT, "AssignStmt.var");
        assign[0].value = var;
        EXPECT_EQ(h->create_node(ctx, S("AssignStmt"), assign, 2, &c), PTO_OK);
        EXPECT_EQ(h->create_node(ctx, S("ConstInt"), nullptr, 1, &c), PTO_ERR_INVALID_HANDLE);
        return PTO_OK;
    });
    EXPECT_EQ(printed(), original);  // created nodes that were never placed are not written
}

// The cycle check walks from the new value; a long chain (past its short-walk list) is followed to the end.
TEST_F(HostTable11, ACycleThroughALongChainIsRefused) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_value none{};
        EXPECT_EQ(h->value_make_array(ctx, nullptr, 0, &none), PTO_OK);
        pto_field_value leaf[] = {{S("elements"), none}};
        pto_node innermost{};
        EXPECT_EQ(h->create_node(ctx, S("MakeTuple"), leaf, 1, &innermost), PTO_OK);
        pto_node outer = innermost;
        for (int i = 0; i < 200; ++i) {
            pto_value inner{}, list{};
            EXPECT_EQ(h->value_make_node(ctx, outer, &inner), PTO_OK);
            EXPECT_EQ(h->value_make_array(ctx, &inner, 1, &list), PTO_OK);
            pto_field_value wrap[] = {{S("elements"), list}};
            EXPECT_EQ(h->create_node(ctx, S("MakeTuple"), wrap, 1, &outer), PTO_OK);
        }
        pto_value top{}, list{};
        EXPECT_EQ(h->value_make_node(ctx, outer, &top), PTO_OK);
        EXPECT_EQ(h->value_make_array(ctx, &top, 1, &list), PTO_OK);
        EXPECT_ERR(h->node_set_field(ctx, innermost, PTO_FIELD_ELEMENTS, list), PTO_ERR_INVALID_ARGUMENT, "a cycle");
        EXPECT_EQ(h->node_set_field(ctx, outer, PTO_FIELD_ELEMENTS, none), PTO_OK);  // no cycle: accepted
        return PTO_OK;
    });
}

// The cycle check answers "no" at once when the new child is no taller than the node it goes into
// (Document::heights). An edit that puts a taller node under a shorter one must drop the heights: here L
// (height 1) gets X (height 12) inside, and then X would get T3 (which holds L) inside: a cycle, which
// stale heights (T3 at 4, X at 12) would have let through.
TEST_F(HostTable11, ACycleIsRefusedAfterAnEditMadeANodeTallerThanItsHeight) {
    ASSERT_FALSE(doc->heights().empty()) << "a document read from its bytes has heights";
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        auto tuple = [&](const pto_node* inside, size_t count) {
            std::vector<pto_value> items(count);
            for (size_t i = 0; i < count; ++i) EXPECT_EQ(h->value_make_node(ctx, inside[i], &items[i]), PTO_OK);
            pto_value list{};
            EXPECT_EQ(h->value_make_array(ctx, items.data(), count, &list), PTO_OK);
            pto_field_value fields[] = {{S("elements"), list}};
            pto_node made{};
            EXPECT_EQ(h->create_node(ctx, S("MakeTuple"), fields, 1, &made), PTO_OK);
            return made;
        };
        auto setElements = [&](pto_node n, pto_node inside) {
            pto_value item{}, list{};
            EXPECT_EQ(h->value_make_node(ctx, inside, &item), PTO_OK);
            EXPECT_EQ(h->value_make_array(ctx, &item, 1, &list), PTO_OK);
            return h->node_set_field(ctx, n, PTO_FIELD_ELEMENTS, list);
        };
        pto_node x = tuple(nullptr, 0);
        for (int i = 0; i < 11; ++i) x = tuple(&x, 1);  // X: height 12
        const pto_node l = tuple(nullptr, 0);           // L: height 1
        pto_node t3 = l;
        for (int i = 0; i < 3; ++i) t3 = tuple(&t3, 1);  // T3 > T2 > T1 > L
        EXPECT_EQ(setElements(l, x), PTO_OK);            // L now holds X
        EXPECT_ERR(setElements(x, t3), PTO_ERR_INVALID_ARGUMENT, "a cycle");
        return PTO_OK;
    });
}

TEST_F(HostTable11, SetFieldIsCheckedAndLeavesTheNodeUnchangedOnError) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node chip = t.function("chip_orch");
        pto_node ret = t.child(chip, PTO_FIELD_BODY);
        pto_value body{}, str{};
        EXPECT_EQ(h->value_make_node(ctx, t.first(t.function("host_orch"), PTO_NODE_ASSIGN_STMT), &body), PTO_OK);
        EXPECT_EQ(h->value_make_string(ctx, S("x"), &str), PTO_OK);
        // A ReturnStmt where a ReturnStmt's value list goes: the wrong class, refused.
        const pto_value items[] = {body};
        pto_value list{};
        EXPECT_EQ(h->value_make_array(ctx, items, 1, &list), PTO_OK);
        EXPECT_ERR(h->node_set_field(ctx, ret, PTO_FIELD_VALUE, list), PTO_ERR_INVALID_ARGUMENT, "ReturnStmt.value[0]");
        EXPECT_ERR(h->node_set_field(ctx, chip, PTO_FIELD_NAME, str), PTO_ERR_INVALID_ARGUMENT, "function_rename");
        pto_value fn{};
        EXPECT_EQ(h->value_make_node(ctx, chip, &fn), PTO_OK);
        EXPECT_ERR(h->node_set_field(ctx, ret, PTO_FIELD_VALUE, fn), PTO_ERR_INVALID_ARGUMENT, "a cycle");
        EXPECT_EQ(h->node_set_field(ctx, ret, PTO_FIELD_VALUE, body), PTO_ERR_INVALID_ARGUMENT);  // not a list
        EXPECT_ERR(h->node_set_field(ctx, ret, 0x7000, str), PTO_ERR_NOT_FOUND, "no such field id");
        EXPECT_ERR(h->node_set_field(ctx, ret, 0x10000 + 99999, str), PTO_ERR_NOT_FOUND, "no such field id");
        uint32_t newField = 0;
        EXPECT_EQ(h->field_from_name(ctx, S("requires_runtime_binding"), &newField), PTO_OK);
        EXPECT_ERR(h->node_set_field(ctx, chip, newField, str), PTO_ERR_INVALID_ARGUMENT,
                   "Function.requires_runtime_binding");
        return PTO_OK;
    });
    EXPECT_EQ(printed(), original);
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node mul = t.first(t.function("host_orch"), PTO_NODE_BINARY);  // 256 * 4
        pto_node left = t.child(mul, PTO_FIELD_LEFT);
        EXPECT_EQ(h->node_set_field(ctx, left, PTO_FIELD_VALUE, t.make(512)), PTO_OK);
        return PTO_OK;
    });
    EXPECT_NE(printed().find("alloc_window_buffer(512 * 4"), std::string::npos) << printed();
}

TEST_F(HostTable11, ClonesShareTheNodesInsideAndAreIndependentLists) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node call = t.firstGlobalCall(), copy{};
        EXPECT_EQ(h->clone_node(ctx, call, &copy), PTO_OK);
        EXPECT_FALSE(pto_node_equal(copy, call));
        EXPECT_TRUE(pto_node_equal(t.child(copy, PTO_FIELD_ARGS, 0), t.child(call, PTO_FIELD_ARGS, 0)));
        EXPECT_EQ(h->call_append_arg(ctx, copy, t.child(call, PTO_FIELD_ARGS, 0)), PTO_OK);
        size_t n = 0;
        EXPECT_EQ(h->node_child_count(ctx, call, PTO_FIELD_ARGS, &n), PTO_OK);
        EXPECT_EQ(n, 2u);  // the original's list is its own
        EXPECT_ERR(h->clone_node(ctx, t.function("chip_orch"), &copy), PTO_ERR_INVALID_ARGUMENT, "cannot be cloned");
        EXPECT_EQ(h->clone_node(ctx, call, nullptr), PTO_ERR_INVALID_HANDLE);
        return PTO_OK;
    });
    EXPECT_EQ(printed(), original);  // an unplaced clone is not written
}

TEST_F(HostTable11, StatementsAreInsertedAfterRemovedAndMoved) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node seq = t.first(t.function("host_orch"), PTO_NODE_SEQ_STMTS);
        size_t n = 0;
        EXPECT_EQ(h->node_child_count(ctx, seq, PTO_FIELD_STMTS, &n), PTO_OK);
        EXPECT_EQ(n, 6u);  // data_buf, signal_buf, data, signal, for, return
        pto_node loop = t.child(seq, PTO_FIELD_STMTS, 4);
        pto_node constant = t.child(t.first(seq, PTO_NODE_BINARY), PTO_FIELD_RIGHT);  // the 4 of 256 * 4
        pto_value type = t.field(constant, PTO_FIELD_TYPE), var{}, value{};
        pto_node extra{}, assign{};
        EXPECT_EQ(h->create_var(ctx, S("extra"), type, pto_node{}, &extra), PTO_OK);
        EXPECT_EQ(h->value_make_node(ctx, extra, &var), PTO_OK);
        EXPECT_EQ(h->value_make_node(ctx, constant, &value), PTO_OK);
        pto_field_value fields[] = {{S("var"), var}, {S("value"), value}};
        EXPECT_EQ(h->create_node(ctx, S("AssignStmt"), fields, 2, &assign), PTO_OK);

        EXPECT_EQ(h->move_stmt(ctx, seq, PTO_FIELD_STMTS, 1, seq, PTO_FIELD_STMTS, 0), PTO_OK);
        EXPECT_EQ(h->insert_after(ctx, seq, PTO_FIELD_STMTS, 0, &assign, 1), PTO_OK);
        EXPECT_EQ(h->remove_stmt(ctx, seq, PTO_FIELD_STMTS, 3), PTO_OK);
        // Deferred: indices still name the statements as they were.
        EXPECT_TRUE(pto_node_equal(t.child(seq, PTO_FIELD_STMTS, 4), loop));

        EXPECT_ERR(h->move_stmt(ctx, seq, PTO_FIELD_STMTS, 4, loop, PTO_FIELD_BODY, 0), PTO_ERR_INVALID_ARGUMENT,
                   "inside the statement moved");
        EXPECT_ERR(h->remove_stmt(ctx, seq, PTO_FIELD_STMTS, n), PTO_ERR_OUT_OF_RANGE, "no node at that field");
        EXPECT_ERR(h->remove_stmt(ctx, loop, PTO_FIELD_START, 0), PTO_ERR_WRONG_KIND, "not a statement");
        EXPECT_ERR(h->insert_after(ctx, seq, PTO_FIELD_STMTS, 0, &constant, 1), PTO_ERR_WRONG_KIND,
                   "stmts[0] is a ConstInt, not a statement");
        EXPECT_ERR(h->insert_after(ctx, loop, PTO_FIELD_BODY, 0, &loop, 1), PTO_ERR_INVALID_ARGUMENT, "a cycle");
        EXPECT_EQ(h->insert_after(ctx, seq, PTO_FIELD_STMTS, 0, nullptr, 1), PTO_ERR_INVALID_HANDLE);
        return PTO_OK;
    });
    const std::string p = printed();
    const size_t signalBuf = p.find("signal_buf: pl.Ptr"), dataBuf = p.find("data_buf: pl.Ptr"),
                 extra = p.find("extra: pl.Scalar[pl.INDEX] = 4"),
                 data = p.find("data: pld.DistributedTensor[[256], pl.FP32] =");
    EXPECT_TRUE(signalBuf < dataBuf && dataBuf < extra && extra < data) << p;
    EXPECT_EQ(p.find("signal: pld.DistributedTensor[[4], pl.INT32] ="), std::string::npos) << p;
}

TEST_F(HostTable11, ReplaceUsesReplacesEveryUseBelowTheRoot) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node host = t.function("host_orch");
        pto_node loop = t.first(host, PTO_NODE_FOR_STMT);
        pto_node r = t.child(loop, PTO_FIELD_LOOP_VAR);
        pto_node four = t.child(t.first(host, PTO_NODE_BINARY), PTO_FIELD_RIGHT);
        size_t count = 0;
        // `r` is used once, in the call's device attr, and bound as the loop variable: a constant cannot
        // stand where a Var is bound, so nothing is replaced.
        EXPECT_ERR(h->replace_uses(ctx, loop, r, four, &count), PTO_ERR_WRONG_KIND,
                   "bound in field 'loop_var' of a ForStmt");
        // Below the loop's body only the use is seen.
        EXPECT_EQ(h->replace_uses(ctx, t.child(loop, PTO_FIELD_BODY), r, four, &count), PTO_OK);
        EXPECT_EQ(count, 1u);
        EXPECT_ERR(h->replace_uses(ctx, host, four, four, &count), PTO_ERR_WRONG_KIND, "not a Var");
        EXPECT_ERR(h->replace_uses(ctx, host, r, loop, &count), PTO_ERR_WRONG_KIND, "not an expression");
        EXPECT_ERR(h->replace_uses(ctx, r, r, four, &count), PTO_ERR_INVALID_ARGUMENT, "the variable itself");
        return PTO_OK;
    });
    EXPECT_NE(printed().find("device=4"), std::string::npos) << printed();
}

TEST_F(HostTable11, AttrsAndKwargsAreReadDecodedAndEditedChecked) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node call = t.firstGlobalCall();
        size_t n = 0;
        EXPECT_EQ(h->attr_count(ctx, call, PTO_ATTR_LIST_ATTRS, &n), PTO_OK);
        EXPECT_EQ(n, 2u);
        EXPECT_EQ(h->attr_count(ctx, call, PTO_ATTR_LIST_KWARGS, &n), PTO_OK);
        EXPECT_EQ(n, 0u);
        pto_attr a{sizeof(pto_attr), {}, {}, {}};
        EXPECT_EQ(h->attr_at(ctx, call, PTO_ATTR_LIST_ATTRS, 0, &a), PTO_OK);
        EXPECT_EQ(text(a.key), "device");
        EXPECT_EQ(text(a.tag), "Expr");
        pto_node device{};
        EXPECT_EQ(h->value_as_node(ctx, a.value, &device), PTO_OK);
        EXPECT_EQ(t.kind(device), PTO_NODE_VAR);
        EXPECT_EQ(h->attr_find(ctx, call, PTO_ATTR_LIST_ATTRS, S("arg_directions"), &a), PTO_OK);
        EXPECT_EQ(text(a.tag), "ArgDirectionVector");
        EXPECT_EQ(h->value_size(ctx, a.value, &n), PTO_OK);
        EXPECT_EQ(n, 2u);
        pto_arg_direction dirs[1];
        EXPECT_EQ(h->call_arg_directions(ctx, call, dirs, 1, &n), PTO_OK);
        EXPECT_EQ(n, 2u);  // the total, though only 1 fit
        EXPECT_EQ(dirs[0], PTO_ARG_INPUT);
        EXPECT_ERR(h->attr_at(ctx, call, PTO_ATTR_LIST_ATTRS, 2, &a), PTO_ERR_OUT_OF_RANGE, "past the 2 entries");
        EXPECT_ERR(h->attr_find(ctx, call, PTO_ATTR_LIST_ATTRS, S("nope"), &a), PTO_ERR_NOT_FOUND, "no entry 'nope'");
        EXPECT_ERR(h->attr_count(ctx, device, PTO_ATTR_LIST_ATTRS, &n), PTO_ERR_WRONG_KIND, "a Var has no attrs");
        EXPECT_EQ(h->attr_count(ctx, call, static_cast<pto_attr_list>(7), &n), PTO_ERR_INVALID_ARGUMENT);
        pto_attr small{8, {}, {}, {}};
        EXPECT_EQ(h->attr_at(ctx, call, PTO_ATTR_LIST_ATTRS, 0, &small), PTO_ERR_INVALID_ARGUMENT);
        EXPECT_ERR(h->call_arg_directions(ctx, device, nullptr, 0, &n), PTO_ERR_WRONG_KIND, "not a Call");

        // Plain and tagged values; a replaced entry keeps its place, a new one is appended.
        EXPECT_EQ(h->attr_set(ctx, call, PTO_ATTR_LIST_KWARGS, S("tile"), S(""), t.make(64)), PTO_OK);
        pto_value codes{};
        const pto_value three[] = {t.make(0), t.make(2), t.make(5)};
        EXPECT_EQ(h->value_make_array(ctx, three, 3, &codes), PTO_OK);
        EXPECT_ERR(h->attr_set(ctx, call, PTO_ATTR_LIST_ATTRS, S("arg_directions"), S("ArgDirectionVector"), codes),
                   PTO_ERR_INVALID_ARGUMENT, "Call attrs['arg_directions'] size (3) must match args size (2)");
        EXPECT_EQ(h->value_make_array(ctx, three, 2, &codes), PTO_OK);
        EXPECT_EQ(h->attr_set(ctx, call, PTO_ATTR_LIST_ATTRS, S("arg_directions"), S("ArgDirectionVector"), codes),
                  PTO_OK);
        EXPECT_EQ(h->call_arg_directions(ctx, call, dirs, 1, &n), PTO_OK);
        EXPECT_EQ(dirs[0], PTO_ARG_INPUT);
        EXPECT_EQ(h->attr_set(ctx, call, PTO_ATTR_LIST_ATTRS, S("dtype"), S("DataType"), t.make(PTO_DTYPE_FP16)),
                  PTO_OK);
        EXPECT_ERR(h->attr_set(ctx, call, PTO_ATTR_LIST_ATTRS, S("dtype"), S("DataType"), t.make(99)),
                   PTO_ERR_INVALID_ARGUMENT, "DataType code 99 out of range");
        EXPECT_EQ(h->attr_remove(ctx, call, PTO_ATTR_LIST_ATTRS, S("device")), PTO_OK);
        EXPECT_ERR(h->attr_remove(ctx, call, PTO_ATTR_LIST_ATTRS, S("device")), PTO_ERR_NOT_FOUND, "no entry");
        return PTO_OK;
    });
    const std::string p = printed();
    EXPECT_NE(p.find("pl.adir.input, pl.adir.inout]"), std::string::npos) << p;
    EXPECT_EQ(p.find("device="), std::string::npos) << p;
    EXPECT_NE(p.find("tile=64"), std::string::npos) << p;
}

TEST_F(HostTable11, FunctionsAreRenamedCalledAndListedByName) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node chip = t.function("chip_orch"), host = t.function("host_orch");
        size_t n = 0;
        pto_node calls[4];
        EXPECT_EQ(h->function_calls(ctx, chip, calls, 4, &n), PTO_OK);
        EXPECT_EQ(n, 1u);
        EXPECT_EQ(h->function_calls(ctx, host, nullptr, 0, &n), PTO_OK);
        EXPECT_EQ(n, 0u);
        EXPECT_ERR(h->function_rename(ctx, chip, S("host_orch")), PTO_ERR_INVALID_ARGUMENT,
                   "already has a function 'host_orch'");
        EXPECT_ERR(h->function_rename(ctx, chip, S("")), PTO_ERR_INVALID_ARGUMENT, "empty");
        // the printer writes `def NAME(`: a name pypto's parser would not read back is refused
        for (const char* bad : {"has space", "1st", "a-b", "def", "None", "caf\xc3\xa9", "tab\t"})
            EXPECT_ERR(h->function_rename(ctx, chip, S(bad)), PTO_ERR_INVALID_ARGUMENT, "not an identifier");
        EXPECT_EQ(h->function_rename(ctx, chip, S("_Chip2")), PTO_OK);
        EXPECT_EQ(h->function_rename(ctx, chip, S("chip_orch")), PTO_OK);
        EXPECT_ERR(h->function_rename(ctx, calls[0], S("x")), PTO_ERR_WRONG_KIND, "not a Function");
        EXPECT_EQ(h->function_rename(ctx, chip, S("z_chip")), PTO_OK);
        pto_node f{};
        EXPECT_EQ(h->program_function_at(ctx, 1, &f), PTO_OK);
        EXPECT_TRUE(pto_node_equal(f, chip));  // the list stays sorted: host_orch, z_chip
        EXPECT_EQ(h->program_find_function(ctx, S("chip_orch"), &f), PTO_ERR_NOT_FOUND);
        pto_string name{};
        int global = 0;
        EXPECT_EQ(h->call_op(ctx, calls[0], &name, &global), PTO_OK);
        EXPECT_EQ(text(name), "z_chip");  // the call followed

        // A new Submit to z_chip with the old call's args, as an EvalStmt before the loop.
        pto_node args[2] = {t.child(calls[0], PTO_FIELD_ARGS, 0), t.child(calls[0], PTO_FIELD_ARGS, 1)};
        pto_value type = t.field(calls[0], PTO_FIELD_TYPE), expr{};
        pto_node submit{}, eval{};
        EXPECT_EQ(h->create_call(ctx, PTO_NODE_SUBMIT, chip, args, 2, type, calls[0], &submit), PTO_OK);
        EXPECT_EQ(t.kind(submit), PTO_NODE_SUBMIT);
        EXPECT_EQ(h->value_make_node(ctx, submit, &expr), PTO_OK);
        pto_field_value fields[] = {{S("expr"), expr}};
        EXPECT_EQ(h->create_node(ctx, S("EvalStmt"), fields, 1, &eval), PTO_OK);
        pto_node seq = t.first(host, PTO_NODE_SEQ_STMTS);
        EXPECT_EQ(h->insert_before(ctx, seq, PTO_FIELD_STMTS, 4, &eval, 1), PTO_OK);
        EXPECT_EQ(h->function_calls(ctx, chip, nullptr, 0, &n), PTO_OK);
        EXPECT_EQ(n, 1u);  // not placed yet: the insertion is deferred
        EXPECT_EQ(h->flush_inserts(ctx), PTO_OK);
        EXPECT_EQ(h->function_calls(ctx, chip, nullptr, 0, &n), PTO_OK);
        EXPECT_EQ(n, 2u);

        EXPECT_ERR(h->create_call(ctx, PTO_NODE_CALL, calls[0], args, 2, type, pto_node{}, &submit), PTO_ERR_WRONG_KIND,
                   "not a Function");
        EXPECT_ERR(h->create_call(ctx, PTO_NODE_VAR, chip, args, 2, type, pto_node{}, &submit),
                   PTO_ERR_INVALID_ARGUMENT, "PTO_NODE_CALL or PTO_NODE_SUBMIT");
        EXPECT_ERR(h->call_set_op(ctx, calls[0], S("nowhere"), 1), PTO_ERR_NOT_FOUND, "no function 'nowhere'");
        EXPECT_EQ(h->call_set_op(ctx, calls[0], S("host_orch"), 1), PTO_OK);
        EXPECT_EQ(h->function_calls(ctx, host, nullptr, 0, &n), PTO_OK);
        EXPECT_EQ(n, 1u);
        return PTO_OK;
    });
    const std::string p = printed();
    EXPECT_NE(p.find("def z_chip("), std::string::npos) << p;
    EXPECT_NE(p.find("self.host_orch(data, signal"), std::string::npos) << p;
}

TEST_F(HostTable11, SetFieldsChangesFieldsThatAreOnlyValidTogether) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node chip = t.function("chip_orch");
        pto_node data = t.child(chip, PTO_FIELD_PARAMS, 0);
        pto_value one{}, params{}, dirs{};
        EXPECT_EQ(h->value_make_node(ctx, data, &one), PTO_OK);
        EXPECT_EQ(h->value_make_array(ctx, &one, 1, &params), PTO_OK);
        // params alone would disagree with the two param_directions: refused, and nothing changed.
        EXPECT_ERR(h->node_set_field(ctx, chip, PTO_FIELD_PARAMS, params), PTO_ERR_INVALID_ARGUMENT,
                   "param_directions has 2 entries for 1 params");
        const pto_value in[] = {t.make(0)};
        EXPECT_EQ(h->value_make_array(ctx, in, 1, &dirs), PTO_OK);
        pto_field_value both[] = {{S("params"), params}, {S("param_directions"), dirs}};
        EXPECT_EQ(h->node_set_fields(ctx, chip, both, 2), PTO_OK);
        pto_function_info info{sizeof info, 0, 0, 0, 0};
        EXPECT_EQ(h->function_info(ctx, chip, &info), PTO_OK);
        EXPECT_EQ(info.param_count, 1u);
        pto_field_value twice[] = {{S("params"), params}, {S("params"), params}};
        EXPECT_ERR(h->node_set_fields(ctx, chip, twice, 2), PTO_ERR_INVALID_ARGUMENT, "given twice");
        pto_value bad{};
        EXPECT_EQ(h->value_make_string(ctx, S("x"), &bad), PTO_OK);
        pto_field_value partlyBad[] = {{S("param_directions"), dirs}, {S("return_types"), bad}};
        EXPECT_ERR(h->node_set_fields(ctx, chip, partlyBad, 2), PTO_ERR_INVALID_ARGUMENT, "Function.return_types");
        return PTO_OK;
    });
    EXPECT_NE(printed().find("def chip_orch(self, data: pld.DistributedTensor[[256], pl.FP32]):"), std::string::npos)
        << printed();
}

TEST_F(HostTable11, FunctionsAreAddedInNameOrderAndRemovedOnlyWhenUncalled) {
    run([](const pto_host_api* h, pto_run_context* ctx) {
        T t{h, ctx};
        pto_node chip = t.function("chip_orch");
        pto_node made{}, f{};
        EXPECT_EQ(h->clone_node(ctx, chip, &made), PTO_ERR_INVALID_ARGUMENT);  // functions are not cloned
        pto_value name{}, params{}, types{}, body{};
        EXPECT_EQ(h->value_make_string(ctx, S("helper"), &name), PTO_OK);
        EXPECT_EQ(h->value_make_array(ctx, nullptr, 0, &params), PTO_OK);
        EXPECT_EQ(h->value_make_array(ctx, nullptr, 0, &types), PTO_OK);
        pto_node ret{};
        pto_field_value retFields[] = {{S("value"), params}};
        EXPECT_EQ(h->create_node(ctx, S("ReturnStmt"), retFields, 1, &ret), PTO_OK);
        EXPECT_EQ(h->value_make_node(ctx, ret, &body), PTO_OK);
        pto_field_value fields[] = {
            {S("name"), name}, {S("params"), params}, {S("return_types"), types}, {S("body"), body}};
        EXPECT_EQ(h->create_node(ctx, S("Function"), fields, 4, &made), PTO_OK);
        EXPECT_EQ(h->program_add_function(ctx, made), PTO_OK);
        EXPECT_EQ(h->program_function_at(ctx, 1, &f), PTO_OK);  // chip_orch, helper, host_orch
        EXPECT_TRUE(pto_node_equal(f, made));
        EXPECT_ERR(h->program_add_function(ctx, made), PTO_ERR_INVALID_ARGUMENT, "already in the program");
        EXPECT_ERR(h->program_add_function(ctx, ret), PTO_ERR_WRONG_KIND, "not a Function");
        EXPECT_ERR(h->program_remove_function(ctx, chip), PTO_ERR_INVALID_ARGUMENT, "1 call(s) still name 'chip_orch'");
        EXPECT_EQ(h->program_remove_function(ctx, made), PTO_OK);
        EXPECT_ERR(h->program_remove_function(ctx, made), PTO_ERR_INVALID_ARGUMENT, "not in the program");
        EXPECT_EQ(h->program_add_function(ctx, made), PTO_OK);
        return PTO_OK;
    });
    EXPECT_NE(printed().find("    @pl.function()\n    def helper(self):\n        return\n"), std::string::npos)
        << printed();
}

TEST_F(HostTable11, PassOptionsAreTypedAndVerifiersReadOnly) {
    std::vector<host::PassOption> options(2);
    options[0].name = "limit";
    options[0].value.type = PTO_OPTION_INT;
    options[0].value.i = 12;
    options[1].name = "label";
    options[1].value.s = "x";
    run(
        [](const pto_host_api* h, pto_run_context* ctx) {
            T t{h, ctx};
            pto_value v{};
            int64_t i = 0;
            pto_string s{};
            EXPECT_EQ(h->pass_option(ctx, S("limit"), &v), PTO_OK);
            EXPECT_EQ(h->value_as_int64(ctx, v, &i), PTO_OK);
            EXPECT_EQ(i, 12);
            EXPECT_EQ(h->pass_option(ctx, S("label"), &v), PTO_OK);
            EXPECT_EQ(h->value_as_string(ctx, v, &s), PTO_OK);
            EXPECT_EQ(text(s), "x");
            EXPECT_ERR(h->pass_option(ctx, S("limt"), &v), PTO_ERR_NOT_FOUND, "declares no option 'limt'");
            return PTO_OK;
        },
        host::RunSettings{.options = &options, .readOnly = false});
    run(
        [](const pto_host_api* h, pto_run_context* ctx) {
            T t{h, ctx};
            pto_value v{};
            EXPECT_EQ(h->pass_option(ctx, S("limit"), &v), PTO_ERR_NOT_FOUND);
            pto_node chip = t.function("chip_orch");
            EXPECT_ERR(h->function_rename(ctx, chip, S("x")), PTO_ERR_UNSUPPORTED, "must not change it");
            EXPECT_EQ(h->remove_stmt(ctx, chip, PTO_FIELD_BODY, 0), PTO_ERR_UNSUPPORTED);
            EXPECT_EQ(h->replace_child(ctx, chip, PTO_FIELD_BODY, 0, t.child(chip, PTO_FIELD_BODY)),
                      PTO_ERR_UNSUPPORTED);
            size_t n = 0;
            EXPECT_EQ(h->function_calls(ctx, chip, nullptr, 0, &n), PTO_OK);  // reading is fine
            return PTO_OK;
        },
        host::RunSettings{.options = nullptr, .readOnly = true});
    EXPECT_EQ(printed(), original);
}

}  // namespace
}  // namespace ptoplug
