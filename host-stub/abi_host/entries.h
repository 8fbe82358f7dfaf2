// The host table's entries, one file per concept (their contracts are in the ABI header); table.cpp puts
// each in its slot behind the guard (guard.h).
#pragma once

#include "ptoplug/abi.h"

namespace ptoplug::host::table {

// reading.cpp: the program, nodes, fields, functions and calls read
pto_status program(pto_run_context* ctx, pto_node* out);
pto_status programFunctionCount(pto_run_context* ctx, size_t* out);
pto_status programFunctionAt(pto_run_context* ctx, size_t index, pto_node* out);
pto_status programFindFunction(pto_run_context* ctx, pto_string name, pto_node* out);
pto_status nodeKind(pto_run_context* ctx, pto_node node, pto_node_kind* out);
pto_status nodeTypeName(pto_run_context* ctx, pto_node node, pto_string* out);
pto_status nodeName(pto_run_context* ctx, pto_node node, pto_string* out);
pto_status nodeSpan(pto_run_context* ctx, pto_node node, pto_span* out);
pto_status nodeTypeKind(pto_run_context* ctx, pto_node node, pto_type_kind* out);
pto_status nodeChildCount(pto_run_context* ctx, pto_node node, uint32_t field, size_t* out);
pto_status nodeChild(pto_run_context* ctx, pto_node node, uint32_t field, size_t index, pto_node* out);
pto_status nodeField(pto_run_context* ctx, pto_node node, uint32_t field, pto_value* out);
pto_status fieldFromName(pto_run_context* ctx, pto_string name, uint32_t* out);
pto_status functionInfo(pto_run_context* ctx, pto_node function, pto_function_info* out);
pto_status functionParamDirection(pto_run_context* ctx, pto_node function, size_t index, pto_param_direction* out);
pto_status callOp(pto_run_context* ctx, pto_node call, pto_string* name, int* isGlobalVar);
pto_status callAttr(pto_run_context* ctx, pto_node call, pto_string key, pto_value* out);
pto_status tupleGetItemIndex(pto_run_context* ctx, pto_node node, int64_t* out);

// walk.cpp: depth first in pypto's field order, pre and post callbacks
pto_status walk(pto_run_context* ctx, pto_node root, const pto_walk_callbacks* callbacks);

// values.cpp: values read and built, types built and read
pto_status valueKind(pto_run_context* ctx, pto_value value, pto_value_kind* out);
pto_status valueAsBool(pto_run_context* ctx, pto_value value, int* out);
pto_status valueAsInt64(pto_run_context* ctx, pto_value value, int64_t* out);
pto_status valueAsUInt64(pto_run_context* ctx, pto_value value, uint64_t* out);
pto_status valueAsDouble(pto_run_context* ctx, pto_value value, double* out);
pto_status valueAsString(pto_run_context* ctx, pto_value value, pto_string* out);
pto_status valueAsNode(pto_run_context* ctx, pto_value value, pto_node* out);
pto_status valueSize(pto_run_context* ctx, pto_value value, size_t* out);
pto_status valueArrayAt(pto_run_context* ctx, pto_value value, size_t index, pto_value* out);
pto_status valueMapAt(pto_run_context* ctx, pto_value value, size_t index, pto_string* key, pto_value* out);
pto_status valueMapFind(pto_run_context* ctx, pto_value value, pto_string key, pto_value* out);
pto_status valueTypeKind(pto_run_context* ctx, pto_value value, pto_type_kind* out);
pto_status valueMakeNull(pto_run_context* ctx, pto_value* out);
pto_status valueMakeBool(pto_run_context* ctx, int value, pto_value* out);
pto_status valueMakeInt(pto_run_context* ctx, int64_t value, pto_value* out);
pto_status valueMakeDouble(pto_run_context* ctx, double value, pto_value* out);
pto_status valueMakeString(pto_run_context* ctx, pto_string value, pto_value* out);
pto_status valueMakeNode(pto_run_context* ctx, pto_node node, pto_value* out);
pto_status valueMakeArray(pto_run_context* ctx, const pto_value* items, size_t count, pto_value* out);
pto_status valueMakeMap(pto_run_context* ctx, const pto_string* keys, const pto_value* values, size_t count,
                        pto_value* out);
pto_status makeType(pto_run_context* ctx, const pto_type_desc* desc, pto_value* out);
pto_status makeSingletonType(pto_run_context* ctx, pto_type_kind kind, pto_value* out);
pto_status typeDtype(pto_run_context* ctx, pto_value type, pto_data_type* out);
pto_status typeRank(pto_run_context* ctx, pto_value type, size_t* out);
pto_status typeDim(pto_run_context* ctx, pto_value type, size_t index, pto_node* out);

// construction.cpp: nodes built, cloned and edited field by field, checked against the format
pto_status createVar(pto_run_context* ctx, pto_string name, pto_value type, pto_node spanSource, pto_node* out);
pto_status createOpCall(pto_run_context* ctx, pto_string op, const pto_node* args, size_t argCount, pto_value type,
                        pto_node spanSource, pto_node* out);
pto_status createAssign(pto_run_context* ctx, pto_node var, pto_node value, pto_node spanSource, pto_node* out);
pto_status createNode(pto_run_context* ctx, pto_string typeName, const pto_field_value* fields, size_t count,
                      pto_node* out);
pto_status cloneNode(pto_run_context* ctx, pto_node node, pto_node* out);
pto_status nodeSetField(pto_run_context* ctx, pto_node node, uint32_t field, pto_value value);
pto_status nodeSetFields(pto_run_context* ctx, pto_node node, const pto_field_value* fields, size_t count);
pto_status functionAppendParam(pto_run_context* ctx, pto_node function, pto_node param, pto_param_direction dir);
pto_status callAppendArg(pto_run_context* ctx, pto_node call, pto_node arg);
pto_status callExtendArgDirections(pto_run_context* ctx, pto_node call, const pto_arg_direction* codes, size_t count,
                                   int* present);

// statements.cpp: deferred statement edits, and replacing a child or a variable's uses
pto_status insertBefore(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, const pto_node* stmts,
                        size_t count);
pto_status insertAfter(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, const pto_node* stmts,
                       size_t count);
pto_status removeStmt(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index);
pto_status moveStmt(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, pto_node toParent,
                    uint32_t toField, size_t toIndex);
pto_status flushInserts(pto_run_context* ctx);
pto_status replaceChild(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, pto_node replacement);
pto_status appendStmts(pto_run_context* ctx, pto_node seq, const pto_node* stmts, size_t count);
pto_status replaceUses(pto_run_context* ctx, pto_node root, pto_node var, pto_node replacement, size_t* count);

// attributes.cpp: attrs and kwargs, decoded and edited
pto_status attrCount(pto_run_context* ctx, pto_node node, pto_attr_list list, size_t* out);
pto_status attrAt(pto_run_context* ctx, pto_node node, pto_attr_list list, size_t index, pto_attr* out);
pto_status attrFind(pto_run_context* ctx, pto_node node, pto_attr_list list, pto_string key, pto_attr* out);
pto_status attrSet(pto_run_context* ctx, pto_node node, pto_attr_list list, pto_string key, pto_string tag,
                   pto_value value);
pto_status attrRemove(pto_run_context* ctx, pto_node node, pto_attr_list list, pto_string key);
pto_status callArgDirections(pto_run_context* ctx, pto_node call, pto_arg_direction* out, size_t capacity,
                             size_t* count);

// symbols.cpp: functions by name, and the calls that name them
pto_status functionRename(pto_run_context* ctx, pto_node function, pto_string name);
pto_status createCall(pto_run_context* ctx, pto_node_kind kind, pto_node callee, const pto_node* args, size_t argCount,
                      pto_value type, pto_node spanSource, pto_node* out);
pto_status callSetOp(pto_run_context* ctx, pto_node call, pto_string name, int isGlobalVar);
pto_status functionCalls(pto_run_context* ctx, pto_node function, pto_node* out, size_t capacity, size_t* count);
pto_status programAddFunction(pto_run_context* ctx, pto_node function);
pto_status programRemoveFunction(pto_run_context* ctx, pto_node function);

// options.cpp: the running pass's options, and an option check's refusal
pto_status passOption(pto_run_context* ctx, pto_string name, pto_value* out);
pto_status refuseOption(pto_run_context* ctx, pto_string name, pto_string message);

// uses.cpp: where a variable is used and bound
pto_status varUses(pto_run_context* ctx, pto_node root, pto_node var, pto_walk_position* out, size_t capacity,
                   size_t* count);
pto_status varDefinition(pto_run_context* ctx, pto_node root, pto_node var, pto_walk_position* out);

// diagnostics.cpp: diagnostics emitted, and why the last failing call failed
pto_status emitDiagnostic(pto_run_context* ctx, const pto_diagnostic* d);
pto_status lastError(pto_run_context* ctx, pto_string* out);

}  // namespace ptoplug::host::table
