// The fixture of the host table's contract tests (host_table_1_1_test, host_table_1_2_test): a run of
// the table over one fixture program, and helpers over a run's table.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "abi_host/runner.h"
#include "ir/printer.h"
#include "ir/reader.h"
#include "ir/validate.h"
#include "support/fixtures.h"

namespace ptoplug::table_test {

using Body = std::function<pto_status(const pto_host_api*, pto_run_context*)>;
inline Body gBody;
inline pto_status runBody(const pto_host_api* host, pto_run_context* ctx) { return gBody(host, ctx); }

inline pto_string S(const char* s) { return pto_string{s, std::char_traits<char>::length(s)}; }
inline std::string text(pto_string s) { return std::string(s.data, s.size); }

// The fixture: host_orch builds two windows (`256 * 4`, `4 * 4`) and calls chip_orch(data, signal) in a
// loop, with attrs device (an Expr) and arg_directions [0, 0]; chip_orch returns `data`.
class HostTableTest : public ::testing::Test {
protected:
    HostTableTest() {
        auto read = ir::readDocument(test::fixtureNamed("host_dispatch_materializes_comm_ctx_args/before").msgpack,
                                     ir::Format::Auto, "before.msgpack");
        if (!read) std::abort();
        doc = std::move(*read);
        original = ir::printProgram(*doc);
    }
    ~HostTableTest() override { EXPECT_FALSE(ir::checkStructure(*doc).has_value()) << "a test left invalid IR"; }

    pto_status run(Body body, host::RunSettings settings = {}) {
        gBody = std::move(body);
        return host::runThroughAbi(*doc, runBody, settings).status;
    }
    std::string printed() const { return ir::printProgram(*doc); }

    std::unique_ptr<ir::Document> doc;
    std::string original;
};

// Helpers over a run's table.
struct T {
    const pto_host_api* h;
    pto_run_context* ctx;

    pto_node function(const char* name) const {
        pto_node f{};
        EXPECT_EQ(h->program_find_function(ctx, S(name), &f), PTO_OK);
        return f;
    }
    pto_node child(pto_node n, uint32_t field, size_t i = 0) const {
        pto_node c{};
        EXPECT_EQ(h->node_child(ctx, n, field, i, &c), PTO_OK);
        return c;
    }
    pto_node_kind kind(pto_node n) const {
        pto_node_kind k{};
        EXPECT_EQ(h->node_kind(ctx, n, &k), PTO_OK);
        return k;
    }
    std::string error() const {
        pto_string s{};
        EXPECT_EQ(h->last_error(ctx, &s), PTO_OK);
        return text(s);
    }
    // The first node of `kind` below `root`, pre-order.
    pto_node first(pto_node root, pto_node_kind wanted) const {
        struct Search {
            const T* t;
            pto_node_kind wanted;
            pto_node found;
        } s{this, wanted, {}};
        pto_walk_callbacks cb{sizeof cb, nullptr, nullptr, &s, 0};
        cb.pre = [](pto_run_context*, pto_node n, const pto_walk_position*, void* user) {
            auto* s = static_cast<Search*>(user);
            if (s->t->kind(n) != s->wanted) return PTO_WALK_ADVANCE;
            s->found = n;
            return PTO_WALK_STOP;
        };
        EXPECT_EQ(h->walk(ctx, root, &cb), PTO_OK);
        return s.found;
    }
    pto_node firstGlobalCall() const {
        struct Search {
            const T* t;
            pto_node found;
        } s{this, {}};
        pto_walk_callbacks cb{sizeof cb, nullptr, nullptr, &s, 0};
        cb.pre = [](pto_run_context* c, pto_node n, const pto_walk_position*, void* user) {
            auto* s = static_cast<Search*>(user);
            pto_string name{};
            int global = 0;
            if (s->t->kind(n) != PTO_NODE_CALL || s->t->h->call_op(c, n, &name, &global) != PTO_OK || !global)
                return PTO_WALK_ADVANCE;
            s->found = n;
            return PTO_WALK_STOP;
        };
        EXPECT_EQ(h->walk(ctx, function("host_orch"), &cb), PTO_OK);
        return s.found;
    }
    pto_value make(int64_t v) const {
        pto_value out{};
        EXPECT_EQ(h->value_make_int(ctx, v, &out), PTO_OK);
        return out;
    }
    pto_value field(pto_node n, uint32_t f) const {
        pto_value v{};
        EXPECT_EQ(h->node_field(ctx, n, f, &v), PTO_OK);
        return v;
    }
};

#define EXPECT_ERR(call, status, fragment)                                   \
    do {                                                                     \
        EXPECT_EQ((call), status) << #call;                                  \
        EXPECT_NE(t.error().find(fragment), std::string::npos) << t.error(); \
    } while (0)

}  // namespace ptoplug::table_test
