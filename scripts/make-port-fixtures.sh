#!/usr/bin/env bash
# Makes tests/data/<port>/ for the example plugins that port pypto's own passes: pypto-unit/ (the programs
# pypto's unit tests of the pass give it, with pypto's results) and pypto-random/ (pypto's results on
# tests/data/pypto-random/*/before.json). ported_passes_test.cpp compares the plugins with them. Needs a
# pypto built by the shared tool and its git mirror (PYPTO_TOOLS, PYPTO_OUT, PYPTO_GIT; see
# scripts/test-pypto.sh); run it again for a new pypto commit.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export PYPTO_TOOLS=${PYPTO_TOOLS:-$root/../shared/tools/pypto}
out=${PYPTO_OUT:-$root/../pypto/out}
git_dir=${PYPTO_GIT:-$root/../.mirror/hw-native-sys+pypto/repo}
commit=${PYPTO_COMMIT:-e2d0f78ae6d709c0d6ee345a48db2c3d621a4b09}
python=${PYTHON:-/usr/bin/python3}
[ -f "$out/env.sh" ] || { echo "make-port-fixtures.sh: no pypto at $out (set PYPTO_OUT)" >&2; exit 2; }
# shellcheck disable=SC1091
. "$out/env.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# port folder, pypto's pass factory, pypto's unit-test file of the pass
while read -r port factory test_file; do
  dest=tests/data/$port
  rm -rf "$dest"
  # The programs' spans name the test file by its path in pypto (the folder it ran from cut off).
  mkdir -p "$tmp/$(dirname "$test_file")"
  git --git-dir="$git_dir" show "$commit:$test_file" >"$tmp/$test_file"
  "$python" scripts/port_fixtures.py unit "$tmp/$test_file" "$factory" "$dest/pypto-unit"
  find "$dest/pypto-unit" -name '*.json' -exec sed -i "s|\"$tmp/|\"|g" {} +
  "$python" scripts/port_fixtures.py random tests/data/pypto-random "$factory" "$dest/pypto-random"
  echo "make-port-fixtures.sh: $dest: $(find "$dest" -name after.json | wc -l) outputs, $(find "$dest" -name error.txt | wc -l) errors"
done <<'PORTS'
flatten-call-expr flatten_call_expr tests/ut/ir/transforms/test_flatten_call_expr_pass.py
unroll-loops unroll_loops tests/ut/ir/transforms/test_unroll_loops_pass.py
PORTS
