#!/usr/bin/env bash
# The installed package as its users have it: install the build tree into a prefix, move the prefix
# (it must be relocatable), build examples/out_of_tree against it, and run the installed tools on it.
#   install_test.sh BUILD_DIR SOURCE_DIR [PYTHON]
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
mv "$work/prefix" "$work/moved"
prefix=$work/moved

# The installed host finds its installed plugin after the move.
"$prefix/bin/pto-host" pipeline | grep -q "plugin materialize-dist-tensor-ctx .*$prefix/lib/ptoplug/libptoplug_mdtc.so"

# An out-of-tree plugin, built with find_package(ptoplug) and ptoplug_add_plugin.
cmake -S "$source/examples/out_of_tree" -B "$work/oot" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/oot" >/dev/null
manifest=$work/oot/list_dist_functions.json
grep -q '"sha256"' "$manifest"
tr -d ' \n' <"$manifest" | grep -q '"before":{"occurrence":2,"pass":"Simplify"}'  # BEFORE "Simplify#2"
"$prefix/bin/pto-host" --plugin "$manifest" run "$source/examples/dispatch_6.json" -o "$work/out.json" 2>"$work/err"
grep -q "note: function 'chip_orch_00000' has DistributedTensor parameters: data, signal \[ListDistFunctions.found\]" \
  "$work/err"
"$prefix/bin/pto-plugin-check" "$manifest" >"$work/check" || { cat "$work/check"; exit 1; }
grep -q ", 0 failed" "$work/check"

# The C++ API, linked to the installed libptoplug.so, gives what pto-host gives.
"$work/oot/materialize" "$source/examples/dispatch_6.json" "$work/api.json"
"$prefix/bin/pto-host" run "$source/examples/dispatch_6.json" -o "$work/host.json" 2>/dev/null
cmp "$work/api.json" "$work/host.json"

# The Python package, installed, for the interpreter it was built for.
if [ -n "${3:-}" ]; then
  PYTHONPATH="$prefix/lib/python3/dist-packages" "$3" -c "
import sys
from ptoplug import passes
data = open(sys.argv[1], 'rb').read()
open(sys.argv[2], 'wb').write(passes.materialize_dist_tensor_ctx()(data))" \
    "$source/examples/dispatch_6.json" "$work/python.json"
  cmp "$work/python.json" "$work/host.json"
fi

# pkg-config finds the ABI headers relative to the moved prefix.
if command -v pkg-config >/dev/null; then
  cflags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags ptoplug)
  include=${cflags#-I}
  test -f "${include%% *}/ptoplug/abi.h"
  test -f "${include%% *}/ptoplug/sdk.hpp"
  test -f "${include%% *}/ptoplug/sdk/mutator.hpp"
fi
echo "install: ok"
