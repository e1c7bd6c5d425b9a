#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Installation without root (issue 21, item 7; README "Installing without
# root"): the source tree configured with `meson setup --prefix DIR` into a
# fresh build directory, the installable targets built and `meson install`ed
# under DIR (a scratch directory here, ~/.local for a user); the installed
# dvicert runs from DIR/bin (it links the library statically), `dvicert sweep` writes a manifest that runs it although it is
# not on PATH, and the installed Python module imports with PYTHONPATH and
# loads the installed library (when a python3 with numpy is found).
# Skipped (77) when meson or ninja is not available.
# usage: bash tests/cli/install_user.sh DVICERT SRCROOT
set -u
exe=${1:?usage: install_user.sh DVICERT SRCROOT}
src=${2:?usage: install_user.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v meson > /dev/null 2>&1 && command -v ninja > /dev/null 2>&1 ||
    { echo "SKIP: meson or ninja not found"; exit 77; }

prefix=$tmp/prefix b=$tmp/build
if ! meson setup "$b" "$src" --prefix "$prefix" > "$tmp/setup.log" 2>&1; then
    bad "meson setup --prefix"; tail -20 "$tmp/setup.log" >&2; report; exit 1
fi
ok
# only what is installed: the library, the command (not the tests and benchmarks)
if nice meson compile -C "$b" dvicert:executable dvicert:shared_library dvicert:static_library \
        > "$tmp/compile.log" 2>&1 && meson install -C "$b" --no-rebuild > "$tmp/install.log" 2>&1; then
    ok
else
    bad "build and install under the prefix"; tail -20 "$tmp/compile.log" "$tmp/install.log" >&2; report; exit 1
fi
[ -x "$prefix/bin/dvicert" ] && ok || bad "no $prefix/bin/dvicert"
[ -n "$(find "$prefix" -name 'libdvicert.so*' | head -1)" ] && ok || bad "no libdvicert.so under $prefix"
[ -f "$prefix/include/dvicert/cert.h" ] && ok || bad "headers not installed"

# the installed command runs, from a directory that is not the source tree
cd "$tmp"
expect 0 "certified" "the installed dvicert encloses" -- \
    "$prefix/bin/dvicert" enclose "$src/certs/bridge/gamma0.2.json" --method lognorm -o "$tmp/b.cert.json"
expect 0 "accepted" "the installed dvicert verifies" -- "$prefix/bin/dvicert" verify "$tmp/b.cert.json"

# a sweep from the installed command (not on PATH) runs without --dvicert
mkdir -p "$tmp/s"
cp "$src/certs/bridge/gamma0.2.json" "$tmp/s/bridge.json"
printf '{"base": "bridge.json", "constants": {"gamma": ["0.2", "0.5"]}}\n' > "$tmp/s/spec.json"
expect 0 "not on PATH as dvicert" "sweep names the running dvicert" -- \
    env PATH=/usr/bin:/bin "$prefix/bin/dvicert" sweep "$tmp/s/spec.json" -o "$tmp/s/r"
grep -q "^$prefix/bin/dvicert enclose" "$tmp/s/r/manifest.txt" && ok || bad "manifest: $(head -1 "$tmp/s/r/manifest.txt")"
(cd "$tmp/s/r" && env PATH=/usr/bin:/bin sh -e manifest.txt) > "$tmp/s.out" 2>&1 && ok ||
    { bad "the manifest does not run without dvicert on PATH"; tail -5 "$tmp/s.out" >&2; }
# with the same dvicert first on PATH the manifest names it plainly
expect 0 "runs" "sweep with dvicert on PATH" -- \
    env PATH="$prefix/bin:/usr/bin:/bin" "$prefix/bin/dvicert" sweep "$tmp/s/spec.json" -o "$tmp/s/r2"
grep -q "^dvicert enclose" "$tmp/s/r2/manifest.txt" && ok || bad "manifest on PATH: $(head -1 "$tmp/s/r2/manifest.txt")"

# the Python module: installed under the prefix, found with PYTHONPATH
. "$(dirname "${BASH_SOURCE[0]}")/../numpy_python.sh"
numpy_python
if [ -n "$py" ]; then
    init=$(find "$prefix" -path '*/dvicert/__init__.py' | head -1)
    if [ -n "$init" ]; then
        ok
        pp=$(dirname "$(dirname "$init")")
        expect 0 "informative" "the installed module imports and loads the installed library" -- \
            env -u DVICERT_LIB PYTHONPATH="$pp" "$py" -c '
import sys, dvicert
c = dvicert.read(sys.argv[1])
assert dvicert.__file__.startswith(sys.argv[2]), dvicert.__file__
print(c.verdict)' "$tmp/b.cert.json" "$prefix"
    else
        bad "the Python module is not installed under $prefix"
    fi
else
    echo "note: no python3 with numpy: the module's import not tested"
fi

report
