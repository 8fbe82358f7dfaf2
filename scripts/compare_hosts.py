#!/usr/bin/env python3
"""A/B of pto-host builds, phase by phase: `pto-host run IN -o OUT --time-passes` for each build in turn,
ROUNDS times, the output removed and synced before each run (a replaced file's discards slow the next
writes on this machine); prints each build's median per phase and its peak.

    scripts/compare_hosts.py ROUNDS INPUT HOST [HOST...]   (OUTDIR=/dev/shm to leave the disk out)
"""
import os
import re
import statistics
import subprocess
import sys

PHASES = ["read", "pass", "structural", "verifier", "write", "total", "peak"]


def run_once(host, inp, out):
    if os.path.exists(out):
        os.remove(out)
    subprocess.run(["sync"], check=True)
    r = subprocess.run([host, "run", inp, "-o", out, "--time-passes"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{host} failed:\n{r.stderr}")
    times = {}
    for line in r.stderr.splitlines():
        m = re.match(r"time: (\S+).*?([0-9.]+) s   peak +([0-9.]+)", line)
        if m:
            times[m.group(1)] = float(m.group(2))
            times["peak"] = float(m.group(3))
    return times


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, inp, hosts = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    out = os.path.join(os.environ.get("OUTDIR", "/tmp"), "compare_hosts" + os.path.splitext(inp)[1])
    runs = {h: [] for h in hosts}
    for _ in range(rounds):
        for h in hosts:
            runs[h].append(run_once(h, inp, out))
    for h in hosts:
        medians = " ".join(f"{p} {statistics.median(t.get(p, 0) for t in runs[h]):.3f}" for p in PHASES)
        print(f"{h}: {medians}")


if __name__ == "__main__":
    main()
