// Where a document read from a pypto Program came from (python/pypto_graph_reader.h): the pypto object of
// each node read and a snapshot of the node's own fields, so that writing the program back
// (python/pypto_graph_writer.h) reuses every object a pass left as it was, as pypto's copy-on-write
// IRMutator does. It is also where the document's spans are read, when asked for (ir::SpanSource).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/allocator.h"
#include "ir/document.h"

namespace ptoplug::python {

class PyptoOrigin final : public ir::SpanSource {
public:
    /// The sizes of the tables of a read.
    struct Sizes {
        size_t nodes = 0, runs = 0, values = 0;
    };
    Sizes sizes() const { return {nodes_.size(), runs_.size(), flat_.size()}; }
    /// Room for a read of these sizes (address space; pages are touched as they are filled).
    void reserve(const Sizes& s) {
        nodes_.reserve(s.nodes);
        objects_.reserve(s.nodes);
        firstRun_.reserve(s.nodes + 1);
        runs_.reserve(s.runs);
        flat_.reserve(s.values);
    }

    /// Records `object` as where node `node` was read from, and the snapshot of its fields. Nodes are
    /// recorded as they are made (in index order), each once its fields are final.
    void record(ir::Node* node, pybind11::object object);

    /// The pypto object node `n` was read from, if it is a node read (the same node, by index and address).
    const pybind11::object* objectOf(const ir::Node* n) const {
        return n->index < nodes_.size() && nodes_[n->index] == n ? &objects_[n->index] : nullptr;
    }
    /// The fields of read node `n` that do not hold what they held when read (the same nodes by
    /// identity): a bit by place in n->fields; every bit when it has other fields than it had.
    uint32_t changedFields(const ir::Node* n) const;

    /// The span of the node read `index`th (ir::Document::deferredSpan(index)), as pypto's Span object.
    /// Throws what reading it raises (pybind11::error_already_set).
    pybind11::object spanObject(uint32_t index) const;
    /// The same span read into the IR core, or an error saying what reading it raised: that exception is
    /// kept for takeFailure, and the rest of the Python error state left clear.
    Expected<ir::Span> span(uint32_t index) const override;
    /// The first exception a span read raised since the last call (else None), for the Python caller to
    /// raise once the operation that read it is over: what reading the Program eagerly would have raised.
    pybind11::object takeFailure() { return std::exchange(failure_, pybind11::none()); }

private:
    struct FieldRun {
        uint32_t key, begin, end;  ///< a field's values, flattened, in flat_[begin, end)
    };
    // Tables of a value or more per node read: on huge pages, as the document's (a fresh 4 KiB page costs
    // several microseconds on the machines measured, and these took most of a read's page faults).
    LargeVector<ir::Node*> nodes_;
    LargeVector<pybind11::object> objects_;
    LargeVector<uint32_t> firstRun_{0};  ///< by node index: its fields' runs are runs_[firstRun_[i], firstRun_[i + 1])
    LargeVector<FieldRun> runs_;
    LargeVector<ir::Value> flat_;
    mutable std::unordered_set<std::string> files_;  ///< the file names of the spans read (node-stable)
    mutable pybind11::object failure_ = pybind11::none();
};

}  // namespace ptoplug::python
