// The ABI's named enum codes (types.h) are exactly the codes the format defines (docs/ir_format.md §7,
// as the reader checks them): every name is a valid code, and every valid code has a name.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include <ptoplug/abi.h>

#include "ir/schema.h"

namespace ptoplug {
namespace {

void expectNamesAreTheCodes(ir::EnumSet set, const std::vector<int>& names) {
    const std::set<int> named(names.begin(), names.end());
    for (int code = 0; code <= 255; ++code)
        EXPECT_EQ(named.count(code) == 1, ir::enumCodeValid(set, static_cast<uint64_t>(code)))
            << ir::enumSetName(set) << " code " << code;
    EXPECT_LE(*named.rbegin(), 255) << ir::enumSetName(set);
}

TEST(AbiEnumCodes, EveryEnumOfTheFormatIsNamed) {
    expectNamesAreTheCodes(
        ir::EnumSet::FunctionType,
        {PTO_FUNCTION_OPAQUE, PTO_FUNCTION_ORCHESTRATION, PTO_FUNCTION_IN_CORE, PTO_FUNCTION_AIC, PTO_FUNCTION_AIV,
         PTO_FUNCTION_GROUP, PTO_FUNCTION_SPMD, PTO_FUNCTION_INLINE, PTO_FUNCTION_GRAPH});
    expectNamesAreTheCodes(ir::EnumSet::Level,
                           {PTO_LEVEL_AIV, PTO_LEVEL_AIC, PTO_LEVEL_CORE_GROUP, PTO_LEVEL_CHIP_DIE, PTO_LEVEL_CHIP,
                            PTO_LEVEL_HOST, PTO_LEVEL_CLUSTER_0, PTO_LEVEL_CLUSTER_1, PTO_LEVEL_CLUSTER_2,
                            PTO_LEVEL_GLOBAL, PTO_LEVEL_L2CACHE, PTO_LEVEL_PROCESSOR, PTO_LEVEL_UMA, PTO_LEVEL_NODE,
                            PTO_LEVEL_POD, PTO_LEVEL_CLOS1, PTO_LEVEL_CLOS2, PTO_LEVEL_UNDEFINED});
    expectNamesAreTheCodes(ir::EnumSet::Role, {PTO_ROLE_ORCHESTRATOR, PTO_ROLE_SUB_WORKER});
    expectNamesAreTheCodes(ir::EnumSet::ParamDirection, {PTO_PARAM_IN, PTO_PARAM_OUT, PTO_PARAM_INOUT});
    expectNamesAreTheCodes(ir::EnumSet::ArgDirection, {PTO_ARG_INPUT, PTO_ARG_OUTPUT, PTO_ARG_INOUT,
                                                       PTO_ARG_OUTPUT_EXISTING, PTO_ARG_NO_DEP, PTO_ARG_SCALAR});
    expectNamesAreTheCodes(ir::EnumSet::ForKind,
                           {PTO_FOR_SEQUENTIAL, PTO_FOR_PARALLEL, PTO_FOR_UNROLL, PTO_FOR_PIPELINE});
    expectNamesAreTheCodes(ir::EnumSet::SplitMode, {PTO_SPLIT_NONE, PTO_SPLIT_UP_DOWN, PTO_SPLIT_LEFT_RIGHT});
    expectNamesAreTheCodes(
        ir::EnumSet::MemorySpace,
        {PTO_MEMORY_DDR, PTO_MEMORY_VEC, PTO_MEMORY_MAT, PTO_MEMORY_LEFT, PTO_MEMORY_RIGHT, PTO_MEMORY_ACC,
         PTO_MEMORY_BIAS, PTO_MEMORY_SCALAR_LOCAL, PTO_MEMORY_LEFT_SCALE, PTO_MEMORY_RIGHT_SCALE});
    expectNamesAreTheCodes(ir::EnumSet::InlineLanguage, {PTO_INLINE_PYTHON});
}

// DataType code 53 is reserved: the reader takes it, and it has no name.
TEST(AbiEnumCodes, DataTypeNamesEveryCodeButTheReservedOne) {
    expectNamesAreTheCodes(ir::EnumSet::DataType, {PTO_DTYPE_BOOL,    PTO_DTYPE_INT4,      PTO_DTYPE_INT8,
                                                   PTO_DTYPE_INT16,   PTO_DTYPE_INT32,     PTO_DTYPE_INT64,
                                                   PTO_DTYPE_INDEX,   PTO_DTYPE_UINT4,     PTO_DTYPE_UINT8,
                                                   PTO_DTYPE_UINT16,  PTO_DTYPE_UINT32,    PTO_DTYPE_UINT64,
                                                   PTO_DTYPE_FP4,     PTO_DTYPE_FP8E4M3FN, PTO_DTYPE_FP8E5M2,
                                                   PTO_DTYPE_FP16,    PTO_DTYPE_FP32,      53,
                                                   PTO_DTYPE_FP8E8M0, PTO_DTYPE_BF16,      PTO_DTYPE_HF4,
                                                   PTO_DTYPE_HF8,     PTO_DTYPE_TASK_ID});
}

}  // namespace
}  // namespace ptoplug
