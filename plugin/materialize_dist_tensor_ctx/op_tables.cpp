#include "op_tables.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace ptoplug::mdtc {
namespace {

// Writeback ops (`set_output_reuses_input(k)`): the result is input k, written in place.
constexpr std::pair<std::string_view, size_t> kWritebackOps[] = {
    {"tensor.assemble", 0}, {"tensor.set_validshape", 0}, {"tile.batch_matmul_acc", 0}, {"tile.fillpad_inplace", 0},
    {"tile.gather_row", 0}, {"tile.gemv_acc", 0},         {"tile.matmul_acc", 0},       {"tile.matmul_mx_acc", 0},
    {"tile.mscatter", 2},   {"tile.scatter", 0},          {"tile.scatter_mask", 0},     {"tile.scatter_update", 0},
    {"tile.store", 2},      {"tile.tget_scale_addr", 0},
};

// Buffer-aliasing view ops (`set_output_memory_inherit_input()`, in-place safe): the result aliases
// arg 0. Deliberately absent: tile.transpose (not in-place safe).
constexpr std::string_view kViewOps[] = {
    "tensor.reinterpret_view", "tensor.reshape",        "tensor.set_validshape", "tensor.slice",        "tensor.view",
    "tile.assemble",           "tile.reinterpret_view", "tile.reshape",          "tile.set_validshape", "tile.slice",
    "tile.tget_scale_addr",    "tile.transpose_view",
};

}  // namespace

std::optional<size_t> ctxInheritingArgIndex(std::string_view opName, size_t argCount) {
    for (const auto& [name, k] : kWritebackOps)
        if (name == opName && k < argCount) return k;
    if (argCount >= 1 && std::find(std::begin(kViewOps), std::end(kViewOps), opName) != std::end(kViewOps)) return 0;
    return std::nullopt;
}

}  // namespace ptoplug::mdtc
