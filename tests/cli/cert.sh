#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of check, export and plot against certificates: no false
# violations, separate x / y margins, the capped violation report, trimmed
# CSV headers, verification by default in export and plot, strict
# certificate keys and the precision cap.
# usage: bash tests/cli/cert.sh DVICERT SRCROOT
set -u
exe=${1:?usage: cert.sh DVICERT SRCROOT}
src=${2:?usage: cert.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# ---- exact equilibrium: eps_x = 0, every sample x0 is inside -----------------
# x' = -x + y + 1, y in SOL([0, inf), x + y - 1, 1): at x0 = 1, y = 0 and x' = 0
cat > "$tmp/eq.json" <<'EOF'
{"A": [[-1]], "B": [[1]], "f": ["1"], "Q": [[1]], "M": [[1]], "g": ["-1"],
 "l": [0], "u": ["inf"], "x0": [1], "T": "1", "N": 100, "theta": 1}
EOF
expect 0 "eps_x at T <= 0, max eps_x <= 0" "enclose equilibrium (sharpened)" -- \
    "$exe" enclose "$tmp/eq.json" -o "$tmp/eq.cert.json" --sharpen
awk 'BEGIN { srand(7); print "t,x1,y1"; print "0,1,0"; print "1,1,0";
    for (i = 0; i < 500; i++) printf "%.17g,1,0\n", rand() }' > "$tmp/eq.csv"
expect 0 "inside: 0 of 502" "equilibrium samples inside a zero-width tube" -- "$exe" check "$tmp/eq.cert.json" "$tmp/eq.csv"
grep -q "^worst x margin: 0 " "$tmp/out" && ok || bad "x margin of the equilibrium should be 0"
# y = 0 lies on l: its margin is reported apart from the x margin
grep -q "^worst y margin: " "$tmp/out" && ok || bad "no separate y margin"
sed 's/^\([^t][^,]*\),1,0$/\1,1.0000000000000000000001,0/' "$tmp/eq.csv" > "$tmp/eqp.csv"
expect 1 "outside: 502 of 502" "x0 + 1e-22 outside the zero-width tube" -- "$exe" check "$tmp/eq.cert.json" "$tmp/eqp.csv"

# ---- capped violation report --------------------------------------------------
n=$(grep -c '^violation: ' "$tmp/out")
[ "$n" -eq 20 ] && ok || bad "default report: $n violation lines, expected 20"
grep -q "^\.\.\. 482 more violations not listed" "$tmp/out" && ok || bad "no summary of the unlisted violations"
expect 1 "outside: 502 of 502" "--max-report 3" -- "$exe" check "$tmp/eq.cert.json" "$tmp/eqp.csv" --max-report 3
n=$(grep -c '^violation: ' "$tmp/out")
[ "$n" -eq 3 ] && ok || bad "--max-report 3: $n violation lines"
expect 1 "outside: 502 of 502" "--max-report -1 lists all" -- "$exe" check "$tmp/eq.cert.json" "$tmp/eqp.csv" --max-report=-1
n=$(grep -c '^violation: ' "$tmp/out")
[ "$n" -eq 502 ] && ok || bad "--max-report -1: $n violation lines, expected 502"
expect 2 "--max-report must be" "--max-report x refused" -- "$exe" check "$tmp/eq.cert.json" "$tmp/eqp.csv" --max-report x

# ---- a file in time order is streamed, any other read whole: the same report --
# (the samples of eqp.csv are in random order; sorted, the file is checked
# as it is read, one sample at a time)
{ head -n 1 "$tmp/eqp.csv"; tail -n +2 "$tmp/eqp.csv" | sort -t, -k1,1g; } > "$tmp/eqs.csv"
"$exe" check "$tmp/eq.cert.json" "$tmp/eqp.csv" --max-report=-1 > "$tmp/whole.txt" 2>&1
"$exe" check "$tmp/eq.cert.json" "$tmp/eqs.csv" --max-report=-1 > "$tmp/stream.txt" 2>&1
[ "$?" -eq 1 ] && ok || bad "check of the sorted file: exit status $?"
# the rows moved: compare without line numbers, as sets
if diff <(sed 's/line [0-9]*/line L/' "$tmp/whole.txt" | sort) <(sed 's/line [0-9]*/line L/' "$tmp/stream.txt" | sort) >/dev/null
then ok; else bad "a sorted file: another report than read whole"; fi
grep -q "^violation: line 2 t = \[0" "$tmp/stream.txt" && ok || bad "sorted file: the first violation is not line 2 (t = 0)"

# ---- header names are trimmed --------------------------------------------------
printf 't ,x1 , y1\n0.5, 1 ,0\n' > "$tmp/sp.csv"
expect 0 "inside: 0 of 1" "header 't ,x1 , y1' accepted" -- "$exe" check "$tmp/eq.cert.json" "$tmp/sp.csv"

# ---- export and plot verify by default ------------------------------------------
C="$src/certs/remark43/x0_1.cert.json"
# a bound lowered (the digest no longer matches: verify rejects)
awk 'NR == 100 { sub(/"eps_x":"[0-9]/, "\"eps_x\":\"0") } { print }' "$C" > "$tmp/bad.json"
cmp -s "$C" "$tmp/bad.json" && bad "tamper changed nothing" || ok
expect 1 "rejected certificate" "export refuses a rejected certificate" -- "$exe" export "$tmp/bad.json" -o "$tmp/bad.csv"
absent "$tmp/bad.csv" "export of a rejected certificate"
expect 0 "NOT re-verified" "export --no-verify says so" -- "$exe" export "$tmp/bad.json" -o "$tmp/nv.csv" --no-verify
head -1 "$tmp/nv.csv" | grep -q "^# certificate NOT re-verified" && ok || bad "export --no-verify: CSV does not say so"
expect 0 "certificate verified" "export verifies a good certificate" -- "$exe" export "$C" -o "$tmp/ok.csv"
head -1 "$tmp/ok.csv" | grep -q "^kind," && ok || bad "export: verified CSV starts with the header"
fake_gnuplot "$tmp/fakegp"
expect 1 "rejected certificate" "plot refuses a rejected certificate" -- env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$tmp/bad.json" -o "$tmp/bad.png"
absent "$tmp/bad.png" "plot of a rejected certificate"
# the same words from check, export and plot: a rejection (exit 1) names the
# file and what was not done; an unusable file (exit 2) names the command
grep -q "^rejected certificate: $tmp/bad.json: .* (nothing plotted)\$" "$tmp/out" && ok || bad "plot: rejection line"
expect 1 "^rejected certificate: $tmp/bad.json: .* (nothing written)\$" "export: rejection line" -- "$exe" export "$tmp/bad.json" -o "$tmp/bad.csv"
printf 't,x1,y1,y2\n0,1,1,0\n' > "$tmp/r43.csv"
expect 1 "^rejected certificate: $tmp/bad.json: [^(]*\$" "check: rejection line" -- "$exe" check "$tmp/bad.json" "$tmp/r43.csv"
printf 'not a certificate\n' > "$tmp/junk.json"
expect 2 "^dvicert check: unusable certificate: " "check: unusable certificate" -- "$exe" check "$tmp/junk.json" "$tmp/r43.csv"
expect 2 "^dvicert export: unusable certificate: " "export: unusable certificate" -- "$exe" export "$tmp/junk.json" -o "$tmp/junk.csv"
absent "$tmp/junk.csv" "export of an unusable certificate"
expect 2 "^dvicert plot: unusable certificate: " "plot: unusable certificate" -- env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$tmp/junk.json" -o "$tmp/junk.png"
absent "$tmp/junk.png" "plot of an unusable certificate"
expect 0 "NOT re-verified" "plot --no-verify says so" -- env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$tmp/bad.json" -o "$tmp/nv.png" --no-verify
grep -q "certificate NOT re-verified" "$tmp/gp.in" && ok || bad "plot --no-verify: the figure title does not say so"
expect 0 "certificate: .* verified" "plot verifies a good certificate" -- env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$C" -o "$tmp/ok.png"

# ---- strict certificates -----------------------------------------------------------
sed 's/"summary": *{/&"eps_x_everywhere_upper":"1e-30",/' "$C" > "$tmp/unk.json"
expect 2 "unknown key 'eps_x_everywhere_upper'" "unknown summary key refused" -- "$exe" verify "$tmp/unk.json"
sed '0,/"t":"/s//"tt":"0","t":"/' "$C" > "$tmp/unk2.json"
expect 2 "step 0: unknown key 'tt'" "unknown step key refused" -- "$exe" verify "$tmp/unk2.json"
sed 's/^{$/{"claim": "all bounds hold",/' "$C" > "$tmp/unk3.json"
expect 2 "unknown key 'claim'" "unknown top-level key refused" -- "$exe" check "$tmp/unk3.json" "$tmp/sp.csv"

# ---- precision cap ---------------------------------------------------------------------
sed 's/"precision": *53/"precision": 65536/' "$C" > "$tmp/p.json"
expect 2 "field 'precision': 65536 bits is outside \[24, 4096\]" "precision above the cap refused" -- "$exe" verify "$tmp/p.json"
expect 2 "at most 4096" "enclose above the cap refused" -- "$exe" enclose "$tmp/eq.json" -o "$tmp/p2.cert.json" --prec 8192
absent "$tmp/p2.cert.json" "enclose above the cap"

# ---- a certified bound is finite ----------------------------------------------------------
# x0 beyond the double range used to overflow the engine's ry, and the
# certificate was written and then refused as unusable by every reader. It is
# now refused at input, naming the field (the engine-level overflow of a bound
# is tests/test_dlvi.c, test_bound_overflow); nothing is written.
cat > "$tmp/big.json" <<'EOF'
{"A": [[0]], "B": [[1]], "Q": [[1]], "M": [[1]], "l": [0], "u": ["inf"], "x0": ["1e309"], "T": "1", "N": 10}
EOF
expect 2 "field 'x0' entry 1: must be finite" "x0 beyond binary64 refused at input" -- "$exe" enclose "$tmp/big.json" -o "$tmp/big.cert.json"
absent "$tmp/big.cert.json" "enclose with an overflowing bound"

report
