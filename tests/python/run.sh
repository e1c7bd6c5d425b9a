#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Runs the tests of the Python module (python/dvicert) against the built
# library. Usage: run.sh LIBDVICERT.so DVICERT_EXE SRC_ROOT GEN_TRAJ
# Skipped (exit 77) only when no python3 with numpy is found.
set -u
lib=$(realpath "$1") exe=$(realpath "$2") src=$(realpath "$3") gen=$(realpath "$4")
. "$(dirname "${BASH_SOURCE[0]}")/../numpy_python.sh"
numpy_python
if [ -z "$py" ]; then
    echo "SKIP: no python3 with numpy (Debian: apt-get install python3-numpy)"
    exit 77
fi
# A library built with -Db_sanitize=address needs the sanitizer runtimes
# loaded first; the interpreter's own allocations at exit are not ours.
if command -v ldd >/dev/null && ldd "$lib" | grep -q libasan; then
    cc=${CC:-cc}
    pre=
    for r in libasan.so libubsan.so; do
        f=$("$cc" -print-file-name=$r)
        [ -e "$f" ] && pre="$pre $f"
    done
    export LD_PRELOAD="${pre# }" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
export DVICERT_LIB=$lib PYTHONPATH="$src/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$py" "$src/tests/python/test_dvicert.py" "$exe" "$src" "$gen"
