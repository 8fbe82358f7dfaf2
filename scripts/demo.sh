#!/usr/bin/env bash
# Sets up, builds, and runs the main job on the bundled examples: pto-host with the
# MaterializeDistTensorCtx plugin, showing each program before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
mkdir -p build/demo
for example in examples/host_dispatch.json examples/dispatch_6.json examples/same_window_4.msgpack; do
  out="build/demo/$(basename "$example")"
  echo "== $example -> $out"
  build/bin/pto-host run "$example" -o "$out" --print-ir-before --print-ir-after
done
