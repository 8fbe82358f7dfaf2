// The C++ plugin SDK, <ptoplug/sdk.hpp>: what a plugin written in C++ needs beside the C ABI. Header-only,
// installed beside the ABI headers and included the same way in this tree; it links nothing of the host,
// and a plugin built with it still exports only ptoplug_plugin_entry. Not part of the C ABI (abi.h is).
//   sdk/host.hpp        Host (the table's functions as C++), runGuarded (every outcome a status)
//   sdk/ir.hpp          Node, Expr, Var, Call, Stmt, SeqStmts, Function: typed handles with kind checks,
//                       a variable's uses and definition [1.2]
//   sdk/visitor.hpp     Visitor: a read-only traversal with a hook per kind (pypto's IRVisitor)
//   sdk/mutator.hpp     Mutator: a copy-on-write rewriting traversal (pypto's IRMutator)
//   sdk/descriptor.hpp  Plugin, Pass, Verifier, option(), guardedRun, PTOPLUG_PLUGIN_ENTRY: the descriptor
//                       and the entry point in a few lines
#pragma once

#include "ptoplug/sdk/descriptor.hpp"
#include "ptoplug/sdk/host.hpp"
#include "ptoplug/sdk/ir.hpp"
#include "ptoplug/sdk/mutator.hpp"
#include "ptoplug/sdk/visitor.hpp"
