#!/usr/bin/env bash
# Installs the Debian packages the build needs, only those missing. Safe to run repeatedly.
set -euo pipefail
packages=(cmake g++ make libgtest-dev libbenchmark-dev rapidjson-dev libmsgpack-cxx-dev libcli11-dev robin-map-dev
          nlohmann-json3-dev libssl-dev clang libclang-rt-14-dev python3-dev pybind11-dev
          graphviz)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
