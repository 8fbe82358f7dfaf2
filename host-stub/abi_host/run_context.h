// The host side of a pass or verifier run: the state behind the opaque pto_run_context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "abi_host/diagnostic.h"
#include "abi_host/run_settings.h"
#include "abi_host/value_slot.h"
#include "ir/document.h"
#include "ir/graph.h"
#include "ir/rewrite.h"
#include "ptoplug/abi.h"

/// One run of one pass or verifier over one document. Single-threaded; many may exist at once.
struct pto_run_context {
    explicit pto_run_context(ptoplug::ir::Document& document);
    ~pto_run_context();
    pto_run_context(const pto_run_context&) = delete;
    pto_run_context& operator=(const pto_run_context&) = delete;

    /// What plugin code is given for this context: a ticket that names its token (never reused) and its
    /// slot among the live contexts, not its address, which a later context may take: a context used after
    /// its run is refused even then. Null if more than kLiveSlots contexts live at once.
    pto_run_context* ticket() const;
    /// The live context a ticket names, or null (a stale, forged or null ticket).
    static pto_run_context* live(const pto_run_context* ticket);
    static constexpr size_t kLiveSlots = 256;

    static constexpr uint64_t kMagic = 0x7074'6f70'6c75'6721ULL;
    uint64_t magic = kMagic;   ///< cleared on destruction
    uint64_t token;            ///< stamped into every handle this context gives out
    size_t slot = kLiveSlots;  ///< its place among the live contexts (kLiveSlots: none)
    ptoplug::ir::Document& doc;
    std::vector<ptoplug::host::ValueSlot> values;  ///< pto_value handles: index + 1
    ptoplug::ir::Containment containment;          ///< the cycle checks of rewrites (ir/graph.h)
    ptoplug::ir::PendingStmtEdits edits;
    ptoplug::host::RunSettings settings;
    std::string lastError;                  ///< last_error: the most recent failing call's message
    std::string errorDetail;                ///< why the current call fails, if it said (table::fail)
    pto_status errorDetailStatus = PTO_OK;  ///< the status errorDetail explains
    ptoplug::ir::Value lastOp;              ///< the op map create_op_call made last: calls of one op share it
    std::vector<ptoplug::host::Diagnostic> diagnostics;
    bool hasErrors = false;
    ptoplug::host::OptionRefusal refusal;  ///< an option check's first refuse_option
};
