// pto-bench-io: the cost of reading, running and writing a program, against nlohmann::json parse +
// dump of the same program, in one run; and how it scales with program size.
//
// Each contender runs in its own forked child, so that its peak RSS (wait4's ru_maxrss) is its own;
// time is the median wall time of --repeat rounds, each running every contender once. A ratio is the
// median over the rounds of the contender's time against the nlohmann baseline of the same round. "pto-host run" is
// what `pto-host run IN -o OUT` does in its worker: read, MaterializeDistTensorCtx, the structural check and verifiers,
// an atomic write. "copy msgpack" is the floor any run of that file has here: the input written back as an output.
//
//   pto-bench-io FILE.json FILE.msgpack [--repeat 3] [--no-baseline]
//   pto-bench-io --scaling [--sizes 1000,10000,50000,100000]
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
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

#include <filesystem>

#include "base/allocator.h"
#include "driver/process_file.h"
#include "generator/program_generator.h"
#include "io/output_file.h"
#include "io/subprocess.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "pipeline/pipeline.h"

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

// `output`, if given, is removed before the run and the file systems synced, untimed: every run writes a
// new file to an idle disk. Otherwise a run pays for the previous run's file: replacing it frees its blocks
// (about 12 ms per 60 MB on a disk mounted with `discard`), and the discards of a removed file still queued
// at the device slow the next run's writes (encoding and writing 45 ms became 50-100 ms). The first run
// pays neither, nor does the baseline, which writes to /dev/null.
Sample measureOnIdleDisk(const std::function<bool()>& work, const std::string& output) {
    if (!output.empty()) {
        std::filesystem::remove(output);
        ::sync();
    }
    return measure(work);
}

Sample medianOf(std::vector<Sample> samples) {
    std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.seconds < b.seconds; });
    Sample m = samples[samples.size() / 2];
    for (const Sample& s : samples) m.peakKiB = std::max(m.peakKiB, s.peakKiB);
    m.ok = std::all_of(samples.begin(), samples.end(), [](const Sample& s) { return s.ok; });
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
    ptoplug::returnLargeBlocksWhenFreed();  // as pto-host does
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

// The floor of a run on this machine: the input mapped and written back unchanged, as pto-host writes
// an output (direct I/O, named once complete), with nothing read into a program. The disk's speed and the
// cost of fresh pages vary by day; this contender says how much of a run they are.
bool copyFile(const std::string& path, const std::string& out) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const off_t end = ::lseek(fd, 0, SEEK_END);
    const auto size = static_cast<size_t>(end);
    void* bytes = end > 0 ? ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    ::close(fd);
    if (bytes == MAP_FAILED) return false;
    auto err = ptoplug::io::writeOutput(out, [&](ptoplug::ir::Sink& sink) {
        sink.write(static_cast<const char*>(bytes), size);
        return ptoplug::Status();
    });
    ::munmap(bytes, size);
    return !err;
}

// The bundled plugin's pipeline, loaded once in the parent (children inherit it).
const ptoplug::host::Pipeline& pipeline() {
    static std::unique_ptr<ptoplug::host::Pipeline> loaded = [] {
        std::vector<ptoplug::host::Plugin> plugins;
        auto plugin = ptoplug::host::loadFromManifest(PTOPLUG_PLUGIN_DIR "/materialize-dist-tensor-ctx.json");
        if (!plugin) {
            std::cerr << plugin.error().format() << "\n";
            std::exit(1);
        }
        plugins.push_back(std::move(*plugin));
        auto built = ptoplug::host::buildPipeline(std::move(plugins));
        if (!built) std::exit(1);
        return std::move(*built);
    }();
    return *loaded;
}

bool hostRun(const std::string& path, const std::string& out) {
    ptoplug::returnLargeBlocksWhenFreed();  // as pto-host does
    ptoplug::host::FileReport r = ptoplug::host::processFile(pipeline(), path, out, ptoplug::host::FileOptions{});
    if (r.exitCode != 0) std::cerr << r.messages;
    return r.exitCode == 0;
}

long fileKiB(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    return static_cast<long>(in.tellg() / 1024);
}

}  // namespace

// --scaling: `pto-host run` on generated MessagePack programs of each size. Linear growth is 10x time
// and memory per 10x functions; the report normalizes each step to that. Every size runs once per round,
// as the contenders do: this machine's speed drifts within minutes, and sizes measured one after another
// compared one minute's speed with another's. So every input exists at once (1 GB for the default sizes).
int scalingReport(const std::vector<int>& sizes, int repeat) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pto-bench-io-scaling";
    std::filesystem::create_directories(dir);
    const std::string out = (dir / "out.msgpack").string();
    std::vector<std::string> inputs;
    for (int n : sizes) {
        const std::string& in = inputs.emplace_back((dir / ("p" + std::to_string(n) + ".msgpack")).string());
        // Generated in a child: memory the generator leaves in this process would be inherited by every
        // measured child and counted in its peak.
        ptoplug::io::ChildRun generated = ptoplug::io::runInChild(
            [&](int) {
                ptoplug::ir::Document doc;
                ptoplug::tools::generateProgram(doc, n, false);
                ptoplug::ir::FdSink sink(::open(in.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
                auto written = ptoplug::ir::writeDocument(doc, {ptoplug::ir::Format::MsgPack, false}, sink);
                return written ? 1 : 0;
            },
            0);
        if (!generated.end.exitedWith(0)) {
            std::filesystem::remove_all(dir);  // the sizes generated so far are up to 1 GB
            return 1;
        }
    }
    std::vector<std::vector<Sample>> samples(sizes.size());
    for (int round = 0; round < repeat; ++round)
        for (size_t i = 0; i < sizes.size(); ++i)
            samples[i].push_back(measureOnIdleDisk([&] { return hostRun(inputs[i], out); }, out));

    std::printf("%10s %10s %10s %10s %14s %14s\n", "functions", "input MiB", "time s", "peak MiB", "time per 10x",
                "memory per 10x");
    double prevTime = 0, prevPeak = 0;
    int prevSize = 0;
    bool ok = true;
    for (size_t i = 0; i < sizes.size(); ++i) {
        const int n = sizes[i];
        const Sample s = medianOf(samples[i]);
        ok = ok && s.ok;
        const double peak = s.peakKiB / 1024.0;
        char t[32] = "-", m[32] = "-";
        if (prevSize) {
            const double scale = 10.0 * prevSize / n;  // per 10x functions
            std::snprintf(t, sizeof t, "%.2fx", s.seconds / prevTime * scale);
            std::snprintf(m, sizeof m, "%.2fx", peak / prevPeak * scale);
        }
        std::printf("%10d %10.1f %10.3f %10.1f %14s %14s%s\n", n, fileKiB(inputs[i]) / 1024.0, s.seconds, peak, t, m,
                    s.ok ? "" : "  FAILED");
        prevTime = s.seconds, prevPeak = peak, prevSize = n;
    }
    std::filesystem::remove_all(dir);
    return ok ? 0 : 1;
}

int main(int argc, char** argv) {
    CLI::App app{"pto-bench-io: IR read + write against nlohmann::json parse + dump"};
    std::string json, msgpack;
    int repeat = 3;
    bool noBaseline = false;
    app.add_option("json", json, "a program as JSON")->required()->check(CLI::ExistingFile);
    app.add_option("msgpack", msgpack, "the same program as MessagePack")->required()->check(CLI::ExistingFile);
    app.add_option("--repeat", repeat, "runs per contender (median time, max peak RSS)")->check(CLI::Range(1, 100));
    app.add_flag("--no-baseline", noBaseline, "skip nlohmann (for inputs too large for its DOM)");
    bool scaling = false;
    std::vector<int> sizes = {1000, 10000, 50000, 100000};
    app.add_flag("--scaling", scaling, "generate programs of --sizes functions and report how time and memory grow");
    app.add_option("--sizes", sizes, "program sizes for --scaling (functions)")->delimiter(',');
    app.get_option("json")->required(false);
    app.get_option("msgpack")->required(false);
    CLI11_PARSE(app, argc, argv);
    pipeline();
    if (scaling) return scalingReport(sizes, repeat);
    if (json.empty() || msgpack.empty()) {
        std::cerr << "pto-bench-io: give FILE.json FILE.msgpack, or --scaling\n";
        return 2;
    }
    const std::string out = (std::filesystem::temp_directory_path() / "pto-bench-io-out").string();

    using ptoplug::ir::Format;
    struct Contender {
        const char* name;
        long inputKiB;
        std::function<bool()> work;
        std::string output;  ///< removed before each run (see measureOnIdleDisk)
        std::vector<Sample> samples;
    };
    std::vector<Contender> contenders;
    auto add = [&](const char* name, const std::string& input, std::function<bool()> work,
                   const std::string& output = {}) {
        contenders.push_back(Contender{name, fileKiB(input), std::move(work), output, {}});
    };
    if (!noBaseline) add("nlohmann parse+dump (json)", json, [&] { return nlohmannParseDump(json); });
    add("ptoplug read+write json", json, [&] { return ours(json, Format::Json); });
    add("ptoplug read+write msgpack", msgpack, [&] { return ours(msgpack, Format::MsgPack); });
    add("ptoplug json -> msgpack", json, [&] { return ours(json, Format::MsgPack); });
    add(
        "pto-host run json", json, [&] { return hostRun(json, out + ".json"); }, out + ".json");
    add(
        "pto-host run msgpack", msgpack, [&] { return hostRun(msgpack, out + ".msgpack"); }, out + ".msgpack");
    add(
        "copy msgpack (a run's floor)", msgpack, [&] { return copyFile(msgpack, out + ".copy"); }, out + ".copy");
    // Round by round, every contender once: this machine's speed drifts by a third within minutes, and a
    // ratio is taken within each round, against that round's baseline.
    for (int round = 0; round < repeat; ++round)
        for (Contender& c : contenders) c.samples.push_back(measureOnIdleDisk(c.work, c.output));
    std::filesystem::remove(out + ".json");
    std::filesystem::remove(out + ".msgpack");
    std::filesystem::remove(out + ".copy");

    std::printf("%-30s %10s %10s %10s %12s %12s\n", "contender", "input MiB", "time s", "peak MiB", "RSS/input",
                "time/base");
    bool ok = true;
    for (const Contender& c : contenders) {
        const Sample m = medianOf(c.samples);
        ok = ok && m.ok;
        char ratio[32] = "-";
        if (!noBaseline) {
            std::vector<double> ratios;
            ratios.reserve(static_cast<size_t>(repeat));
            for (int round = 0; round < repeat; ++round)
                ratios.push_back(c.samples[round].seconds / contenders[0].samples[round].seconds);
            std::sort(ratios.begin(), ratios.end());
            std::snprintf(ratio, sizeof ratio, "%.3f", ratios[ratios.size() / 2]);
        }
        std::printf("%-30s %10.1f %10.3f %10.1f %12.2f %12s%s\n", c.name, c.inputKiB / 1024.0, m.seconds,
                    m.peakKiB / 1024.0, static_cast<double>(m.peakKiB) / static_cast<double>(c.inputKiB), ratio,
                    m.ok ? "" : "  FAILED");
    }
    return ok ? 0 : 1;
}
