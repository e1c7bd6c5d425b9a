#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Every reader of a certificate or a trajectory refuses a device, a FIFO
# and a directory at once (exit 2, naming the path), as the problem and table
# readers do: /dev/zero read to its end is gigabytes, a FIFO without a writer
# blocks forever. Each command runs under `timeout`, so a regression fails
# here instead of hanging the suite. A NUL byte in a trajectory is named.
# usage: bash tests/cli/devices.sh DVICERT SRCROOT
set -u
exe=${1:?usage: devices.sh DVICERT SRCROOT}
src=${2:?usage: devices.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

P="$src/certs/bridge/gamma1.0.json"
C="$src/certs/bridge/gamma1.0.cert.json"
H="$src/certs/pw-harmonic/pw-harmonic.cert.json"
to="timeout 20"
fifo="$tmp/fifo"
mkfifo "$fifo" || { echo "cannot make a FIFO" >&2; exit 1; }

for dev in /dev/zero "$fifo"; do
    expect 2 "$dev: is not a regular file" "verify $dev" -- $to "$exe" verify "$dev"
    expect 2 "$dev: is not a regular file" "info $dev" -- $to "$exe" info "$dev"
    expect 2 "$dev: is not a regular file" "info --csv $dev" -- $to "$exe" info --csv "$dev"
    expect 2 "$dev: is not a regular file" "check $dev as the certificate" -- \
        $to "$exe" check "$dev" "$tmp/none.csv"
    expect 2 "$dev: is not a regular file" "check CERT $dev" -- $to "$exe" check "$C" "$dev"
    expect 2 "$dev: is not a regular file" "check HYBRID-CERT $dev" -- $to "$exe" check "$H" "$dev"
    expect 2 "$dev: is not a regular file" "enclose --from $dev" -- \
        $to "$exe" enclose "$P" --from "$dev" -o "$tmp/from.cert.json"
    absent "$tmp/from.cert.json" "enclose --from $dev"
done

# a directory
expect 2 "$tmp: is a directory" "enclose --from DIR" -- \
    $to "$exe" enclose "$P" --from "$tmp" -o "$tmp/from.cert.json"
absent "$tmp/from.cert.json" "enclose --from DIR"
expect 2 "is a directory" "verify DIR" -- $to "$exe" verify "$tmp"
expect 2 "is a directory" "check CERT DIR" -- $to "$exe" check "$C" "$tmp"

# a NUL byte in a trajectory is named as such, not as a short row
printf 't,x1,x2\n0,0\0,0\n' > "$tmp/nul.csv"
expect 2 "nul.csv: NUL byte at line 2" "check: NUL byte in the CSV" -- $to "$exe" check "$C" "$tmp/nul.csv"
expect 2 "NUL byte at line 2" "enclose --from: NUL byte in the CSV" -- \
    $to "$exe" enclose "$P" --from "$tmp/nul.csv" -o "$tmp/from.cert.json"
absent "$tmp/from.cert.json" "enclose --from a file with a NUL byte"

# the trajectory is an input too: -o onto it is refused and it stays whole
# (it was replaced by the certificate before)
printf 't,x1,x2\n0,0,1\n10,0,1\n' > "$tmp/tr.csv"
cp "$tmp/tr.csv" "$tmp/tr.orig"
expect 2 "tr.csv: is the same file as the input" "enclose --from TR -o TR" -- \
    $to "$exe" enclose "$src/tests/data/events/bridge.json" --from "$tmp/tr.csv" -o "$tmp/tr.csv"
cmp -s "$tmp/tr.csv" "$tmp/tr.orig" && ok || bad "enclose --from TR -o TR changed the trajectory"

report
