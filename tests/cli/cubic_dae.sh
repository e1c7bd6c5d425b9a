#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# A DAE mode whose constraint is nonlinear in its one algebraic variable
# (certs/cubic-dae, docs/dae.md section 1.2): x' = -z, 0 = z^3 + z - x,
# z the implicit node (Krawczyk values, implicit-function Taylor series).
# Certified and verified; a tampered certificate rejected; x and z inside
# the tube at 1,000 random times against the closed form
# t = -(3/2)(z^2 - 1) - ln z at 50 digits (tests/cubic_dae_ref.py, plain
# Python), the reference moved by 1e-9 outside; refusals naming the file,
# the mode and the constraint: no z_range, a z_range without the root, a
# z_range with two roots (g_z vanishes), a reversed z_range, a switching
# function reading z there; initial.z checked through the node. A switch
# out of the mode at 9/8 + ln 2.
# usage: bash tests/cli/cubic_dae.sh DVICERT SRCROOT
set -u
exe=${1:?usage: cubic_dae.sh DVICERT SRCROOT}
src=${2:?usage: cubic_dae.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
C=$src/certs/cubic-dae/cubic-dae.json

expect 0 "certified: hybrid model, 40 steps" "nonlinear constraint: certified" -- \
    "$exe" enclose "$C" -o "$tmp/c.cert.json"
expect 0 "accepted" "nonlinear constraint: verified" -- "$exe" verify "$tmp/c.cert.json"
cmp -s "$tmp/c.cert.json" "$src/certs/cubic-dae/cubic-dae.cert.json" && ok ||
    bad "the certificate differs from certs/cubic-dae/cubic-dae.cert.json"
# the last state enclosure narrowed past the recomputed one: rejected
python3 - "$tmp/c.cert.json" "$tmp/t.cert.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
lo, hi = c["steps"][-1]["x"][0]
c["steps"][-1]["x"][0] = [hi, hi]
json.dump(c, open(sys.argv[2], "w"))
PY
expect 1 "" "tampered (the state at T narrowed): rejected" -- "$exe" verify "$tmp/t.cert.json"

if command -v python3 > /dev/null; then
    inside_outside "$tmp/c.cert.json" "$tmp/ref.csv" "closed form (x and z)" \
        python3 "$src/tests/cubic_dae_ref.py" 2 1000 7
    grep -q "worst y margin" "$tmp/inside" && ok || bad "check: the algebraic column is checked"
else
    echo "skipped: the closed-form reference (python3 not found)"
fi

v() { sed "$1" "$C" > "$tmp/$2.json"; }
v 's/, "z_range": \["0.1", "1.5"\]//' norange
expect 2 "norange.json: field 'modes.m': mode 'm': constraint 1 ('z^3 + z - x') is not affine in the algebraic variable (a nonlinear function of it): give the mode 'z_range'" \
    "no z_range: refused, asking for one" -- "$exe" enclose "$tmp/norange.json" -o "$tmp/o.json"
absent "$tmp/o.json" "no z_range"
v 's/"z_range": \["0.1", "1.5"\]/"z_range": ["1.5", "3"]/' noroot
expect 1 "noroot.json: in '-z': the algebraic variable of constraint 1 ('z^3 + z - x') of mode 'm' is not proven to be the unique zero in z_range \[1.5000000000000000e+00, 3.0000000000000000e+00\] at t in \[0, 5.0000000000000003e-02\] (no zero in the enclosure)" \
    "z_range without the root: refused" -- "$exe" enclose "$tmp/noroot.json" -o "$tmp/o.json"
absent "$tmp/o.json" "z_range without the root"
# z^2 = x has two roots +-sqrt(x) in [-2, 2]: no proof of a unique one
v 's/"g": \["z^3 + z - x"\], "z_range": \["0.1", "1.5"\]/"g": ["z^2 - x"], "z_range": [-2, 2]/' two
expect 1 "of constraint 1 ('z^2 - x') of mode 'm' is not proven to be the unique zero in z_range" \
    "z_range with two roots: refused" -- "$exe" enclose "$tmp/two.json" -o "$tmp/o.json"
absent "$tmp/o.json" "z_range with two roots"
v 's/"z_range": \["0.1", "1.5"\]/"z_range": ["2", "1"]/' rev
expect 2 "rev.json: field 'modes.m.z_range': expected \[lo, hi\] with lo < hi" \
    "a reversed z_range: refused" -- "$exe" enclose "$tmp/rev.json" -o "$tmp/o.json"
# a wider z_range holding the one root: the same certificate
v 's/"z_range": \["0.1", "1.5"\]/"z_range": [-2, 2]/' wide
expect 0 "certified" "a wider z_range: certified" -- "$exe" enclose "$tmp/wide.json" -o "$tmp/w.cert.json"
# initial.z: the consistent root accepted, another refused with the residual
# and the consistent value (read through the implicit node)
sed 's/"x": {"x": 2}}/"x": {"x": 2}, "z": [1]}/' "$C" > "$tmp/iz.json"
expect 0 "certified" "initial.z = 1 (consistent): accepted" -- "$exe" enclose "$tmp/iz.json" -o "$tmp/o.json"
sed 's/"x": {"x": 2}}/"x": {"x": 2}, "z": ["0.5"]}/' "$C" > "$tmp/iz2.json"
expect 2 "the residual g(t0, x0, z0) is (\[-1.3750000000000000e+00, -1.3750000000000000e+00\]), not 0; the consistent value is z = \[9.9999999999999988e-01, 1.0000000000000003e+00\]" \
    "initial.z = 0.5 (inconsistent): refused with the residual" -- "$exe" enclose "$tmp/iz2.json" -o "$tmp/o2.json"
absent "$tmp/o2.json" "inconsistent initial.z"

# switching out of the nonlinear mode into an affine one when x = 5/8
# (z = 1/2): the event time is 9/8 + ln 2 = 1.81814718055994530942...
cat > "$tmp/sw.json" <<'JSON'
{"name": "sw", "states": ["x"], "algebraic": ["z"],
 "modes": {"m": {"f": ["-z"], "g": ["z^3 + z - x"], "z_range": ["0.1", "1.5"]},
           "n": {"f": ["-z"], "g": ["z - x"]}},
 "switches": {"s": "x - 0.625"},
 "transitions": [{"from": "m", "to": "n", "switch": "s", "direction": "-"}],
 "initial": {"mode": "m", "x": {"x": 2}}, "t0": 0, "T": 2, "h": 0.05}
JSON
expect 0 "1 crossings" "switching out of the nonlinear mode: certified" -- \
    "$exe" enclose "$tmp/sw.json" -o "$tmp/sw.cert.json"
expect 0 "accepted" "switching out of the nonlinear mode: verified" -- "$exe" verify "$tmp/sw.cert.json"
"$exe" events "$tmp/sw.cert.json" --csv 2>/dev/null | awk -F, 'NR == 2 { print $(NF-2), $(NF-1) }' > "$tmp/sw.ev"
awk '{ exit !($1 <= 1.81814718055994530 && 1.81814718055994531 <= $2 && $2 - $1 < 1e-12) }' "$tmp/sw.ev" &&
    ok || bad "the switch time $(cat "$tmp/sw.ev") does not hold 9/8 + ln 2"
sed 's/"s": "x - 0.625"/"s": "z - 0.5"/' "$tmp/sw.json" > "$tmp/swz.json"
expect 2 "swz.json: field 'switches.s' (switching function 's' in mode 'm'): reads the algebraic variable of a mode whose constraint is nonlinear in it: not supported yet" \
    "a switching function reading z of the nonlinear mode: refused" -- \
    "$exe" enclose "$tmp/swz.json" -o "$tmp/o.json"
report
