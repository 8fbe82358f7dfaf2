// UnrollLoops: pypto's pass (src/ir/transforms/unroll_loops_pass.cpp at e2d0f78ae6d7) on the SDK's
// Mutator. A `for` of kind Unroll becomes a statement list of one copy of its body per iteration, the
// loop variable replaced by that iteration's ConstInt (of dtype INDEX, the loop variable's span);
// unroll loops nested in a body are unrolled in each copy. start, stop and step must be integer
// constants (a ConstInt or the Neg of one), step not 0, at most 1024 iterations, and the loop must
// carry no iter_args; otherwise pypto's error. A copy is pypto's DeepClone without fresh definitions:
// only what depends on the loop variable is rebuilt (call attrs included), so the rest is shared by
// every iteration, and each IterArg met is a fresh copy per iteration. The loop's leading comments go
// to the first statement of the first iteration.
#include <string>
#include <unordered_map>
#include <vector>

#include <ptoplug/sdk.hpp>

#include "../pypto_ports/build.hpp"

namespace {

using namespace ptoplug::plugin;

constexpr char kPass[] = "UnrollLoops";
constexpr int64_t kMaxIterations = 1024;

[[noreturn]] void fail(const char* rule, pto_severity severity, const std::string& message, const Node& at) {
    throw PassError{severity, std::string(kPass) + "/" + rule, message, at.handle()};
}

// One iteration's copy of a body: the loop variable replaced by `value`.
class Substitute : public Mutator {
public:
    Substitute(const Host& h, Node var, Node value) : Mutator(h), var_(var), value_(value) {}

protected:
    Node mutateSeq(Stmt s) override {
        return ports::rebuildSeq(host(), s, [this](const Node& n) { return mutate(n); });
    }

    Node mutateVar(Var v) override {
        if (v == var_) return value_;
        if (v.kind() != PTO_NODE_ITER_ARG) return v;
        if (auto it = iterArgs_.find(v.handle()); it != iterArgs_.end()) return it->second;
        const Node copy(host(), host().clone(v.handle()));
        iterArgs_.emplace(v.handle(), copy);
        const Node init = v.child(PTO_FIELD_INIT_VALUE);
        if (const Node result = mutate(init); result != init)
            host().replaceChild(copy.handle(), PTO_FIELD_INIT_VALUE, 0, result.handle());
        return copy;
    }

    // Arguments as any node's children; expressions held by attrs (a `device=` index) too.
    Node mutateCall(Call c) override {
        Node result = rebuild(c);
        size_t count = 0;
        Host::check("attr_count", host().api()->attr_count(host().ctx(), c.handle(), PTO_ATTR_LIST_ATTRS, &count));
        for (size_t i = 0; i < count; ++i) {
            pto_attr a{};
            a.struct_size = sizeof a;
            Host::check("attr_at", host().api()->attr_at(host().ctx(), c.handle(), PTO_ATTR_LIST_ATTRS, i, &a));
            pto_node held{};
            if ((sv(a.tag) != "Expr" && sv(a.tag) != "Var") ||
                host().api()->value_as_node(host().ctx(), a.value, &held) != PTO_OK)
                continue;
            const Node replaced = mutate(Node(host(), held));
            if (pto_node_equal(replaced.handle(), held)) continue;
            if (result == c) result = Node(host(), host().clone(c.handle()));
            Host::check("attr_set", host().api()->attr_set(host().ctx(), result.handle(), PTO_ATTR_LIST_ATTRS, a.key,
                                                           a.tag, ports::nodeValue(host(), replaced)));
        }
        return result;
    }

private:
    Node var_, value_;
    std::unordered_map<pto_node, Node, NodeHash, NodeEq> iterArgs_;
};

class Unroll : public Mutator {
public:
    using Mutator::Mutator;

protected:
    Node mutateSeq(Stmt s) override {
        return ports::rebuildSeq(host(), s, [this](const Node& n) { return mutate(n); });
    }

    Node mutateFor(Stmt s) override {
        if (ports::asInt(host(), ports::namedField(host(), s, "kind")) != PTO_FOR_UNROLL) return rebuild(s);
        if (host().count(s.handle(), PTO_FIELD_ITER_ARGS) > 0)
            fail("iter-args", PTO_SEVERITY_ERROR, "Unroll loops cannot have iter_args (init_values)", s);
        const int64_t start = constant(s.child(PTO_FIELD_START), "start");
        const int64_t stop = constant(s.child(PTO_FIELD_STOP), "stop");
        const int64_t step = constant(s.child(PTO_FIELD_STEP), "step");
        if (step == 0) fail("zero-step", PTO_SEVERITY_ERROR, "Unroll loop step cannot be zero", s);
        int64_t trips = 0;
        if (step > 0 && start < stop)
            trips = (stop - start + step - 1) / step;
        else if (step < 0 && start > stop)
            trips = (start - stop - step - 1) / -step;
        if (trips > kMaxIterations)
            fail("too-many-iterations", PTO_SEVERITY_ERROR,
                 "Unroll loop trip count " + std::to_string(trips) + " exceeds maximum allowed (" +
                     std::to_string(kMaxIterations) + "). Reduce the loop range or use pl.range() instead",
                 s);

        const Node var = s.child(PTO_FIELD_LOOP_VAR);
        const Node body = s.child(PTO_FIELD_BODY);
        std::vector<Node> copies;
        for (int64_t k = 0, i = start; k < trips; ++k, i += step) {
            Substitute substitute(host(), var, constInt(i, var));
            copies.push_back(mutate(substitute.mutate(body)));
        }
        if (!copies.empty()) moveComments(s, copies.front());
        return ports::makeSeq(host(), copies, s);
    }

private:
    int64_t constant(const Node& e, const char* what) const {
        if (e.kind() == PTO_NODE_CONST_INT) return ports::asInt(host(), ports::namedField(host(), e, "value"));
        if (e.typeName() == "Neg") {
            const Node operand = e.child(PTO_FIELD_OPERAND);
            if (operand.kind() == PTO_NODE_CONST_INT)
                return -ports::asInt(host(), ports::namedField(host(), operand, "value"));
        }
        fail("not-constant", PTO_SEVERITY_ERROR,
             std::string("Unroll loop ") + what + " must be a compile-time integer constant, got " +
                 std::string(e.typeName()),
             e);
    }

    Node constInt(int64_t i, const Node& spanOf) const {
        const pto_host_api* api = host().api();
        pto_type_desc index{};
        index.struct_size = sizeof index;
        index.kind = PTO_TYPE_SCALAR;
        index.dtype = PTO_DTYPE_INDEX;
        pto_field_value fields[3] = {
            {ps("value"), {}}, {ps("type"), {}}, {ps("span"), host().field(spanOf.handle(), PTO_FIELD_SPAN)}};
        Host::check("value_make_int", api->value_make_int(host().ctx(), i, &fields[0].value));
        Host::check("make_type", api->make_type(host().ctx(), &index, &fields[1].value));
        pto_node n{};
        Host::check("create_node", api->create_node(host().ctx(), ps("ConstInt"), fields, 3, &n));
        return Node(host(), n);
    }

    // The loop's comments go in front of those of the first statement (below nested lists) of its
    // first copy, in place, as pypto attaches them (a statement shared by every copy has them in each).
    void moveComments(const Stmt& loop, Node first) const {
        const uint32_t commentsField = [&] {
            uint32_t id = 0;
            Host::check("field_from_name", host().api()->field_from_name(host().ctx(), ps("leading_comments"), &id));
            return id;
        }();
        const pto_value comments = host().field(loop.handle(), commentsField);
        size_t n = 0;
        Host::check("value_size", host().api()->value_size(host().ctx(), comments, &n));
        if (n == 0) return;
        while (first.kind() == PTO_NODE_SEQ_STMTS) {
            if (host().count(first.handle(), PTO_FIELD_STMTS) == 0) return;
            first = first.child(PTO_FIELD_STMTS);
        }
        const pto_value own = host().field(first.handle(), commentsField);
        size_t m = 0;
        Host::check("value_size", host().api()->value_size(host().ctx(), own, &m));
        std::vector<pto_value> merged(n + m);
        for (size_t i = 0; i < n + m; ++i)
            Host::check("value_array_at", host().api()->value_array_at(host().ctx(), i < n ? comments : own,
                                                                       i < n ? i : i - n, &merged[i]));
        pto_value value{};
        Host::check("value_make_array", host().api()->value_make_array(host().ctx(), merged.data(), n + m, &value));
        Host::check("node_set_field", host().api()->node_set_field(host().ctx(), first.handle(), commentsField, value));
    }
};

void unrollLoops(const Host& h) {
    for (const Function& fn : functions(h)) Unroll(h).run(fn);
}

constexpr const char* kProduced[] = {"UnrollResolved"};

constexpr Plugin kPlugin({.name = "unroll-loops", .version = "1.0.0"},
                         {{.name = kPass,
                           .description = "Unrolls loops of kind Unroll into one copy of the body per iteration "
                                          "(pypto's UnrollLoops)",
                           .run = guardedRun<kPass, unrollLoops>,
                           .produced = kProduced}});

}  // namespace

PTOPLUG_PLUGIN_ENTRY(kPlugin)
