#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of the streaming commands: enclose writes one step per
# line and the summary after the steps, verify/check/export read step by step
# (check with the samples in any order), both layouts are read, a file in
# another layout is read whole, and enclose to standard output writes the
# same certificate.
# usage: bash tests/cli/stream.sh DVICERT SRCROOT
set -u
exe=${1:?usage: stream.sh DVICERT SRCROOT}
src=${2:?usage: stream.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

N=3000
sed 's/"h": *"0.001"/"N": '$N'/' "$src/certs/bridge/gamma0.2.json" > "$tmp/b.json"
grep -q '"N": '$N "$tmp/b.json" || bad "problem with N = $N not made"
C="$tmp/b.cert.json"
expect 0 "certified: $N steps" "enclose N = $N" -- "$exe" enclose "$tmp/b.json" -o "$C" --method lognorm

# layout: one step per line, the summary after the steps, the digest last
steps=$(grep -c '^    {"t":' "$C")
[ "$steps" -eq $((N + 1)) ] && ok || bad "$steps step lines, expected $((N + 1))"
last_step=$(grep -n '^    {"t":' "$C" | tail -1 | cut -d: -f1)
sum_line=$(grep -n '^  "summary": ' "$C" | cut -d: -f1)
[ -n "$sum_line" ] && [ "$sum_line" -gt "$last_step" ] && ok || bad "summary not after the steps"
tail -2 "$C" | head -1 | grep -q '^  "digest": "fnv1a64:' && ok || bad "digest not last"

expect 0 "accepted: .*$N steps" "verify the streamed certificate" -- "$exe" verify "$C"

# the summary before the steps (the layout of the committed certificates):
# same canonical text, same digest
{ sed -n '1,/^  "precision"/p' "$C"; sed -n '/^  "summary": /p' "$C";
  sed '1,/^  "precision"/d; /^  "summary": /d' "$C"; } > "$tmp/old.cert.json"
grep -n '"summary"' "$tmp/old.cert.json" | head -1 | grep -q '^6:' && ok || bad "reordered copy not made"
expect 0 "accepted" "verify with the summary before the steps" -- "$exe" verify "$tmp/old.cert.json"

# another layout (all on one line): read whole, same verdict
tr -d '\n' < "$C" > "$tmp/one.cert.json"
expect 0 "accepted" "verify a one-line certificate" -- "$exe" verify "$tmp/one.cert.json"

# a step line that is not one step once steps were handed over: unusable
awk -v L=$((last_step - 5)) 'NR == L { sub(/"eps_x"/, "\n\"eps_x\"") } { print }' "$C" > "$tmp/split.cert.json"
expect 2 "one step per line" "export of a certificate split inside the steps" -- "$exe" export "$tmp/split.cert.json" -o "$tmp/split.csv"
absent "$tmp/split.csv" "export of an unusable certificate"

# nothing rides along on the line closing the steps, and the commas are JSON's
sed 's/^  \],$/  ], "eps_x_everywhere_upper": "1e-30",/' "$C" > "$tmp/ride.cert.json"
grep -q eps_x_everywhere "$tmp/ride.cert.json" || bad "ride-along copy not made"
expect 2 "unknown key 'eps_x_everywhere_upper'" "a key after the steps' bracket refused" -- "$exe" verify "$tmp/ride.cert.json"
awk -v L=$((last_step - 100)) 'NR == L { sub(/,$/, "") } { print }' "$C" > "$tmp/comma.cert.json"
expect 2 "malformed JSON" "a missing comma between steps refused" -- "$exe" verify "$tmp/comma.cert.json"

# export: rows written while reading, header + grid 0 + (step, grid) per step
expect 0 "wrote" "export" -- "$exe" export "$C" -o "$tmp/b.csv"
rows=$(wc -l < "$tmp/b.csv")
[ "$rows" -eq $((2 * N + 2)) ] && ok || bad "export: $rows lines, expected $((2 * N + 2))"

# check: grid samples (t_lo of each grid row, the middle of the x box) in a
# scrambled order are inside; one far outside, placed first, is reported by
# its line
"$exe" export "$C" -o "$tmp/g.csv" --grid-only > /dev/null 2>&1
awk -F, 'NR > 2 { printf "%s,%.17g,%.17g\n", $2, ($4 + $5) / 2, ($6 + $7) / 2 }' "$tmp/g.csv" |
    awk '{ print (NR * 7919) % 3001, $0 }' | sort -n | cut -d' ' -f2- > "$tmp/body.csv"
{ echo "t,x1,x2"; cat "$tmp/body.csv"; } > "$tmp/in.csv"
expect 0 "inside: 0 of $N samples" "check of scrambled inside samples" -- "$exe" check "$C" "$tmp/in.csv"
grep -q "certificate: .* verified" "$tmp/out" && ok || bad "check did not say the certificate was verified"
{ echo "t,x1,x2"; echo "0.9995,5,5"; cat "$tmp/body.csv"; } > "$tmp/out.csv"
expect 1 "violation: line 2 t = " "check reports the outside sample by its line" -- "$exe" check "$C" "$tmp/out.csv"
grep -q "outside: 1 of $((N + 1)) samples outside the tube (2 values)" "$tmp/out" && ok || bad "check summary"
expect 0 "inside" "check --no-verify" -- "$exe" check "$C" "$tmp/in.csv" --no-verify

# enclose to standard output writes the same certificate
"$exe" enclose "$tmp/b.json" -o - --method lognorm > "$tmp/stdout.cert.json" 2> /dev/null
cmp -s "$tmp/stdout.cert.json" "$C" && ok || bad "enclose -o - differs from the file"

# the lognorm route's steps wait in an unlinked temporary file until its
# norms are known: a $TMPDIR that cannot be written falls back to the
# output's directory, and nothing is left behind
mkdir "$tmp/outdir"
TMPDIR="$tmp/no/such/dir" "$exe" enclose "$tmp/b.json" -o "$tmp/outdir/t.cert.json" --method lognorm > /dev/null 2>&1
cmp -s "$tmp/outdir/t.cert.json" "$C" && ok || bad "enclose with an unwritable TMPDIR differs from the file"
[ "$(ls -A "$tmp/outdir")" = "t.cert.json" ] && ok || bad "files left beside the certificate: $(ls -A "$tmp/outdir")"

# step lines in the layout enclose writes are taken apart by a scanner, any
# other spelling by jansson: a step respelled with blanks verifies alike, and
# an edit that leaves every bound true (eps_x of one step raised in its last
# digit) is caught by the digest, the same recomputed digest on both paths
# (a step whose eps_x does not end in 9, so that raising the digit raises it)
L=$(grep -n '^    {"t":' "$C" | sed -n '1000,$p' | grep -v '"eps_x":"[^"]*9e' | head -1 | cut -d: -f1)
awk -v L=$L 'NR == L { gsub(/":/, "\": "); gsub(/,"/, ", \"") } { print }' "$C" > "$tmp/spaced.cert.json"
sed -n "${L}p" "$tmp/spaced.cert.json" | grep -q '"eps_x": "' && ok || bad "respelled copy not made"
expect 0 "accepted" "verify with one step respelled" -- "$exe" verify "$tmp/spaced.cert.json"
e=$(sed -n "${L}p" "$C" | sed 's/.*"eps_x":"\([^"]*\)".*/\1/')
up=$(echo "$e" | awk '{ split($1, a, "e"); d = substr(a[1], length(a[1])); printf "%s%d", substr(a[1], 1, length(a[1]) - 1), d + 1; print "e" a[2] }')
[ "${up%e*}" != "${e%e*}" ] && ok || bad "eps_x $e not raised ($up)"
for f in "$C" "$tmp/spaced.cert.json"; do
    sed "${L}s/\"eps_x\":\( *\)\"$e\"/\"eps_x\":\1\"$up\"/" "$f" > "$tmp/loose.cert.json"
    cmp -s "$f" "$tmp/loose.cert.json" && bad "eps_x not edited in $f"
    expect 1 "field 'digest': the certificate text was edited" "a raised bound caught by the digest" -- \
        "$exe" verify "$tmp/loose.cert.json"
    grep -o 'digest [0-9a-f]*,' "$tmp/out" >> "$tmp/digests"
done
[ "$(sort -u "$tmp/digests" | wc -l)" -eq 1 ] && ok || bad "scanner and jansson digests differ: $(cat "$tmp/digests")"
report
