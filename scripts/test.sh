#!/usr/bin/env bash
# Sets up, builds and runs every test through CTest.
#   scripts/test.sh              -> build/       a plain Release build (as users build), every test
#   scripts/test.sh --sanitize   -> build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer, every test
#   scripts/test.sh --tsan       -> build-tsan/  ThreadSanitizer, the multi-threaded plugin, placement and output tests
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)
case "${1:-}" in
  --sanitize)
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPTOPLUG_SANITIZE=ON -DPTOPLUG_BENCHMARKS=OFF -DPTOPLUG_WERROR=ON >/dev/null
    cmake --build build-asan -j "$jobs"
    # Crash tests need real signals: fault plugins must die of SIGSEGV/SIGABRT, not of ASan's handler.
    ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_abort=0 \
      ctest --test-dir build-asan --output-on-failure -j "$jobs" ;;
  --tsan)
    cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTOPLUG_TSAN=ON -DPTOPLUG_BENCHMARKS=OFF -DPTOPLUG_WERROR=ON >/dev/null
    cmake --build build-tsan -j "$jobs" --target plugin_tests ptoplug_mdtc ir_tests
    TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -R 'PluginThreads|Placement|Sink|TwoPart|StructureCheck|ALargeInput' ;;
  *)
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPTOPLUG_WERROR=ON >/dev/null
    cmake --build build -j "$jobs"
    ctest --test-dir build --output-on-failure -j "$jobs" ;;
esac
