#!/usr/bin/env python3
"""ptoplug's pass against pypto's own on a pypto Program, in one run on one machine: time and peak memory
of materialize_dist_tensor_ctx() called on a Program of N functions (pto-gen's program). Each measurement
is a process of its own that reads the program, runs one pass `--repeat` times (the best time counts) and
reports its peak resident size. The two passes run in pairs, `--rounds` of them, in turn (pypto first, then
ptoplug first), both processes of a pair on the same CPU: on the 2-CPU VMs this was measured on, one CPU
ran the same code up to 1.4x slower than the other for minutes at a time, which alone moved a ratio of
separate runs between 6x and 12x. Prints the median of each side and the median of the pairs' ratios.

    source /work/pypto/out/env.sh          # a real pypto (scripts/test-pypto.sh builds one)
    PYTHONPATH=build/python:$PYTHONPATH /usr/bin/python3 bench/pypto_bench.py --pto-gen build/bin/pto-gen
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def child(which, path, repeat):
    """One pass `repeat` times on the program at `path`; prints {seconds, peak_mib} as JSON."""
    from pypto.pypto_core import ir

    if which == "pypto":
        from pypto.pypto_core import passes

        run = passes.materialize_dist_tensor_ctx()
    else:
        from ptoplug import passes

        run = passes.materialize_dist_tensor_ctx()
    with open(path, "rb") as f:
        program = ir.deserialize(f.read())
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run(program)
        seconds = time.perf_counter() - start
        best = seconds if best is None else min(best, seconds)
        del out
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": best, "peak_mib": peak, "functions": len(program.functions)}))


def measure(which, path, repeat, cpu):
    result = subprocess.run([sys.executable, __file__, "--child", which, path, "--repeat", str(repeat)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True, text=True,
                            preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    return json.loads(result.stdout.strip().splitlines()[-1])


def pairs(path, rounds, repeat):
    """`rounds` pairs of measurements (pypto's, ptoplug's), each pair on one CPU, in turn in both orders
    and over the CPUs this process may use."""
    cpus = sorted(os.sched_getaffinity(0))
    out = []
    for i in range(rounds):
        cpu = cpus[i // 2 % len(cpus)]
        order = ("pypto", "ptoplug") if i % 2 == 0 else ("ptoplug", "pypto")
        measured = {which: measure(which, path, repeat, cpu) for which in order}
        out.append((measured["pypto"], measured["ptoplug"]))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pto-gen", default="build/bin/pto-gen", help="pto-gen, which writes the programs")
    parser.add_argument("--sizes", default="1000,10000", help="functions per program, comma-separated")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each pass per process (best counts)")
    parser.add_argument("--rounds", type=int, default=4, help="pairs of processes per size (medians count)")
    parser.add_argument("--child", nargs=2, metavar=("PASS", "PROGRAM"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child[0], args.child[1], args.repeat)
    print("%8s %10s %10s %7s %11s %11s %7s" % ("N", "pypto s", "ptoplug s", "time x", "pypto MiB", "ptoplug MiB",
                                                "peak x"))
    with tempfile.TemporaryDirectory() as folder:
        for n in (int(s) for s in args.sizes.split(",")):
            path = os.path.join(folder, "program_%d.msgpack" % n)
            subprocess.run([args.pto_gen, str(n), path, "--format", "msgpack"], check=True)
            runs = pairs(path, args.rounds, args.repeat)

            def median(side, key):
                return statistics.median(r[side][key] for r in runs)

            def ratio(key):
                return statistics.median(r[1][key] / r[0][key] for r in runs)

            print("%8d %10.4f %10.4f %7.1f %11.1f %11.1f %7.2f" % (
                n, median(0, "seconds"), median(1, "seconds"), ratio("seconds"), median(0, "peak_mib"),
                median(1, "peak_mib"), ratio("peak_mib")), flush=True)


if __name__ == "__main__":
    main()
