#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of a trajectory on its own non-uniform times (enclose
# --from, docs/lognorm.md section 9, docs/formats.md "Time grid"): the
# certificate's grid is the trajectory's times (the embedded problem states
# them as 'grid'), verify accepts it and rejects a grid time moved by one ulp
# and a lowered bound, the 256-bit reference lies inside at 10,000 random
# times, check of the trajectory itself finds every sample inside; problem
# files with a bad grid exit 2 naming the entry, with no output file; the
# routes that cannot step on a given grid refuse it; a uniform trajectory
# gives the certificate it gave before (tests/data/from_grid, written by the
# binary before time grids existed).
# usage: bash tests/cli/from_grid.sh DVICERT SRCROOT   (run in the build's tests dir)
set -u
exe=${1:?usage: from_grid.sh DVICERT SRCROOT}
src=${2:?usage: from_grid.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gen=./gen_traj

# the bridge (Example 5.1) from x(0) = (0, 1): contact phases in [0, 10]
cat > "$tmp/b10.json" <<EOF
{"A": [[0, 1], [-4, 0]], "B": [[0], [-1]], "f": ["0", "sin(4*t)"],
 "Q": [[3, 0]], "M": [[1]], "g": ["0"], "l": [0], "u": ["inf"],
 "x0": [0, 1], "T": "10", "N": 10000, "theta": 1}
EOF
# RK4 with a variable step between 5e-4 and 2e-3 (kinks of max(0, -3 x1)
# left to the integrator), the last steps landing on T exactly
rk4() { # T
    awk -v T="$1" 'function F(t, a, b, k) { k[1] = b; k[2] = -4 * a - (a < 0 ? -3 * a : 0) + sin(4 * t) }
BEGIN { x = 0; v = 1; t = 0; n = 0; print "t,x1,x2"; printf "%.17g,%.17g,%.17g\n", 0, x, v
  while (t < T) {
    h = 1.25e-3 + 7.5e-4 * sin(0.37 * n); t1 = t + h
    if (T - t < 2.5e-3) t1 = (T - t > 2e-3) ? t + 0.5 * (T - t) : T
    h = t1 - t
    F(t, x, v, k1); F(t + h / 2, x + h / 2 * k1[1], v + h / 2 * k1[2], k2)
    F(t + h / 2, x + h / 2 * k2[1], v + h / 2 * k2[2], k3); F(t1, x + h * k3[1], v + h * k3[2], k4)
    x += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]); v += h / 6 * (k1[2] + 2 * k2[2] + 2 * k3[2] + k4[2])
    t = t1; n++
    printf "%.17g,%.17g,%.17g\n", t, x, v } }'
}
rk4 10 > "$tmp/var.csv"
ns=$(($(wc -l < "$tmp/var.csv") - 1))

# ---- enclose --from on the trajectory's own times, verify, check ---------------
V=$tmp/var.cert.json
expect 0 "time grid" "enclose --from a variable-step trajectory" -- "$exe" enclose "$tmp/b10.json" --method lognorm --from "$tmp/var.csv" -o "$V"
grep -q "trajectory: $ns samples, not uniform: their own times are the certificate's time grid, \[0, 10\]" "$tmp/out" && ok ||
    bad "the report does not say the trajectory's times are the grid"
grep -qi "resampl\|within .* of the samples" "$tmp/out" && bad "the report still speaks of resampling" || ok
maxe=$(grep -o 'max eps_x <= [0-9.e+-]*' "$tmp/out" | awk '{ print $4 }')
awk -v e="$maxe" 'BEGIN { exit !(e > 0 && e < 1e-4) }' && ok || bad "max eps_x $maxe not below 1e-4"
grep -q '"problem": {.*"grid":\["0x0p+0",' "$V" && ok || bad "the embedded problem does not state the grid"
grep -q '"problem": {[^}]*"N":' "$V" && bad "the embedded problem states N besides the grid" || ok
# the steps are labelled with the trajectory's times: 0 and then the second sample's
t1=$(awk -F, 'NR == 3 { print $1 }' "$tmp/var.csv")
grep -q "^    {\"t\":\"$t1\"" "$V" && ok || bad "step 1 is not labelled $t1"
expect 0 "accepted: .*$((ns - 1)) steps" "verify the grid certificate" -- "$exe" verify "$V"
"$gen" bridgesw 0 1 10 10000 13 > "$tmp/ref.csv" 2>/dev/null || bad "gen_traj failed"
expect 0 "inside: 0 of 10000" "the 256-bit reference inside at 10,000 times" -- "$exe" check "$V" "$tmp/ref.csv"
expect 0 "inside: 0 of $ns" "every sample of the trajectory inside its own tube" -- "$exe" check "$V" "$tmp/var.csv"
expect 0 "wrote" "export of the grid certificate" -- "$exe" export "$V" -o "$tmp/var.tube.csv"
awk -F, '$1 == "grid" { n++ } END { exit n != '"$ns"' }' "$tmp/var.tube.csv" && ok ||
    bad "export: not one grid row per sample"
expect 0 "grid: $((ns - 1)) steps on the problem's time grid, of length 5.0000" "info on the grid certificate" -- "$exe" info "$V"

# ---- tampering: a grid time moved by one ulp, a bound lowered -----------------
# (the digest is left as is here; tests/test_cert.c repeats both with the
# digests recomputed, where the grid edit is rejected at the step's time)
awk 'BEGIN { hexd = "0123456789abcdef" }
/"grid":\[/ && !done {
    pre = substr($0, 1, index($0, "\"grid\":[") + 7); rest = substr($0, length(pre) + 1); k = 0
    while (match(rest, /"0x1\.[0-9a-f]+p[-+][0-9]+"/)) {
        e = substr(rest, RSTART, RLENGTH); k++
        p = index(e, "p"); d = substr(e, p - 1, 1); i = index(hexd, d)
        if (k >= 5 && i < 16) { e = substr(e, 1, p - 2) substr(hexd, i + 1, 1) substr(e, p); done = 1 }
        pre = pre substr(rest, 1, RSTART - 1) e; rest = substr(rest, RSTART + RLENGTH)
        if (done) break
    }
    $0 = pre rest }
{ print }' "$V" > "$tmp/t1.json"
cmp -s "$V" "$tmp/t1.json" && bad "grid time not edited" || ok
expect 1 "problem" "a grid time moved by one ulp rejected" -- "$exe" verify "$tmp/t1.json"
awk '/^    \{"t":/ { n++ } n == 3000 && !done { done = sub(/"eps_x":"[^"]*"/, "\"eps_x\":\"1e-30\"") } { print }' "$V" > "$tmp/t2.json"
cmp -s "$V" "$tmp/t2.json" && bad "eps_x not edited" || ok
expect 1 "eps_x" "a lowered bound rejected" -- "$exe" verify "$tmp/t2.json"
# the streaming reader cuts the grid out of the header only when every time
# is the text dvicert writes; another text of the same time (t_0 as
# 0x0.0p+0) is read whole, and its edit is still rejected by the digest
sed 's/"grid":\["0x0p+0",/"grid":["0x0.0p+0",/' "$V" > "$tmp/t3.json"
cmp -s "$V" "$tmp/t3.json" && bad "t_0 not rewritten" || ok
expect 1 "problem" "another text of t_0 rejected (digest)" -- "$exe" verify "$tmp/t3.json"
expect 1 "problem" "a grid time moved by one ulp rejected by check" -- "$exe" check "$tmp/t1.json" "$tmp/var.csv"

# ---- a trajectory past T: certified on [0, its first time >= T] ---------------
rk4 10.01 > "$tmp/past.csv"
expect 0 "later samples not used" "a trajectory past T" -- "$exe" enclose "$tmp/b10.json" --method lognorm --from "$tmp/past.csv" -o "$tmp/past.cert.json"
tend=$(awk -F, 'NR > 1 && $1 + 0 >= 10 { print $1; exit }' "$tmp/past.csv")
grep -q "time grid, \[0, $tend\]" "$tmp/out" && ok || bad "past T: the report does not state [0, $tend]"
expect 0 "accepted" "verify the certificate past T" -- "$exe" verify "$tmp/past.cert.json"

# ---- problem files with a time grid ------------------------------------------
grid_prob() { # GRID (the JSON array)
    cat <<EOF
{"A": [[0, 1], [-4, 0]], "B": [[0], [-1]], "f": ["0", "sin(4*t)"],
 "Q": [[3, 0]], "M": [[1]], "l": [0], "u": ["inf"], "x0": [0, 1], "T": 1, "grid": $1}
EOF
}
bad_grid() { # DESCRIPTION PATTERN GRID
    grid_prob "$3" > "$tmp/g.json"
    expect 2 "$2" "$1" -- "$exe" enclose "$tmp/g.json" -o "$tmp/g.cert.json" --method lognorm
    absent "$tmp/g.cert.json" "$1"
}
bad_grid "an unsorted grid" "g.json: field 'grid' entry 3: 0.25 is not above entry 2" '["0", "0.5", "0.25", "1"]'
bad_grid "a duplicate grid time" "g.json: field 'grid' entry 3: 0.5 is not above entry 2" '["0", "0.5", "0x1p-1", "1"]'
bad_grid "a grid not starting at 0" "g.json: field 'grid' entry 1: the grid must start at 0" '["0.25", "0.5", "1"]'
bad_grid "a grid not ending at T" "g.json: field 'grid' entry 3: the grid ends at 0.75, not at T = 1" '["0", "0.5", "0.75"]'
bad_grid "a NaN grid time" "g.json: field 'grid' entry 2: 'nan' is not a finite number" '["0", "nan", "1"]'
bad_grid "a decimal that is not a binary64 number" "g.json: field 'grid' entry 2: '0.001' is not a binary64 number" '["0", "0.001", "1"]'
bad_grid "a grid time as a JSON real" "g.json: field 'grid' entry 2: write each time as a string" '["0", 0.5, "1"]'
bad_grid "a grid time that is not a number" "g.json: field 'grid' entry 2: 'half' is not a number" '["0", "half", "1"]'
bad_grid "grid and h together" "fields 'grid' and 'h' exclude each other" '["0", "0.5", "1"], "h": 0.5'
bad_grid "grid and N disagreeing" "fields 'grid' and 'N' disagree" '["0", "0.5", "1"], "N": 3'
grid_prob '["0", "0.5", "1"], "T": "0.1"' | sed 's/"T": 1, //' > "$tmp/g.json"
expect 2 "field 'grid' needs field 'T' to be a binary number" "a grid with a decimal T" -- "$exe" enclose "$tmp/g.json" -o "$tmp/g.cert.json" --method lognorm
absent "$tmp/g.cert.json" "a grid with a decimal T"
# a valid grid: the routes that cannot step on it refuse it, naming it and the route
grid_prob '["0", "0x1p-2", "0.5", 1]' > "$tmp/g.json"
expect 2 "field 'grid': refused by the chen-wang route" "chen-wang refuses a grid" -- "$exe" enclose "$tmp/g.json" -o "$tmp/g.cert.json" --method chen-wang
absent "$tmp/g.cert.json" "chen-wang with a grid"
expect 2 "field 'grid': refused by the theta and Heun predictors" "the theta predictor refuses a grid" -- "$exe" enclose "$tmp/g.json" -o "$tmp/g.cert.json" --method lognorm
absent "$tmp/g.cert.json" "theta predictor with a grid"
expect 2 "field 'grid': refused by --radius" "--radius refuses a grid" -- "$exe" enclose "$tmp/g.json" -o "$tmp/g.cert.json" --radius 1e-3
absent "$tmp/g.cert.json" "--radius with a grid"
# ... and --from replaces it by the trajectory's own times
rk4 1 > "$tmp/var1.csv"
expect 0 "time grid" "--from replaces a problem's grid" -- "$exe" enclose "$tmp/g.json" --method lognorm --from "$tmp/var1.csv" -o "$tmp/g.cert.json"
expect 0 "accepted" "verify it" -- "$exe" verify "$tmp/g.cert.json"

# ---- a uniform trajectory: the certificate it gave before, byte for byte ------
d=$src/tests/data/from_grid
expect 0 "trajectory: 501 samples, the grid itself" "a uniform trajectory" -- "$exe" enclose "$d/bridge2.json" --method lognorm --from "$d/rk4_uniform.csv" -o "$tmp/u.cert.json"
cmp -s "$tmp/u.cert.json" "$d/rk4_uniform.cert.json" && ok || bad "a uniform trajectory's certificate changed"
grep -q '"grid"' "$tmp/u.cert.json" && bad "a uniform trajectory's certificate states a grid" || ok

# a wide tube of a coarse trajectory: the advice is about the trajectory,
# not the problem's step (no predictor of dvicert runs)
printf 't,x1,x2\n0,0,1\n0.25,0.25,0.9\n0.6,0.5,0.4\n1,0.55,-0.2\n' > "$tmp/coarse.csv"
sed 's/"T": "10", "N": 10000/"T": 1, "N": 3/' "$tmp/b10.json" > "$tmp/b1.json"
expect 0 "a trajectory with smaller steps or accurate nodes" "width hint of a --from certificate" -- \
    "$exe" enclose "$tmp/b1.json" --method lognorm --from "$tmp/coarse.csv" -o "$tmp/coarse.cert.json"
grep -q "a smaller step h" "$tmp/out" && bad "the hint of a --from certificate names the problem's step h" || ok

report
