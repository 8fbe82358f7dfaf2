// A context flow (graph/context_flow.h) as Graphviz DOT text: functions as boxes (name, level and role,
// their DistributedTensor and CommCtx parameters), calls and submits as edges labelled with each
// distributed tensor passed and the context it gets (a forwarded parameter, an alias and what it leads
// to, or a synthesized get_comm_ctx). What the pass added is green and marked `+`; the call or function
// an error names is red, with the message. Deterministic: the same program gives the same text.
#pragma once

#include <string>

#include "graph/context_flow.h"

namespace ptoplug::graph {

struct DotOptions {
    std::string title;  ///< what the graph is of (the input's file name)
    /// Draw only the functions within `depth` calls of `focus` (either direction), and the calls among them.
    std::string focus;
    int depth = 1;
};

std::string toDot(const ContextFlow& flow, const DotOptions& options);

}  // namespace ptoplug::graph
