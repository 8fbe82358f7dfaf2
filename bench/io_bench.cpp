// pto-bench-io: read + write cost of the IR core against nlohmann::json parse + dump, in one run.
//
// Each contender runs in its own forked child, so that its peak RSS (wait4's ru_maxrss) is its own;
// time is the median wall time of --repeat runs. Ratios are against the nlohmann baseline measured
// in the same run on the same machine.
//
//   pto-bench-io FILE.json FILE.msgpack [--repeat 3] [--no-baseline]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "io/subprocess.h"
#include "ir/reader.h"
#include "ir/writer.h"

namespace {

struct Sample {
    double seconds = 0;
    long peakKiB = 0;
    bool ok = false;
};

// Runs `work` in a child process; returns its wall time and peak RSS.
Sample measure(const std::function<bool()>& work) {
    ptoplug::io::ChildRun run = ptoplug::io::runInChild(
        [&](int out) {
            auto t0 = std::chrono::steady_clock::now();
            bool ok = work();
            double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (!ok) s = -1;
            return ptoplug::io::writeAll(out, &s, sizeof s) ? 0 : 2;
        },
        0);
    Sample sample;
    double s = -1;
    if (run.output.size() == sizeof s) std::memcpy(&s, run.output.data(), sizeof s);
    sample.seconds = s;
    sample.peakKiB = run.end.peakRssKiB;
    sample.ok = s >= 0 && run.end.exitedWith(0);
    return sample;
}

Sample median(const std::function<bool()>& work, int repeat) {
    std::vector<Sample> samples;
    for (int i = 0; i < repeat; ++i) samples.push_back(measure(work));
    std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.seconds < b.seconds; });
    Sample m = samples[samples.size() / 2];
    for (const Sample& s : samples) m.peakKiB = std::max(m.peakKiB, s.peakKiB);
    return m;
}

bool nlohmannParseDump(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    nlohmann::json j = nlohmann::json::parse(buffer.str());
    std::string out = j.dump();
    std::ofstream("/dev/null", std::ios::binary) << out;
    return !out.empty();
}

bool ours(const std::string& path, ptoplug::ir::Format outFormat) {
    using namespace ptoplug::ir;
    auto doc = readFile(path);
    if (!doc) {
        std::cerr << doc.error().format() << "\n";
        return false;
    }
    FILE* devnull = std::fopen("/dev/null", "wb");
    FdSink sink(fileno(devnull));
    bool ok = !writeDocument(**doc, WriteOptions{outFormat, false}, sink);
    std::fclose(devnull);
    return ok;
}

long fileKiB(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    return static_cast<long>(in.tellg() / 1024);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"pto-bench-io: IR read + write against nlohmann::json parse + dump"};
    std::string json, msgpack;
    int repeat = 3;
    bool noBaseline = false;
    app.add_option("json", json, "a program as JSON")->required()->check(CLI::ExistingFile);
    app.add_option("msgpack", msgpack, "the same program as MessagePack")->required()->check(CLI::ExistingFile);
    app.add_option("--repeat", repeat, "runs per contender (median time, max peak RSS)")->check(CLI::Range(1, 100));
    app.add_flag("--no-baseline", noBaseline, "skip nlohmann (for inputs too large for its DOM)");
    CLI11_PARSE(app, argc, argv);

    using ptoplug::ir::Format;
    struct Row {
        const char* name;
        long inputKiB;
        Sample s;
    };
    std::vector<Row> rows;
    if (!noBaseline)
        rows.push_back(
            {"nlohmann parse+dump (json)", fileKiB(json), median([&] { return nlohmannParseDump(json); }, repeat)});
    rows.push_back(
        {"ptoplug read+write json", fileKiB(json), median([&] { return ours(json, Format::Json); }, repeat)});
    rows.push_back({"ptoplug read+write msgpack", fileKiB(msgpack),
                    median([&] { return ours(msgpack, Format::MsgPack); }, repeat)});
    rows.push_back(
        {"ptoplug json -> msgpack", fileKiB(json), median([&] { return ours(json, Format::MsgPack); }, repeat)});

    std::printf("%-30s %10s %10s %10s %12s %12s\n", "contender", "input MiB", "time s", "peak MiB", "RSS/input",
                "time/base");
    double base = noBaseline ? 0 : rows[0].s.seconds;
    for (const Row& r : rows) {
        char ratio[32] = "-";
        if (base > 0) std::snprintf(ratio, sizeof ratio, "%.3f", r.s.seconds / base);
        std::printf("%-30s %10.1f %10.3f %10.1f %12.2f %12s%s\n", r.name, r.inputKiB / 1024.0, r.s.seconds,
                    r.s.peakKiB / 1024.0, static_cast<double>(r.s.peakKiB) / static_cast<double>(r.inputKiB), ratio,
                    r.s.ok ? "" : "  FAILED");
    }
    return std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.s.ok; }) ? 0 : 1;
}
