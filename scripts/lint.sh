#!/usr/bin/env bash
# clang-format (check only) over every source; with --tidy also clang-tidy over the host and plugin.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' | grep -v '^tests/data/' | grep -v '^tests/abi/reordered')
clang-format --dry-run -Werror "${files[@]}"
if [ "${1:-}" = "--tidy" ]; then
  [ -f build/compile_commands.json ] || cmake -S . -B build >/dev/null
  mapfile -t units < <(git ls-files 'host-stub/*.cpp' 'plugin/*.cpp')
  # The build may be GCC's: its warning options unknown to clang are not findings.
  clang-tidy -p build --quiet --extra-arg=-Wno-unknown-warning-option "${units[@]}"
fi
echo "lint: ok"
