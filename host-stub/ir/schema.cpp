#include "ir/schema.h"

#include <algorithm>
#include <array>

#include "ir/known_names.h"

namespace ptoplug::ir {
namespace {

using FK = FieldKind;
using ES = EnumSet;

using NC = NodeClass;

FieldSpec req(uint32_t key, FK kind, ES e = ES::None) { return {key, kind, true, false, e}; }
FieldSpec opt(uint32_t key, FK kind, ES e = ES::None) { return {key, kind, false, false, e}; }
FieldSpec optNullable(uint32_t key, FK kind, ES e = ES::None) { return {key, kind, false, true, e}; }
// Node-bearing fields, with the class of node they hold.
FieldSpec req(uint32_t key, FK kind, NC c) { return {key, kind, true, false, ES::None, c}; }
FieldSpec optNullable(uint32_t key, FK kind, NC c) { return {key, kind, false, true, ES::None, c}; }

// The longest common subsequence of the two orders becomes Both steps; the rest of each order keeps its place
// around them (the orders list a few fields: the quadratic table is small).
std::vector<NodeSchema::OrderStep> mergeOrders(const std::vector<uint32_t>& emit, const std::vector<uint32_t>& read) {
    using In = NodeSchema::OrderStep::In;
    const size_t e = emit.size(), r = read.size();
    std::vector<std::vector<uint8_t>> common(e + 1, std::vector<uint8_t>(r + 1, 0));  // LCS of the suffixes
    for (size_t i = e; i-- > 0;)
        for (size_t j = r; j-- > 0;)
            common[i][j] = emit[i] == read[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    std::vector<NodeSchema::OrderStep> steps;
    size_t i = 0, j = 0;
    while (i < e || j < r) {
        if (i < e && j < r && emit[i] == read[j]) {
            steps.push_back({emit[i], In::Both});
            ++i, ++j;
        } else if (j == r || (i < e && common[i + 1][j] >= common[i][j + 1])) {
            steps.push_back({emit[i++], In::EmitOnly});
        } else {
            steps.push_back({read[j++], In::ReadOnly});
        }
    }
    return steps;
}

struct Table {
    std::array<NodeSchema, K::kCount> byType{};
    std::array<bool, K::kCount> known{};

    NodeSchema& add(uint32_t type, std::vector<FieldSpec> fields, std::vector<uint32_t> emit,
                    std::vector<uint32_t> read = {}, const std::vector<uint32_t>& unread = {}, bool same = true) {
        NodeSchema& s = byType[type];
        s.type = type;
        fields.push_back(opt(K::span, FK::Span));
        if (isStmtType(type)) fields.push_back(opt(K::leading_comments, FK::StrList));
        s.fields = std::move(fields);
        if (same) read = emit;
        s.emitRank.assign(K::kCount, kRankUnlisted);
        s.readRank.assign(K::kCount, kRankUnlisted);
        for (size_t i = 0; i < emit.size(); ++i) s.emitRank[emit[i]] = static_cast<uint8_t>(i);
        for (uint32_t key : unread) s.readRank[key] = kRankUnread;
        for (size_t i = 0; i < read.size(); ++i) s.readRank[read[i]] = static_cast<uint8_t>(i);
        if (emit != read) s.mergedOrder = mergeOrders(emit, read);
        known[type] = true;
        return s;
    }

    Table() {
        add(K::Program, {req(K::name, FK::Str), req(K::functions, FK::Functions)}, {K::functions});
        add(K::Function,
            {req(K::name, FK::Str), req(K::params, FK::NodeList, NC::Var),
             opt(K::param_directions, FK::EnumList, ES::ParamDirection), opt(K::func_type, FK::Enum, ES::FunctionType),
             optNullable(K::level, FK::Enum, ES::Level), optNullable(K::role, FK::Enum, ES::Role),
             opt(K::attrs, FK::Attrs), opt(K::requires_runtime_binding, FK::Bool), req(K::return_types, FK::TypeList),
             req(K::body, FK::Node, NC::Stmt)},
            {K::params, K::attrs, K::return_types, K::body}, {K::params, K::return_types, K::attrs, K::body}, {},
            false);
        add(K::Var, {req(K::type, FK::Type), req(K::name_hint, FK::Str)}, {K::type});
        add(K::IterArg, {req(K::type, FK::Type), req(K::name_hint, FK::Str), req(K::initValue, FK::Node, NC::Expr)},
            {K::type, K::initValue});
        add(K::MemRef,
            {opt(K::type, FK::Type), req(K::name_hint, FK::Str), req(K::base, FK::Node, NC::Expr),
             req(K::byte_offset, FK::Node, NC::Expr), req(K::size, FK::UInt64), opt(K::is_pinned, FK::Bool),
             opt(K::slot_count, FK::UInt64), optNullable(K::slot_index, FK::OptNode, NC::Expr)},
            {K::type, K::base, K::byte_offset, K::slot_index}, {K::byte_offset, K::base, K::slot_index}, {K::type},
            false);
        add(K::WindowBuffer,
            {opt(K::type, FK::Type), opt(K::name_hint, FK::Str), req(K::base, FK::Node, NC::Expr),
             req(K::size, FK::Node, NC::Expr), opt(K::load_from_host, FK::Bool), opt(K::store_to_host, FK::Bool)},
            {K::type, K::base, K::size}, {K::base, K::size}, {K::type}, false);
        add(K::ConstInt, {req(K::type, FK::Type), req(K::value, FK::Int64)}, {K::type});
        add(K::ConstFloat, {req(K::type, FK::Type), req(K::value, FK::Float)}, {K::type});
        add(K::ConstBool, {opt(K::type, FK::Type), req(K::value, FK::Bool)}, {K::type}, {}, {K::type}, false);
        add(K::Call,
            {req(K::type, FK::Type), req(K::op, FK::Op), req(K::args, FK::NodeList, NC::Expr),
             optNullable(K::attrs, FK::Attrs), req(K::kwargs, FK::Attrs)},
            {K::type, K::args, K::attrs, K::kwargs});
        add(K::Submit,
            {req(K::type, FK::Type), req(K::op, FK::Op), req(K::args, FK::NodeList, NC::Expr),
             req(K::deps, FK::NodeList, NC::Expr), optNullable(K::core_num, FK::OptNode, NC::Expr),
             opt(K::sync_start, FK::Bool), opt(K::allow_early_resolve, FK::Bool),
             optNullable(K::predicate, FK::OptNode, NC::Expr), optNullable(K::attrs, FK::Attrs),
             req(K::kwargs, FK::Attrs)},
            {K::type, K::args, K::deps, K::core_num, K::predicate, K::attrs, K::kwargs});
        add(K::MakeTuple, {opt(K::type, FK::Type), req(K::elements, FK::NodeList, NC::Expr)}, {K::type, K::elements},
            {K::elements}, {K::type}, false);
        add(K::TupleGetItemExpr, {opt(K::type, FK::Type), req(K::tuple, FK::Node, NC::Expr), req(K::index, FK::Int32)},
            {K::type, K::tuple}, {K::tuple}, {K::type}, false);
        for (uint32_t t = K::Add; t <= K::BitShiftRight; ++t)
            add(t, {req(K::type, FK::Type), req(K::left, FK::Node, NC::Expr), req(K::right, FK::Node, NC::Expr)},
                {K::type, K::left, K::right});
        for (uint32_t t = K::Abs; t <= K::Cast; ++t)
            add(t, {req(K::type, FK::Type), req(K::operand, FK::Node, NC::Expr)}, {K::type, K::operand});

        add(K::AssignStmt, {req(K::var, FK::Node, NC::Var), req(K::value, FK::Node, NC::Expr)}, {K::var, K::value});
        add(K::EvalStmt, {req(K::expr, FK::Node, NC::Expr)}, {K::expr});
        add(K::ReturnStmt, {req(K::value, FK::NodeList, NC::Expr)}, {K::value});
        add(K::YieldStmt, {req(K::value, FK::NodeList, NC::Expr)}, {K::value});
        add(K::SeqStmts, {req(K::stmts, FK::NodeList, NC::Stmt)}, {K::stmts});
        add(K::IfStmt,
            {req(K::condition, FK::Node, NC::Expr), req(K::then_body, FK::Node, NC::Stmt),
             optNullable(K::else_body, FK::OptNode, NC::Stmt), req(K::return_vars, FK::NodeList, NC::Var)},
            {K::condition, K::then_body, K::else_body, K::return_vars});
        add(K::ForStmt,
            {req(K::loop_var, FK::Node, NC::Var), req(K::start, FK::Node, NC::Expr), req(K::stop, FK::Node, NC::Expr),
             req(K::step, FK::Node, NC::Expr), req(K::iter_args, FK::NodeList, NC::IterArg),
             req(K::body, FK::Node, NC::Stmt), req(K::return_vars, FK::NodeList, NC::Var),
             opt(K::kind, FK::Enum, ES::ForKind), optNullable(K::attrs, FK::Attrs)},
            {K::loop_var, K::start, K::stop, K::step, K::iter_args, K::body, K::return_vars, K::attrs});
        add(K::WhileStmt,
            {req(K::condition, FK::Node, NC::Expr), req(K::iter_args, FK::NodeList, NC::IterArg),
             req(K::body, FK::Node, NC::Stmt), req(K::return_vars, FK::NodeList, NC::Var)},
            {K::iter_args, K::condition, K::body, K::return_vars},
            {K::condition, K::iter_args, K::body, K::return_vars}, {}, false);
        add(K::BreakStmt, {}, {});
        add(K::ContinueStmt, {}, {});
        add(K::InlineStmt, {req(K::body, FK::Str), opt(K::language, FK::Enum, ES::InlineLanguage)}, {});

        auto scope = [&](uint32_t type, std::vector<FieldSpec> extra, std::vector<uint32_t> emit,
                         std::vector<uint32_t> read) {
            extra.push_back(opt(K::name_hint, FK::Str));
            extra.push_back(req(K::body, FK::Node, NC::Stmt));
            extra.push_back(optNullable(K::attrs, FK::Attrs));
            add(type, std::move(extra), std::move(emit), std::move(read), {}, false);
        };
        const std::vector<uint32_t> bodyAttrs{K::body, K::attrs};
        scope(K::InCoreScopeStmt, {optNullable(K::split, FK::Enum, ES::SplitMode)}, bodyAttrs, bodyAttrs);
        scope(K::ClusterScopeStmt, {}, bodyAttrs, bodyAttrs);
        scope(K::HierarchyScopeStmt, {req(K::level, FK::Enum, ES::Level), optNullable(K::role, FK::Enum, ES::Role)},
              bodyAttrs, bodyAttrs);
        scope(K::SpmdScopeStmt, {req(K::core_num, FK::Node, NC::Expr), opt(K::sync_start, FK::Bool)},
              {K::body, K::attrs, K::core_num}, {K::core_num, K::body, K::attrs});
        scope(K::SplitAivScopeStmt, {req(K::split, FK::Enum, ES::SplitMode), req(K::count, FK::Int32)}, bodyAttrs,
              bodyAttrs);
        scope(K::RuntimeScopeStmt, {opt(K::manual, FK::Bool)}, bodyAttrs, bodyAttrs);
        scope(K::CommDomainScopeStmt, {req(K::devices, FK::Int64List), req(K::slots, FK::NodeList, NC::WindowBuffer)},
              {K::body, K::attrs, K::slots}, {K::slots, K::body, K::attrs});
    }
};

const Table& table() {
    static const Table t;
    return t;
}

}  // namespace

const NodeSchema* schemaFor(uint32_t nodeType) {
    const Table& t = table();
    return nodeType < K::kCount && t.known[nodeType] ? &t.byType[nodeType] : nullptr;
}

NodeClass fieldNodeClass(uint32_t nodeType, uint32_t key) {
    if (const NodeSchema* schema = schemaFor(nodeType))
        for (const FieldSpec& spec : schema->fields)
            if (spec.key == key) return spec.nodeClass;
    return NodeClass::Any;
}

bool nodeFitsClass(uint32_t t, NodeClass cls) {
    const bool unknown = !schemaFor(t);
    switch (cls) {
        case NodeClass::Any: return true;
        case NodeClass::Expr:
            return unknown || t == K::Var || t == K::IterArg || t == K::MemRef || t == K::WindowBuffer ||
                   t == K::ConstInt || t == K::ConstFloat || t == K::ConstBool || t == K::Call || t == K::Submit ||
                   t == K::MakeTuple || t == K::TupleGetItemExpr || isBinaryOpType(t) || isUnaryOpType(t);
        case NodeClass::Stmt: return unknown || isStmtType(t);
        case NodeClass::Var: return t == K::Var || t == K::IterArg || t == K::MemRef;
        case NodeClass::IterArg: return t == K::IterArg;
        case NodeClass::WindowBuffer: return t == K::WindowBuffer;
    }
    return false;
}

const char* nodeClassName(NodeClass cls) {
    switch (cls) {
        case NodeClass::Any: return "a node";
        case NodeClass::Expr: return "an expression";
        case NodeClass::Stmt: return "a statement";
        case NodeClass::Var: return "a Var (or IterArg, MemRef)";
        case NodeClass::IterArg: return "an IterArg";
        case NodeClass::WindowBuffer: return "a WindowBuffer";
    }
    return "a node";
}

bool isKnownTypeKind(std::string_view k) {
    // By length first: every Var, call and constant has a type map, so this runs once per node.
    switch (k.size()) {
        case 3: return k == "Ptr";
        case 8: return k == "TileType";
        case 9: return k == "ArrayType" || k == "TupleType";
        case 10: return k == "ScalarType" || k == "TensorType" || k == "MemRefType";
        case 11: return k == "CommCtxType" || k == "UnknownType";
        case 14: return k == "AsyncEventType";
        case 16: return k == "WindowBufferType" || k == "AsyncSessionType";
        case 21: return k == "DistributedTensorType";
        case 24: return k == "PrefetchAsyncContextType";
        default: return false;
    }
}

bool enumCodeValid(EnumSet set, uint64_t code) {
    switch (set) {
        case EnumSet::DataType:
            switch (code) {
                case 0:
                case 16:
                case 17:
                case 18:
                case 19:
                case 20:
                case 21:
                case 32:
                case 33:
                case 34:
                case 35:
                case 36:
                case 48:
                case 49:
                case 50:
                case 51:
                case 52:
                case 53:
                case 54:
                case 64:
                case 65:
                case 66:
                case 80: return true;
                default: return false;
            }
        case EnumSet::FunctionType: return code <= 8;
        case EnumSet::Level: return code <= 9 || code == 255;
        case EnumSet::Role: return code <= 1;
        case EnumSet::ParamDirection: return code <= 2;
        case EnumSet::ArgDirection: return code <= 5;
        case EnumSet::ForKind: return code <= 3;
        case EnumSet::SplitMode: return code <= 2;
        case EnumSet::MemorySpace: return code <= 9;
        case EnumSet::InlineLanguage: return code == 0;
        case EnumSet::None: return true;
    }
    return false;
}

const char* enumSetName(EnumSet set) {
    switch (set) {
        case EnumSet::DataType: return "DataType";
        case EnumSet::FunctionType: return "FunctionType";
        case EnumSet::Level: return "Level";
        case EnumSet::Role: return "Role";
        case EnumSet::ParamDirection: return "ParamDirection";
        case EnumSet::ArgDirection: return "ArgDirection";
        case EnumSet::ForKind: return "ForKind";
        case EnumSet::SplitMode: return "SplitMode";
        case EnumSet::MemorySpace: return "MemorySpace";
        case EnumSet::InlineLanguage: return "InlineLanguage";
        case EnumSet::None: return "code";
    }
    return "code";
}

}  // namespace ptoplug::ir
