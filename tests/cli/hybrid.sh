#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of hybrid models through the command: enclose recognises
# a model file and writes a certificate with its events, verify re-checks it
# by recomputation, check accepts the closed form (state names or x1..xn) and
# rejects perturbed copies, export writes the tube, plot marks the events;
# bad model files exit 2 naming the field, grazing and sliding exit 1 saying
# where and why, and no output file is left in either case.
# usage: bash tests/cli/hybrid.sh DVICERT SRCROOT
set -u
exe=${1:?usage: hybrid.sh DVICERT SRCROOT}
src=${2:?usage: hybrid.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Exact trajectories: closed forms at 256 bits (tests/gen_hyb_traj.c for the
# oscillator, tests/gen_traj.c bridgesw for the switched bridge).
gen=$(ref_tool gen_hyb_traj) || exit 1
gbr=$(ref_tool gen_traj) || exit 1

# ---- enclose and verify ------------------------------------------------------
P="$src/certs/pw-harmonic/pw-harmonic.json"
C="$tmp/pw.cert.json"
expect 0 "40 crossings" "enclose recognises a hybrid model" -- "$exe" enclose "$P" -o "$C"
n=$(sed -n '/^  "events": \[/,/^  \]/p' "$C" | grep -c '"t_lo":')
[ "$n" -ge 40 ] && ok || bad "certificate: $n events, expected >= 40"
grep -q '"format": "dvicert-hybrid-certificate"' "$C" && ok || bad "certificate format"
grep -q '"model_digest": "fnv1a64:' "$C" && ok || bad "no model digest"
expect 0 "^accepted: .*40 crossings" "verify accepts the hybrid certificate" -- "$exe" verify "$C"
for f in pw-harmonic bridge-switched elliptic; do
    expect 0 "^accepted: " "committed certificate $f re-verified" -- "$exe" verify "$src/certs/$f/$f.cert.json"
done
# an edit without a new digest is caught by the digest; edits with the
# digests recomputed are rejected by recomputation (tests/test_hybrid.c)
sed '0,/"t_lo":"1.570796326794896[0-9]*e+00"/s//"t_lo":"1.57079632679489670e+00"/' "$C" > "$tmp/narrow.json"
cmp -s "$C" "$tmp/narrow.json" && bad "the sed edit did not apply" || ok
expect 1 "^rejected: .*digest" "verify rejects an edited event" -- "$exe" verify "$tmp/narrow.json"
sed 's/"mode":"minus"/"mode":"plus"/' "$C" > "$tmp/mode.json"
expect 1 "^rejected: " "verify rejects an edited mode" -- "$exe" verify "$tmp/mode.json"
# unusable: unknown key, not JSON
sed 's/"version": 1,/"version": 1, "extra": 1,/' "$C" > "$tmp/key.json"
expect 2 "unknown field 'extra'" "unknown key in a hybrid certificate" -- "$exe" verify "$tmp/key.json"
sed '0,/"t":"0x0p+0"/s//"t":"0.1"/' "$C" > "$tmp/t.json"
expect 2 "steps\[0\].*exact hexadecimal" "grid time not an exact binary" -- "$exe" verify "$tmp/t.json"
expect 2 "does not apply to a hybrid model" "--sharpen refused for a hybrid model" -- \
    "$exe" enclose "$P" -o "$tmp/sh.json" --sharpen
absent "$tmp/sh.json" "enclose --sharpen of a hybrid model"

# ---- check ----------------------------------------------------------------------
"$gen" 100 400 11 names > "$tmp/names.csv"
"$gen" 100 400 12 index > "$tmp/index.csv"
"$gen" 100 400 11 names 1e-11 > "$tmp/pert.csv"
expect 0 "inside: 0 of 400 samples" "check: the closed form, state names" -- "$exe" check "$C" "$tmp/names.csv"
grep -q "^certificate: .* verified" "$tmp/out" && ok || bad "check does not verify first"
expect 0 "inside: 0 of 400 samples" "check: the closed form, x1..xn" -- "$exe" check "$C" "$tmp/index.csv"
expect 1 "outside: 400 of 400" "check: y + 1e-11 rejected everywhere" -- "$exe" check "$C" "$tmp/pert.csv"
grep -q "^violation: line 2 t = .* y = " "$tmp/out" && ok || bad "check: violation line names the state"
# without re-verification only the stated step boxes are used: wider, still sound
expect 0 "inside: 0 of 400" "check --no-verify: the closed form inside the stated boxes" -- \
    "$exe" check "$C" "$tmp/names.csv" --no-verify
grep -q "NOT re-verified" "$tmp/out" && ok || bad "check --no-verify does not say so"
# simulator formats and tolerance, as for DLVI certificates: whitespace, a
# headerless matrix with --columns, values 1e-11 off accepted only with --tol
tr ',' ' ' < "$tmp/names.csv" > "$tmp/ws.txt"
expect 0 "inside: 0 of 400 samples" "check: whitespace-separated" -- "$exe" check "$C" "$tmp/ws.txt"
tail -n +2 "$tmp/index.csv" | tr ',' ' ' > "$tmp/mat.txt"
expect 0 "inside: 0 of 400 samples" "check: headerless matrix with --columns" -- \
    "$exe" check "$C" "$tmp/mat.txt" --columns t,x1,x2
expect 0 "accepted with tolerance 2e-11: 400 values" "check: --tol accepts y + 1e-11" -- \
    "$exe" check "$C" "$tmp/pert.csv" --tol 2e-11
expect 1 "outside: 400 of 400" "check: --tol on x does not accept y + 1e-11" -- \
    "$exe" check "$C" "$tmp/pert.csv" --tol x=1
awk '/^samples:/ {s = NR} /^worst x margin:/ {x = NR} /^(VIOLATED|outside):/ {v = NR} /^violation:/ && !f {f = NR}
     END { exit !(s < x && x < v && v < f) }' "$tmp/out" && ok || bad "hybrid check: summary first"
printf 't,x,z\n1,0,0\n' > "$tmp/badcol.csv"
expect 2 "unknown column 'z'" "check: unknown column" -- "$exe" check "$C" "$tmp/badcol.csv"
printf 't,x,x1\n1,0,0\n' > "$tmp/dup.csv"
expect 2 "dup.csv: line 1: column 'x1' names a state already given" "check: a state by name and as x1" -- \
    "$exe" check "$C" "$tmp/dup.csv"
printf 't,x\n1,0\n' > "$tmp/miss.csv"
expect 2 "miss.csv: line 1: missing column 'y'" "check: missing state" -- "$exe" check "$C" "$tmp/miss.csv"
printf 't,y,x\n1,0,zz\n' > "$tmp/val.csv"
expect 2 "val.csv: line 2: column 'x': 'zz' is not a finite" "check: bad value" -- "$exe" check "$C" "$tmp/val.csv"
printf 't,x,y\n101,0,0\n' > "$tmp/late.csv"
expect 2 "line 2: t = 101 lies outside \[t0, T\]" "check: time after T" -- "$exe" check "$C" "$tmp/late.csv"
expect 1 "^rejected certificate: " "check refuses an edited certificate" -- "$exe" check "$tmp/mode.json" "$tmp/names.csv"
# the switched bridge against the piecewise closed form of Example 5.1
B="$src/certs/bridge-switched/bridge-switched.cert.json"
"$gbr" bridgesw 0 1 10 300 5 | cut -d, -f1-3 > "$tmp/br.csv"
"$gbr" bridgesw 0 1 10 300 5 1e-9 | cut -d, -f1-3 > "$tmp/brp.csv"
expect 0 "inside: 0 of 300" "check: bridge closed form" -- "$exe" check "$B" "$tmp/br.csv"
expect 1 "outside: 300 of 300" "check: bridge x1 + 1e-9 rejected" -- "$exe" check "$B" "$tmp/brp.csv"

# ---- export and plot --------------------------------------------------------------
expect 0 "40 events; certificate verified" "export a hybrid certificate" -- "$exe" export "$C" -o "$tmp/tube.csv"
head -1 "$tmp/tube.csv" | grep -q "^kind,t_lo,t_hi,x_lo,x_hi,y_lo,y_hi,mode$" && ok || bad "export header"
[ "$(grep -c '^event,' "$tmp/tube.csv")" -eq 40 ] && ok || bad "export: not 40 event rows"
grep -q '^event,1.57079632679489[0-9]*e+00,1.57079632679489[0-9]*e+00,.*,plus->minus$' "$tmp/tube.csv" && ok ||
    bad "export: first event row"
[ "$(grep -c '^step,' "$tmp/tube.csv")" -eq "$(($(grep -c '^grid,' "$tmp/tube.csv") - 1))" ] && ok || bad "export: step rows"
expect 1 "rejected certificate" "export refuses an edited certificate" -- "$exe" export "$tmp/mode.json" -o "$tmp/bad.csv"
absent "$tmp/bad.csv" "export of a rejected certificate"
fake_gnuplot "$tmp/fakegp"
expect 0 "40 events marked" "plot a hybrid certificate" -- env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$C" -o "$tmp/pw.png"
[ "$(grep -c '^set arrow .* nohead .*# event [0-9]*: g ' "$tmp/gp.in")" -eq 40 ] && ok || bad "plot: not 40 event marks"
grep -q '^set arrow 1 from 1.57079632679489[0-9]*, graph 0' "$tmp/gp.in" && ok || bad "plot: first mark not at pi/2"
expect 1 "rejected certificate" "plot refuses an edited certificate" -- env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$tmp/mode.json" -o "$tmp/bad.png"
absent "$tmp/bad.png" "plot of a rejected certificate"

# ---- bad model files: exit 2 naming the field, nothing written --------------------
model() { # MODES SWITCHES TRANSITIONS INITIAL
    printf '{"states": ["x", "y"], "modes": {%s}, "switches": {%s}, "transitions": [%s], "initial": %s, "T": 1}\n' "$1" "$2" "$3" "$4"
}
GM='"p": {"A": [[0,1],[-1,0]]}, "n": {"f": ["y", "-3*x"]}'
GS='"g": "x"'
GT='{"from": "p", "switch": "g", "direction": "-", "to": "n"}'
GI='{"mode": "p", "x": [1, 0]}'
bad_model() { # NAME PATTERN MODEL-TEXT
    printf '%s\n' "$3" > "$tmp/$1.json"
    expect 2 "$1.json.*$2" "bad model ($1)" -- "$exe" enclose "$tmp/$1.json" -o "$tmp/$1.cert.json"
    absent "$tmp/$1.cert.json" "enclose of a bad model ($1)"
}
bad_model unknown_state "unknown state name 'z'" "$(model "$GM" "$GS" "$GT" '{"mode": "p", "x": {"x": 1, "z": 0}}')"
bad_model no_field "modes.q" "$(model "$GM"', "q": {"b": [0, 0]}' "$GS" "$GT" "$GI")"
bad_model bad_expr "modes.n.f" "$(model '"p": {"A": [[0,1],[-1,0]]}, "n": {"f": ["y", "-3*"]}' "$GS" "$GT" "$GI")"
bad_model missing_mode "transitions\[0\].to" "$(model "$GM" "$GS" '{"from": "p", "switch": "g", "direction": "-", "to": "m"}' "$GI")"
bad_model missing_var "switches.g" "$(model "$GM" '"g": "x + z"' "$GT" "$GI")"
bad_model nonfinite "initial.x" "$(model "$GM" "$GS" "$GT" '{"mode": "p", "x": [1, "inf"]}')"

# ---- grazing and sliding: exit 1 saying where and why, nothing written ------------
cat > "$tmp/grazing.json" <<'EOF'
{"states": ["x", "y"],
 "modes": {"pos": {"A": [[0, 1], [-1, 0]]}, "neg": {"A": [[0, 1], [-1, 0]]}},
 "switches": {"g": "x - 1"},
 "transitions": [{"from": "pos", "switch": "g", "direction": "-", "to": "neg"},
                 {"from": "neg", "switch": "g", "direction": "+", "to": "pos"}],
 "initial": {"mode": "neg", "x": [0, 1]}, "T": 3}
EOF
expect 1 "grazing.json: .*grazing" "grazing model: exit 1, classified" -- "$exe" enclose "$tmp/grazing.json" -o "$tmp/grazing.cert.json"
grep -q "t in \[1.57079" "$tmp/out" && ok || bad "grazing: the message does not say where (t = pi/2)"
grep -q "nothing written" "$tmp/out" && ok || bad "grazing: the message does not say nothing was written"
absent "$tmp/grazing.cert.json" "enclose of a grazing model"
cat > "$tmp/sliding.json" <<'EOF'
{"states": ["x", "y"],
 "modes": {"pos": {"A": [[0, 0], [0, 0]], "b": ["-1", "0"]}, "neg": {"A": [[0, 0], [0, 0]], "b": ["1", "0"]}},
 "switches": {"g": "x"},
 "transitions": [{"from": "pos", "switch": "g", "direction": "-", "to": "neg"},
                 {"from": "neg", "switch": "g", "direction": "+", "to": "pos"}],
 "initial": {"mode": "neg", "x": [-1, 0]}, "T": 3}
EOF
expect 1 "sliding.json: .*sliding" "sliding model: exit 1, classified" -- "$exe" enclose "$tmp/sliding.json" -o "$tmp/sliding.cert.json"
grep -q "t in \[1.0000000000000000e+00, 1.0000000000000000e+00\]" "$tmp/out" && ok || bad "sliding: the message does not say where (t = 1)"
absent "$tmp/sliding.cert.json" "enclose of a sliding model"

cat > "$tmp/repelling.json" <<'EOF'
{"states": ["x", "y"],
 "modes": {"pos": {"A": [[0, 0], [0, 0]], "b": ["1", "0"]}, "neg": {"A": [[0, 0], [0, 0]], "b": ["-1", "0"]}},
 "switches": {"g": "x"},
 "transitions": [{"from": "pos", "switch": "g", "direction": "-", "to": "neg"},
                 {"from": "neg", "switch": "g", "direction": "+", "to": "pos"}],
 "initial": {"mode": "pos", "x": [0, 0]}, "T": 3}
EOF
expect 1 "repelling.json: .*both fields pointing away" "repelling model: exit 1, classified" -- "$exe" enclose "$tmp/repelling.json" -o "$tmp/repelling.cert.json"
grep -q "classified: repelling" "$tmp/out" && ok || bad "repelling: the class is not stated"
absent "$tmp/repelling.cert.json" "enclose of a repelling model"
# every certified crossing states its class
grep -q '"class":"transverse"' "$C" && ok || bad "certificate events do not state their class"
sed '0,/"class":"transverse"/s//"class":"grazing"/' "$C" > "$tmp/class.json"
expect 2 "class" "a certificate event of another class is refused" -- "$exe" verify "$tmp/class.json"

# ---- predict: the floating-point companion (DMM + Mannshardt), a CSV check takes
expect 0 "10041 rows, 40 transitions" "predict writes the DMM trajectory" -- "$exe" predict "$P" -o "$tmp/dmm.csv"
head -1 "$tmp/dmm.csv" | grep -q '^t,x,y$' && ok || bad "predict: header is not t,x,y"
# the certified tube is ~1e-14 wide, the companion is off by its O(h^2)
# time error: check measures it (worst margin about -2.4e-3)
expect 1 "worst x margin: -0.00[0-9]*" "check measures the companion's error" -- "$exe" check "$C" "$tmp/dmm.csv" --max-report 0
expect 2 "written as a field" "predict refuses field modes" -- "$exe" predict "$src/certs/elliptic/elliptic.json" -o "$tmp/ell.csv"
absent "$tmp/ell.csv" "predict of a field model"
expect 2 "--h must be a positive number" "predict: bad step" -- "$exe" predict "$P" -o "$tmp/bad.csv" --h -1
absent "$tmp/bad.csv" "predict with a bad step"
expect 2 "more than the step budget of 10000000" "predict: a step that would never finish" -- \
    timeout 20 "$exe" predict "$P" -o "$tmp/bad.csv" --h 1e-300
absent "$tmp/bad.csv" "predict with a tiny step"

# the step budget: a stiff mode is refused at once (it ran for hours before),
# a budget reached stops the run saying where, max_steps is checked
cat > "$tmp/stiff.json" <<'EOF'
{"states": ["x", "y"], "modes": {"m": {"A": [[0, 1], [-1e300, 0]]}}, "switches": {"g": "x - 2"},
 "transitions": [{"from": "m", "switch": "g", "direction": "+", "to": "m"}],
 "initial": {"mode": "m", "x": [1, 0]}, "T": 1}
EOF
expect 1 "beyond the step budget of 10000000" "a stiff mode: refused at once" -- \
    timeout 20 "$exe" enclose "$tmp/stiff.json" -o "$tmp/stiff.cert.json"
absent "$tmp/stiff.cert.json" "a stiff mode"
sed 's/"T": 100/"T": 100, "max_steps": 5/' "$src/certs/pw-harmonic/pw-harmonic.json" > "$tmp/budget.json"
expect 1 "takes more than 600 steps, beyond the step budget of 5" "max_steps 5: out of reach at once" -- \
    "$exe" enclose "$tmp/budget.json" -o "$tmp/budget.cert.json"
absent "$tmp/budget.cert.json" "a budget reached"
sed 's/"T": 100/"T": 100, "max_steps": "many"/' "$src/certs/pw-harmonic/pw-harmonic.json" > "$tmp/budget2.json"
expect 2 "field 'max_steps': an integer" "max_steps not an integer" -- \
    "$exe" enclose "$tmp/budget2.json" -o "$tmp/budget.cert.json"

# a truncated hybrid certificate is named as what it is: malformed JSON (the
# DLVI reader reported its first hybrid key as unknown)
head -c 3000 "$src/certs/pw-harmonic/pw-harmonic.cert.json" > "$tmp/trunc.cert.json"
for cmd in verify info; do
    expect 2 "trunc.cert.json: malformed JSON at line" "$cmd of a truncated hybrid certificate" -- \
        "$exe" $cmd "$tmp/trunc.cert.json"
    grep -q "unknown key" "$tmp/out" && bad "$cmd: a truncated hybrid certificate read as a DLVI one" || ok
done

# a word where a number belongs: the message does not offer "inf" as the fix
sed 's/"x": {"x": 1, "y": 0}/"x": {"x": "nan", "y": 0}/' "$src/certs/pw-harmonic/pw-harmonic.json" > "$tmp/nanx.json"
expect 2 "field 'initial.x.x': 'nan' is not a number" "a NaN initial state" -- \
    "$exe" enclose "$tmp/nanx.json" -o "$tmp/nanx.cert.json"
grep -q '"inf" only where a bound may be infinite' "$tmp/out" && ok || bad "the NaN message suggests inf where it is refused"

report
