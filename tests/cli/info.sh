#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# How informative a certificate is: enclose prints the width table and a
# verdict (informative / wide / uninformative) with the reason and what
# helps; 'dvicert info' prints the same from a certificate, with --verify
# recomputing it; bad files are refused. The verdicts are checked on the
# bridge (Example 5.1, gamma = 0.2, T = 1), where the radius is known to
# fall like h: N = 1000 uninformative, 10000 wide, 30000 informative
# (relative radii 1.52, 0.148, 0.049 by the table's own column), and the
# lognorm route informative at N = 1000 (also the default route, auto).
# usage: bash tests/cli/info.sh DVICERT SRCROOT   (run in the build's tests dir)
set -u
exe=${1:?usage: info.sh DVICERT SRCROOT}
src=${2:?usage: info.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bridge() { # N
    cat <<EOF2
{"name": "bridge N=$1", "A": [[0, 1], [-4, 0]], "B": [[0], [-1]], "f": ["0", "sin(4*t)"],
 "Q": [[3, 0]], "M": [[1]], "g": ["0"], "l": [0], "u": ["inf"],
 "x0": [0, "0.2"], "T": 1, "N": $1, "theta": 1}
EOF2
}
for N in 1000 10000 30000; do bridge $N > "$tmp/b$N.json"; done

# the relative radius in the table is max eps_x / max |x_j| (checked here
# from the exported tube, independently of the table)
rel_of() { # CERT -> largest max-radius / size over the states, from export
    "$exe" export "$1" -o "$tmp/e.csv" > /dev/null 2>&1 || { echo nan; return; }
    awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) if ($k ~ /^x[0-9]+_lo$/) lo[k] = 1; next }
             { for (k in lo) { r = ($(k + 1) - $k) / 2; m = ($(k + 1) + $k) / 2;
                               if (r > R) R = r; if (m < 0) m = -m; if (m > S[k]) S[k] = m } }
             END { w = 0; for (k in S) if (R / S[k] > w) w = R / S[k]; printf "%.6g\n", w }' "$tmp/e.csv"
}

expect 0 "verdict: uninformative" "N = 1000: uninformative" -- "$exe" enclose "$tmp/b1000.json" -o "$tmp/c1.json" --method chen-wang
grep -q "e^{L T}" "$tmp/out" && ok || bad "no growth factor in the reason"
grep -q -- "--method lognorm" "$tmp/out" && ok || bad "no advice"
expect 0 "verdict: wide" "N = 10000: wide" -- "$exe" enclose "$tmp/b10000.json" -o "$tmp/c2.json" --method chen-wang
expect 0 "verdict: informative" "N = 30000: informative" -- "$exe" enclose "$tmp/b30000.json" -o "$tmp/c3.json" --method chen-wang
expect 0 "verdict: informative" "lognorm route, N = 1000: informative" -- \
    "$exe" enclose "$tmp/b1000.json" -o "$tmp/c4.json" --method lognorm
expect 0 "route: events, chosen by --method auto" "the default route is the exact solution for n = 2" -- \
    "$exe" enclose "$tmp/b1000.json" -o "$tmp/c5.json"
grep -q "verdict: informative" "$tmp/out" && ok || bad "default route: not informative"
# the verdicts agree with the exported tube (an independent reading)
for c in c1:1 c2:0.1 c3:0; do
    r=$(rel_of "$tmp/${c%%:*}.json")
    awk -v r="$r" -v t="${c##*:}" 'BEGIN { exit !(r > t) }' && ok || bad "${c%%:*}: relative radius $r not above ${c##*:}"
done
r=$(rel_of "$tmp/c3.json")
awk -v r="$r" 'BEGIN { exit !(r <= 0.1) }' && ok || bad "c3: relative radius $r above 0.1"

# ---- dvicert info -------------------------------------------------------------
expect 0 "problem: bridge N=1000" "info names the problem" -- "$exe" info "$tmp/c1.json"
grep -q "n = 2 states, m = 1 multipliers, T = 1, N = 1000 steps, 53 bits" "$tmp/out" && ok || bad "info: sizes"
grep -q "route: chen-wang" "$tmp/out" && ok || bad "info: route"
grep -q "verdict: uninformative" "$tmp/out" && ok || bad "info: verdict"
grep -q "not verified" "$tmp/out" && ok || bad "info without --verify says so"
expect 0 "verified: accepted" "info --verify" -- "$exe" info "$tmp/c4.json" --verify
grep -q "route: lognorm" "$tmp/out" && ok || bad "info: lognorm route"
grep -q "verdict: informative" "$tmp/out" && ok || bad "info: lognorm verdict"
sed 's/"radius_verdict":"uninformative"/"radius_verdict":"informative"/' "$tmp/c1.json" > "$tmp/t1.json"
cmp -s "$tmp/c1.json" "$tmp/t1.json" && bad "the edit did not change the file" || ok
expect 1 "^rejected" "info --verify rejects an edited verdict" -- "$exe" info "$tmp/t1.json" --verify
expect 2 "unusable" "info on a file that is not a certificate" -- "$exe" info "$tmp/b1000.json"
printf '{"version": 1,' > "$tmp/trunc.json"
expect 2 "unusable" "info on a truncated certificate" -- "$exe" info "$tmp/trunc.json"
expect 0 "events: 40 (40 crossings" "info on a hybrid certificate" -- "$exe" info "$src/certs/pw-harmonic/pw-harmonic.cert.json" --verify
grep -q "verdict: informative" "$tmp/out" && grep -q "verified: accepted" "$tmp/out" && ok || bad "hybrid info: verdict or verification"
expect 0 "3 stick, 3 slip" "info on a sliding (friction) certificate" -- "$exe" info "$src/certs/stickslip/stickslip.cert.json"
expect 0 ",switched,53," "info --csv on a hybrid certificate" -- \
    "$exe" info "$src/certs/pw-harmonic/pw-harmonic.cert.json" --csv
expect 0 "informative" "info --help explains the verdicts" -- "$exe" info --help
expect 2 "" "info without a file" -- "$exe" info
# committed certificates carry the verdict, and verify accepts it
for c in "$src"/certs/bridge/gamma0.2.cert.json "$src"/certs/circuit/circuit.cert.json; do
    expect 0 "verdict:" "info on $(basename "$c")" -- "$exe" info "$c" --verify
done

# ---- per-state radii and the grid (a scaled certificate) -------------------
# The wall in SI units is certified in the scale s = (1, 2^e); the radius of
# state j is s_j eps_x, in the user's units. Checked against the
# certificate's own fields (method.x_scale_log2, summary.max_eps_x and
# eps_x_at_T), not against the program's output.
field() { # CERT KEY -> the text of "KEY":"..." in CERT
    grep -o "\"$2\": *\"[^\"]*\"" "$1" | head -n 1 | sed 's/.*: *"\(.*\)"/\1/'
}
expect 0 "" "enclose the wall (scaled)" -- "$exe" enclose "$src/tests/data/scale/wall.json" -o "$tmp/w.json" --method lognorm
sc=$(field "$tmp/w.json" x_scale_log2)
case "$sc" in *,0 | 0,0 | "") bad "the wall is not scaled in its second state: '$sc'" ;; *) ok ;; esac
"$exe" info --csv "$tmp/w.json" > "$tmp/w.csv" 2> "$tmp/w.err" && ok || bad "info --csv on the wall: $(cat "$tmp/w.err")"
[ "$(wc -l < "$tmp/w.csv")" -eq 2 ] && ok || bad "info --csv: not one header and one data line"
old=file,name,n,m,T,N,route,precision,eps_x_at_T,max_eps_x,radius_rel_max,verdict
[ "$(head -n 1 "$tmp/w.csv")" = "$old,x1_radius_max,x1_radius_at_T,x1_scale_log2,x2_radius_max,x2_radius_at_T,x2_scale_log2,y1_radius_max,y1_radius_at_T" ] \
    && ok || bad "info --csv header: $(head -n 1 "$tmp/w.csv")"
# the old columns first, as before: eps_x_at_T and max_eps_x are fields 9, 10
# (the name is quoted and holds commas, so the line is read from the end)
epsT=$(field "$tmp/w.json" eps_x_at_T) epsM=$(field "$tmp/w.json" max_eps_x)
sed -n 2p "$tmp/w.csv" | awk -F, -v sc="$sc" -v eT="$epsT" -v eM="$epsM" '
    function near(got, want) { return got >= want && got <= want * (1 + 1e-10) }
    { split(sc, e, ","); n = NF - 2; bad = 0   # the last two: y1_radius_max, y1_radius_at_T
      if ($(n - 9) != eT || $(n - 8) != eM) { print "old columns moved: " $(n - 9) ", " $(n - 8); bad = 1 }
      for (j = 1; j <= 2; j++) {
          k = n - 3 * (2 - j)   # the scale exponent of state j
          s = 2 ^ e[j]
          if ($k != e[j]) { print "state " j ": scale 2^" $k ", the certificate says 2^" e[j]; bad = 1 }
          if (!near($(k - 2), s * eM)) { print "state " j ": max radius " $(k - 2) " != 2^" e[j] " x " eM; bad = 1 }
          if (!near($(k - 1), s * eT)) { print "state " j ": radius at T " $(k - 1) " != 2^" e[j] " x " eT; bad = 1 }
      }
      exit bad }' > "$tmp/w.chk" && ok || bad "info --csv per-state radii: $(cat "$tmp/w.chk")"
# info (text) states the scale, as the certificate records it
expect 0 "state scale s_j = 2^e_j" "info shows the scale" -- "$exe" info "$tmp/w.json"
grep -q "x1 2^${sc%%,*}, x2 2^${sc##*,}\$" "$tmp/out" && ok || bad "info: scale line $(grep 'state scale' "$tmp/out")"
grep -q "^grid:" "$tmp/out" && bad "info: a grid line for a uniform grid" || ok
# a uniform, unscaled certificate: neither line
expect 0 "" "info on the bridge" -- "$exe" info "$src/certs/bridge/gamma0.2.cert.json"
grep -q "^grid:\|state scale" "$tmp/out" && bad "info on the bridge: grid or scale line" || ok
# a step h that does not divide T: the last step is shorter, and info says
# how long (N and the last length computed here from T and h)
sed 's/"N": 1000/"h": 0.0001/' "$src/tests/data/scale/wall.json" > "$tmp/wh.json"
grep -q '"h": 0.0001' "$tmp/wh.json" && ok || bad "the edit did not set h"
expect 0 "" "enclose the wall with h = 0.0001" -- "$exe" enclose "$tmp/wh.json" -o "$tmp/wh.cert.json" --method lognorm
Nh=$(awk 'BEGIN { T = 0.015625; h = 0.0001; N = int(T / h); if (N * h < T) N++; print N }')
want=$(awk -v N="$Nh" 'BEGIN { T = 0.015625; h = 0.0001;
                    printf "grid: %d steps of h = %.6g, the last of length %.6g", N, h, T - (N - 1) * h }')
expect 0 "^$want" "info shows the shorter last step ($want)" -- "$exe" info "$tmp/wh.cert.json"
"$exe" info --csv "$tmp/wh.cert.json" | sed -n 2p | grep -q ",$Nh,lognorm," && ok || bad "info --csv: N of the h grid"
# the summary CSV of a sweep collects the same columns (collect.sh keeps the
# first header): checked in tests/cli/sweep.sh

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
