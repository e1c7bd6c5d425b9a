#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of enclose / verify / check / export / plot and of the
# committed certificates in certs/.
# usage: bash tests/cli/dlvi.sh DVICERT SRCROOT
# Exact reference trajectories come from tests/gen_traj.c (closed forms at 256
# bits, independent of the engine); it is taken from the build directory (the
# working directory under meson) or compiled here.
# Every enclose here names the Algorithm 4.2 route (--method chen-wang), whose
# step condition, bounds and messages these tests are about.
set -u
exe=${1:?usage: dlvi.sh DVICERT SRCROOT}
src=${2:?usage: dlvi.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

gen=$(ref_tool gen_traj) || exit 1

# ---- 1. every committed certificate re-verifies ------------------------------
n=0
for c in "$src"/certs/*/*.cert.json; do
    [ -e "$c" ] || continue
    n=$((n + 1))
    expect 0 "accepted" "verify $(basename "$(dirname "$c")")/$(basename "$c")" -- "$exe" verify "$c"
done
[ "$n" -ge 10 ] && ok || bad "expected at least 10 committed certificates, found $n"

# ---- 2. enclose from a problem file, then verify -----------------------------
cp "$src/certs/bridge/gamma0.2.json" "$tmp/b.json"
expect 0 "certified: 1000 steps" "enclose bridge" -- "$exe" enclose --method chen-wang "$tmp/b.json" -o "$tmp/b.cert.json"
expect 0 "accepted" "verify fresh bridge certificate" -- "$exe" verify "$tmp/b.cert.json"
C="$tmp/b.cert.json"

# ---- 3. tampering is rejected ------------------------------------------------
# the line of step 500 (t = 0.5)
line=$(grep -n '^    {"t":"0.5",' "$C" | cut -d: -f1)
[ -n "$line" ] && ok || bad "step 500 not found in the certificate"
# (a) lower one bound: eps_x of step 500 divided by ten (exponent - 1)
awk -v L="$line" 'NR == L { match($0, /"eps_x":"[^"]*"/); v = substr($0, RSTART + 9, RLENGTH - 10);
    $0 = substr($0, 1, RSTART - 1) sprintf("\"eps_x\":\"%.11e\"", v / 10) substr($0, RSTART + RLENGTH) } { print }' "$C" > "$tmp/t1.json"
cmp -s "$C" "$tmp/t1.json" && bad "tamper (a) changed nothing" || ok
expect 1 "step 500, field 'eps_x'" "lowered bound rejected" -- "$exe" verify "$tmp/t1.json"
# (b) one predictor digit: first fraction hex digit of x1 at step 500
awk -v L="$line" 'NR == L { match($0, /"x":\["-?0x1\.[0-9a-f]/); s = substr($0, RSTART, RLENGTH);
    d = substr(s, length(s), 1); r = (d == "0") ? "8" : "0"; t = substr(s, 1, length(s) - 1) r;
    $0 = substr($0, 1, RSTART - 1) t substr($0, RSTART + RLENGTH) } { print }' "$C" > "$tmp/t2.json"
cmp -s "$C" "$tmp/t2.json" && bad "tamper (b) changed nothing" || ok
expect 1 "rejected" "changed predictor digit rejected" -- "$exe" verify "$tmp/t2.json"
# (c) the least significant hex digit of the same predictor value
awk -v L="$line" 'NR == L { match($0, /"x":\["-?0x1\.[0-9a-f]+p/); s = substr($0, RSTART, RLENGTH - 1);
    d = substr(s, length(s), 1); r = (d == "2") ? "4" : "2"; t = substr(s, 1, length(s) - 1) r;
    $0 = substr($0, 1, RSTART - 1) t substr($0, RSTART + RLENGTH - 1) } { print }' "$C" > "$tmp/t3.json"
cmp -s "$C" "$tmp/t3.json" && bad "tamper (c) changed nothing" || ok
expect 1 "rejected" "last-digit predictor change rejected" -- "$exe" verify "$tmp/t3.json"
# (d) edit the embedded problem (forcing term), keeping everything else
sed 's/"sin(4\*t)"/"sin(4*t)+0.001"/' "$C" > "$tmp/t4.json"
expect 1 "field 'problem'" "edited problem rejected" -- "$exe" verify "$tmp/t4.json"
# (e) edit the problem's initial value (gamma)
sed 's/"gamma":"0.2"/"gamma":"0.21"/' "$C" > "$tmp/t5.json"
expect 1 "field 'problem'" "edited initial value rejected" -- "$exe" verify "$tmp/t5.json"
# (f) raise a bound: still true, but the digest says the file was edited
awk -v L="$line" 'NR == L { sub(/"eps_x":"1\./, "\"eps_x\":\"2.") } { print }' "$C" > "$tmp/t6.json"
expect 1 "digest" "edited (raised) bound detected" -- "$exe" verify "$tmp/t6.json"
# (g) unusable files
echo '{"format": "dvicert-certificate", "version": 1' > "$tmp/t7.json"
expect 2 "malformed JSON" "truncated certificate is unusable" -- "$exe" verify "$tmp/t7.json"
sed 's/"x":\["0x/"x":["1.5e0x/' "$C" > "$tmp/t8.json"
expect 2 "hexadecimal float" "non-hex predictor is unusable" -- "$exe" verify "$tmp/t8.json"
expect 2 "" "missing certificate file" -- "$exe" verify "$tmp/nonexistent.json"

# ---- 4. check: exact solutions inside, perturbed ones outside -----------------
"$gen" bridge 0.2 1 10000 20121 > "$tmp/exact.csv"
expect 0 "inside: 0 of 10000" "exact bridge solution (10000 random times) inside" -- "$exe" check "$C" "$tmp/exact.csv"
grep -q "worst x margin: [0-9]" "$tmp/out" && ok || bad "worst margin should be positive"
# perturbation 0.5 > max eps_x = 0.4652...: every sample outside
"$gen" bridge 0.2 1 10000 20121 0.5 > "$tmp/pert.csv"
expect 1 "VIOLATED: 10000 of 10000" "perturbed bridge solution rejected" -- "$exe" check "$C" "$tmp/pert.csv"
grep -q "^violation: line 2 t = \[0, 0\] x1" "$tmp/out" && ok || bad "violation lines name line, t and component"
# the other gammas, committed certificates
for g in 1.0 2.0; do
    "$gen" bridge $g 1 2000 $((7 + ${#g})) > "$tmp/e$g.csv"
    expect 0 "inside: 0 of 2000" "exact bridge gamma=$g inside" -- "$exe" check "$src/certs/bridge/gamma$g.cert.json" "$tmp/e$g.csv"
done
# with contact phases: from x(0) = (0.1, -0.5) the contact (x1 < 0, y > 0)
# holds most of [0, 1]; the exact y is checked against the y tube too
sed -e 's/"x0": \[0, "gamma"\]/"x0": ["0.1", "-0.5"]/' "$src/certs/bridge/gamma0.2.json" > "$tmp/sw.json"
expect 0 "certified" "enclose bridge with contact" -- "$exe" enclose --method chen-wang "$tmp/sw.json" -o "$tmp/sw.cert.json"
"$gen" bridgesw 0.1 -0.5 1 5000 77 > "$tmp/sw.csv"
awk -F, 'NR > 1 && $4 > 1e-3 { n++ } END { exit !(n > 500) }' "$tmp/sw.csv" && ok || bad "reference: contact (y > 0) expected on many samples"
expect 0 "inside: 0 of 5000" "exact bridge with contact inside (x and y)" -- "$exe" check "$tmp/sw.cert.json" "$tmp/sw.csv"
# y shifted by more than the y tube where y > 0: outside
awk -F, -v OFS=, 'NR > 1 && $4 > 1e-3 { $4 = $4 + 10 } { print }' "$tmp/sw.csv" > "$tmp/swy.csv"
expect 1 "VIOLATED" "contact force perturbed: y outside its tube" -- "$exe" check "$tmp/sw.cert.json" "$tmp/swy.csv"
grep -q "^violation: .* y1 = " "$tmp/out" && ok || bad "y violations are reported as y1"
# Remark 4.3 closed form x = y1 = 2 - e^t, y2 = 0 against the sharpened tube
"$gen" remark43 10 0.5 5000 43 > "$tmp/r.csv"
expect 0 "inside: 0 of 5000" "Remark 4.3 closed form inside (sharpened)" -- "$exe" check "$src/certs/remark43/x0_1.sharpen.cert.json" "$tmp/r.csv"
expect 0 "inside: 0 of 5000" "Remark 4.3 closed form inside (beta_M)" -- "$exe" check "$src/certs/remark43/x0_1.cert.json" "$tmp/r.csv"
"$gen" remark43 10 0.5 5000 43 0.02 > "$tmp/rp.csv"
expect 1 "VIOLATED" "Remark 4.3 perturbed by 0.02 rejected" -- "$exe" check "$src/certs/remark43/x0_1.sharpen.cert.json" "$tmp/rp.csv"
# unsorted (reversed) samples are fine; x columns only; columns in any order
{ head -1 "$tmp/exact.csv"; tail -n +2 "$tmp/exact.csv" | sort -r -t, -k1,1; } > "$tmp/rev.csv"
expect 0 "inside" "reversed times accepted" -- "$exe" check "$C" "$tmp/rev.csv"
cut -d, -f1-3 "$tmp/exact.csv" > "$tmp/xonly.csv"
expect 0 "inside" "x columns only" -- "$exe" check "$C" "$tmp/xonly.csv"
awk -F, -v OFS=, '{ print $3, $1, $4, $2 }' "$tmp/exact.csv" > "$tmp/perm.csv"
expect 0 "inside" "permuted columns" -- "$exe" check "$C" "$tmp/perm.csv"
# one bad sample among good ones is reported with its line
awk -F, -v OFS=, 'NR == 101 { $2 = $2 + 1 } { print }' "$tmp/exact.csv" > "$tmp/one.csv"
expect 1 "violation: line 101 " "single violation reported" -- "$exe" check "$C" "$tmp/one.csv"
# unusable trajectories
{ cat "$tmp/exact.csv"; echo "1.5,0.1,0.2,0"; } > "$tmp/late.csv"
expect 2 "line 10002: t = 1.5 lies outside" "time after T" -- "$exe" check "$C" "$tmp/late.csv"
{ head -3 "$tmp/exact.csv"; echo "-0.001,0.1,0.2,0"; } > "$tmp/early.csv"
expect 2 "line 4: t = -0.001 lies outside" "negative time" -- "$exe" check "$C" "$tmp/early.csv"
cut -d, -f1,2 "$tmp/exact.csv" > "$tmp/missing.csv"
expect 2 "missing column 'x2'" "missing column" -- "$exe" check "$C" "$tmp/missing.csv"
{ head -5 "$tmp/exact.csv"; echo "0.5,abc,0.2,0"; } > "$tmp/nonnum.csv"
expect 2 "line 6: column 'x1': 'abc'" "non-numeric value" -- "$exe" check "$C" "$tmp/nonnum.csv"
{ echo "t,x1,x2,z"; echo "0,0,0.2,0"; } > "$tmp/unk.csv"
expect 2 "unknown column 'z'" "unknown column" -- "$exe" check "$C" "$tmp/unk.csv"
{ head -5 "$tmp/exact.csv"; echo "0.5,0.1"; } > "$tmp/short.csv"
expect 2 "line 6: 2 fields" "short row" -- "$exe" check "$C" "$tmp/short.csv"
: > "$tmp/empty.csv"
expect 2 "empty file" "empty trajectory" -- "$exe" check "$C" "$tmp/empty.csv"
expect 1 "rejected certificate" "check refuses a tampered certificate" -- "$exe" check "$tmp/t1.json" "$tmp/exact.csv"

# ---- 5. bad problem files: clear errors naming the field, no output ----------
mk() { # mk NAME SED-EXPRESSION: a broken copy of the bridge problem
    sed "$2" "$src/certs/bridge/gamma0.2.json" > "$tmp/$1.json"
}
run_bad() { # run_bad NAME RC PATTERN DESCRIPTION
    expect "$2" "$3" "$4" -- "$exe" enclose --method chen-wang "$tmp/$1.json" -o "$tmp/$1.cert.json"
    absent "$tmp/$1.cert.json" "$4"
}
mk nonp 's/"M": \[\[1\]\]/"M": [[-1]]/'
run_bad nonp 1 "P-matrix" "non-P M"
cat > "$tmp/nonp2.json" <<'EOF'
{"A": [[-1]], "B": [[1, 1]], "Q": [[1], [1]], "M": [[0, 1], [1, 0]], "l": [0, 0],
 "u": ["inf", "inf"], "x0": [1], "T": 1, "N": 10}
EOF
run_bad nonp2 1 "P-matrix" "non-P M (2x2, zero diagonal)"
mk hbig 's/"h": "0.001"/"h": "0.5"/'
run_bad hbig 1 "step" "h too large (h >= 1/(L - theta ||A||))"
# h = 0.3 does not divide T = 0.95, and a decimal T is only an interval:
# no exact end for the shorter last step (tests/cli/grid.sh has the rest)
mk hdiv 's/"h": "0.001"/"h": "0.3"/; s/"T": 1,/"T": "0.95",/'
run_bad hdiv 2 "field 'h'.*field 'T'" "h does not divide a decimal T"
mk unkfun 's/"sin(4\*t)"/"sinh4(4*t)"/'
run_bad unkfun 2 "field 'f' entry 2" "unknown function"
mk malformed 's/"sin(4\*t)"/"sin(4*t"/'
run_bad malformed 2 "field 'f' entry 2" "malformed expression"
mk dimB 's/"B": \[\[0\], \[-1\]\]/"B": [[0], [-1], [2]]/'
run_bad dimB 2 "field 'B'.*dimension mismatch" "dimension mismatch (B)"
mk dimf 's/"f": \["0", "sin(4\*t)"\]/"f": ["0", "sin(4*t)", "1"]/'
run_bad dimf 2 "field 'f' has 3 entries" "dimension mismatch (f)"
mk dimx0 's/"x0": \[0, "gamma"\]/"x0": [0]/'
run_bad dimx0 2 "field 'x0'" "dimension mismatch (x0)"
mk noT 's/"T": 1,//'
run_bad noT 2 "missing field 'T'" "missing T"
mk typo 's/"theta": 1/"theta": 1, "thetta": 0/'
run_bad typo 2 "unknown field 'thetta'" "unknown key"
mk badnum 's/"M": \[\[1\]\]/"M": [["1.2.3"]]/'
run_bad badnum 2 "field 'M' row 1 column 1" "malformed number"
mk badtheta 's/"theta": 1/"theta": 2/'
run_bad badtheta 2 "field 'theta'" "theta outside [0, 1]"
mk lu 's/"u": \["inf"\]/"u": [-1]/'
run_bad lu 2 "need l < u" "l >= u"
# a stated Lipschitz constant is a claim: confirmed (4 = max |d/dt sin 4t|) or refused
mk lipok 's/"sin(4\*t)"/{"expr": "sin(4*t)", "lipschitz": "4"}/'
expect 0 "certified" "stated Lipschitz constant 4 confirmed" -- "$exe" enclose --method chen-wang "$tmp/lipok.json" -o "$tmp/lipok.cert.json"
expect 0 "accepted" "certificate with a stated Lipschitz constant verifies" -- "$exe" verify "$tmp/lipok.cert.json"
mk lipbad 's/"sin(4\*t)"/{"expr": "sin(4*t)", "lipschitz": "3.9"}/'
run_bad lipbad 1 "stated Lipschitz constant 3.9 could not be confirmed" "stated Lipschitz constant too small"
# the lognorm route does not use the constant but confirms it on every step too
expect 1 "stated Lipschitz constant 3.9 could not be confirmed" "lognorm: stated constant too small" -- \
    "$exe" enclose --method lognorm "$tmp/lipbad.json" -o "$tmp/lipbad.cert.json"
absent "$tmp/lipbad.cert.json" "lognorm: stated constant too small"
expect 0 "certified" "lognorm: stated constant 4 confirmed" -- \
    "$exe" enclose --method lognorm "$tmp/lipok.json" -o "$tmp/lipok2.cert.json"
expect 0 "accepted" "lognorm: the certificate with a stated constant verifies" -- "$exe" verify "$tmp/lipok2.cert.json"
mk lipneg 's/"sin(4\*t)"/{"expr": "sin(4*t)", "lipschitz": "-1"}/'
run_bad lipneg 2 "'lipschitz': must be a finite number >= 0" "negative Lipschitz constant"
mk lipkey 's/"sin(4\*t)"/{"expr": "sin(4*t)", "lipshitz": "4"}/'
run_bad lipkey 2 "unknown key 'lipshitz'" "misspelt key next to expr"
echo '{"A": [[0]],' > "$tmp/json.json"
run_bad json 2 "malformed JSON at line" "malformed JSON"
# tabulated data: a good CSV table, then broken AT2 / CSV files
printf 't,v\n0,0\n0.5,1\n1,0\n' > "$tmp/tab.csv"
mk tabok 's/"sin(4\*t)"/{"csv": "tab.csv", "scale": "2"}/'
expect 0 "certified" "tabulated CSV forcing" -- "$exe" enclose --method chen-wang "$tmp/tabok.json" -o "$tmp/tabok.cert.json"
rm "$tmp/tab.csv"
expect 0 "accepted" "verify is self-contained (table file removed)" -- "$exe" verify "$tmp/tabok.cert.json"
printf 'PEER NGA\nrecord\nACCELERATION IN G\nNPTS= 5, DT= 0.5 SEC\n0.1 0.2 x 0.4 0.5\n' > "$tmp/bad.AT2"
mk at2 's/"sin(4\*t)"/{"at2": "bad.AT2"}/'
run_bad at2 2 "field 'f' entry 2.*bad.AT2" "bad AT2 file"
printf 'PEER NGA\nrecord\nACCELERATION IN G\nNPTS= 3, DT= 0.1 SEC\n0.1 0.2 0.3\n' > "$tmp/short.AT2"
mk at2short 's/"sin(4\*t)"/{"at2": "short.AT2"}/'
run_bad at2short 2 "must cover \[0, T\]" "AT2 record shorter than T"
mk nofile 's/"sin(4\*t)"/{"csv": "nonexistent.csv"}/'
run_bad nofile 2 "nonexistent.csv" "missing table file"
# an output path that cannot be written: nothing left, clear error
expect 2 "cannot write" "unwritable output" -- "$exe" enclose --method chen-wang "$tmp/b.json" -o "$tmp/no/such/dir/c.json"

# ---- 6. export and plot -------------------------------------------------------
expect 0 "wrote" "export" -- "$exe" export "$C" -o "$tmp/tube.csv"
lines=$(wc -l < "$tmp/tube.csv")
[ "$lines" -eq 2002 ] && ok || bad "export: $lines lines, expected 1 + 1001 grid + 1000 step rows"
head -1 "$tmp/tube.csv" | grep -q '^kind,t_lo,t_hi,x1_lo,x1_hi,x2_lo,x2_hi,y1_lo,y1_hi$' && ok || bad "export header"
# every step row's bounds contain the grid rows at both of its ends
awk -F, 'NR > 1 { if ($1 == "step") { for (k = 4; k <= NF; k += 2) if (g[k] < $k || g[k + 1] > $(k + 1)) bad++ }
    else for (k = 4; k <= NF; k++) g[k] = $k } END { exit bad > 0 }' "$tmp/tube.csv" && ok || bad "export: step rows must contain the grid rows"
# --w: enclosures of w = Q x + M y + g; for the bridge w = 3 x1 + y, and the
# exact x1 (y = 0) at each grid time must lie in w / 3 -- checked on the rows
# of the x columns: w must contain 3 * [x1_lo, x1_hi] + [y1_lo, y1_hi]
expect 0 "wrote" "export --w" -- "$exe" export "$C" -o "$tmp/tubew.csv" --w
head -1 "$tmp/tubew.csv" | grep -q ',w1_lo,w1_hi$' && ok || bad "export --w header"
awk -F, 'NR > 1 && $1 == "grid" { if ($10 > 3 * $4 + $8 + 1e-12 || $11 < 3 * $5 + $9 - 1e-12 || $10 > $11) bad++ }
    END { exit bad > 0 }' "$tmp/tubew.csv" && ok || bad "export --w: w = 3 x1 + y not enclosed"
expect 0 "wrote" "export --w (circuit currents)" -- "$exe" export "$src/certs/circuit/circuit.cert.json" -o "$tmp/cw.csv" --w
expect 2 "unusable" "export of a broken certificate" -- "$exe" export "$tmp/t7.json" -o "$tmp/tube2.csv"
absent "$tmp/tube2.csv" "export failure"
if command -v gnuplot > /dev/null 2>&1; then
    expect 0 "wrote" "plot png" -- "$exe" plot "$C" -o "$tmp/b.png"
    head -c 8 "$tmp/b.png" | od -An -c | grep -q "P   N   G" && ok || bad "plot: not a PNG file"
    expect 0 "wrote" "plot svg" -- "$exe" plot "$src/certs/circuit/circuit.cert.json" -o "$tmp/c.svg"
    grep -q "<svg" "$tmp/c.svg" && ok || bad "plot: not an SVG file"
    ls "$tmp"/*.tmp.* > /dev/null 2>&1 && bad "plot left a temporary file" || ok
else
    echo "SKIP: plot tests (gnuplot not installed: apt-get install gnuplot-nox)"
fi
expect 2 "gnuplot-nox" "plot without gnuplot: clear error" -- env DVC_GNUPLOT=/nonexistent/gnuplot "$exe" plot "$C" -o "$tmp/none.png"
absent "$tmp/none.png" "plot without gnuplot"
expect 2 ".png or .svg" "plot: unknown format" -- "$exe" plot "$C" -o "$tmp/x.gif"

# ---- 7. y tubes are met with [l, u] (y solves the LVI: for the bridge y >= l = 0) --
# On [0.4, 0.6] the certificate's yhat is [0, 0] and ry > 0.01, so y = -0.01
# lies in yhat +- ry; it is below l, hence outside the tube check uses.
awk -F'"' '/"t":"0\.[45][0-9]*"/ { t = $4 + 0; if (t > 0.4 && t < 0.6) { n++; if ($0 !~ /"yhat":\[\["0","0"\]\]/) b++;
    match($0, /"ry":"[^"]*"/); if (substr($0, RSTART + 6, RLENGTH - 7) + 0 <= 0.01) b++ } } END { exit !(n > 100 && b == 0) }' "$C" &&
    ok || bad "premise: yhat = [0, 0] and ry > 0.01 on [0.4, 0.6]"
awk -F, -v OFS=, 'NR == 1 || ($1 > 0.4 && $1 < 0.6) { if (NR > 1) $4 = "0.01"; print }' "$tmp/exact.csv" > "$tmp/ypos.csv"
expect 0 "inside: 0 of" "y = 0.01 inside the y tube" -- "$exe" check "$C" "$tmp/ypos.csv"
awk -F, -v OFS=, 'NR == 1 || ($1 > 0.4 && $1 < 0.6) { if (NR > 1) $4 = "-0.01"; print }' "$tmp/exact.csv" > "$tmp/yneg.csv"
ny=$(($(wc -l < "$tmp/yneg.csv") - 1))
expect 1 "VIOLATED: $ny of $ny" "y = -0.01 < l rejected although inside yhat +- ry" -- "$exe" check "$C" "$tmp/yneg.csv"
grep -q "^violation: .* y1 = \[-1[.0-9]*e-02, -9[.0-9]*e-03\] outside \[0, " "$tmp/out" && ok || bad "y below l: violation names y1 and the edge 0"
expect 1 "VIOLATED" "y = -0.01 < l rejected without re-verification" -- "$exe" check --no-verify "$C" "$tmp/yneg.csv"
# export never reports y below l = 0 (step and grid rows; y1_lo is column 8)
for cc in "$C" "$tmp/sw.cert.json"; do
    expect 0 "wrote" "export $(basename "$cc")" -- "$exe" export "$cc" -o "$tmp/yt.csv"
    awk -F, 'NR > 1 { n++; if ($8 < 0) b++; if ($8 == 0) z++ } END { exit !(n > 1000 && b == 0 && z > 0) }' "$tmp/yt.csv" &&
        ok || bad "export $(basename "$cc"): y1_lo < 0 in some row (or the clip never applied)"
done
# plot: the data handed to gnuplot (a stand-in program records it) never has
# y below l; columns t, then predictor min, max, lower, upper per component:
# y1 lower is 12; N = 1000 steps in the default 900 pixel columns
fake_gnuplot "$tmp/fakegp"
expect 0 "wrote" "plot with a recording gnuplot" -- env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$C" -o "$tmp/rec.png"
awk -F, '/^EOD/ { d = 0 } d { n++; if ($12 < 0) b++; if ($12 == 0) z++ } /<< EOD/ { d = 1 }
    END { exit !(n == 900 && b == 0 && z > 0) }' "$tmp/gp.in" && ok || bad "plot: y lower curve below l = 0"

# ---- 8. precision retry (--prec-max) -------------------------------------------
# M = [[1, 1], [1, 1 + 1e-20]] is a P-matrix (det 1e-20), but at 53 bits its
# entry "1.00000000000000000001" is enclosed by [1, 1 + 2^-52], so the minor
# cannot be proven > 0; at 106 bits it can. B = 0 keeps the step condition.
cat > "$tmp/ns.json" <<'EOS'
{"A": [[-1]], "B": [[0, 0]], "Q": [[0], [0]],
 "M": [[1, 1], [1, "1.00000000000000000001"]], "l": [0, 0], "u": ["inf", "inf"],
 "g": ["1", "1"], "x0": [1], "T": 1, "N": 10}
EOS
run_bad ns 1 "not proven to be a P-matrix" "near-singular M at 53 bits, no retry by default"
grep -q "prec-max" "$tmp/out" && ok || bad "failure at 53 bits mentions --prec-max"
expect 1 "not proven" "--prec-max 100 < 106: no retry" -- "$exe" enclose --method chen-wang "$tmp/ns.json" -o "$tmp/ns.cert.json" --prec-max 100
absent "$tmp/ns.cert.json" "--prec-max too small"
expect 0 "raised from 53 to 106 bits" "--prec-max 212 retries at 106 bits" -- "$exe" enclose --method chen-wang "$tmp/ns.json" -o "$tmp/ns.cert.json" --prec-max 212
grep -q "certified: 10 steps .* 106 bits" "$tmp/out" && ok || bad "enclose prints the precision used"
grep -q '"precision": 106' "$tmp/ns.cert.json" && ok || bad "the certificate records 106 bits"
expect 0 "(106 bits" "the 106-bit certificate verifies at 106 bits" -- "$exe" verify "$tmp/ns.cert.json"
expect 0 "certified: 10 steps .* 106 bits" "--prec 106 directly" -- "$exe" enclose --method chen-wang "$tmp/ns.json" -o "$tmp/ns2.cert.json" --prec=106
expect 1 "raised from 53 to 106 bits" "--prec-max: the failure names the precisions tried" -- "$exe" enclose --method chen-wang "$tmp/nonp.json" -o "$tmp/np.cert.json" --prec-max 106
absent "$tmp/np.cert.json" "--prec-max, not certified"
expect 2 "--prec-max must be an integer" "--prec-max out of range" -- "$exe" enclose --method chen-wang "$tmp/ns.json" -o "$tmp/ns3.cert.json" --prec-max 10
expect 2 "needs a number of bits" "--prec-max without a value" -- "$exe" enclose --method chen-wang "$tmp/ns.json" -o "$tmp/ns3.cert.json" --prec-max

# ---- 9. common options: refused where they have no meaning; --help -------------
expect 2 "option --prec has no effect here" "verify --prec refused" -- "$exe" verify "$C" --prec 106
expect 2 "option --prec has no effect here" "check --prec refused" -- "$exe" check "$C" "$tmp/exact.csv" --prec=106
expect 2 "option --digits has no effect here" "verify --digits refused" -- "$exe" verify "$C" --digits 5
expect 2 "option --digits has no effect here" "enclose --digits refused" -- "$exe" enclose --method chen-wang "$tmp/b.json" -o "$tmp/d.cert.json" --digits 5
absent "$tmp/d.cert.json" "enclose --digits"
expect 2 "option --digits has no effect here" "plot --digits refused" -- "$exe" plot "$C" -o "$tmp/d.png" --digits 5
expect 2 "option --digits has no effect here" "classify --digits refused" -- "$exe" classify "$src/certs/lvi/lcp2.json" --digits 5
expect 0 "worst x margin: [0-9][.][0-9][0-9]e-[0-9]* " "check --digits 3 honoured" -- "$exe" check "$C" "$tmp/xonly.csv" --digits 3
expect 0 "wrote" "export --digits 5" -- "$exe" export "$C" -o "$tmp/d5.csv" --digits 5
awk -F, 'NR > 1 { for (k = 2; k <= NF; k++) { s = $k; sub(/^-/, "", s); sub(/e.*/, "", s); gsub(/[.]/, "", s); sub(/^0+/, "", s); if (length(s) > 5) b++ } }
    END { exit b > 0 }' "$tmp/d5.csv" && ok || bad "export --digits 5: more than 5 digits"
for cmd in lvi beta classify enclose verify check export plot; do
    expect 0 "usage: dvicert $cmd" "$cmd --help" -- "$exe" $cmd --help
    expect 0 "usage: dvicert $cmd" "help $cmd" -- "$exe" help $cmd
done
# --help as the value of an option is a value, not a help request
if command -v gnuplot > /dev/null 2>&1; then
    expect 0 "wrote" "plot --title --help: a title" -- "$exe" plot "$C" -o "$tmp/h.png" --title --help
fi
expect 0 "wrote" "plot --title --help (recording gnuplot)" -- env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$C" -o "$tmp/h2.png" --title --help
grep -q "title '--help'" "$tmp/gp.in" && ok || bad "plot --title --help: the title is '--help'"
expect 2 "cannot write" "-o --help is a file name" -- "$exe" export "$C" -o "$tmp/no/--help"

report
