#!/usr/bin/env bash
# Provision Z3 >= 4.13.3 for the `z3` crate without touching system folders.
#
# Debian 12's libz3-dev (4.8.12) is too old for z3-sys 0.14, whose bindings were generated from
# Z3 5.3.2. PyPI's `z3-solver==5.3.2.0` wheel ships exactly that libz3 and its headers, so this
# script downloads the wheel with pip, unpacks the library and headers into `.deps/z3/` (git
# ignored) and writes a relocatable pkg-config file. `.cargo/config.toml` points pkg-config there
# and sets an rpath, so built binaries find this libz3 outside cargo too. Idempotent: it does
# nothing when `.deps/z3/.complete` names the wanted version.
set -euo pipefail

version=5.3.2
wheel_version=5.3.2.0
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.deps/z3"

if [ -f "$dest/.complete" ] && [ "$(cat "$dest/.complete")" = "$version" ]; then
  exit 0
fi

echo "setup-z3: fetching z3-solver==$wheel_version from PyPI" >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: \
  --platform manylinux_2_27_x86_64 --python-version 3.11 \
  -d "$tmp" "z3-solver==$wheel_version"
wheel=$(ls "$tmp"/z3_solver-*.whl)

rm -rf "$dest"
mkdir -p "$dest/lib/pkgconfig" "$dest/include"
python3 - "$wheel" "$dest" <<'PY'
import sys, zipfile, os, shutil
wheel, dest = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith("z3/lib/libz3.so") or name.startswith("z3/include/"):
            if name.endswith("/"):
                continue
            sub = "lib" if name.startswith("z3/lib/") else "include"
            target = os.path.join(dest, sub, os.path.basename(name))
            with z.open(name) as src, open(target, "wb") as out:
                shutil.copyfileobj(src, out)
PY

cat > "$dest/lib/pkgconfig/z3.pc" <<PC
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: z3
Description: The Z3 theorem prover (from the z3-solver $wheel_version wheel)
Version: $version
Libs: -L\${libdir} -lz3
Cflags: -I\${includedir}
PC
echo "$version" > "$dest/.complete"
echo "setup-z3: Z3 $version installed in $dest" >&2
