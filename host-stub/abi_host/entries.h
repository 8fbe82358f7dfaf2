// The host table's entries that live outside host_api.cpp, one file per concept (their contracts are
// in the ABI header): values.cpp, construct.cpp, statements.cpp, attrs.cpp, symbols.cpp, options.cpp.
#pragma once

#include "ptoplug/abi.h"

namespace ptoplug::host::table {

// values.cpp: building values and types, typed type reads
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
pto_status typeDtype(pto_run_context* ctx, pto_value type, pto_data_type* out);
pto_status typeRank(pto_run_context* ctx, pto_value type, size_t* out);
pto_status typeDim(pto_run_context* ctx, pto_value type, size_t index, pto_node* out);

// construct.cpp: nodes built and edited field by field, checked against the format
pto_status createNode(pto_run_context* ctx, pto_string typeName, const pto_field_value* fields, size_t count,
                      pto_node* out);
pto_status nodeSetField(pto_run_context* ctx, pto_node node, uint32_t field, pto_value value);
pto_status nodeSetFields(pto_run_context* ctx, pto_node node, const pto_field_value* fields, size_t count);
pto_status cloneNode(pto_run_context* ctx, pto_node node, pto_node* out);

// statements.cpp: deferred statement edits, and replacing a variable's uses
pto_status insertBefore(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, const pto_node* stmts,
                        size_t count);
pto_status insertAfter(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, const pto_node* stmts,
                       size_t count);
pto_status removeStmt(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index);
pto_status moveStmt(pto_run_context* ctx, pto_node parent, uint32_t field, size_t index, pto_node toParent,
                    uint32_t toField, size_t toIndex);
pto_status replaceUses(pto_run_context* ctx, pto_node root, pto_node var, pto_node replacement, size_t* count);

// attrs.cpp: attrs and kwargs, decoded and edited
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

// options.cpp: the running pass's options
pto_status passOption(pto_run_context* ctx, pto_string name, pto_value* out);

}  // namespace ptoplug::host::table
