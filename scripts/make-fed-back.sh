#!/usr/bin/env bash
# Makes tests/data/pypto-fed-back: what real pypto's MaterializeDistTensorCtx makes of the outputs of the
# fixtures (tests/data/<corpus>/<case>/after.json), which PyptoFedBack.AgreesWithPypto compares the plugin
# with. Needs a pypto built by the shared tool (see scripts/test-pypto.sh for PYPTO_TOOLS and PYPTO_OUT);
# run it again when the fixtures change. A case pypto rejects gets error.txt (the first line of the error,
# as the fixtures' error.txt), one it accepts after.json.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tools=${PYPTO_TOOLS:-$root/../shared/tools/pypto}
out=${PYPTO_OUT:-$root/../pypto/out}
python=${PYTHON:-/usr/bin/python3}
[ -f "$out/env.sh" ] || { echo "make-fed-back.sh: no pypto at $out (set PYPTO_OUT; build it with scripts/test-pypto.sh)" >&2; exit 2; }
# shellcheck disable=SC1091
. "$out/env.sh"
dest=tests/data/pypto-fed-back
rm -rf "$dest"
for input in tests/data/pypto-random/*/after.json tests/data/pypto-unit/*/after.json; do
  case_dir=$(dirname "$input")
  target=$dest/$(basename "$(dirname "$case_dir")")/$(basename "$case_dir")
  mkdir -p "$target"
  if ! "$python" "$tools/run_pass.py" run "$input" -o "$target/after.json" --pass materialize_dist_tensor_ctx \
      2>"$target/error.txt"; then
    rm -f "$target/after.json"
    continue
  fi
  rm "$target/error.txt"
done
echo "make-fed-back.sh: $(find "$dest" -name after.json | wc -l) outputs, $(find "$dest" -name error.txt | wc -l) errors in $dest"
