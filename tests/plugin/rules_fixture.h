// The fixture of the rule-by-rule tests of MaterializeDistTensorCtx: build a program with IrBuilder,
// run the plugin through the ABI, compare the whole printed output or the exact diagnostic.
#pragma once

#include <gtest/gtest.h>

#include "abi_host/runner.h"
#include "ir/printer.h"
#include "loader/loader.h"
#include "support/ir_builder.h"

namespace ptoplug::test {

class Rules : public ::testing::Test {
protected:
    Rules() : b(doc) {}

    static const host::LoadedPlugin& plugin() {
        static auto loaded = host::loadPlugin(PTOPLUG_MDTC_PLUGIN);
        if (!loaded) std::abort();
        return **loaded;
    }

    host::RunOutcome run() { return host::runThroughAbi(doc, plugin().pass("MaterializeDistTensorCtx")->run); }
    host::RunOutcome verify() { return host::runThroughAbi(doc, plugin().verifier("DistTensorCtxMaterialized")->run); }

    // Runs the pass, expects success, returns the printed functions (without the program header).
    std::string transformed() {
        host::RunOutcome o = run();
        EXPECT_FALSE(o.failed()) << (o.diagnostics.empty() ? "" : o.diagnostics[0].message);
        std::string text = ir::printProgram(doc);
        return text.substr(text.find("class T:\n") + 9);
    }

    // Runs the pass, expects exactly one error diagnostic, returns "rule|line|message".
    std::string failure() {
        host::RunOutcome o = run();
        EXPECT_TRUE(o.failed());
        if (o.diagnostics.size() != 1) return "expected one diagnostic, got " + std::to_string(o.diagnostics.size());
        const host::Diagnostic& d = o.diagnostics[0];
        severity = d.severity;
        return d.rule + "|" + std::to_string(d.line) + "|" + d.message;
    }

    static std::string ruleOf(const std::string& failure) { return failure.substr(0, failure.find('|')); }

    std::string lineOf(const ir::Node* n) const { return std::to_string(doc.span(*n->field(ir::K::span))->beginLine); }

    ir::Value dist() { return b.tensor({4}); }
    ir::Value none() { return b.tuple({}); }
    ir::Value ctxType() { return b.singleton("CommCtxType"); }

    pto_severity severity = PTO_SEVERITY_NOTE;  ///< of the diagnostic failure() returned
    ir::Document doc;
    IrBuilder b;
};

}  // namespace ptoplug::test
