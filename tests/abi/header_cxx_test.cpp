// The ABI headers compile as C++ (this file) and as C99 (examples/count_calls_plugin, built with
// -std=c99 -pedantic); their inline helpers behave.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ptoplug/abi.h"

TEST(AbiHeader, HandleHelpers) {
    pto_node null{};
    pto_node a{{7, 1}};
    pto_node b{{7, 1}};
    pto_node c{{7, 2}};
    EXPECT_TRUE(pto_node_is_null(null));
    EXPECT_FALSE(pto_node_is_null(a));
    EXPECT_TRUE(pto_node_equal(a, b));
    EXPECT_FALSE(pto_node_equal(a, c));
    pto_value v{};
    EXPECT_TRUE(pto_value_is_null(v));
}

TEST(AbiHeader, HostHasChecksTheTableSize) {
    pto_host_api api{};
    api.struct_size = offsetof(pto_host_api, walk);
    EXPECT_TRUE(PTO_HOST_HAS(&api, value_type_kind));
    EXPECT_FALSE(PTO_HOST_HAS(&api, walk));
    api.struct_size = sizeof(pto_host_api);
    EXPECT_TRUE(PTO_HOST_HAS(&api, emit_diagnostic));
}

TEST(AbiHeader, KindCategoriesNameEveryKindOfThisVersion) {
    const std::vector<pto_node_kind> scopes = {PTO_NODE_IN_CORE_SCOPE_STMT,    PTO_NODE_CLUSTER_SCOPE_STMT,
                                               PTO_NODE_HIERARCHY_SCOPE_STMT,  PTO_NODE_SPMD_SCOPE_STMT,
                                               PTO_NODE_SPLIT_AIV_SCOPE_STMT,  PTO_NODE_RUNTIME_SCOPE_STMT,
                                               PTO_NODE_COMM_DOMAIN_SCOPE_STMT};
    int stmts = 0, exprs = 0, scopeCount = 0;
    for (int k = PTO_NODE_OTHER; k <= PTO_NODE_COMM_DOMAIN_SCOPE_STMT; ++k) {
        auto kind = static_cast<pto_node_kind>(k);
        EXPECT_FALSE(pto_node_kind_is_stmt(kind) && pto_node_kind_is_expr(kind)) << k;
        stmts += pto_node_kind_is_stmt(kind);
        exprs += pto_node_kind_is_expr(kind);
        scopeCount += pto_node_kind_is_scope(kind);
        bool scope = std::find(scopes.begin(), scopes.end(), kind) != scopes.end();
        EXPECT_EQ(pto_node_kind_is_scope(kind) != 0, scope) << k;
        if (scope) {
            EXPECT_TRUE(pto_node_kind_is_stmt(kind)) << k;
        }
    }
    EXPECT_EQ(scopeCount, 7);
    EXPECT_EQ(stmts, 18);
    EXPECT_EQ(exprs, 13);                                                 // Program, Function and Other are neither
    EXPECT_FALSE(pto_node_kind_is_stmt(static_cast<pto_node_kind>(34)));  // a kind of a later minor
}
