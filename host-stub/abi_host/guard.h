// The firewall every host table entry runs behind (Entry<>): a NULL or dead run context is an error status,
// not a crash; no exception unwinds into the plugin; a verifier's rewrite is refused; and a failing call
// leaves its last_error message. Also the helpers an entry uses to fail with a reason.
#pragma once

#include <algorithm>
#include <new>
#include <string_view>

#include "abi_host/run_context.h"
#include "abi_host/status.h"
#include "ptoplug/abi.h"

namespace ptoplug::host::table {

/// Says why the current call fails and returns `status`; the table's entry wrapper turns it into the
/// call's last_error message. Without one, the message explains the status in general terms.
inline pto_status fail(pto_run_context* ctx, pto_status status, std::string_view why) {
    if (ctx) {
        ctx->errorDetail.assign(why);
        ctx->errorDetailStatus = status;
    }
    return status;
}

#define PTO_REQUIRE(cond, status)   \
    do {                            \
        if (!(cond)) return status; \
    } while (0)

/// PTO_REQUIRE with the reason last_error reports.
#define PTO_REQUIRE_WHY(cond, status, why)                 \
    do {                                                   \
        if (!(cond)) return table::fail(ctx, status, why); \
    } while (0)

// Runs `body`, turning any exception into a status (nothing may unwind into a plugin).
template <class F>
pto_status guarded(F&& body) {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return PTO_ERR_INTERNAL;
    } catch (...) {
        return PTO_ERR_INTERNAL;
    }
}

/// Whether an entry may change the program (functions marked [mutates] in the ABI header).
enum class Access { Read, Write };

template <size_t N>
struct EntryName {
    char text[N];
    constexpr EntryName(const char (&s)[N]) { std::copy_n(s, N, text); }  // NOLINT(google-explicit-constructor)
};

/// The table's slot for `Fn`, an entry named `Name` in the ABI.
template <auto Fn, EntryName Name, Access A = Access::Read>
struct Entry;
template <class... Args, pto_status (*Fn)(pto_run_context*, Args...), EntryName Name, Access A>
struct Entry<Fn, Name, A> {
    static pto_status call(pto_run_context* ticket, Args... args) {
        pto_run_context* ctx = pto_run_context::live(ticket);
        if (!ctx) return PTO_ERR_INVALID_HANDLE;
        ctx->errorDetailStatus = PTO_OK;
        pto_status s = PTO_OK;
        if (A == Access::Write && ctx->settings.readOnly)
            s = fail(ctx, PTO_ERR_UNSUPPORTED, "verifiers read the program and must not change it");
        else
            s = guarded([&] { return Fn(ctx, args...); });
        if (s != PTO_OK) {
            guarded([&] {
                ctx->lastError.assign(Name.text).append(": ").append(statusName(s)).append(": ");
                ctx->lastError.append(ctx->errorDetailStatus == s ? ctx->errorDetail : generalReason(s));
                return PTO_OK;
            });
        }
        return s;
    }
};

}  // namespace ptoplug::host::table
