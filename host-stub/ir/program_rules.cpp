#include "ir/program_rules.h"

#include <algorithm>
#include <map>
#include <span>
#include <string_view>

#include "ir/known_names.h"
#include "ir/schema.h"

namespace ptoplug::ir {
namespace {

using Names = std::span<const std::string_view>;

// pypto's spellings of the strings it converts (StringToTensorLayout, ...); anything else makes it throw.
constexpr std::string_view kTensorLayouts[] = {"ND", "DN", "NZ", "MX_A_ZZ", "MX_B_NN"};
constexpr std::string_view kTileLayouts[] = {"none_box", "row_major", "col_major"};
constexpr std::string_view kPadValues[] = {"null", "zero", "max", "min"};
constexpr std::string_view kCompactModes[] = {"null", "normal"};
constexpr std::string_view kMemorySpaces[] = {"DDR", "Vec",  "Mat",       "Left",       "Right",
                                              "Acc", "Bias", "LeftScale", "RightScale", "ScalarLocal"};

bool oneOf(std::string_view s, Names names) { return std::find(names.begin(), names.end(), s) != names.end(); }

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::optional<RuleBreak> broken(const Value* where, std::string message, std::string hint) {
    return RuleBreak{where, std::move(message), std::move(hint)};
}

// A rule of pypto's node constructor that it raises as a TypeError.
std::optional<RuleBreak> constructorTypeError(const Value* where, std::string message, std::string hint) {
    return RuleBreak{where, std::move(message), std::move(hint), true};
}

const char* functionTypeName(uint64_t code) {
    static constexpr const char* kNames[] = {"Opaque", "Orchestration", "InCore", "AIC",  "AIV",
                                             "Group",  "Spmd",          "Inline", "Graph"};
    return code < std::size(kNames) ? kNames[code] : "?";
}

const char* levelName(uint64_t code) {
    static constexpr const char* kNames[] = {"AIV",  "AIC",       "CORE_GROUP", "CHIP_DIE",  "CHIP",
                                             "HOST", "CLUSTER_0", "CLUSTER_1",  "CLUSTER_2", "GLOBAL"};
    return code < std::size(kNames) ? kNames[code] : "UNDEFINED";
}

const char* roleName(uint64_t code) { return code == 0 ? "Orchestrator" : "SubWorker"; }

std::string_view typeKindOf(const Value& type) {
    const Value* kind = type.kind == Kind::Map ? type.m->find(K::type_kind) : nullptr;
    return kind && kind->kind == Kind::Str ? kind->strView() : std::string_view();
}

// --- functions ---------------------------------------------------------------------------------------

// pypto's Function constructor derives level and role from the function type where it implies them, and
// refuses an explicit value that disagrees.
std::optional<RuleBreak> functionRules(const Node& fn) {
    const Value* params = fn.field(K::params);
    const Value* dirs = fn.field(K::param_directions);
    if (params && dirs && dirs->kind == Kind::Array && params->kind == Kind::Array && dirs->a->size != params->a->size)
        return broken(dirs,
                      "Function.param_directions has " + std::to_string(dirs->a->size) + " entries for " +
                          std::to_string(params->a->size) + " params",
                      "give one ParamDirection per param (or omit the field: all In)");
    const Value* type = fn.field(K::func_type);
    if (!type || type->kind != Kind::UInt) return std::nullopt;
    uint64_t level = 0, role = 0;
    switch (type->u) {
        case 1:  // Orchestration
        case 8:  // Graph
            level = 4, role = 0;
            break;
        case 2: level = 3, role = 1; break;  // InCore
        case 3: level = 1, role = 1; break;  // AIC
        case 4: level = 0, role = 1; break;  // AIV
        case 5: level = 2, role = 1; break;  // Group
        default: return std::nullopt;
    }
    const Value* name = fn.field(K::name);
    const std::string who = "Function " + quoted(name && name->kind == Kind::Str ? name->strView() : "") +
                            " has func_type=" + functionTypeName(type->u);
    const char* hint = "pypto derives a function's level and role from its func_type: drop them or make them agree";
    if (const Value* l = fn.field(K::level); l && l->kind == Kind::UInt && l->u != level)
        return broken(l,
                      who + " which implies level=" + levelName(level) + ", but explicit level=" + levelName(l->u) +
                          " was provided",
                      hint);
    if (const Value* r = fn.field(K::role); r && r->kind == Kind::UInt && r->u != role)
        return broken(
            r,
            who + " which implies role=" + roleName(role) + ", but explicit role=" + roleName(r->u) + " was provided",
            hint);
    return std::nullopt;
}

// --- calls -------------------------------------------------------------------------------------------

// The Call and Submit constructors take the first arg_directions attr as the directions of the args: an
// ArgDirectionVector with one code per arg, or none.
std::optional<RuleBreak> argDirectionsRules(const Document& doc, const Node& call) {
    const Value* args = call.field(K::args);
    const size_t argCount = args && args->kind == Kind::Array ? args->a->size : 0;
    const std::string who = call.type == K::Call ? "Call" : "Submit";
    if (Map* entry = findAttrEntry(call.field(K::attrs), "arg_directions")) {
        const Value* value = entry->find(K::value);
        const Value* tag = value && value->kind == Kind::Map ? value->m->find(K::type) : nullptr;
        const Value* codes = tag ? value->m->find(K::value) : nullptr;
        if (!tag || tag->kind != Kind::Str || tag->strView() != "ArgDirectionVector" || !codes ||
            codes->kind != Kind::Array)
            return constructorTypeError(
                value ? value : entry->find(K::key), who + " attrs['arg_directions'] must be std::vector<ArgDirection>",
                "write it as {\"type\": \"ArgDirectionVector\", \"value\": [codes...]}, one code per arg");
        if (codes->a->size != 0 && codes->a->size != argCount)
            return constructorTypeError(codes,
                                        who + " attrs['arg_directions'] size (" + std::to_string(codes->a->size) +
                                            ") must match args size (" + std::to_string(argCount) + ")",
                                        "give one ArgDirection per arg, as pypto's constructor requires");
    }
    if (call.type != K::Call) return std::nullopt;
    // A legacy Call carries its directions as a field of its own, lifted into the attr when read.
    for (const Member m : call.fields) {
        if (m.key < K::kCount || doc.keys().name(m.key) != "arg_directions" || m.value.kind == Kind::Null) continue;
        if (m.value.kind != Kind::Array)
            return broken(&m.value, "Invalid arg_directions field for Call: expected ARRAY",
                          "write the legacy field as an array of ArgDirection codes, or move it into attrs");
        for (const Value& code : *m.value.a)
            if (code.kind != Kind::UInt || !enumCodeValid(EnumSet::ArgDirection, code.u))
                return broken(&code, "Invalid ArgDirection value in the arg_directions field of a Call",
                              "see docs/ir_format.md §7 for the ArgDirection codes");
        if (m.value.a->size != 0 && m.value.a->size != argCount)
            return broken(&m.value,
                          "Call arg_directions size (" + std::to_string(m.value.a->size) + ") must match args size (" +
                              std::to_string(argCount) + ")",
                          "give one ArgDirection per arg");
    }
    return std::nullopt;
}

std::optional<RuleBreak> submitRules(const Node& submit) {
    const Value* sync = submit.field(K::sync_start);
    const Value* cores = submit.field(K::core_num);
    if (sync && sync->kind == Kind::Bool && sync->b && (!cores || cores->kind == Kind::Null))
        return broken(sync,
                      "Submit sync_start=true requires core_num (an SPMD launch). Plain pl.submit(...) has no launch "
                      "spec — use pl.spmd_submit(...) for SPMD.",
                      "give the Submit a core_num, or set sync_start to false");
    return std::nullopt;
}

// --- expressions -------------------------------------------------------------------------------------

// The number of elements of the tuple type of `tuple`, or -1 when it is not a tuple; nothing when the node
// does not say (an unknown node type, no type field).
std::optional<int64_t> tupleSize(const Node& tuple, std::string_view& kindFound) {
    if (tuple.type == K::MakeTuple) {  // its type is derived from its elements
        const Value* elements = tuple.field(K::elements);
        if (elements && elements->kind == Kind::Array) return elements->a->size;
        return std::nullopt;
    }
    if (!schemaFor(tuple.type)) return std::nullopt;
    const Value* type = tuple.field(K::type);
    if (!type || type->kind != Kind::Map) return std::nullopt;
    kindFound = typeKindOf(*type);
    if (kindFound.empty()) return std::nullopt;
    if (kindFound != "TupleType") return -1;
    const Value* types = type->m->find(K::types);
    return types && types->kind == Kind::Array ? types->a->size : 0;
}

std::optional<RuleBreak> tupleGetItemRules(const Node& item) {
    const Value* tuple = item.field(K::tuple);
    const Value* index = item.field(K::index);
    if (!tuple || !tuple->isNode() || !index || !index->isInteger()) return std::nullopt;
    std::string_view kind;
    const std::optional<int64_t> size = tupleSize(*tuple->n, kind);
    if (!size) return std::nullopt;
    if (*size < 0)
        return broken(tuple, "TupleGetItemExpr requires tuple to have TupleType, got " + std::string(kind),
                      "take items only of tuple values");
    const int64_t i =
        index->kind == Kind::UInt ? static_cast<int64_t>(std::min<uint64_t>(index->u, INT64_MAX)) : index->i;
    if (i < 0 || i >= *size)
        return broken(index,
                      "TupleGetItemExpr index " + std::to_string(i) + " out of bounds for tuple with " +
                          std::to_string(*size) + " elements",
                      "index a tuple from 0 to its size - 1");
    return std::nullopt;
}

// pypto reads a constant's and an operator's dtype from a scalar type.
std::optional<RuleBreak> scalarTypeRules(const Document& doc, const Node& n) {
    const Value* type = n.field(K::type);
    if (!type || type->kind != Kind::Map) return std::nullopt;
    const std::string_view kind = typeKindOf(*type);
    if (kind.empty() || kind == "ScalarType") return std::nullopt;
    return broken(
        type,
        std::string(doc.keys().name(n.type)) + " is expected to have ScalarType type, but got " + std::string(kind),
        "a constant or an arithmetic, comparison or logical operator has a ScalarType");
}

// --- inline parts of types ---------------------------------------------------------------------------

// A string of a TensorView or TileView map, when present, is one pypto knows.
std::optional<RuleBreak> viewStringRule(const Value& view, uint32_t key, std::string_view keyName, Names names) {
    const Value* v = view.m->find(key);
    if (!v) return std::nullopt;
    if (v->kind != Kind::Str || !oneOf(v->strView(), names))
        return broken(v,
                      "Unknown value " + (v->kind == Kind::Str ? quoted(v->strView()) : std::string("(not a string)")) +
                          " for " + std::string(keyName),
                      "see docs/ir_format.md §4.5 for the names");
    return std::nullopt;
}

std::optional<RuleBreak> inlineTypePartsRules(const Value& type) {
    if (const Value* memref = type.m->find(K::memref); memref && memref->kind != Kind::Null) {
        if (memref->kind != Kind::Map || !memref->m->find(K::base) || !memref->m->find(K::byte_offset) ||
            !memref->m->find(K::size))
            return broken(memref, "MemRef missing required fields (base, byte_offset, or size)",
                          "an inline memref is {base, base_node, byte_offset, size, ...} (docs/ir_format.md §4.4)");
    }
    if (const Value* view = type.m->find(K::tensor_view); view && view->kind != Kind::Null) {
        if (view->kind != Kind::Map) return broken(view, "Expected map for TensorView", "see docs/ir_format.md §4.5");
        if (auto b = viewStringRule(*view, K::layout, "TensorView.layout", kTensorLayouts)) return b;
        if (auto b = viewStringRule(*view, K::pad, "TensorView.pad", kPadValues)) return b;
    }
    if (const Value* view = type.m->find(K::tile_view); view && view->kind != Kind::Null) {
        if (view->kind != Kind::Map) return broken(view, "Expected map for TileView", "see docs/ir_format.md §4.5");
        if (auto b = viewStringRule(*view, K::blayout, "TileView.blayout", kTileLayouts)) return b;
        if (auto b = viewStringRule(*view, K::slayout, "TileView.slayout", kTileLayouts)) return b;
        if (auto b = viewStringRule(*view, K::pad, "TileView.pad", kPadValues)) return b;
        if (auto b = viewStringRule(*view, K::compact, "TileView.compact", kCompactModes)) return b;
    }
    return std::nullopt;
}

}  // namespace

std::optional<RuleBreak> firstNodeRuleBreak(const Document& doc) {
    for (const Node* node : doc.nodes())
        if (auto b = checkNodeRules(doc, *node)) return b;
    return std::nullopt;
}

std::optional<RuleBreak> checkNodeRules(const Document& doc, const Node& node) {
    switch (node.type) {
        case K::Function:
            if (auto b = functionRules(node)) return b;
            break;
        case K::Call:
        case K::Submit:
            if (auto b = argDirectionsRules(doc, node)) return b;
            if (node.type == K::Submit)
                if (auto b = submitRules(node)) return b;
            break;
        case K::TupleGetItemExpr: return tupleGetItemRules(node);
        case K::ConstInt:
        case K::ConstFloat: return scalarTypeRules(doc, node);
        case K::ForStmt:
            if (const Value* legacy = node.field(K::chunk_config))
                return broken(legacy,
                              "Cannot deserialize a ForStmt carrying a legacy 'chunk_config' field: the chunk / "
                              "auto_chunk loop-chunking feature was removed",
                              "re-export the program with a current pypto (chunked loops can be expressed with "
                              "manual tiling)");
            break;
        case K::SplitAivScopeStmt:
            if (const Value* count = node.field(K::count);
                count && count->isInteger() && !(count->kind == Kind::UInt && count->u == 2))
                return broken(count,
                              "SplitAivScopeStmt count must be 2 (AIV sub-core count), got " +
                                  (count->kind == Kind::UInt ? std::to_string(count->u) : std::to_string(count->i)),
                              "an AIV split has two sub-cores");
            break;
        default:
            if (isBinaryOpType(node.type) || isUnaryOpType(node.type)) return scalarTypeRules(doc, node);
            break;
    }
    return std::nullopt;
}

std::optional<RuleBreak> checkAttrRules(const Value& value, std::string_view key) {
    switch (value.kind) {
        case Kind::Bool:
        case Kind::F64:
        case Kind::F32:
        case Kind::Str: return std::nullopt;
        case Kind::UInt:
        case Kind::Int:
            if (value.kind == Kind::UInt ? value.u > INT32_MAX : value.i < INT32_MIN)
                return broken(&value, "attr " + quoted(key) + " holds an integer out of the range of an int",
                              "pypto reads a plain integer attr as a 32-bit int");
            return std::nullopt;
        case Kind::Map: break;
        default:
            return broken(&value, "Invalid kwarg type for key: " + std::string(key),
                          "an attr value is a boolean, number, string or tagged map (docs/ir_format.md §5)");
    }
    const Value* tag = value.m->find(K::type);
    if (!tag || tag->kind != Kind::Str) return std::nullopt;
    const std::string_view t = tag->strView();
    const Names names = t == "TensorLayout"  ? Names(kTensorLayouts)
                        : t == "TileLayout"  ? Names(kTileLayouts)
                        : t == "MemorySpace" ? Names(kMemorySpaces)
                        : t == "PadValue"    ? Names(kPadValues)
                                             : Names();
    if (names.empty()) return std::nullopt;
    const Value* name = value.m->find(K::value);
    if (!name || name->kind != Kind::Str || name->strView().empty())
        return broken(&value, "Missing 'value' field for " + std::string(t) + " kwarg: " + std::string(key),
                      "give the " + std::string(t) + " by name");
    if (!oneOf(name->strView(), names))
        return broken(
            name, "Unknown " + std::string(t) + ": " + std::string(name->strView()) + " for kwarg: " + std::string(key),
            "see docs/ir_format.md §5 for the names");
    return std::nullopt;
}

std::optional<RuleBreak> checkTypeRules(const Value& type, std::string_view kind) {
    // By length and first letter before any comparison: a program has a type map for every variable,
    // constant and call, nearly all of them ScalarType.
    if (type.kind != Kind::Map || kind.size() < 8 || kind[0] == 'S') return std::nullopt;
    if (kind == "ArrayType") {
        const Value* shape = type.m->find(K::shape);
        const size_t rank = shape && shape->kind == Kind::Array ? shape->a->size : 0;
        if (rank != 1)
            return broken(shape ? shape : &type, "ArrayType must have rank-1 shape, got " + std::to_string(rank),
                          "an ArrayType's shape holds exactly its extent");
    }
    if (kind == "TensorType" || kind == "DistributedTensorType" || kind == "TileType")
        return inlineTypePartsRules(type);
    return std::nullopt;
}

std::optional<RuleBreak> checkRootIsProgram(const Document& doc) {
    const Value& root = doc.root();
    if (root.isNode() && root.n->type == K::Program) return std::nullopt;
    return broken(
        &root,
        "the document's root is " +
            (root.isNode() ? "a " + quoted(doc.keys().name(root.n->type)) + " node" : std::string("not a node")) +
            ", not a Program",
        "an IR file holds one serialized pypto Program, {\"type\": \"Program\", ...}");
}

std::optional<RuleBreak> checkProgramRules(const Document& doc) {
    const Value& root = doc.root();
    if (!root.isNode() || root.n->type != K::Program) return std::nullopt;
    const Value* functions = root.n->field(K::functions);
    if (!functions || functions->kind != Kind::Array) return std::nullopt;  // the schema's to report
    // pypto keys its functions by name: a second entry of a name would replace the first, and the key of an
    // entry is the name every call uses.
    std::map<std::string_view, const Value*> byKey, byName;
    for (const Value& entry : *functions->a) {
        const Value* key = entry.kind == Kind::Map ? entry.m->find(K::key) : nullptr;
        const Value* fn = entry.kind == Kind::Map ? entry.m->find(K::value) : nullptr;
        const Value* keyName = key && key->kind == Kind::Map ? key->m->find(K::name) : nullptr;
        const Value* name = fn && fn->isNode() ? fn->n->field(K::name) : nullptr;
        if (!keyName || keyName->kind != Kind::Str || !name || name->kind != Kind::Str) continue;
        const char* renameHint = "give every function a name of its own (a pass renames with function_rename)";
        if (name->strView().empty())
            return broken(name, "Program constructor encountered empty function name", renameHint);
        if (!byName.emplace(name->strView(), name).second)
            return broken(name, "Duplicate function name \"" + std::string(name->strView()) + "\"", renameHint);
        // Keys are op maps, which the reader shares when equal: the entry is the place of its key.
        if (!byKey.emplace(keyName->strView(), keyName).second)
            return broken(&entry, "Duplicate function name \"" + std::string(keyName->strView()) + "\" among the keys",
                          renameHint);
        if (keyName->strView() != name->strView())
            return broken(&entry,
                          "the entry of function " + quoted(name->strView()) + " is keyed " +
                              quoted(keyName->strView()) + ": calls name a function by its key",
                          "key each entry by its Function's name (a pass renames with function_rename)");
    }
    return std::nullopt;
}

}  // namespace ptoplug::ir
