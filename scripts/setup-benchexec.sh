#!/usr/bin/env bash
# Provision BenchExec (the benchmarking framework SV-COMP runs its participants with) for the
# test of shapecheck's tool-info module, without touching system folders: downloads the
# pure-Python `benchexec` wheel from PyPI and unpacks it into `.deps/benchexec/` (git ignored;
# put it on PYTHONPATH). Idempotent: it does nothing when `.deps/benchexec/.complete` names the
# wanted version.
set -euo pipefail

version=3.35
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.deps/benchexec"

if [ -f "$dest/.complete" ] && [ "$(cat "$dest/.complete")" = "$version" ]; then
  exit 0
fi

echo "setup-benchexec: fetching benchexec==$version from PyPI" >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$tmp" "benchexec==$version"
rm -rf "$dest"
mkdir -p "$dest"
python3 -m zipfile -e "$tmp"/benchexec-*.whl "$dest"
echo "$version" > "$dest/.complete"
echo "setup-benchexec: BenchExec $version unpacked in $dest" >&2
