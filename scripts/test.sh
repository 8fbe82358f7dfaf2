#!/usr/bin/env bash
# Sets up, builds and runs every test through CTest.
#   scripts/test.sh              -> build/ (the product build)
#   scripts/test.sh --sanitize   -> build-asan/ with AddressSanitizer + UndefinedBehaviorSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
dir=build; extra=()
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan; extra=(-DPTOPLUG_SANITIZE=ON -DPTOPLUG_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=Debug)
fi
jobs=$(nproc)
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${extra[@]}" >/dev/null
cmake --build "$dir" -j "$jobs"
ctest --test-dir "$dir" --output-on-failure -j "$jobs"
