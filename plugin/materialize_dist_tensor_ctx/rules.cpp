#include "rules.h"

#include <cstring>
#include <iterator>

namespace ptoplug::mdtc {

namespace {

struct Rule {
    const char* code;
    const char* id;
};

constexpr Rule kRules[] = {
    {"E1", "MaterializeDistTensorCtx/branch-context-conflict"},
    {"E2", "MaterializeDistTensorCtx/loop-carry-rebound"},
    {"E3", "MaterializeDistTensorCtx/unresolved-query"},
    {"E4", "MaterializeDistTensorCtx/unresolved-context"},
    {"I1", "MaterializeDistTensorCtx/query-arity"},
    {"I2", "MaterializeDistTensorCtx/unattached-query"},
    {"I3", "MaterializeDistTensorCtx/no-statement-for-query"},
    {"I4", "MaterializeDistTensorCtx/missing-dist-arg"},
    {"I5", "MaterializeDistTensorCtx/arg-not-dist"},
    {"I6", "MaterializeDistTensorCtx/iter-arg-in-attribute"},
    {"B3", "MaterializeDistTensorCtx/empty-arg-directions"},
    {"W1", "MaterializeDistTensorCtx/already-materialized"},
};

}  // namespace

const char* ruleId(const char* shortCode) {
    for (const Rule& r : kRules)
        if (std::strcmp(r.code, shortCode) == 0) return r.id;
    return shortCode;
}

}  // namespace ptoplug::mdtc
