#include "driver/process_file.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/printable.h"
#include "driver/output_writer.h"
#include "graph/context_flow.h"
#include "graph/dot.h"
#include "graph/render.h"
#include "io/digest.h"
#include "io/output_file.h"
#include "ir/pointer.h"
#include "ir/printer.h"
#include "ir/reader.h"
#include "ir/use_after_def.h"
#include "ir/validate.h"
#include "ir/writer.h"

namespace ptoplug::host {
namespace {

// A failed run's exit code, and a host message when the plugin did not say why it failed.
struct Failure {
    int code;
    std::string rule;
    std::string message;  ///< empty when the plugin's own error diagnostics explain the failure
};

Failure classify(const RunOutcome& outcome, const std::string& who) {
    if (!outcome.lostProcessState.empty())
        return {kExitInternal, "pto-host/process-state",
                who + " changed what the host cannot put back: " + outcome.lostProcessState +
                    "; this is a bug in the plugin"};
    if (!isKnownStatus(outcome.status))
        return {kExitInternal, "pto-host/unknown-status",
                who + " returned status " + std::to_string(static_cast<int>(outcome.status)) +
                    ", which is not a pto_status; this is a bug in the plugin"};
    // Only PTO_ERR_USER says the program is wrong; any other failure status is a plugin's bug.
    bool internal = outcome.status != PTO_OK && outcome.status != PTO_ERR_USER;
    bool explained = false;
    for (const Diagnostic& d : outcome.diagnostics) {
        internal = internal || d.severity == PTO_SEVERITY_INTERNAL_ERROR;
        explained = explained || d.severity >= PTO_SEVERITY_ERROR;
    }
    Failure f{internal ? kExitInternal : kExitDiagnostics, "pto-host/silent-failure", ""};
    if (!explained)
        f.message =
            who + " failed with status " + statusName(outcome.status) + " without an error diagnostic saying why";
    return f;
}

// The document read-only for this object's life (ir::Arena::protect), and the worker told so.
class ReadOnly {
public:
    ReadOnly(ir::Document& doc, WorkerProgress* progress) : doc_(doc), progress_(progress) {
        if (progress_) progress_->documentReadOnly.store(1);
        doc_.arena().protect(true);
    }
    ~ReadOnly() {
        doc_.arena().protect(false);
        if (progress_) progress_->documentReadOnly.store(0);
    }
    ReadOnly(const ReadOnly&) = delete;
    ReadOnly& operator=(const ReadOnly&) = delete;

private:
    ir::Document& doc_;
    WorkerProgress* progress_;
};

}  // namespace

std::vector<std::string> verifiersAfter(const Stage& stage, const FileOptions& options) {
    std::vector<std::string> properties = stage.produced;
    for (const std::string& p : options.verifyProperties)
        if (std::find(properties.begin(), properties.end(), p) == properties.end()) properties.push_back(p);
    return properties;
}

void PhaseTimer::lap(FileReport& report, const std::string& what) {
    if (!on_) return;
    auto now = std::chrono::steady_clock::now();
    // The peak resident size so far shows which phase grew the process (memory is time on these machines).
    struct rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    char line[256];
    std::snprintf(line, sizeof line, "time: %-55s %9.4f s   peak %7.1f MiB\n", printable(what).c_str(),
                  std::chrono::duration<double>(now - last_).count(), static_cast<double>(usage.ru_maxrss) / 1024);
    report.messages += line;
    for (const StepTimes::Step& step : steps_.steps()) {
        std::snprintf(line, sizeof line, "time:   %-53s %9.4f s\n", step.name.c_str(), step.seconds);
        report.messages += line;
    }
    steps_ = StepTimes();  // the next phase's steps start now
    last_ = now;
}

void PhaseTimer::total(FileReport& report) {
    last_ = start_;
    lap(report, "total");
}

FileReport runPipeline(ir::Document& doc, const std::string& name, const Pipeline& pipeline, const FileOptions& options,
                       WorkerProgress* progress, PhaseTimer* timer, OutputWriter* output) {
    auto enter = [&](Phase phase, int stage = -1, int property = -1) {
        if (progress) progress->enter(phase, stage, property);
    };
    FileReport report;
    auto timed = [&](const std::string& what) {
        if (timer) timer->lap(report, what);
    };
    auto emit = [&](const Diagnostic& d) {
        report.messages += formatDiagnostic(d, name, options.diagnostics);
        report.diagnostics.push_back(d);
        int& count = d.severity >= PTO_SEVERITY_ERROR     ? report.errors
                     : d.severity == PTO_SEVERITY_WARNING ? report.warnings
                                                          : report.notes;
        ++count;
    };
    auto fail = [&](int code, const std::string& rule, const std::string& message) {
        Diagnostic d;
        d.severity = code == kExitInternal ? PTO_SEVERITY_INTERNAL_ERROR : PTO_SEVERITY_ERROR;
        d.rule = rule;
        d.message = message;
        emit(d);
        report.exitCode = code;
        return report;
    };
    if (options.printBefore) report.messages += "// IR before the pipeline\n" + ir::printProgram(doc);

    // Runs the verifier of `property`; false (with the report filled in) if the property does not hold.
    auto verify = [&](const std::string& property, int stage, int propertyIndex, const std::string& after) {
        if (property == ir::kUseAfterDefProperty) {
            enter(Phase::Verify, stage, propertyIndex);
            auto broken = ir::checkUseAfterDef(doc, ir::ScopeRule::UseAfterDef).broken;
            timed("verifier " + property);
            if (!broken) return true;
            fail(kExitDiagnostics, "pto-host/verify",
                 "Verification failed " + after + "for property " + property + ": " + broken->message + " (at " +
                     ir::pointerTo(doc, broken->where) + ")");
            return false;
        }
        const pto_verifier_desc* verifier = pipeline.verifier(property);
        if (!verifier) return true;
        enter(Phase::Verify, stage, propertyIndex);
        const Plugin* owner = pipeline.verifierPlugin(property);
        std::vector<PassOption> ownerOptions;  // its plugin's passes' options, as PASS.NAME
        for (const Stage& s : pipeline.stages)
            if (owner && s.plugin == owner) addVerifierOptions(ownerOptions, s.name, s.options);
        RunOutcome checked = [&] {
            // A verifier may only read the program, but is lent pointers into it (a name's bytes) that a cast
            // makes writable: the program is read-only while it runs, and a write faults (SIGSEGV), which
            // fails the file naming the verifier before anything is written.
            ReadOnly readOnly(doc, progress);
            return runThroughAbi(doc, verifier->run, RunSettings{.options = &ownerOptions, .readOnly = true});
        }();
        timed("verifier " + property);
        for (Diagnostic d : checked.diagnostics) {
            d.pass = property;
            d.plugin = owner ? owner->manifest.name : "";
            emit(d);
        }
        if (!checked.failed()) return true;
        Failure f = classify(checked, "the verifier of " + property);
        if (f.code == kExitInternal && !f.message.empty()) {
            fail(f.code, f.rule, f.message);
            return false;
        }
        fail(f.code, "pto-host/verify",
             "Verification failed " + after + "for property " + property + (f.message.empty() ? "" : ": " + f.message));
        return false;
    };
    if (!options.runPasses) {
        for (size_t p = 0; p < options.verifyProperties.size(); ++p)
            if (!verify(options.verifyProperties[p], -1, static_cast<int>(p), "")) return report;
        return report;
    }

    size_t lastPass = 0;
    for (size_t i = 0; i < pipeline.stages.size(); ++i)
        if (pipeline.stages[i].pass) lastPass = i;
    for (size_t i = 0; i < pipeline.stages.size(); ++i) {
        const Stage& stage = pipeline.stages[i];
        if (!stage.pass) continue;
        const int index = static_cast<int>(i);
        const std::string who = "pass '" + stage.name + "' of plugin " + describePlugin(*stage.plugin);
        enter(Phase::Pass, index);
        const bool graphed = stage.name == options.graphAfterPass;
        const graph::Snapshot before = graphed ? graph::snapshotOf(doc) : graph::Snapshot();
        RunOutcome outcome =
            runThroughAbi(doc, stage.pass->run, RunSettings{.options = &stage.options, .readOnly = false});
        timed("pass " + stage.name);
        for (Diagnostic d : outcome.diagnostics) {
            d.pass = stage.name;
            d.plugin = stage.plugin->manifest.name;
            emit(d);
        }
        // The printed IR is the program as the pass left it, before the host judges it.
        if (std::find(options.printAfterPasses.begin(), options.printAfterPasses.end(), stage.name) !=
                options.printAfterPasses.end() ||
            (options.printAfterFailure && outcome.failed()))
            report.messages += "// IR after " + stage.name + "\n" + ir::printProgram(doc);
        if (!options.dumpDir.empty()) {
            char prefix[24];
            std::snprintf(prefix, sizeof prefix, "%02zu", i);
            std::string path = options.dumpDir + "/" + prefix + "_after_" + stage.name + ".py";
            // A dump asked for and not written fails the file: success must mean every output is there.
            if (auto err = io::writeOutput(path, [&](ir::Sink& sink) {
                    sink.write(ir::printProgram(doc));
                    return Status();
                })) {
                report.messages += formatError(*err, options.diagnostics);
                report.exitCode = kExitOutput;
                return report;
            }
        }
        if (graphed) {
            const graph::ContextFlow flow = graph::contextFlowOf(doc, &before, outcome.diagnostics);
            // A graph asked for and not written fails the file, as a dump does.
            if (auto err = graph::writeGraph(
                    options.graphAfterPath,
                    graph::toDot(flow,
                                 {.title = std::filesystem::path(name).filename().string() + " after " + stage.name,
                                  .focus = "",
                                  .depth = 1}))) {
                report.messages += formatError(*err, options.diagnostics);
                report.exitCode = kExitOutput;
                return report;
            }
        }
        if (outcome.failed()) {
            Failure f = classify(outcome, who);
            if (!f.message.empty()) return fail(f.code, f.rule, f.message);
            report.exitCode = f.code;
            return report;
        }
        // A pass may only produce what the readers accept: anything else must not reach a file.
        enter(Phase::Check, index);
        // After the last pass the program is final: its layout for writing doubles as the graph check.
        auto broken = i == lastPass && output ? output->checkLastPass(doc) : ir::checkStructure(doc);
        timed("structural check after " + stage.name);
        if (broken && options.printAfterFailure)
            report.messages += "// IR after " + stage.name + " (invalid)\n" + ir::printProgram(doc);
        if (broken)
            return fail(kExitInternal, "pto-host/invalid-ir",
                        who + " left invalid IR: " + broken->message +
                            (broken->pointer.empty() ? "" : " (at " + broken->pointer + ")") + "; nothing was written");
        // Definition before use, in the scopes of the program's form at this point (SSA where it holds).
        const ir::ScopeCheck scopes =
            ir::checkUseAfterDef(doc, stage.ssaForm ? ir::ScopeRule::SsaScopes : ir::ScopeRule::UseAfterDef, true);
        if (scopes.broken) {
            timed("scope check after " + stage.name);
            if (options.printAfterFailure)
                report.messages += "// IR after " + stage.name + " (invalid)\n" + ir::printProgram(doc);
            return fail(kExitInternal, "pto-host/use-after-def",
                        who + " left a use of a variable before its definition: " + scopes.broken->message + " (at " +
                            ir::pointerTo(doc, scopes.broken->where) + "); nothing was written");
        }
        if (scopes.firstCopy) {
            Diagnostic d;
            d.severity = PTO_SEVERITY_WARNING;
            d.rule = "pto-host/iter-arg-copy";
            d.message = who + " left " + std::to_string(scopes.copyUses) + (scopes.copyUses == 1 ? " use" : " uses") +
                        " of a copy of a loop's iter_arg where the loop binds the original (first: " +
                        scopes.firstCopy->message + ", at " + ir::pointerTo(doc, scopes.firstCopy->where) +
                        "); pypto's own passes leave such copies and its pipeline accepts them, its UseAfterDef "
                        "verifier refuses them (docs/ir_format.md §11.15)";
            emit(d);
        }
        timed("scope check after " + stage.name);
        if (!options.verify) continue;
        const std::vector<std::string> properties = verifiersAfter(stage, options);
        for (size_t p = 0; p < properties.size(); ++p)
            if (!verify(properties[p], index, static_cast<int>(p), "after '" + stage.name + "' ")) return report;
    }
    if (options.printAfter) report.messages += "// IR after the pipeline\n" + ir::printProgram(doc);
    return report;
}

FileReport processFile(const Pipeline& pipeline, const std::string& input, const std::string& output,
                       const FileOptions& options, WorkerProgress* progress) {
    PhaseTimer timer(options.timePasses);
    if (progress) progress->enter(Phase::Read);
    std::string inputSha256;  // of the bytes read, not of the file as it is after the run
    auto doc = ir::readFile(input, ir::Format::Auto, timer.steps(), [&](std::string_view bytes) {
        if (!options.hashInput) return;
        inputSha256 = io::sha256Of(bytes);
        if (progress) progress->noteInputSha256(inputSha256);
    });
    if (!doc) {
        FileReport report;
        report.exitCode = kExitBadInput;
        report.messages = formatError(doc.error(), options.diagnostics);
        report.inputSha256 = inputSha256;
        return report;
    }
    // Declared before the writer, which refers to the document: released after the writer is gone.
    struct LeftToTheProcessEnd {
        std::unique_ptr<ir::Document>& doc;
        bool leave;
        ~LeftToTheProcessEnd() {
            if (leave) (void)doc.release();  // NOLINT(bugprone-unused-return-value): ownership goes to the exit
        }
    } left{*doc, options.processEndsAfterFile};
    const std::string name = input == "-" ? "<stdin>" : input;
    FileReport read;
    timer.lap(read, "read and validate " + name);
    OutputWriter writer(**doc, output, options);
    FileReport report = runPipeline(**doc, name, pipeline, options, progress, &timer, &writer);
    report.messages.insert(0, read.messages);
    report.inputSha256 = inputSha256;
    if (report.exitCode != kExitOk || !options.runPasses) return report;  // the writer withdraws its output
    if (progress) progress->enter(Phase::Write);
    FileReport written = writer.finish(true, timer.steps());
    timer.lap(written, "write " + output);
    timer.total(written);
    report.exitCode = written.exitCode;
    report.messages += written.messages;
    return report;
}

}  // namespace ptoplug::host
