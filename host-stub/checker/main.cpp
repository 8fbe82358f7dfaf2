// pto-plugin-check: the ABI conformance suite, runnable against any plugin.
//
//   pto-plugin-check PLUGIN.so|MANIFEST.json [IR files...]
//
// Plugin code runs only in child processes, each of which loads the plugin itself: a plugin that aborts,
// crashes or leaves threads, timers or children behind is reported, never the checker's own process's
// problem. What the checker needs of the descriptor (ABI range, passes, verifiers) comes back from a child.
// Exit status 0 only if every check passes.
#include <sys/prctl.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <latch>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "abi_host/options.h"
#include "abi_host/runner.h"
#include "base/printable.h"
#include "base/process_state.h"
#include "checker/elf_symbols.h"
#include "checker/emit_manifest.h"
#include "io/output_file.h"
#include "io/subprocess.h"
#include "ir/reader.h"
#include "ir/utf8.h"
#include "ir/writer.h"
#include "loader/loader.h"
#include "pipeline/manifest.h"
#include "pipeline/pipeline.h"

namespace {

namespace fs = std::filesystem;
using namespace ptoplug;

struct Outcome {
    bool ok;
    std::string detail;
};

class Report {
public:
    explicit Report(std::string plugin) : plugin_(std::move(plugin)) {}
    void add(const std::string& check, const Outcome& o) {
        // The detail may carry the plugin's own text (a diagnostic's message): one line, every byte shown.
        std::printf("%s  %s%s%s\n", o.ok ? "PASS" : "FAIL", check.c_str(), o.detail.empty() ? "" : ": ",
                    printable(o.detail).c_str());
        (o.ok ? passed_ : failed_)++;
    }
    int finish() const {
        std::printf("%s: %d passed, %d failed\n", printable(plugin_).c_str(), passed_, failed_);
        return failed_ == 0 ? 0 : 1;
    }

private:
    std::string plugin_;
    int passed_ = 0;
    int failed_ = 0;
};

double gTimeoutSeconds = 60;

// Runs `check` in a child process: a crash, an exit, an escaping exception or a hang of plugin code
// becomes a failed outcome that says which. The plugin's stdout goes to stderr, away from the report.
Outcome isolated(const std::function<Outcome()>& check) {
    io::ChildOptions options;
    options.stdoutToStderr = true;
    options.ownGroup = true;  // what the plugin starts is found (a subreaper) and ended with the child
    io::ChildRun run = io::runInChild(
        [&](int out) {
            Outcome o{false, ""};
            try {
                o = check();
            } catch (const std::exception& e) {
                o = {false, std::string("a C++ exception escaped into the host: ") + e.what()};
            } catch (...) {
                o = {false, "a C++ exception escaped into the host"};
            }
            std::string msg = std::string(o.ok ? "1" : "0") + o.detail;
            return io::writeAll(out, msg.data(), msg.size()) ? 0 : 3;
        },
        gTimeoutSeconds, options);
    io::endDescendants();  // what left the child's group and outlived it came here: this process is a subreaper
    if (run.timedOut)
        return {false, "the plugin did not return within " + std::to_string(static_cast<int>(gTimeoutSeconds)) +
                           " s (--timeout)"};
    if (run.end.how == io::ChildEnd::How::Signaled) return {false, "the plugin crashed: " + run.end.describe()};
    if (!run.end.exitedWith(0) || run.output.empty())
        return {false, "the plugin ended the process with " + run.end.describe() + " instead of returning"};
    return {run.output[0] == '1', run.output.substr(1)};
}

bool hasControlBytes(const std::string& text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x20 || byte == 0x7f;
    });
}

// Diagnostics are well formed: a known severity, a rule name and a message, valid UTF-8, one line without
// control bytes (a host shows them escaped; a plugin that sends them would forge or cut other lines).
std::string badDiagnostic(const host::RunOutcome& o) {
    for (const host::Diagnostic& d : o.diagnostics) {
        if (d.rule.empty()) return "a diagnostic has no rule name";
        if (d.message.empty()) return "a diagnostic has no message";
        if (hasControlBytes(d.message) || hasControlBytes(d.rule))
            return "a diagnostic carries control bytes (a newline, an escape, a NUL): " + d.message;
        if (!ir::isValidUtf8(d.message) || !ir::isValidUtf8(d.rule)) return "a diagnostic is not valid UTF-8";
    }
    return {};
}

// A pass (with its options at their declared defaults) or a verifier (read only), as a host runs it.
struct Runnable {
    pto_status (*fn)(const pto_host_api*, pto_run_context*);
    host::RunSettings settings;
};

// One run of `fn` on a fresh read of `file`: the output bytes, or a failure.
Outcome runOnce(const Runnable& r, const std::string& file, std::string& bytes) {
    const bool isVerifier = r.settings.readOnly;
    auto doc = ir::readFile(file);
    if (!doc) return {false, "cannot read corpus file: " + doc.error().format()};
    host::RunOutcome o = host::runThroughAbi(**doc, r.fn, r.settings);
    if (!o.lostProcessState.empty()) return {false, "changed what a host cannot put back: " + o.lostProcessState};
    if (std::string bad = badDiagnostic(o); !bad.empty()) return {false, bad};
    bool errors = std::any_of(o.diagnostics.begin(), o.diagnostics.end(),
                              [](const host::Diagnostic& d) { return d.severity >= PTO_SEVERITY_ERROR; });
    if (o.status == PTO_ERR_INTERNAL) return {false, "returned PTO_ERR_INTERNAL (an internal error)"};
    if (o.status != PTO_OK && o.status != PTO_ERR_USER)
        return {false, "returned status " + std::to_string(static_cast<int>(o.status))};
    if (o.status == PTO_ERR_USER && !isVerifier && !errors)
        return {false, "returned PTO_ERR_USER without an error diagnostic saying why"};
    for (const host::Diagnostic& d : o.diagnostics)
        if (d.severity == PTO_SEVERITY_INTERNAL_ERROR) return {false, "internal error: " + d.message};
    auto out = ir::writeToString(**doc, ir::WriteOptions{ir::Format::MsgPack, false});
    if (!out) return {false, "the output cannot be written: " + out.error().format()};
    auto back = ir::readDocument(*out, ir::Format::Auto, "output");
    if (!back) return {false, "the output is not valid IR: " + back.error().format()};
    bytes = std::move(*out);
    return {true, o.status == PTO_ERR_USER ? "rejected the program with a user error" : ""};
}

Outcome checkRun(const Runnable& r, const std::string& file) {
    std::string first, second;
    Outcome o = runOnce(r, file, first);
    if (!o.ok) return o;
    Outcome again = runOnce(r, file, second);
    if (!again.ok) return again;
    if (first != second) return {false, "the same input gave different output bytes on a second run"};
    return o;
}

Outcome checkThreads(const Runnable& r, const std::vector<std::string>& corpus) {
    constexpr int kThreads = 8;
    std::vector<std::string> expected(kThreads), actual(kThreads);
    for (int i = 0; i < kThreads; ++i) {
        Outcome o = runOnce(r, corpus[static_cast<size_t>(i) % corpus.size()], expected[i]);
        if (!o.ok) return o;
    }
    // The runs start together, once every thread exists: a run's guard counts the threads of the process
    // (ProcessStateGuard), and a thread created while a run that happens to be alone is under way would be
    // taken for one the plugin left running.
    std::latch start(kThreads);
    std::mutex firstFailureLock;
    std::optional<Outcome> firstFailure;
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int i = 0; i < kThreads; ++i)
        threads.emplace_back([&, i] {
            start.arrive_and_wait();
            Outcome o = runOnce(r, corpus[static_cast<size_t>(i) % corpus.size()], actual[i]);
            std::lock_guard<std::mutex> hold(firstFailureLock);
            if (!o.ok && !firstFailure) firstFailure = std::move(o);
        });
    for (std::thread& t : threads) t.join();
    if (firstFailure) return {false, "a run on a worker thread failed: " + firstFailure->detail};
    for (int i = 0; i < kThreads; ++i)
        if (expected[i] != actual[i]) return {false, "8 threads gave different results than one thread"};
    return {true, ""};
}

// The corpus shipped beside the executable: <bin>/../share/ptoplug/corpus/*.msgpack (host-stub/checker/corpus:
// pypto's own inputs of its unit tests of MaterializeDistTensorCtx).
std::vector<std::string> defaultCorpus() {
    std::vector<std::string> files;
    std::error_code ec;
    fs::path dir = fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path() / "share" / "ptoplug" / "corpus";
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".msgpack") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

// Loads the plugin at `path` in a child and runs `check` on it there.
Outcome withPlugin(const std::string& path, const std::function<Outcome(const host::LoadedPlugin&)>& check) {
    return isolated([&] {
        auto plugin = host::loadPlugin(path);
        return plugin ? check(**plugin) : Outcome{false, plugin.error().format()};
    });
}

// What the checker needs of a plugin's descriptor, and how it negotiates, learnt in a child.
struct Facts {
    uint32_t abiMajor = 0, abiMinorMin = 0, abiMinorMax = 0;
    std::vector<std::string> passes, verifiers;
    std::vector<std::string> optionChecks;  ///< the passes with a check of their option values (ABI 1.2)
    Outcome older{true, ""}, newer{true, ""}, wrongMajor{true, ""};
};

Outcome learnFacts(const std::string& path, Facts& facts) {
    Outcome o = withPlugin(path, [&](const host::LoadedPlugin& plugin) {
        const pto_plugin_desc& d = plugin.descriptor();
        nlohmann::json j;
        j["abi"] = {d.abi_major, d.abi_minor_min, d.abi_minor_max};
        j["passes"] = nlohmann::json::array();
        j["option_checks"] = nlohmann::json::array();
        for (size_t i = 0; i < d.pass_count; ++i) {
            j["passes"].push_back(d.passes[i]->name);
            if (host::optionCheck(*d.passes[i])) j["option_checks"].push_back(d.passes[i]->name);
        }
        j["verifiers"] = nlohmann::json::array();
        for (size_t i = 0; i < d.verifier_count; ++i) j["verifiers"].push_back(d.verifiers[i]->property);
        // Negotiation against an older and a newer host minor, and a wrong major.
        auto negotiate = [&](uint32_t major, uint32_t minor) { return host::loadPlugin(path, major, minor); };
        auto pair = [](bool ok, const std::string& detail) { return nlohmann::json::array({ok, detail}); };
        if (d.abi_minor_min > 0) {
            auto older = negotiate(d.abi_major, d.abi_minor_min - 1);
            j["older"] = pair(!older.ok(), older.ok() ? "a host older than the plugin's minimum accepted it" : "");
        }
        auto newer = negotiate(d.abi_major, d.abi_minor_max + 1);
        j["newer"] = pair(newer.ok() && (*newer)->abiMinor() == d.abi_minor_max,
                          newer.ok() ? "" : "a newer host refused it: " + newer.error().message);
        auto wrongMajor = negotiate(d.abi_major + 1, 0);
        j["wrong_major"] = pair(!wrongMajor.ok(), wrongMajor.ok() ? "a host of another major accepted it" : "");
        return Outcome{true, j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
    });
    if (!o.ok) return o;
    try {
        const nlohmann::json j = nlohmann::json::parse(o.detail);
        facts.abiMajor = j["abi"][0];
        facts.abiMinorMin = j["abi"][1];
        facts.abiMinorMax = j["abi"][2];
        facts.passes = j["passes"].get<std::vector<std::string>>();
        facts.verifiers = j["verifiers"].get<std::vector<std::string>>();
        facts.optionChecks = j["option_checks"].get<std::vector<std::string>>();
        auto outcome = [&](const char* key, Outcome& out) {
            if (j.contains(key)) out = Outcome{j[key][0].get<bool>(), j[key][1].get<std::string>()};
        };
        outcome("older", facts.older);
        outcome("newer", facts.newer);
        outcome("wrong_major", facts.wrongMajor);
    } catch (const nlohmann::json::exception& e) {
        return {false, std::string("the child that loaded the plugin answered what is no description: ") + e.what()};
    }
    return {true, ""};
}

// --emit-manifest: loads the plugin in a child, as every check does, and writes its manifest.
int emitManifestOf(const std::string& library, const std::string& out, const std::string& after,
                   const std::string& before) {
    auto fail = [](const Error& e) {
        std::fprintf(stderr, "%s\n", e.format().c_str());
        return 1;
    };
    if (after.empty()) return fail(fileError(out, "--emit-manifest needs --after PASS", "say where the passes go"));
    auto afterAnchor = checker::parseAnchor(after);
    if (!afterAnchor) return fail(afterAnchor.error());
    std::optional<host::Anchor> beforeAnchor;
    if (!before.empty()) {
        auto b = checker::parseAnchor(before);
        if (!b) return fail(b.error());
        beforeAnchor = *b;
    }
    Outcome made = withPlugin(library, [&](const host::LoadedPlugin& plugin) {
        return Outcome{true, checker::manifestFromDescriptor(plugin, library, *afterAnchor, beforeAnchor)};
    });
    if (!made.ok)
        return fail(fileError(library, "cannot load the plugin: " + made.detail, "run pto-plugin-check on it"));
    const std::string& text = made.detail;
    if (auto err = io::writeOutput(out, [&](ir::Sink& sink) {
            sink.write(text);
            return Status();
        }))
        return fail(*err);
    return 0;
}

}  // namespace

int main(int argc, char** argv) try {
    ptoplug::ownProcessState();          // a plugin that changes it is put right, or failed for it
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);  // what a check's child leaves behind comes here, to be ended
    CLI::App app{"pto-plugin-check: ABI conformance checks for a ptoplug plugin"};
    std::string path;
    std::vector<std::string> corpus;
    app.add_option("plugin", path, "the plugin shared object, or its manifest (.json)")->required();
    app.add_option("corpus", corpus, "IR files to run every pass and verifier on (default: the bundled fixtures)");
    app.add_option("--timeout", gTimeoutSeconds, "seconds a check may take before it fails as a hang")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    std::string emitManifest, after, before;
    auto* emit = app.add_option("--emit-manifest", emitManifest,
                                "write the plugin's manifest here, from its own descriptor, then stop");
    app.add_option("--after", after, "with --emit-manifest: the pass (PASS or PASS#N) the plugin's passes follow")
        ->needs(emit);
    app.add_option("--before", before, "with --emit-manifest: the pass they must precede")->needs(emit);
    CLI11_PARSE(app, argc, argv);
    if (!emitManifest.empty()) return emitManifestOf(path, emitManifest, after, before);
    if (corpus.empty()) corpus = defaultCorpus();

    Report report(path);
    std::printf("pto-plugin-check %s (host ABI %d.%d)\n", printable(path).c_str(), PTO_ABI_MAJOR, PTO_ABI_MINOR);

    // A manifest: checked first, then its library is checked like any plugin.
    std::string manifestPath;
    if (path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
        auto manifest = host::readManifest(path);
        if (!manifest) {
            report.add("manifest", {false, manifest.error().format()});
            return report.finish();
        }
        manifestPath = path;
        path = manifest->library;
    }

    std::vector<checker::DynamicSymbol> symbols;
    std::string elfError;
    if (!checker::readDynamicSymbols(path, symbols, elfError)) {
        report.add("exports", {false, path + ": " + elfError});
        return report.finish();
    }
    std::vector<std::string> exported;
    bool weakEntry = false;
    for (const auto& s : symbols)
        if (s.defined && !checker::isToolchainSymbol(s.name)) {
            exported.push_back(s.name);
            weakEntry = weakEntry || (s.name == PTO_PLUGIN_ENTRY_NAME && s.weak);
        }
    bool oneExport = exported.size() == 1 && exported[0] == PTO_PLUGIN_ENTRY_NAME && !weakEntry;
    std::string list;
    for (const std::string& s : exported) list += (list.empty() ? "" : ", ") + s;
    report.add("exports",
               {oneExport, oneExport ? ""
                                     : path + ": must export exactly one non-weak symbol, " +
                                           std::string(PTO_PLUGIN_ENTRY_NAME) + "; exports [" +
                                           (exported.size() > 8 ? std::to_string(exported.size()) + " symbols" : list) +
                                           "]" + (weakEntry ? " (the entry is weak)" : "")});

    // Loading runs plugin code (constructors, the entry point): in a child, as everything that follows.
    Facts facts;
    Outcome load = learnFacts(path, facts);
    report.add("load (RTLD_NOW | RTLD_LOCAL, entry point, descriptor)", load);
    if (!load.ok) return report.finish();
    if (!manifestPath.empty())
        report.add("manifest agrees with the plugin (library hash, ABI range, passes, verifiers)", isolated([&] {
                       auto p = host::loadFromManifest(manifestPath);
                       return p ? Outcome{true, ""} : Outcome{false, p.error().format()};
                   }));
    if (facts.abiMinorMin > 0)
        report.add("negotiation: older host minor is refused", facts.older);
    else
        report.add("negotiation: older host minor", {true, "the plugin works with every minor of its major"});
    report.add("negotiation: newer host minor is accepted", facts.newer);
    report.add("negotiation: wrong major is refused", facts.wrongMajor);

    // A pass's check of its option values accepts the values it declares as defaults.
    for (const std::string& name : facts.optionChecks)
        report.add("option check of pass " + name + " accepts the declared defaults",
                   withPlugin(path, [&](const host::LoadedPlugin& plugin) {
                       const pto_pass_desc* pass = plugin.pass(name);
                       const host::RunOutcome o =
                           host::runOptionCheck(host::optionCheck(*pass), host::defaultOptions(*pass));
                       if (!o.refusal.option.empty())
                           return Outcome{
                               false, "refuses the default of option '" + o.refusal.option + "': " + o.refusal.message};
                       if (!o.lostProcessState.empty())
                           return Outcome{false, "changed what a host cannot put back: " + o.lostProcessState};
                       if (std::string bad = badDiagnostic(o); !bad.empty()) return Outcome{false, bad};
                       if (o.failed())
                           return Outcome{false, "failed with status " + std::to_string(static_cast<int>(o.status))};
                       return Outcome{true, ""};
                   }));

    if (corpus.empty()) report.add("corpus", {false, "no IR files to run the passes on"});
    for (const std::string& name : facts.passes) {
        // A pass (with its options at their declared defaults), as a host runs it.
        auto onPass = [&](const std::function<Outcome(const Runnable&)>& check) {
            return withPlugin(path, [&](const host::LoadedPlugin& plugin) {
                const pto_pass_desc* pass = plugin.pass(name);
                const std::vector<host::PassOption> defaults = host::defaultOptions(*pass);
                return check(Runnable{pass->run, host::RunSettings{.options = &defaults, .readOnly = false}});
            });
        };
        bool hung = false;
        for (const std::string& file : corpus) {
            if (hung) break;  // one hang is the finding: the rest would each wait out the time limit
            Outcome o = onPass([&](const Runnable& r) { return checkRun(r, file); });
            hung = o.detail.find("(--timeout)") != std::string::npos;
            report.add("pass " + name + " on " + file, o);
        }
        if (!corpus.empty() && !hung)
            report.add("pass " + name + " on 8 threads",
                       onPass([&](const Runnable& r) { return checkThreads(r, corpus); }));
    }
    for (const std::string& property : facts.verifiers)
        for (const std::string& file : corpus)
            report.add("verifier " + property + " on " + file, withPlugin(path, [&](const host::LoadedPlugin& plugin) {
                           std::vector<host::PassOption> options;  // the plugin's, at their defaults
                           for (const std::string& name : facts.passes)
                               host::addVerifierOptions(options, name, host::defaultOptions(*plugin.pass(name)));
                           const Runnable r{plugin.verifier(property)->run,
                                            host::RunSettings{.options = &options, .readOnly = true}};
                           return checkRun(r, file);
                       }));
    return report.finish();
}
// Nothing above should throw; if it does, it is a bug in the checker, reported as such.
catch (const std::exception& e) {
    std::fprintf(stderr, "pto-plugin-check: internal error: %s\n", e.what());
    return 2;
}
