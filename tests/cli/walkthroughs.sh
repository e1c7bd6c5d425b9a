#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The README's walk-throughs run as shown: the commands of each block
# marked "<!-- walkthrough: NAME -->" are read from README.md and run in a
# scratch directory holding the source tree's certs/, bench/ and tests/,
# with dvicert the command under test; the output lines the README quotes
# must appear. Siconos is not needed: where '/usr/bin/python3 -c "import
# siconos"' fails, its run is replaced by the CSV it wrote
# (tests/data/walkthrough/bridge_siconos.csv).
# usage: bash tests/cli/walkthroughs.sh DVICERT SRCROOT
set -u
exe=${1:?usage: walkthroughs.sh DVICERT SRCROOT}
src=${2:?usage: walkthroughs.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
src=$(cd "$src" && pwd)

mkdir -p "$tmp/run" "$tmp/bin"
for d in certs bench tests; do ln -s "$src/$d" "$tmp/run/$d"; done
ln -s "$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")" "$tmp/bin/dvicert"
siconos=0
/usr/bin/python3 -c 'import siconos' > /dev/null 2>&1 && siconos=1

# block NAME KIND: the lines of the NAME walk-through's first (KIND = sh)
# or second (KIND = out) fenced block
block() {
    awk -v name="$1" -v kind="$2" '
        $0 == "<!-- walkthrough: " name " -->" { on = 1; n = 0; next }
        on && /^```/ { if (inb) { inb = 0; n++; if (n == 2) exit; next } inb = 1; next }
        on && inb && ((kind == "sh" && n == 0) || (kind == "out" && n == 1)) { print }
    ' "$src/README.md"
}

for name in siconos friction diode; do
    cmds=$(block "$name" sh)
    [ -n "$cmds" ] || { bad "$name: no commands in README.md"; continue; }
    : > "$tmp/$name.out"
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        case "$line" in
        "/usr/bin/python3 bench/siconos_dlvi.py run "*)
            if [ "$siconos" -eq 0 ]; then
                cp "$src/tests/data/walkthrough/bridge_siconos.csv" "$tmp/run/${line##* }"
                continue
            fi ;;
        esac
        (cd "$tmp/run" && PATH="$tmp/bin:$PATH" bash -c "$line") >> "$tmp/$name.out" 2>&1
        rc=$?
        # check exits 1 for a trajectory outside the tube (the certified error follows)
        if [ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && [ "${line#dvicert check}" != "$line" ]; }; then ok
        else bad "$name: '$line' exited $rc"; tail -3 "$tmp/$name.out" >&2; fi
    done <<< "$cmds"
    while IFS= read -r want; do
        [ -n "$want" ] || continue
        grep -qF -- "$want" "$tmp/$name.out" && ok || bad "$name: output lacks '$want'"
    done <<< "$(block "$name" out)"
done
# the stored CSV is what the script writes (when Siconos is here to say so)
if [ "$siconos" -eq 1 ]; then
    cmp -s "$tmp/run/siconos.csv" "$src/tests/data/walkthrough/bridge_siconos.csv" && ok ||
        bad "tests/data/walkthrough/bridge_siconos.csv differs from the Siconos run"
fi
report
