#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Switched DAEs (docs/dae.md): the buck converter of certs/buck-dae (an
# index-1 DAE in modified nodal analysis) certified and verified, its
# states and algebraic variables inside the tube at 1,000 random times
# against the closed form at 60 digits (tests/dae_ref.py, mpmath; skipped
# without it), a perturbed reference outside; GESDA's stick-slip as a
# switched DAE against the ODE form's event and its closed form; the z columns of export,
# info and check (a missing algebraic column named); and each refusal with the mode and the reason: index 2,
# nonlinear constraints with 4 algebraic variables (one, with z_range:
# tests/cli/cubic_dae.sh), a coefficient depending on the state with 4
# algebraic variables (not supported yet; up to 3: tests/cli/pendulum.sh), g_z
# singular, an inconsistent initial z (with the residual), wrong counts,
# unknown keys, misplaced constraints.
# usage: bash tests/cli/dae.sh DVICERT SRCROOT
set -u
exe=${1:?usage: dae.sh DVICERT SRCROOT}
src=${2:?usage: dae.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
B=$src/certs/buck-dae/buck-dae.json

expect 0 "20 crossings" "buck converter DAE: certified" -- "$exe" enclose "$B" -o "$tmp/b.cert.json"
expect 0 "accepted" "buck converter DAE: verified" -- "$exe" verify "$tmp/b.cert.json"
expect 0 "switched DAE, index 1" "info: a DAE" -- "$exe" info "$tmp/b.cert.json"
grep -q "^  is " "$tmp/out" && ok || bad "info: a row for the algebraic variable is"
expect 0 "wrote" "export: z columns" -- "$exe" export "$tmp/b.cert.json" -o "$tmp/b.csv"
head -1 "$tmp/b.csv" | grep -q "iL_lo,iL_hi,vC_lo,vC_hi,va_lo,va_hi,is_lo,is_hi,id_lo,id_hi,vc_lo,vc_hi" &&
    ok || bad "export: header with the algebraic variables"
# a trajectory lacking one algebraic column: the variable is named, not y3
printf 't,iL,vC,va,is,vc\n0.5,0,0,0,0,0\n' > "$tmp/noid.csv"
expect 2 "line 1: missing column 'id' (give all of va..vc or y1..y4, or none)" \
    "check: a missing algebraic column named" -- "$exe" check "$tmp/b.cert.json" "$tmp/noid.csv"
# an event moved (its time enclosure narrowed past the recomputed one): rejected
sed '0,/"t_lo":"4.67952891575512452e-01"/s//"t_lo":"4.67952891575512600e-01"/' "$tmp/b.cert.json" > "$tmp/moved.cert.json"
cmp -s "$tmp/b.cert.json" "$tmp/moved.cert.json" && bad "tamper: the second event's time not found"
expect 1 "" "an event time narrowed: rejected" -- "$exe" verify "$tmp/moved.cert.json"

if python3 -c "import mpmath" 2>/dev/null; then
    inside_outside "$tmp/b.cert.json" "$tmp/ref.csv" "closed form (states and algebraic variables)" \
        python3 "$src/tests/dae_ref.py" 10 1000 7
    grep -q "worst y margin" "$tmp/inside" && ok || bad "check: the algebraic columns are checked"
    # only the switch current moved: outside where the switch is closed
    awk -F, -v OFS=, 'NR > 1 && $5 > 1e-3 { $5 = $5 + 1e-9 } { print }' "$tmp/ref.csv" > "$tmp/is.csv"
    expect 1 "outside" "switch current moved by 1e-9: outside" -- "$exe" check "$tmp/b.cert.json" "$tmp/is.csv"
    # the stick-slip DAE: states and GESDA's alpha (the Filippov weight)
    "$exe" enclose "$src/certs/stickslip/stickslip-dae.json" -o "$tmp/ss.cert.json" > /dev/null 2>&1
    inside_outside "$tmp/ss.cert.json" "$tmp/ss.csv" "stick-slip DAE: closed form (states and alpha)" \
        python3 "$src/tests/dae_ref.py" stickslip 2.5 1000 11
else
    echo "skipped: the closed-form reference (python3 with mpmath not found)"
fi

# GESDA's stick-slip (Appendix A) as a switched DAE: its switch out of the
# stick mode is the decomposed ODE form's first event (certs/stickslip),
# the same enclosure, containing asin(0.8) = 0.92729521800161223...
S=$src/certs/stickslip/stickslip-dae.json
expect 0 "1 crossings" "stick-slip DAE: certified" -- "$exe" enclose "$S" -o "$tmp/s.cert.json"
expect 0 "accepted" "stick-slip DAE: verified" -- "$exe" verify "$tmp/s.cert.json"
"$exe" events "$tmp/s.cert.json" --csv 2>/dev/null | awk -F, 'NR == 2 { print $(NF-2), $(NF-1) }' > "$tmp/s.ev"
"$exe" events "$src/certs/stickslip/stickslip.cert.json" --csv 2>/dev/null |
    awk -F, 'NR == 2 { print $(NF-2), $(NF-1) }' > "$tmp/o.ev"
if [ -s "$tmp/s.ev" ] && cmp -s "$tmp/s.ev" "$tmp/o.ev"; then ok; else
    bad "stick-slip: the DAE's switch ($(cat "$tmp/s.ev")) is not the ODE form's first event ($(cat "$tmp/o.ev"))"; fi
awk '{ exit !($1 <= 0.92729521800161223 && 0.92729521800161224 <= $2 && $2 - $1 < 1e-10) }' "$tmp/s.ev" &&
    ok || bad "stick-slip: asin(0.8) inside the switch time, width <= 1e-10"
# GESDA's sliding mode (20) as written: 0 = v1 - v2 does not involve alpha
sed 's|"g": \["(sin(t) - mu\*FN + 2\*mu\*FN\*alpha)/m1 - (mu\*FN - 2\*mu\*FN\*alpha)/m2"\]|"g": ["v1 - v2"]|' "$S" > "$tmp/s20.json"
expect 2 "modes.stick': mode 'stick': constraint 1 ('v1 - v2') does not involve the algebraic variables: index 2 or higher, not supported; differentiate it" \
    "GESDA (20) as written: index 2, refused" -- "$exe" enclose "$tmp/s20.json" -o "$tmp/o.json"

# refusals, each naming the file, the mode and the reason
v() { sed "$1" "$B" > "$tmp/$2.json"; }
v 's/"g": \["va - V", "id", "is + id - iL"/"g": ["va - V", "iL - 1", "is + id - iL"/' idx2
expect 2 "modes.on': mode 'on': constraint 2 ('iL - 1') does not involve the algebraic variables: index 2 or higher" \
    "index 2 refused" -- "$exe" enclose "$tmp/idx2.json" -o "$tmp/o.json"
absent "$tmp/o.json" "index 2"
v 's/"g": \["va - V", "id", "is + id - iL"/"g": ["va - V", "id*id", "is + id - iL"/' nl
expect 2 "constraint 2 ('id\*id') is not affine in the algebraic variables (a nonlinear function of them): nonlinear constraints are supported with one algebraic variable only (and 'z_range')" \
    "nonlinear constraint refused" -- "$exe" enclose "$tmp/nl.json" -o "$tmp/o.json"
v 's/"g": \["va - V", "id", "is + id - iL"/"g": ["va - V", "iL*id", "is + id - iL"/' dx
expect 2 "mode 'on': the coefficients dg/dz of the 4 algebraic variables depend on t or the state: more than 3 such algebraic variables in one mode are not supported yet" "a coefficient depending on the state, 4 algebraic variables: refused" -- \
    "$exe" enclose "$tmp/dx.json" -o "$tmp/o.json"
v 's/"g": \["va - V", "id", "is + id - iL"/"g": ["va - V", "is + id", "is + id - iL"/' sing
expect 2 "modes.on': mode 'on': the coefficient matrix dg/dz of the algebraic variables is not proven nonsingular" \
    "g_z singular refused" -- "$exe" enclose "$tmp/sing.json" -o "$tmp/o.json"
v 's/"z": {"va": 0, "is": 0, "id": 0, "vc": 0}/"z": {"va": 0, "is": 0, "id": "0.5", "vc": 0}/' incons
expect 2 "field 'initial.z': inconsistent with the constraints of mode 'off' at t0 and the initial state: the residual g(t0, x0, z0) is (\[0, 0\], \[0, 0\], \[5.0000000000000000e-01, 5.0000000000000000e-01\], \[0, 0\]), not 0; the consistent value is va = \[0, 0\], is = \[0, 0\], id = \[0, 0\]" \
    "inconsistent initial z refused with the residual" -- "$exe" enclose "$tmp/incons.json" -o "$tmp/o.json"
v 's/"z": {"va": 0, "is": 0, "id": 0, "vc": 0}/"z": {"va": 0, "is": 0, "id": [-1e-20, 1e-20], "vc": 0}/' cons
expect 0 "certified" "an initial z enclosing the consistent one: accepted" -- "$exe" enclose "$tmp/cons.json" -o "$tmp/o.json"
v 's/"g": \["is", "va"/"gg": ["is", "va"/' key
expect 2 "field 'modes.off': unknown field 'gg' (known: f, g, constraints, E, A, b, z_range)" "a misspelt key of a DAE mode refused" -- \
    "$exe" enclose "$tmp/key.json" -o "$tmp/o.json"
v 's/"algebraic": \["va", "is", "id", "vc"\],//' noalg
expect 2 "constraints ('g') need the algebraic variables they determine" "constraints without 'algebraic' refused" -- \
    "$exe" enclose "$tmp/noalg.json" -o "$tmp/o.json"
v 's/"g": \["is", "va", /"g": ["is", /' count
expect 2 "field 'modes.off.g': expected an array of 4 expressions" "a wrong count of constraints refused" -- \
    "$exe" enclose "$tmp/count.json" -o "$tmp/o.json"
v 's/"algebraic": \["va", "is", "id", "vc"\]/"algebraic": ["va", "is", "id", "vC"]/' dup
expect 2 "field 'algebraic': algebraic variable 'vC' is also a state" "an algebraic name that is a state refused" -- \
    "$exe" enclose "$tmp/dup.json" -o "$tmp/o.json"
v 's/"g": \["is", "va", /"A": [[0, 0], [0, 0]], "g": ["is", "va", /' lin
expect 2 "field 'modes.off': 'A' and 'b' of a DAE mode go with 'E'" "A without E in a DAE refused" -- \
    "$exe" enclose "$tmp/lin.json" -o "$tmp/o.json"

# linear DAE modes E w' = A w + b(t), reduced exactly (docs/dae.md section 4):
# the buck converter again, the same events, the closed form inside
BL=$src/certs/buck-dae/buck-dae-linear.json
expect 0 "20 crossings" "buck converter as linear DAEs: certified" -- "$exe" enclose "$BL" -o "$tmp/l.cert.json"
"$exe" events "$tmp/l.cert.json" --csv > "$tmp/l.ev" 2>/dev/null
"$exe" events "$tmp/b.cert.json" --csv > "$tmp/b.ev" 2>/dev/null
cmp -s "$tmp/l.ev" "$tmp/b.ev" && ok || bad "linear DAE form: the events of the semi-explicit form"
if [ -s "$tmp/ref.csv" ]; then
    expect 0 "inside: 0 of 1000" "linear DAE form: closed form inside" -- "$exe" check "$tmp/l.cert.json" "$tmp/ref.csv"
fi
w() { python3 - "$BL" "$tmp/$2.json" "$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"))
PY
}
w 'm["modes"]["on"]["E"][2][2] = 1' ezcol
expect 2 "modes.on': mode 'on': E has a nonzero entry (row 3) in the column of the algebraic variable 'va'" \
    "linear DAE: E on an algebraic variable refused" -- "$exe" enclose "$tmp/ezcol.json" -o "$tmp/o.json"
w 'm["modes"]["on"]["E"][1][1] = 0' erank
expect 2 "columns of E on the states are rank-deficient (a state is not differentiated in this mode): write the mode in semi-explicit form" \
    "linear DAE: rank-deficient E refused" -- "$exe" enclose "$tmp/erank.json" -o "$tmp/o.json"
w 'm["modes"]["off"]["A"][3] = [1, 0, 0, 0, 0, 0]' pencil
expect 2 "modes.off': mode 'off': singular pencil or index 2 or higher" \
    "linear DAE: singular pencil / index 2 refused" -- "$exe" enclose "$tmp/pencil.json" -o "$tmp/o.json"
w 'm["modes"]["on"]["A"][0][0] = "x"' eq
expect 2 "field 'modes.on.A' row 1 entry 1: expected an exact rational number" \
    "linear DAE: a non-rational entry refused" -- "$exe" enclose "$tmp/eq.json" -o "$tmp/o.json"
w 'm["modes"]["on"]["A"][0][2] = "0.5/0.5"' eq2
expect 0 "certified" "linear DAE: a quotient of decimals read exactly" -- "$exe" enclose "$tmp/eq2.json" -o "$tmp/o.json"
report
