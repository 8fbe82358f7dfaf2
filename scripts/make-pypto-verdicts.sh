#!/usr/bin/env bash
# Makes tests/data/pypto-use-after-def.txt: real pypto's UseAfterDef verdict ("OK"/"FAIL" and the path
# under tests/data) on every JSON program of the fixtures and of pypto-fed-back, which
# UseAfterDef.AgreesWithPyptosVerifierOnEveryFixture compares the host's check with. Needs a pypto built by
# the shared tool (PYPTO_TOOLS, PYPTO_OUT as in scripts/test-pypto.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export PYPTO_TOOLS=${PYPTO_TOOLS:-$root/../shared/tools/pypto}
out=${PYPTO_OUT:-$root/../pypto/out}
[ -f "$out/env.sh" ] || { echo "make-pypto-verdicts.sh: no pypto at $out (set PYPTO_OUT)" >&2; exit 2; }
# shellcheck disable=SC1091
. "$out/env.sh"
cd tests/data
find pypto-random pypto-unit pypto-fed-back -name '*.json' | sort |
  xargs "${PYTHON:-/usr/bin/python3}" "$root/scripts/pypto_verify.py" UseAfterDef > pypto-use-after-def.txt
echo "make-pypto-verdicts.sh: $(grep -c '^FAIL' pypto-use-after-def.txt) of $(wc -l < pypto-use-after-def.txt) refused"
