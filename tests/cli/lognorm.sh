#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of the lognorm route (docs/lognorm.md): enclose
# --method lognorm writes a certificate that verify recomputes and that
# check/export read unchanged; tampering (a bound lowered, mu lowered, the
# norm matrix or a mode norm edited) is rejected, and an older certificate
# (norm stated after the steps) refused; --from
# certifies a trajectory of another tool (an RK4 written here in awk) with
# the exact solution inside; bad trajectories are refused by line with no
# output file.
# usage: bash tests/cli/lognorm.sh DVICERT SRCROOT   (run in the build's tests dir)
set -u
exe=${1:?usage: lognorm.sh DVICERT SRCROOT}
src=${2:?usage: lognorm.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gen=./gen_traj

# the bridge (Example 5.1) from x(0) = (0, 1): contact phases in [0, 10]
bridge() { # T N
    cat <<EOF
{"A": [[0, 1], [-4, 0]], "B": [[0], [-1]], "f": ["0", "sin(4*t)"],
 "Q": [[3, 0]], "M": [[1]], "g": ["0"], "l": [0], "u": ["inf"],
 "x0": [0, 1], "T": "$1", "N": $2, "theta": 1}
EOF
}
bridge 2 2000 > "$tmp/b.json"

# ---- enclose --method lognorm, verify, check, export -------------------------
C=$tmp/b.cert.json
expect 0 "route: lognorm" "enclose --method lognorm" -- "$exe" enclose "$tmp/b.json" -o "$C" --method lognorm
grep -q '"route":"lognorm"' "$C" && ok || bad "the certificate does not record the route"
expect 0 "accepted" "verify a lognorm certificate" -- "$exe" verify "$C"
"$gen" bridgesw 0 1 2 400 11 > "$tmp/ref.csv" 2>/dev/null || bad "gen_traj failed"
expect 0 "inside: 0 of 400" "the exact solution inside the lognorm tube" -- "$exe" check "$C" "$tmp/ref.csv"
expect 0 "wrote" "export of a lognorm certificate" -- "$exe" export "$C" -o "$tmp/b.csv"
expect 0 "" "enclose --method chen-wang" -- "$exe" enclose "$tmp/b.json" -o "$tmp/cw.cert.json" --method chen-wang
grep -q '"route"' "$tmp/cw.cert.json" && bad "chen-wang certificate carries a route" || ok
expect 2 "--method" "an unknown method refused" -- "$exe" enclose "$tmp/b.json" -o "$tmp/x.cert.json" --method euler
absent "$tmp/x.cert.json" "unknown method"

# ---- tampering (the digest is left as is: the bound checks come first and
# name the field; tests/test_cert.c repeats these with the digest recomputed)
awk '/^    \{"t":/ { n++ } n == 1000 && !done { done = sub(/"eps_x":"[^"]*"/, "\"eps_x\":\"1e-30\"") } { print }' "$C" > "$tmp/t1.json"
cmp -s "$C" "$tmp/t1.json" && bad "eps_x not edited" || ok
expect 1 "eps_x" "a lowered eps_x rejected" -- "$exe" verify "$tmp/t1.json"
sed 's/"mu_upper":"[^"]*"/"mu_upper":"-1"/' "$C" > "$tmp/t2.json"
grep -q '"mu_upper":"-1"' "$tmp/t2.json" && ok || bad "mu_upper not edited"
expect 1 "mu_upper" "a lowered mu rejected" -- "$exe" verify "$tmp/t2.json"
# the norm and the mode norms are stated in 'method', ahead of the steps, and
# proven again as stated: an edited one gives other (here larger) bounds
grep -q '"method": {.*"lognorm_norm":"quad R = .*"lognorm_modes":"pattern ' "$C" && ok ||
    bad "the norm and the mode norms are not stated in 'method'"
sed -E 's/("lognorm_norm":"quad R = )0x1p\+0/\10x1.8p+0/' "$C" > "$tmp/t3.json"
cmp -s "$C" "$tmp/t3.json" && bad "norm not edited" || ok
expect 1 "below the recomputed" "an edited norm matrix rejected" -- "$exe" verify "$tmp/t3.json"
sed -E 's/("lognorm_modes":"pattern [0-9a-fx]+ quad R = )0x1p\+0/\10x1.8p+0/' "$C" > "$tmp/t4.json"
cmp -s "$C" "$tmp/t4.json" && bad "mode norm not edited" || ok
expect 1 "below the recomputed" "an edited mode norm rejected" -- "$exe" verify "$tmp/t4.json"
sed -E 's/("lognorm_modes":"pattern [0-9a-fx]+ quad R = [^ ]+ [^ ]+ )0x0p\+0/\1-0x1p+0/' "$C" > "$tmp/t5.json"
cmp -s "$C" "$tmp/t5.json" && bad "mode norm not edited" || ok
expect 1 "lognorm_modes.*upper triangular" "a mode norm that is not triangular refused" -- "$exe" verify "$tmp/t5.json"
sed -E 's/("lognorm_norm":"quad R = [^ ]+ [^ ]+ )0x0p\+0/\1nan/' "$C" > "$tmp/t5.json"
cmp -s "$C" "$tmp/t5.json" && bad "norm not edited" || ok
expect 1 "lognorm_norm" "a norm with a NaN entry refused" -- "$exe" verify "$tmp/t5.json"
# an older certificate (its norm stated after the steps): refused, saying so
sed -E 's/,"lognorm_norm":"[^"]*","lognorm_modes":"[^"]*"//' "$C" > "$tmp/t6.json"
cmp -s "$C" "$tmp/t6.json" && bad "norm entries not removed" || ok
expect 1 "older dvicert" "an older lognorm certificate refused" -- "$exe" verify "$tmp/t6.json"

# ---- --predictor heun: Heun's method (order 2), recorded in the certificate ----
H=$tmp/h.cert.json
expect 0 "route: lognorm" "enclose --predictor heun" -- "$exe" enclose "$tmp/b.json" -o "$H" --method lognorm --predictor heun
grep -q '"predictor":"heun"' "$H" && ok || bad "the certificate does not record the heun predictor"
hmax=$(grep -o 'max eps_x <= [0-9.e+-]*' "$tmp/out" | awk '{ print $4 }')
# the theta predictor's tube on the same grid is about 6e-3 wide; Heun's below 1e-4
awk -v e="$hmax" 'BEGIN { exit !(e > 0 && e < 1e-4) }' && ok || bad "heun: max eps_x $hmax not below 1e-4"
expect 0 "accepted" "verify a heun certificate" -- "$exe" verify "$H"
expect 0 "inside: 0 of 400" "the exact solution inside the heun tube" -- "$exe" check "$H" "$tmp/ref.csv"
# the name is descriptive (the bounds hold for the stored nodes, whatever made
# them) but must be one verify knows
sed 's/"predictor":"heun"/"predictor":"rk4"/' "$H" > "$tmp/t7.json"
expect 1 "entry 'predictor'" "an unknown predictor name rejected" -- "$exe" verify "$tmp/t7.json"
expect 2 "--predictor" "an unknown predictor refused" -- "$exe" enclose "$tmp/b.json" -o "$tmp/x.cert.json" --method lognorm --predictor rk4
absent "$tmp/x.cert.json" "unknown predictor"
expect 2 "--predictor" "--predictor with --method chen-wang refused" -- "$exe" enclose "$tmp/b.json" -o "$tmp/x.cert.json" --predictor heun --method chen-wang
absent "$tmp/x.cert.json" "--predictor with chen-wang"
expect 0 "route: lognorm, chosen by --method auto: --predictor belongs to it" "--predictor alone takes the lognorm route" -- \
    "$exe" enclose "$tmp/b.json" -o "$tmp/x.cert.json" --predictor heun

# ---- --from: a trajectory of another tool ------------------------------------
bridge 10 10000 > "$tmp/b10.json"
# RK4 at h = 1e-3 (kinks of max(0, -3 x1) left to the integrator)
awk 'function F(t, a, b, k) { k[1] = b; k[2] = -4 * a - (a < 0 ? -3 * a : 0) + sin(4 * t) }
BEGIN { h = 0.001; x = 0; v = 1; print "t,x1,x2,y1"; printf "%.17g,%.17g,%.17g,0\n", 0, x, v
  for (i = 0; i < 10000; i++) { t = i * h
    F(t, x, v, k1); F(t + h / 2, x + h / 2 * k1[1], v + h / 2 * k1[2], k2)
    F(t + h / 2, x + h / 2 * k2[1], v + h / 2 * k2[2], k3); F(t + h, x + h * k3[1], v + h * k3[2], k4)
    x += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]); v += h / 6 * (k1[2] + 2 * k2[2] + 2 * k3[2] + k4[2])
    printf "%.17g,%.17g,%.17g,0\n", (i + 1) * h, x, v } }' > "$tmp/rk4.csv"
F=$tmp/rk4.cert.json
expect 0 "route: lognorm" "enclose --from an RK4 trajectory" -- "$exe" enclose "$tmp/b10.json" --method lognorm --from "$tmp/rk4.csv" -o "$F"
expect 0 "accepted" "verify the --from certificate" -- "$exe" verify "$F"
"$gen" bridgesw 0 1 10 2000 5 > "$tmp/ref10.csv" 2>/dev/null || bad "gen_traj failed"
expect 0 "inside: 0 of 2000" "the exact solution inside the RK4 tube" -- "$exe" check "$F" "$tmp/ref10.csv"
# the tube is far narrower than the integrator's own step (a bound of order 1e-5)
"$exe" enclose "$tmp/b10.json" --method lognorm --from "$tmp/rk4.csv" -o "$F" > "$tmp/out" 2>&1
maxe=$(grep -o 'max eps_x <= [0-9.e+-]*' "$tmp/out" | awk '{ print $4 }')
awk -v e="$maxe" 'BEGIN { exit !(e > 0 && e < 1e-4) }' && ok || bad "--from: max eps_x $maxe not below 1e-4"

# non-uniform times (every third sample dropped) are certified too
awk -F, 'NR == 1 || (NR - 2) % 3 != 1 || NR == 10002 { print }' "$tmp/rk4.csv" > "$tmp/nonu.csv"
expect 0 "route: lognorm" "--from with non-uniform times" -- "$exe" enclose "$tmp/b10.json" --method lognorm --from "$tmp/nonu.csv" -o "$tmp/nonu.cert.json"
expect 0 "inside: 0 of 2000" "the exact solution inside (non-uniform trajectory)" -- "$exe" check "$tmp/nonu.cert.json" "$tmp/ref10.csv"

# ---- a long horizon: pounding over 25 s of ground motion (Algorithm 4.2: 8e+40)
P=$tmp/pl.cert.json
expect 0 "route: lognorm" "enclose pounding over 25 s" -- "$exe" enclose "$src/certs/pounding/pounding_long.json" -o "$P" --method lognorm
pe=$(grep -o 'eps_x at T <= [0-9.e+-]*' "$tmp/out" | awk '{ print $5 }')
awk -v e="$pe" 'BEGIN { exit !(e > 0 && e < 1e-3) }' && ok || bad "pounding 25 s: eps_x at T $pe not below 1e-3"
expect 0 "accepted: .*25000 steps" "verify pounding over 25 s" -- "$exe" verify "$P"

# bad trajectories: exit 2 naming the line, no output file
bad_traj() { # DESCRIPTION PATTERN
    expect 2 "$2" "$1" -- "$exe" enclose "$tmp/b10.json" --method lognorm --from "$tmp/bad.csv" -o "$tmp/bad.cert.json"
    absent "$tmp/bad.cert.json" "$1"
}
sed '2d' "$tmp/rk4.csv" > "$tmp/bad.csv"
bad_traj "a trajectory not starting at 0" "line 2"
head -5001 "$tmp/rk4.csv" > "$tmp/bad.csv"
bad_traj "a trajectory not reaching T" "reach"
awk 'NR == 101 { l = $0; next } NR == 102 { print; print l; next } { print }' "$tmp/rk4.csv" > "$tmp/bad.csv"
bad_traj "unsorted times" "line 102"
awk 'NR == 101 { print } { print }' "$tmp/rk4.csv" > "$tmp/bad.csv"
bad_traj "a duplicate time" "line 102"
awk -F, 'NR == 51 { $2 = "nan" } { print }' OFS=, "$tmp/rk4.csv" > "$tmp/bad.csv"
bad_traj "NaN" "line 51"
awk -F, 'NR == 61 { print $1 "," $2; next } { print }' "$tmp/rk4.csv" > "$tmp/bad.csv"
bad_traj "a short row" "line 61"

# ---- the norm search bounds the conditioning it chooses -----------------------
# A non-normal Jordan-type A: minimising the log norm alone drove the mode
# norm to R with diagonal 1, 2^52, 2^106 (every conversion into it paid that
# factor). Every norm the certificate states (global and per pattern) must have
# ||R||_F ||R^-1||_F <= n 1e6 (the search's bound), and weights at most 1e6 apart.
cat > "$tmp/jordan.json" << 'EOF'
{"A": [[-1, 100, 0], [0, -1, 100], [0, 0, -1]], "B": [[0], [0], [-1]], "f": ["0", "0", "sin(4*t)"],
 "Q": [[3, 0, 0]], "M": [[1]], "l": [0], "u": ["inf"], "g": ["0"], "x0": [0, 0, "0.1"], "T": 1, "N": 1000,
 "theta": 1}
EOF
expect 0 "certified" "lognorm on a non-normal A" -- "$exe" enclose "$tmp/jordan.json" --method lognorm -o "$tmp/jordan.cert.json"
if command -v python3 > /dev/null; then
    out=$(python3 - "$tmp/jordan.cert.json" << 'PY'
import json, math, re, sys
m = json.load(open(sys.argv[1]))["method"]
texts = [m.get("lognorm_norm", "")] + m.get("lognorm_modes", "").split(";")
worst, count = 0.0, 0
for t in texts:
    for kind, vals in re.findall(r"(quad R|diag w) = ([-0-9a-fx.p+ ]+)", t):
        v = [float.fromhex(x) for x in vals.split()]
        count += 1
        if kind == "diag w":
            c = max(v) / min(v)
        else:
            n = int(round(math.sqrt(len(v))))
            R = [v[i * n:(i + 1) * n] for i in range(n)]
            Ri = [[0.0] * n for _ in range(n)]
            for j in range(n):
                Ri[j][j] = 1.0 / R[j][j]
                for i in range(j - 1, -1, -1):
                    Ri[i][j] = -sum(R[i][k] * Ri[k][j] for k in range(i + 1, j + 1)) / R[i][i]
            f = lambda X: math.sqrt(sum(x * x for r in X for x in r))
            c = f(R) * f(Ri) / n
        worst = max(worst, c)
print(count, worst)
PY
)
    set -- $out
    if [ "${1:-0}" -ge 2 ] && awk -v c="${2:-inf}" 'BEGIN { exit !(c <= 1.0001e6) }'; then ok
    else bad "norm conditioning: $out (norms read, largest conditioning; bound 1e6)"; fi
fi

report
