// Builds small pypto programs in memory for rule-by-rule tests (shapes as pypto writes them).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "ir/document.h"

namespace ptoplug::test {

class IrBuilder {
public:
    explicit IrBuilder(ir::Document& doc) : doc_(doc) {}

    // Types.
    ir::Value scalar(uint64_t dtype = 19);
    ir::Value tensor(std::initializer_list<int64_t> dims, bool distributed = true);
    ir::Value tuple(std::initializer_list<ir::Value> types);
    ir::Value singleton(const char* kind);  ///< "CommCtxType", "Ptr"

    // Expressions.
    ir::Node* var(const std::string& name, ir::Value type);
    ir::Node* iterArg(const std::string& name, ir::Value type, ir::Node* init);
    ir::Node* constInt(int64_t v, uint64_t dtype = 21);
    /// A call of a program function (GlobalVar), with an `arg_directions` attr when `dirs` is given.
    ir::Node* call(const std::string& fn, std::vector<ir::Node*> args, ir::Value type, std::vector<uint64_t> dirs = {},
                   bool withDirs = true);
    ir::Node* opCall(const std::string& op, std::vector<ir::Node*> args, ir::Value type);
    ir::Node* submit(const std::string& fn, std::vector<ir::Node*> args, ir::Value type, std::vector<uint64_t> dirs);
    ir::Node* getItem(ir::Node* tuple, int64_t index, ir::Value type);

    // Statements.
    ir::Node* assign(ir::Node* var, ir::Node* value);
    ir::Node* eval(ir::Node* expr);
    ir::Node* ret(std::vector<ir::Node*> values = {});
    ir::Node* yield(std::vector<ir::Node*> values);
    ir::Node* seq(std::vector<ir::Node*> stmts);
    ir::Node* forLoop(ir::Node* loopVar, int64_t stop, std::vector<ir::Node*> iterArgs, ir::Node* body,
                      std::vector<ir::Node*> returnVars);
    ir::Node* whileLoop(ir::Node* cond, std::vector<ir::Node*> iterArgs, ir::Node* body,
                        std::vector<ir::Node*> returnVars);
    ir::Node* ifStmt(ir::Node* cond, ir::Node* thenBody, ir::Node* elseBody, std::vector<ir::Node*> returnVars);

    // Functions: func_type codes 1 Orchestration (CHIP), 2 InCore (CHIP_DIE), 0 Opaque; `host` makes
    // a host orchestration (Opaque, level HOST, role Orchestrator).
    ir::Node* function(const std::string& name, int funcType, std::vector<ir::Node*> params, ir::Node* body,
                       std::vector<uint64_t> dirs = {}, std::vector<ir::Value> returnTypes = {});
    ir::Node* hostFunction(const std::string& name, std::vector<ir::Node*> params, ir::Node* body);
    /// Sets the document's root to a Program of `functions` (sorted by name, as pypto stores them).
    void program(std::vector<ir::Node*> functions);

    /// `length` nodes of a type pypto does not know ("Link"), each holding the next in field "next":
    /// the nesting no pypto program reaches. Returns the outermost.
    ir::Node* chain(size_t length);

private:
    ir::Value span();
    ir::Value list(const std::vector<ir::Node*>& nodes);
    ir::Value codes(const std::vector<uint64_t>& values);
    ir::Node* node(uint32_t type);
    ir::Node* stmt(uint32_t type);
    ir::Value op(const std::string& name, bool global);
    ir::Value attrDirs(const std::vector<uint64_t>& dirs, bool present);

    ir::Document& doc_;
    int32_t line_ = 1;
};

}  // namespace ptoplug::test
