// pto-bench-pass: the MaterializeDistTensorCtx plugin alone, IR already in memory, on
// (a) the N-function dispatch program and (b) a host function making N calls that all pass the same
// two windows (the name-synthesis stress case). Google Benchmark; each iteration transforms a fresh
// copy of the program, read from its bytes as pto-host reads it (generating and reading are excluded
// from the timing).
//
// Baseline in the same run: BM_HostWalk* visits every node of the same programs once through the
// ABI's own walk (a callback per node, nothing else), the least any plugin reading the whole program
// through the ABI can cost. The pass is reported as a ratio to it at the end (on stderr, so that
// --benchmark_format=json stays parseable).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "abi_host/runner.h"
#include "generator/program_generator.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "loader/loader.h"

namespace {

using namespace ptoplug;

long minorFaults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

const pto_pass_desc* pass() {
    static auto plugin = host::loadPlugin(PTOPLUG_MDTC_PLUGIN);
    if (!plugin) {
        fprintf(stderr, "%s\n", plugin.error().format().c_str());
        std::abort();
    }
    return (*plugin)->pass("MaterializeDistTensorCtx");
}

// A "pass" that only walks the program, calling back once per node.
pto_status walkOnly(const pto_host_api* api, pto_run_context* ctx) {
    pto_node program{};
    if (pto_status s = api->program(ctx, &program); s != PTO_OK) return s;
    size_t visited = 0;
    pto_walk_callbacks callbacks{sizeof(pto_walk_callbacks),
                                 [](pto_run_context*, pto_node, const pto_walk_position*, void* count) {
                                     ++*static_cast<size_t*>(count);
                                     return PTO_WALK_ADVANCE;
                                 },
                                 nullptr, &visited, 0};
    pto_status s = api->walk(ctx, program, &callbacks);
    benchmark::DoNotOptimize(visited);
    return s;
}

void run(benchmark::State& state, bool sameWindow, pto_status (*fn)(const pto_host_api*, pto_run_context*)) {
    auto n = static_cast<int>(state.range(0));
    // The program's bytes, made once: everything but the timed call is outside the timing, including
    // freeing (a generated document alive until the end of an iteration was freed inside it).
    Expected<std::string> bytes = [&] {
        ir::Document generated;
        tools::generateProgram(generated, n, sameWindow);
        return ir::writeToString(generated, ir::WriteOptions{ir::Format::MsgPack, false});
    }();
    long faults = 0;
    size_t arenaGrowth = 0;
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop
        state.PauseTiming();
        // The program as pto-host has it: read from its bytes (the reader also leaves what the rewriter's
        // checks use, Document::heights).
        auto read = bytes.ok() ? ir::readDocument(*bytes, ir::Format::MsgPack, "generated.msgpack")
                               : Expected<std::unique_ptr<ir::Document>>(bytes.error());
        if (!read.ok()) {
            state.SkipWithError(read.error().format().c_str());
            break;
        }
        std::unique_ptr<ir::Document> doc = std::move(*read);
        size_t arenaBefore = doc->arena().bytesReserved();
        long faultsBefore = minorFaults();
        state.ResumeTiming();
        host::RunOutcome outcome = host::runThroughAbi(*doc, fn);
        if (outcome.failed()) state.SkipWithError("the pass failed");
        state.PauseTiming();
        faults += minorFaults() - faultsBefore;
        arenaGrowth += doc->arena().bytesReserved() - arenaBefore;
        doc.reset();
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations() * n);
    // Fresh pages are the expensive part of memory here, so the pass's own growth is reported with its time.
    auto perIteration = [&](double total) {
        return benchmark::Counter(total / static_cast<double>(state.iterations()));
    };
    state.counters["page_faults"] = perIteration(static_cast<double>(faults));
    state.counters["arena_MiB"] = perIteration(static_cast<double>(arenaGrowth) / (1 << 20));
}

void BM_DispatchProgram(benchmark::State& state) { run(state, false, pass()->run); }
void BM_SameWindowCalls(benchmark::State& state) { run(state, true, pass()->run); }
void BM_HostWalkDispatchProgram(benchmark::State& state) { run(state, false, walkOnly); }
void BM_HostWalkSameWindowCalls(benchmark::State& state) { run(state, true, walkOnly); }

BENCHMARK(BM_DispatchProgram)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_HostWalkDispatchProgram)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SameWindowCalls)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_HostWalkSameWindowCalls)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();

// The display reporter the flags chose, keeping each benchmark's time per iteration (the median when
// --benchmark_repetitions asks for several): on these machines runs differ by +-20%, so the pass is
// judged by its ratio to the walk timed in the same run.
class SameRunRatios : public benchmark::BenchmarkReporter {
public:
    explicit SameRunRatios(benchmark::BenchmarkReporter* display) : display_(display) {}

    bool ReportContext(const Context& context) override { return display_->ReportContext(context); }
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& r : runs) {
            const bool kept = r.run_type == Run::RT_Iteration ? r.repetitions <= 1 : r.aggregate_name == "median";
            if (kept && !r.error_occurred)
                seconds_[r.run_name.function_name + "/" + r.run_name.args] =
                    r.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(r.time_unit);
        }
        display_->ReportRuns(runs);
    }
    void Finalize() override { display_->Finalize(); }

    /// "BM_X/N: pass ms, ratio to BM_HostWalkX/N" for every pass benchmark whose walk also ran.
    void printRatios() const {
        bool header = false;
        for (const auto& [name, pass] : seconds_) {
            if (name.rfind("BM_HostWalk", 0) == 0) continue;
            auto walk = seconds_.find("BM_HostWalk" + name.substr(3));
            if (walk == seconds_.end() || walk->second <= 0) continue;
            if (!header) std::fprintf(stderr, "\npass / host walk of the same program, this run:\n");
            header = true;
            std::fprintf(stderr, "  %-26s %8.1f ms / %8.1f ms = %5.2fx\n", name.c_str(), pass * 1e3, walk->second * 1e3,
                         pass / walk->second);
        }
    }

private:
    benchmark::BenchmarkReporter* display_;
    std::map<std::string, double> seconds_;  ///< "BM_X/N" -> seconds per iteration
};

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    std::unique_ptr<benchmark::BenchmarkReporter> display(benchmark::CreateDefaultDisplayReporter());
    SameRunRatios reporter(display.get());
    benchmark::RunSpecifiedBenchmarks(&reporter);
    reporter.printRatios();
    benchmark::Shutdown();
    return 0;
}
