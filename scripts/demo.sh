#!/usr/bin/env bash
# Sets up, builds, and runs the main job on the bundled example: the program before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
echo "== examples/host_dispatch.json =="
build/bin/pto-host print examples/host_dispatch.json
