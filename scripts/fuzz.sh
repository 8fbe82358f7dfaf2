#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) into build-fuzz/ and runs each for a bounded
# time from the seed corpus in tests/fuzz/corpus/. A crash stops the run with the input libFuzzer
# saved (crash-*): fix it, then keep the input in tests/fuzz/regressions/<target>/.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
scripts/setup.sh
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPTOPLUG_FUZZ=ON -DPTOPLUG_BENCHMARKS=OFF -DPTOPLUG_WERROR=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target fuzzers
for target in read_msgpack:msgpack read_json:json manifest:manifest pipeline:msgpack; do
  name=${target%%:*}
  seeds=tests/fuzz/corpus/${target##*:}
  work=build-fuzz/fuzz-work/$name
  mkdir -p "$work" build-fuzz/fuzz-findings
  echo "== fuzz_$name for ${seconds}s"
  # Findings go to build-fuzz/fuzz-findings; the working corpus grows in build-fuzz, never in the repo.
  log=build-fuzz/fuzz-work/$name.log
  # The shared ASan runtime loads after libc here; that is fine, so the order check is off.
  if ! ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 \
      UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=tests/fuzz/ubsan.supp build-fuzz/bin/fuzz_$name "$work" "$seeds" "tests/fuzz/regressions/$name" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="build-fuzz/fuzz-findings/$name-" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzz: fuzz_$name found a failure (input in build-fuzz/fuzz-findings/)"
    exit 1
  fi
  grep -E "^stat::(number_of_executed_units|new_units_added)" "$log" || true
done
echo "fuzz: no findings"
