// The host side of a pass or verifier run: the state behind the opaque pto_run_context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/document.h"
#include "ir/rewrite.h"
#include "ptoplug/abi.h"

namespace ptoplug::host {

/// A diagnostic as the host keeps it (strings copied, span resolved).
struct Diagnostic {
    pto_severity severity = PTO_SEVERITY_ERROR;
    std::string rule;
    std::string message;
    std::string file;  ///< span filename ("" if unknown)
    int64_t line = -1;
    int64_t column = -1;
    int64_t endLine = -1;
    int64_t endColumn = -1;
    std::string pass;    ///< the pass or verifier (property) that reported it, once the host knows
    std::string plugin;  ///< that pass's plugin
};

}  // namespace ptoplug::host

namespace ptoplug::host {

/// What a pto_value names: a value slot, and the buffer it lived in when the handle was made. The IR
/// core moves slots only by giving their container a new buffer (ir/document.cpp), so a handle whose
/// container's buffer changed is stale and is refused, never read.
struct ValueSlot {
    ir::Value* value = nullptr;
    const ir::Array* array = nullptr;  ///< the container, if the slot is an array element
    const ir::Map* map = nullptr;      ///< the container, if the slot is a map member
    const void* items = nullptr;       ///< the container's buffer when the handle was made
    bool stale() const { return (array && array->items != items) || (map && map->values != items); }
};

/// A pass option's value (pto_option_desc), already checked against its declared type.
struct OptionValue {
    pto_option_type type = PTO_OPTION_STRING;
    bool b = false;
    int64_t i = 0;
    double d = 0;
    std::string s;
};

struct PassOption {
    std::string name;
    OptionValue value;
};

/// How a pass or verifier is run.
struct RunSettings {
    const std::vector<PassOption>* options = nullptr;  ///< the pass's resolved options (pass_option)
    bool readOnly = false;                             ///< a verifier: every rewrite is refused
};

}  // namespace ptoplug::host

/// One run of one pass or verifier over one document. Single-threaded; many may exist at once.
struct pto_run_context {
    explicit pto_run_context(ptoplug::ir::Document& document);
    ~pto_run_context();
    pto_run_context(const pto_run_context&) = delete;
    pto_run_context& operator=(const pto_run_context&) = delete;

    static constexpr uint64_t kMagic = 0x7074'6f70'6c75'6721ULL;
    uint64_t magic = kMagic;  ///< cleared on destruction: a context used after its run is refused
    uint64_t token;           ///< stamped into every handle this context gives out
    ptoplug::ir::Document& doc;
    std::vector<ptoplug::host::ValueSlot> values;  ///< pto_value handles: index + 1
    std::vector<uint32_t> seen;                    ///< per node: the cycle check's visit stamp
    uint32_t seenStamp = 0;
    std::vector<ptoplug::ir::Node*> reachWork;     ///< the cycle check's work list
    std::vector<ptoplug::ir::Node*> reachVisited;  ///< the cycle check's visited nodes, while few
    ptoplug::ir::PendingStmtEdits edits;
    ptoplug::host::RunSettings settings;
    std::string lastError;                  ///< last_error: the most recent failing call's message
    std::string errorDetail;                ///< why the current call fails, if it said (table::fail)
    pto_status errorDetailStatus = PTO_OK;  ///< the status errorDetail explains
    ptoplug::ir::Value lastOp;              ///< the op map create_op_call made last: calls of one op share it
    std::vector<ptoplug::host::Diagnostic> diagnostics;
    bool hasErrors = false;
};

namespace ptoplug::host {

/// The host function table (ABI 1.1), immutable, shared by every run.
const pto_host_api& hostApi();

/// The outcome of running one pass or verifier through the ABI.
struct RunOutcome {
    pto_status status = PTO_OK;
    std::vector<Diagnostic> diagnostics;
    /// What of the process's state the plugin changed and the host could not put back (ProcessStateGuard):
    /// a limit lowered for good, which would fail the host later as if the user's limits were too low, or
    /// a descriptor of the host's closed.
    std::string lostProcessState;
    /// True if the run failed: an error status, an error diagnostic or a lost process state.
    bool failed() const;
};

/// "PTO_ERR_USER", ...; "status N" for a value that is not a pto_status.
std::string statusName(pto_status status);
/// True if `status` is one of the pto_status values this host knows.
bool isKnownStatus(pto_status status);

/// Runs `fn` (a pass or verifier run function) over `doc` and applies its pending insertions.
RunOutcome runThroughAbi(ir::Document& doc, pto_status (*fn)(const pto_host_api*, pto_run_context*),
                         const RunSettings& settings = {});

}  // namespace ptoplug::host
