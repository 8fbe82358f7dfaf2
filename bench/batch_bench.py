#!/usr/bin/env python3
"""What a process per file costs: `pto-host batch` over N copies of a small program at -j J, each file in a
process of its own (the default) against workers that run file after file (--reuse-workers), run in turn
(A B A B ...) so that a drift of the machine's speed touches both; prints the median wall and CPU seconds of
each and their ratios. With --baseline, B is that other pto-host (say, a build from before a change) with its
own defaults.

    bench/batch_bench.py --pto-host build/bin/pto-host [--files 1000] [--jobs 2] [--runs 7]
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SMALL = os.path.join(HERE, "..", "tests", "data", "pypto-unit", "host_dispatch_materializes_comm_ctx_args",
                     "before.json")


def timed(command):
    """Wall and CPU (user + system of its children) seconds of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pto-host", default="build/bin/pto-host")
    parser.add_argument("--baseline", help="another pto-host for B, run with its own defaults")
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        inputs = os.path.join(folder, "in")
        os.mkdir(inputs)
        for i in range(args.files):
            shutil.copyfile(SMALL, os.path.join(inputs, "p%d.json" % i))
        common = ["batch", inputs, "-j", str(args.jobs)]
        a = [args.pto_host] + common + ["--out-dir", os.path.join(folder, "a")]
        if args.baseline:
            b = [args.baseline] + common + ["--out-dir", os.path.join(folder, "b")]
        else:
            b = [args.pto_host] + common + ["--out-dir", os.path.join(folder, "b"), "--reuse-workers"]
        timed(a), timed(b)  # warm-up: caches, and both output folders exist from here on
        runs = [(timed(a), timed(b)) for _ in range(args.runs)]
    names = ("process per file", args.baseline or "--reuse-workers")
    for i, name in enumerate(names):
        print("%-40s wall %.3f s  cpu %.3f s" % (name, statistics.median(r[i][0] for r in runs),
                                                 statistics.median(r[i][1] for r in runs)))
    print("ratio (median of pairs)                  wall %.2fx  cpu %.2fx" % (
        statistics.median(r[0][0] / r[1][0] for r in runs), statistics.median(r[0][1] / r[1][1] for r in runs)))


if __name__ == "__main__":
    main()
