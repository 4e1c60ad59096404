#!/usr/bin/env bash
# Installs what warpsight needs to build and test on Debian/Ubuntu (as root,
# or with sudo available).  Safe to run again: it installs only what is missing.
# With --fuzz: clang and its libFuzzer runtime instead, for scripts/fuzz.sh
# (CI's fuzz step; a user's build needs neither).
set -euo pipefail
pkgs=(cmake make gcc pkg-config python3 libcjson-dev libcmocka-dev libcairo2-dev libgsl-dev
      libzstd-dev libiberty-dev
      time) # time: /usr/bin/time -v for bench/validate_memory.sh
[ "${1:-}" = --fuzz ] && pkgs=(clang-14 libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
