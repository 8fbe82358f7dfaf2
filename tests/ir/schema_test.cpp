// The schema's facts about field orders (ir/schema.h), which the writer's layout walk relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ir/known_names.h"
#include "ir/schema.h"

namespace ptoplug::ir {
namespace {

using In = NodeSchema::OrderStep::In;

// The keys a rank table lists below `limit`, by rank.
std::vector<uint32_t> listed(const std::vector<uint8_t>& ranks, uint8_t limit) {
    std::vector<std::pair<uint8_t, uint32_t>> byRank;
    for (uint32_t key = 0; key < ranks.size(); ++key)
        if (ranks[key] < limit) byRank.emplace_back(ranks[key], key);
    std::sort(byRank.begin(), byRank.end());
    std::vector<uint32_t> keys;
    keys.reserve(byRank.size());
    for (const auto& [rank, key] : byRank) keys.push_back(key);
    return keys;
}

std::vector<uint32_t> taken(const NodeSchema& s, In alone) {
    std::vector<uint32_t> keys;
    for (const NodeSchema::OrderStep& step : s.mergedOrder)
        if (step.in == In::Both || step.in == alone) keys.push_back(step.key);
    return keys;
}

// Every type's merged order walks its emit order and its read order each as it is, with a field in both
// at once wherever the two can share it.
TEST(Schema, TheMergedOrderHoldsBothOrders) {
    size_t differing = 0;
    for (uint32_t type = 0; type < K::kCount; ++type) {
        const NodeSchema* s = schemaFor(type);
        if (!s) continue;
        const std::vector<uint32_t> emit = listed(s->emitRank, kRankUnread);
        const std::vector<uint32_t> read = listed(s->readRank, kRankUnread);
        if (emit == read) {
            EXPECT_TRUE(s->mergedOrder.empty()) << "type " << type;
            continue;
        }
        ++differing;
        EXPECT_EQ(taken(*s, In::EmitOnly), emit) << "type " << type;
        EXPECT_EQ(taken(*s, In::ReadOnly), read) << "type " << type;
    }
    EXPECT_GE(differing, 6u) << "WhileStmt, SpmdScopeStmt, CommDomainScopeStmt, Function, MemRef, WindowBuffer, ...";
}

// Where the orders only swap two neighbours (a Function's attrs and return types), the rest is shared.
TEST(Schema, AFunctionsOrdersShareAllButTheSwappedPair) {
    const NodeSchema* s = schemaFor(K::Function);
    ASSERT_NE(s, nullptr);
    size_t both = 0;
    for (const NodeSchema::OrderStep& step : s->mergedOrder) both += step.in == In::Both ? 1 : 0;
    EXPECT_EQ(both, 3u) << "params, one of attrs and return_types, body";
    // A scope's slots are read first and written last: its body, the bulk of a host program, is shared.
    const NodeSchema* scope = schemaFor(K::CommDomainScopeStmt);
    ASSERT_NE(scope, nullptr);
    for (const NodeSchema::OrderStep& step : scope->mergedOrder) {
        if (step.key == K::body) {
            EXPECT_EQ(step.in, In::Both);
        }
    }
}

}  // namespace
}  // namespace ptoplug::ir
