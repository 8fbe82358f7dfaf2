// The host function table (pto_host_api): every entry under the guard (guard.h), in ABI slot order.
#include "abi_host/entries.h"
#include "abi_host/guard.h"
#include "abi_host/runner.h"

namespace ptoplug::host::table {
namespace {

constexpr Access W = Access::Write;

// Designated: a slot given the wrong function (or out of order) does not compile.
const pto_host_api kApi = {
    .struct_size = sizeof(pto_host_api),
    .abi_major = PTO_ABI_MAJOR,
    .abi_minor = PTO_ABI_MINOR,
    .program = Entry<program, "program">::call,
    .program_function_count = Entry<programFunctionCount, "program_function_count">::call,
    .program_function_at = Entry<programFunctionAt, "program_function_at">::call,
    .program_find_function = Entry<programFindFunction, "program_find_function">::call,
    .node_kind = Entry<nodeKind, "node_kind">::call,
    .node_type_name = Entry<nodeTypeName, "node_type_name">::call,
    .node_name = Entry<nodeName, "node_name">::call,
    .node_span = Entry<nodeSpan, "node_span">::call,
    .node_type_kind = Entry<nodeTypeKind, "node_type_kind">::call,
    .node_child_count = Entry<nodeChildCount, "node_child_count">::call,
    .node_child = Entry<nodeChild, "node_child">::call,
    .node_field = Entry<nodeField, "node_field">::call,
    .field_from_name = Entry<fieldFromName, "field_from_name">::call,
    .function_info = Entry<functionInfo, "function_info">::call,
    .function_param_direction = Entry<functionParamDirection, "function_param_direction">::call,
    .call_op = Entry<callOp, "call_op">::call,
    .call_attr = Entry<callAttr, "call_attr">::call,
    .tuple_get_item_index = Entry<tupleGetItemIndex, "tuple_get_item_index">::call,
    .value_kind = Entry<valueKind, "value_kind">::call,
    .value_as_bool = Entry<valueAsBool, "value_as_bool">::call,
    .value_as_int64 = Entry<valueAsInt64, "value_as_int64">::call,
    .value_as_uint64 = Entry<valueAsUInt64, "value_as_uint64">::call,
    .value_as_double = Entry<valueAsDouble, "value_as_double">::call,
    .value_as_string = Entry<valueAsString, "value_as_string">::call,
    .value_as_node = Entry<valueAsNode, "value_as_node">::call,
    .value_size = Entry<valueSize, "value_size">::call,
    .value_array_at = Entry<valueArrayAt, "value_array_at">::call,
    .value_map_at = Entry<valueMapAt, "value_map_at">::call,
    .value_map_find = Entry<valueMapFind, "value_map_find">::call,
    .value_type_kind = Entry<valueTypeKind, "value_type_kind">::call,
    .walk = Entry<table::walk, "walk">::call,
    .make_singleton_type = Entry<makeSingletonType, "make_singleton_type">::call,
    .create_var = Entry<createVar, "create_var">::call,
    .create_op_call = Entry<createOpCall, "create_op_call">::call,
    .create_assign = Entry<createAssign, "create_assign">::call,
    .function_append_param = Entry<functionAppendParam, "function_append_param", W>::call,
    .call_append_arg = Entry<callAppendArg, "call_append_arg", W>::call,
    .call_extend_arg_directions = Entry<callExtendArgDirections, "call_extend_arg_directions", W>::call,
    .insert_before = Entry<table::insertBefore, "insert_before", W>::call,
    .replace_child = Entry<replaceChild, "replace_child", W>::call,
    .flush_inserts = Entry<flushInserts, "flush_inserts", W>::call,
    .emit_diagnostic = Entry<emitDiagnostic, "emit_diagnostic">::call,
    .last_error = Entry<lastError, "last_error">::call,
    .value_make_null = Entry<table::valueMakeNull, "value_make_null">::call,
    .value_make_bool = Entry<table::valueMakeBool, "value_make_bool">::call,
    .value_make_int = Entry<table::valueMakeInt, "value_make_int">::call,
    .value_make_double = Entry<table::valueMakeDouble, "value_make_double">::call,
    .value_make_string = Entry<table::valueMakeString, "value_make_string">::call,
    .value_make_node = Entry<table::valueMakeNode, "value_make_node">::call,
    .value_make_array = Entry<table::valueMakeArray, "value_make_array">::call,
    .value_make_map = Entry<table::valueMakeMap, "value_make_map">::call,
    .make_type = Entry<table::makeType, "make_type">::call,
    .type_dtype = Entry<table::typeDtype, "type_dtype">::call,
    .type_rank = Entry<table::typeRank, "type_rank">::call,
    .type_dim = Entry<table::typeDim, "type_dim">::call,
    .create_node = Entry<table::createNode, "create_node">::call,
    .node_set_field = Entry<table::nodeSetField, "node_set_field", W>::call,
    .insert_after = Entry<table::insertAfter, "insert_after", W>::call,
    .remove_stmt = Entry<table::removeStmt, "remove_stmt", W>::call,
    .move_stmt = Entry<table::moveStmt, "move_stmt", W>::call,
    .replace_uses = Entry<table::replaceUses, "replace_uses", W>::call,
    .attr_count = Entry<table::attrCount, "attr_count">::call,
    .attr_at = Entry<table::attrAt, "attr_at">::call,
    .attr_find = Entry<table::attrFind, "attr_find">::call,
    .attr_set = Entry<table::attrSet, "attr_set", W>::call,
    .attr_remove = Entry<table::attrRemove, "attr_remove", W>::call,
    .call_arg_directions = Entry<table::callArgDirections, "call_arg_directions">::call,
    .function_rename = Entry<table::functionRename, "function_rename", W>::call,
    .create_call = Entry<table::createCall, "create_call">::call,
    .call_set_op = Entry<table::callSetOp, "call_set_op", W>::call,
    .function_calls = Entry<table::functionCalls, "function_calls">::call,
    .node_set_fields = Entry<table::nodeSetFields, "node_set_fields", W>::call,
    .program_add_function = Entry<table::programAddFunction, "program_add_function", W>::call,
    .program_remove_function = Entry<table::programRemoveFunction, "program_remove_function", W>::call,
    .clone_node = Entry<table::cloneNode, "clone_node">::call,
    .pass_option = Entry<table::passOption, "pass_option">::call,
    .append_stmts = Entry<table::appendStmts, "append_stmts", W>::call,
    .var_uses = Entry<table::varUses, "var_uses">::call,
    .var_definition = Entry<table::varDefinition, "var_definition">::call,
    .refuse_option = Entry<table::refuseOption, "refuse_option">::call,
};

}  // namespace
}  // namespace ptoplug::host::table

namespace ptoplug::host {

const pto_host_api& hostApi() { return table::kApi; }

}  // namespace ptoplug::host
