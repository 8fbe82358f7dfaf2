// The graph of nodes containing nodes (through references too): the limits on nesting, and the checks for
// cycles and over-deep chains that let every other walk recurse. One place for them, used by the reader
// (checkGraph), the check after each pass (DepthFirst), layout and the writer (the limits), and the host
// table's edits (Containment).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/document.h"

namespace ptoplug::ir {

/// Deepest nesting of maps and arrays accepted in an input (deeper input is rejected, not overflowed).
inline constexpr size_t kMaxInputDepth = 10000;
/// Longest chain of nodes containing nodes (through references too): bounds every recursive walk.
inline constexpr size_t kMaxNodeDepth = 4000;
// Heights (Document::heights) are at most kMaxNodeDepth where kept.
static_assert(kMaxNodeDepth <= UINT16_MAX);

/// What every check that meets a longer chain says.
std::string nodesNestedTooDeep();

/// Where a graph check stopped.
struct GraphFault {
    enum class Kind : uint8_t { None, Cycle, TooDeep };
    Kind kind = Kind::None;
    Value* edge = nullptr;  ///< Cycle: the edge back to a node on the path
    Node* node = nullptr;   ///< TooDeep: the node whose chain is too long
    explicit operator bool() const { return kind != Kind::None; }
};

/// Depth first along node edges (the Node and Ref values inside a node's fields), iteratively: a cycle or
/// a deep chain must not overflow the stack of the check meant to find it. Each node is entered once, on
/// whichever walk meets it first.
class DepthFirst {
public:
    struct Frame {
        Node* node;
        size_t edgesBegin;  ///< where its edges start in edges()
        size_t next;        ///< its next edge to follow
    };

    /// For a document of `nodeCount` nodes.
    explicit DepthFirst(size_t nodeCount) : state_(nodeCount, kNew) {}

    /// Whether a walk has entered `n`.
    bool entered(const Node& n) const { return state_[n.index] != kNew; }

    /// Walks from `start` (not entered yet). `enter(Node&)` when a node is first met, `follow(Value& edge)`
    /// for each edge to a node not on the path, `leave(Node&, std::span<Value* const> edges)` once all of a
    /// node's edges are done; `enter` and `leave` return false to stop the walk (no fault then: the caller
    /// knows why). Stops with a fault at the first edge back to a node on the path (a cycle), or at a path
    /// longer than `maxPath` nodes (TooDeep, at the node entered too deep).
    template <class Enter, class Follow, class Leave>
    GraphFault walk(Node* start, size_t maxPath, Enter&& enter, Follow&& follow, Leave&& leave);

    /// The path from the walk's start to the node being visited (valid during a callback or at a fault).
    const std::vector<Frame>& path() const { return path_; }
    /// The edge path frame `i` (not the last) follows to frame i + 1.
    Value* edgeTaken(size_t i) const { return edges_[path_[i].next - 1]; }

private:
    enum : uint8_t { kNew, kOnPath, kDone };
    std::vector<uint8_t> state_;
    std::vector<Frame> path_;
    std::vector<Value*> edges_;  ///< the edges of every node on the path, in path order
};

/// Every node of `doc`, reachable or not: no cycle and no chain longer than kMaxNodeDepth. On success keeps
/// each node's height (Document::heights). `numberEdges`: each edge checked gets its node's index as its
/// aux (Value::aux); otherwise nothing of the document changes but the heights.
GraphFault checkGraph(Document& doc, bool numberEdges);

/// Whether an edit would put a node inside itself, for a document being rewritten. Answered by heights
/// (Document::heights) where known: a node only contains lower nodes, so most checks need no walk. Keeps
/// the heights true as edits add edges, or drops them for the document's life. Its work lists are reused
/// across checks (one check per rewrite, no allocation each).
class Containment {
public:
    explicit Containment(Document& doc) : doc_(doc) {}

    /// True if `target` is `from` or lies below it.
    bool reaches(Node* from, const Node* target);
    /// Keeps the heights true after `added` was put into `parent`: the nodes in `added` must be lower than
    /// `parent`, or the heights are dropped.
    void noteEdges(const Node* parent, const Value& added);
    /// The same after `with` took the place of `old` in some nodes (which all held `old`, so were taller
    /// than it).
    void noteReplaced(const Node* old, const Node* with);
    /// Starts a new set of marked nodes (empty), in O(1).
    void clearMarks();
    /// Marks `n`; false if it was marked already since clearMarks.
    bool mark(const Node* n);

private:
    uint32_t keptHeight(const Node* n) const;
    uint32_t heightOf(const Node* n, int depth = 0);
    template <class Visit>
    bool search(Node* from, const Node* target, Visit&& visit);

    Document& doc_;
    std::vector<uint32_t> marks_;  ///< per node: the stamp of the set it was last marked in
    uint32_t stamp_ = 0;
    std::vector<Node*> work_;     ///< a search's work list
    std::vector<Node*> visited_;  ///< a small search's visited nodes
};

// --- DepthFirst::walk ------------------------------------------------------------------------------

template <class Enter, class Follow, class Leave>
GraphFault DepthFirst::walk(Node* start, size_t maxPath, Enter&& enter, Follow&& follow, Leave&& leave) {
    auto push = [&](Node* n) {
        state_[n->index] = kOnPath;
        const size_t begin = edges_.size();
        for (Member m : n->fields) forEachNodeSlot(m.value, [&](Value& edge) { edges_.push_back(&edge); });
        path_.push_back(Frame{n, begin, begin});
        if (path_.size() > maxPath) return GraphFault{GraphFault::Kind::TooDeep, nullptr, n};
        return GraphFault{};
    };
    if (GraphFault fault = push(start)) return fault;
    if (!enter(*start)) return GraphFault{};
    while (!path_.empty()) {
        Frame& fr = path_.back();
        if (fr.next < edges_.size()) {
            Value* edge = edges_[fr.next++];
            Node* child = edge->n;
            if (state_[child->index] == kOnPath) return GraphFault{GraphFault::Kind::Cycle, edge, nullptr};
            follow(*edge);
            if (state_[child->index] == kNew) {
                if (GraphFault fault = push(child)) return fault;
                if (!enter(*child)) return GraphFault{};
            }
            continue;
        }
        if (!leave(*fr.node, std::span<Value* const>(edges_.data() + fr.edgesBegin, edges_.size() - fr.edgesBegin)))
            return GraphFault{};
        state_[fr.node->index] = kDone;
        edges_.resize(fr.edgesBegin);
        path_.pop_back();
    }
    return GraphFault{};
}

}  // namespace ptoplug::ir
