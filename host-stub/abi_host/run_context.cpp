// A run context's life: each gets a token of its own, stamped into its handles and its ticket, takes a slot
// among the live contexts, and is marked dead and leaves its slot when its run ends.
#include "abi_host/run_context.h"

#include <array>
#include <atomic>

namespace {

std::array<std::atomic<pto_run_context*>, pto_run_context::kLiveSlots> gLive{};

// A ticket: the token above the slot, odd so that it is never a context's address.
constexpr unsigned kSlotBits = 8;
static_assert(pto_run_context::kLiveSlots == size_t{1} << kSlotBits);

}  // namespace

pto_run_context::pto_run_context(ptoplug::ir::Document& document) : doc(document), containment(document) {
    static std::atomic<uint64_t> next{1};
    token = next.fetch_add(1);
    for (size_t i = 0; i < kLiveSlots && slot == kLiveSlots; ++i) {
        const size_t at = (token + i) % kLiveSlots;
        pto_run_context* empty = nullptr;
        if (gLive[at].compare_exchange_strong(empty, this)) slot = at;
    }
}

pto_run_context::~pto_run_context() {
    magic = 0;
    if (slot < kLiveSlots) gLive[slot].store(nullptr);
}

pto_run_context* pto_run_context::ticket() const {
    if (slot == kLiveSlots) return nullptr;
    return reinterpret_cast<pto_run_context*>(static_cast<uintptr_t>((token << (kSlotBits + 1)) | (slot << 1) | 1));
}

pto_run_context* pto_run_context::live(const pto_run_context* ticket) {
    const auto value = reinterpret_cast<uintptr_t>(ticket);
    if ((value & 1) == 0) return nullptr;
    pto_run_context* ctx = gLive[(value >> 1) % kLiveSlots].load(std::memory_order_acquire);
    return ctx && ctx->magic == kMagic && ctx->token == (value >> (kSlotBits + 1)) ? ctx : nullptr;
}
