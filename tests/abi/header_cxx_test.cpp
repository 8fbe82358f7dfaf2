// The ABI headers compile as C++ (this file) and as C99 (examples/count_calls_plugin, built with
// -std=c99 -pedantic); their inline helpers behave.
#include <gtest/gtest.h>

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
