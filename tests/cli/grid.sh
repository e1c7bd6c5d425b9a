#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# A last step shorter than h (docs/formats.md, "Time grid"): a problem file
# whose h does not divide T is enclosed by both routes, the closed form of
# Remark 4.3 (x = y1 = 2 - e^t, y2 = 0, from tests/gen_traj.c) lies in the
# tube at many times including inside the last step and at T, verify
# accepts the certificate and rejects it when the grid it records is edited,
# the tube's last time is T (export, info, plot), and an h that divides T
# gives the uniform certificate of N.
# usage: bash tests/cli/grid.sh DVICERT SRCROOT
set -u
exe=${1:?usage: grid.sh DVICERT SRCROOT}
src=${2:?usage: grid.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

gen=$(ref_tool gen_traj) || exit 1

# Remark 4.3 with x(0) = 1 on [0, 0.625] (T binary, < log 2), h = 0.007:
# 89 steps of h and the last [0.623, 0.625]
sed -e 's/"T": "0.5"/"T": "0.625"/' -e 's/"h": "0.001"/"h": "0.007"/' "$src/certs/remark43/x0_1.json" > "$tmp/r.json"
grep -q '"h": "0.007"' "$tmp/r.json" && grep -q '"T": "0.625"' "$tmp/r.json" && ok || bad "test problem not built"
"$gen" remark43 10 0.625 20000 625 > "$tmp/exact.csv"
awk -F, 'NR > 1 && $1 > 0.623 { n++ } END { exit !(n >= 20) }' "$tmp/exact.csv" && ok ||
    bad "reference: samples inside the last step expected"
grep -q '^0.625,' "$tmp/exact.csv" && ok || bad "reference: a sample at T expected"

for route in chen-wang lognorm; do
    for extra in "" "--sharpen"; do
        [ "$route" = lognorm ] && [ -n "$extra" ] && continue
        C="$tmp/$route$extra.cert.json"
        expect 0 "note: h = 0.007 does not divide T = 0.625: 90 steps, the last of length 0.002" \
            "$route $extra: enclose notes the shorter last step" -- \
            "$exe" enclose --method "$route" $extra "$tmp/r.json" -o "$C"
        expect 0 "accepted" "$route $extra: verify" -- "$exe" verify "$C"
        expect 0 "inside: 0 of 20000" "$route $extra: closed form inside, last step and T included" -- \
            "$exe" check "$C" "$tmp/exact.csv"
        # the largest double <= 0.007 (0.007 = 0x1.cac083126e978d4f...p-8)
        grep -q '"h_step":"0x1.cac083126e978p-8"' "$C" && ok || bad "$route $extra: h_step is not the double below 0.007"
        grep -q '"N":90' "$C" && ok || bad "$route $extra: N = 90 not recorded"
        # the last grid label is T, the one before 89 h
        grep -q '^    {"t":"0.625",' "$C" && ok || bad "$route $extra: last grid time is not T"
        # 89 h = 89783762171258199 / 2^57, printed as the nearest double
        grep -q '^    {"t":"0.62299999999999989",' "$C" && ok || bad "$route $extra: t_89 is not 89 h"
    done
done
C="$tmp/chen-wang--sharpen.cert.json"
# a perturbed closed form is caught (the test can fail)
"$gen" remark43 10 0.625 2000 7 0.05 > "$tmp/pert.csv"
expect 1 "VIOLATED" "perturbed closed form rejected" -- "$exe" check "$C" "$tmp/pert.csv"
# a time past T (by 1e-9) is outside the certified range
{ head -1 "$tmp/exact.csv"; echo "0.625000001,0.13,0.13,0"; } > "$tmp/past.csv"
expect 2 "" "time past T refused" -- "$exe" check "$C" "$tmp/past.csv"

# ---- the tube ends at T: export, info, plot ------------------------------------
expect 0 "wrote" "export" -- "$exe" export "$C" -o "$tmp/tube.csv"
tail -1 "$tmp/tube.csv" | awk -F, '{ exit !($3 == 0.625) }' && ok || bad "export: last row does not end at T"
lines=$(wc -l < "$tmp/tube.csv")
[ "$lines" -eq 182 ] && ok || bad "export: $lines lines, expected 1 + 91 grid + 90 step rows"
expect 0 "" "info" -- "$exe" info "$C"
expect 0 "" "plot" -- "$exe" plot "$C" -o "$tmp/p.svg"

# ---- tampering with the recorded grid -------------------------------------------
# the stored last-step length lowered, h_step changed: rejected (digest or claim)
sed 's/"h_last_hi":"[^"]*"/"h_last_hi":"1.9e-03"/' "$C" > "$tmp/t1.json"
cmp -s "$C" "$tmp/t1.json" && bad "tamper 1 had no effect" || ok
expect 1 "rejected" "h_last_hi edited" -- "$exe" verify "$tmp/t1.json"
sed 's/"h_step":"0x1.cac083126e978p-8"/"h_step":"0x1.cac083126e979p-8"/' "$C" > "$tmp/t2.json"
cmp -s "$C" "$tmp/t2.json" && bad "tamper 2 had no effect" || ok
expect 1 "rejected" "h_step edited" -- "$exe" verify "$tmp/t2.json"
sed 's/"h":"0.007"/"h":"0.0071"/' "$C" > "$tmp/t3.json"
cmp -s "$C" "$tmp/t3.json" && bad "tamper 3 had no effect" || ok
expect 1 "rejected" "embedded h edited" -- "$exe" verify "$tmp/t3.json"

# ---- refusals -------------------------------------------------------------------
sed -e 's/"T": "0.625"/"T": "0.6"/' "$tmp/r.json" > "$tmp/dec.json"
expect 2 "field 'h'.*field 'T'" "decimal T with a shorter last step refused" -- \
    "$exe" enclose --method chen-wang "$tmp/dec.json" -o "$tmp/dec.cert.json"
absent "$tmp/dec.cert.json" "refused enclose"

# ---- an h that divides T: the uniform certificate of N -------------------------
# h = 0.005 = 0.625 / 125: every member but the embedded problem (and its
# digests) is the certificate of "N": 125
sed -e 's/"h": "0.007"/"h": "0.005"/' "$tmp/r.json" > "$tmp/u_h.json"
sed -e 's/"h": "0.007"/"N": 125/' "$tmp/r.json" > "$tmp/u_n.json"
for v in h n; do
    expect 0 "certified: 125 steps of h = T/125" "uniform grid from $v" -- \
        "$exe" enclose --method chen-wang "$tmp/u_$v.json" -o "$tmp/u_$v.cert.json"
    grep -q 'does not divide' "$tmp/out" && bad "uniform grid from $v: shorter-step note printed" || ok
    grep -v '^  "problem\|^  "digest' "$tmp/u_$v.cert.json" > "$tmp/u_$v.body"
done
cmp -s "$tmp/u_h.body" "$tmp/u_n.body" && ok || bad "h = T/N and N give different certificates"
grep -q '"h_step"\|"h_last' "$tmp/u_h.cert.json" && bad "uniform certificate records a last step" || ok

report
