// The program's context flow, read from the IR: which function calls or submits which, the distributed
// tensors each call passes, and the communication context each one gets there, as the program says it
// (after MaterializeDistTensorCtx: the trailing CommCtx arguments it added, and what binds each in the
// caller). With the program as it was before the pass (a Snapshot), what the pass added is told apart; with
// the pass's error diagnostics, the call it failed on is marked. What `pto-host graph` and `run
// --graph-after` draw (graph/dot.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "abi_host/diagnostic.h"
#include "ir/document.h"

namespace ptoplug::graph {

/// Where a context argument comes from in its caller.
enum class CtxSource {
    Param,        ///< a CommCtx parameter of the caller, forwarded
    Alias,        ///< a variable bound to another context (followed to its origin in `origin`)
    Synthesized,  ///< bound by pld.system.get_comm_ctx(t) in the caller (host orchestration)
    Other,        ///< bound by something else (a call's result, a loop's iter_arg, ...)
};

/// One distributed tensor a call passes, and its context.
struct PassedTensor {
    std::string tensor;   ///< the argument as printed ("x", "t[1]", ...)
    std::string aliasOf;  ///< where the argument is a variable bound to another: the one it leads to
    std::string ctx;      ///< the context argument's name; empty when the call passes none for it
    CtxSource source = CtxSource::Other;
    std::string origin;  ///< the parameter an alias leads to, or the tensor a get_comm_ctx queries
    bool added = false;  ///< the context argument is new since the Snapshot
};

struct CallEdge {
    std::string caller, callee;
    bool submit = false;
    std::vector<PassedTensor> passed;
    std::string error;  ///< an error diagnostic whose span is this call's ("file:line:col: error: message")
};

struct FunctionNode {
    std::string name;
    std::string kind;     ///< "HOST Orchestrator", "CHIP Orchestration", "InCore", ...
    int distParams = 0;   ///< DistributedTensor parameters
    int ctxParams = 0;    ///< CommCtx parameters
    int addedParams = 0;  ///< parameters new since the Snapshot
    std::string error;    ///< an error diagnostic placed in this function but on none of its calls
};

struct ContextFlow {
    std::vector<FunctionNode> functions;  ///< in program order
    std::vector<CallEdge> calls;          ///< in program order, then walk order within each function
    std::vector<std::string> unplaced;    ///< errors placed on no function (as `error` above)
};

/// What a program held before a pass: each function's parameter count and its calls' argument counts in
/// walk order, so that what the pass appended is told from what was there (the pass appends; calls it
/// rebuilds keep their place in the walk).
struct Snapshot {
    std::map<std::string, size_t> params;
    std::map<std::string, std::vector<size_t>> callArgs;
};

Snapshot snapshotOf(const ir::Document& doc);

/// The context flow of `doc` (a Program; empty otherwise). `before`: what was added since. `diagnostics`:
/// the errors to place (by span) on the calls or functions they name.
ContextFlow contextFlowOf(const ir::Document& doc, const Snapshot* before = nullptr,
                          const std::vector<host::Diagnostic>& diagnostics = {});

}  // namespace ptoplug::graph
