#!/usr/bin/env bash
# Runs the Python package's tests against a real pypto (tests/python/test_real_pypto.py) and, with
# --bench, bench/pypto_bench.py. pypto cannot be installed from a package; it is built from source at the
# commit ptoplug follows with the shared build tool, when not built yet (about 25 minutes on 2 cores):
#   PYPTO_TOOLS  the tool's folder (build.sh, default ../shared/tools/pypto)
#   MIRRORS      the fetched mirrors it builds from (default ../.mirror)
#   PYPTO_OUT    where pypto is built (default ../pypto/out; kept, and reused when its env.sh exists)
#   BUILD        ptoplug's build tree (default build/, built here when its Python package is missing)
# pypto's module is for Debian's /usr/bin/python3 (PYTHON to change); ptoplug's is built for the Python 3
# CMake finds, which must be the same version.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tools=${PYPTO_TOOLS:-$root/../shared/tools/pypto}
mirrors=${MIRRORS:-$root/../.mirror}
out=${PYPTO_OUT:-$root/../pypto/out}
build=${BUILD:-$root/build}
python=${PYTHON:-/usr/bin/python3}

if [ ! -f "$out/env.sh" ]; then
  [ -x "$tools/build.sh" ] || { echo "test-pypto.sh: no pypto build tool at $tools (set PYPTO_TOOLS)" >&2; exit 2; }
  MIRRORS=$mirrors "$tools/build.sh" "$out"
fi
# shellcheck disable=SC1091
. "$out/env.sh"
if [ ! -d "$build/python/ptoplug" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j "$(nproc)"
fi
export PYTHONPATH="$build/python:$PYTHONPATH"
"$python" -c 'from pypto.pypto_core import passes; passes.PassPipeline' ||
  { echo "test-pypto.sh: $out does not hold a working pypto for $python" >&2; exit 2; }
(cd tests/python && PTOPLUG_TEST_DATA="$root/tests/data" "$python" -m unittest -v test_real_pypto)
if [ "${1:-}" = "--bench" ]; then
  "$python" bench/pypto_bench.py --pto-gen "$build/bin/pto-gen"
fi
