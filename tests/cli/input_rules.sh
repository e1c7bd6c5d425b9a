#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# One input rule for every kind (issue 21, items 4 and 5): an end time
# written as a decimal ("T": "0.1") is enclosed for a hybrid model and an
# ideal contact as for a DLVI, a start time says why it must be exact; the
# state names head a trajectory's columns for enclose --from as for check
# (and the same field rule: commas or blanks, '#' comments);
# predict names what it does not cover instead of "not linear"; a model or
# problem file given where a certificate is expected is named as such with
# the command that certifies it; a friction model's events read stick and
# slip; the initial mode of a decomposed model is inferred from the state,
# and a wrong one is refused naming the mode that fits.
# usage: bash tests/cli/input_rules.sh DVICERT SRCROOT
set -u
exe=${1:?usage: input_rules.sh DVICERT SRCROOT}
src=${2:?usage: input_rules.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DC="$src/certs/diode-clamp/diode-clamp.json"
SS="$src/certs/stickslip/stickslip.json"
BR="$src/certs/bridge/gamma0.2.json"

# ---- item 4: "T": "0.1" for every kind
sed 's/"T": 20/"T": "0.1"/; s/"h": "0.25"/"N": 4/' "$DC" > "$tmp/dc.json"
expect 0 "" "ideal contact, T a decimal string" -- "$exe" enclose "$tmp/dc.json" -o "$tmp/dc.cert.json"
expect 0 "^accepted" "ideal contact, T a decimal string, verified" -- "$exe" verify "$tmp/dc.cert.json"
sed 's/"T": 10/"T": "0.1"/' "$SS" > "$tmp/ss.json"
expect 0 "" "hybrid model, T a decimal string" -- "$exe" enclose "$tmp/ss.json" -o "$tmp/ss.cert.json"
expect 0 "^accepted" "hybrid model, T a decimal string, verified" -- "$exe" verify "$tmp/ss.cert.json"
sed 's/"h": 0.25/"h": "0.1"/' "$SS" > "$tmp/ssh.json"
expect 0 "" "hybrid model, h a decimal string" -- "$exe" enclose "$tmp/ssh.json" -o "$tmp/ssh.cert.json"
sed 's/"T": 1,/"T": "0.1",/' "$BR" > "$tmp/b.json"
expect 0 "" "DLVI, T a decimal string" -- "$exe" enclose "$tmp/b.json" -o "$tmp/b.cert.json"
sed 's/"t0": 0/"t0": "0.1"/' "$SS" > "$tmp/t0.json"
expect 2 "the initial state is given at one exact time" "t0 a decimal string: why" -- \
    "$exe" enclose "$tmp/t0.json" -o "$tmp/t0.cert.json"
grep -q "0.1 without quotes" "$tmp/out" && ok || bad "t0 a decimal string: no fix named"

# ---- item 4: one header rule for check and enclose --from
sed 's/"theta": 1/"theta": 1, "state_names": ["pos", "vel"]/; s/"h": "0.001"/"h": "0.01"/' "$BR" > "$tmp/bn.json"
"$exe" enclose "$tmp/bn.json" -o "$tmp/bl.cert.json" --method lognorm > /dev/null &&
    "$exe" export "$tmp/bl.cert.json" -o "$tmp/bl.csv" > /dev/null || bad "bridge with names: no tube"
awk -F, 'NR == 1 { print "t,pos,vel" } NR > 1 && $1 == "grid" { printf "%s,%.17g,%.17g\n", $2, ($4 + $5) / 2, ($6 + $7) / 2 }' \
    "$tmp/bl.csv" > "$tmp/tr.csv"
sed '1s/.*/t,x1,x2/' "$tmp/tr.csv" > "$tmp/trx.csv"
for f in tr trx; do
    expect 0 "" "enclose --from, header $(head -1 "$tmp/$f.csv")" -- \
        "$exe" enclose "$tmp/bn.json" --from "$tmp/$f.csv" -o "$tmp/from_$f.cert.json"
    expect 0 "^samples: 101" "check, header $(head -1 "$tmp/$f.csv")" -- "$exe" check "$tmp/bl.cert.json" "$tmp/$f.csv"
done
# ... and one field rule: blank-separated columns and '#' comments as for check
(echo "# the bridge, blank-separated"; sed '1s/,/ /g; 2,$s/,/  /g' "$tmp/tr.csv") > "$tmp/trw.txt"
expect 0 "" "enclose --from, blank-separated with a comment" -- \
    "$exe" enclose "$tmp/bn.json" --from "$tmp/trw.txt" -o "$tmp/from_trw.cert.json"
if cmp -s "$tmp/from_trw.cert.json" "$tmp/from_tr.cert.json"; then ok; else bad "--from: blank-separated gave another certificate"; fi
expect 0 "^samples: 101" "check, blank-separated with a comment" -- "$exe" check "$tmp/bl.cert.json" "$tmp/trw.txt"
sed '1s/.*/t,pos,speed/' "$tmp/tr.csv" > "$tmp/trbad.csv"
expect 2 "missing column 'vel' or 'x2'" "enclose --from, a state missing: named" -- \
    "$exe" enclose "$tmp/bn.json" --from "$tmp/trbad.csv" -o "$tmp/bad.cert.json"

# ---- item 4: predict on a friction model, verify on a model or problem file
expect 2 "decomposed form" "predict on a friction model" -- "$exe" predict "$SS" -o "$tmp/p.csv"
grep -q "not linear" "$tmp/out" && bad "predict still says 'not linear'" || ok
for f in "$SS" "$DC" "$BR"; do
    expect 2 "not a certificate; certify it first with dvicert enclose $f" "verify on $(basename "$f")" -- \
        "$exe" verify "$f"
done
expect 2 "this is a hybrid model file, not a certificate" "info on a model file" -- "$exe" info "$SS"

# ---- item 5: stick and slip for a friction model, Filippov words otherwise
expect 0 "3 stick, 3 slip" "info: stick/slip" -- "$exe" info "$src/certs/stickslip/stickslip.cert.json"
expect 0 "^event,kind," "events --csv of a friction model" -- \
    "$exe" events --csv "$src/certs/stickslip/stickslip.cert.json"
grep -q "^1,slip,friction'+,friction=0,friction>0," "$tmp/out" && ok || bad "events --csv: slip"
grep -q "^2,stick,friction,friction>0,friction=0," "$tmp/out" && ok || bad "events --csv: stick"
expect 0 "3 enter-slide, 3 leave-slide" "info: ideal contact keeps Filippov's words" -- \
    "$exe" info "$src/certs/diode-clamp/diode-clamp.cert.json"
# the certificate text is unchanged
grep -q '"kind":"enter-slide"' "$src/certs/stickslip/stickslip.cert.json" && ok || bad "certificate kind text"

# ---- item 5: the initial mode from the initial state
sed 's/"mode": "friction=0", //' "$SS" > "$tmp/nomode.json"
expect 0 "6 crossings" "initial mode omitted: inferred" -- "$exe" enclose "$tmp/nomode.json" -o "$tmp/nomode.cert.json"
expect 0 "^accepted" "inferred mode: verified" -- "$exe" verify "$tmp/nomode.cert.json"
sed 's/"v1": 0, "v2": 0/"v1": 1, "v2": 0/' "$SS" > "$tmp/wrong.json"
expect 2 "mode 'friction=0' does not fit the initial state.*the mode is 'friction>0'" "wrong initial mode: the right one named" -- \
    "$exe" enclose "$tmp/wrong.json" -o "$tmp/wrong.cert.json"
sed 's/"mode": "m1<0&m2>0&m3>0"/"mode": "m1>0\&m2>0\&m3>0"/' "$src/certs/threemass/threemass.json" > "$tmp/tm.json"
expect 2 "the mode is 'm1<0&m2>0&m3>0'" "three terms: the right mode named" -- \
    "$exe" enclose "$tmp/tm.json" -o "$tmp/tm.cert.json"
sed 's/"v1": 0, "v2": 0/"v1": [-0.1, 0.1], "v2": 0/; s/"mode": "friction=0", //' "$SS" > "$tmp/undec.json"
expect 2 "does not decide it.*'friction>0'" "undecided state: the modes that fit named" -- \
    "$exe" enclose "$tmp/undec.json" -o "$tmp/undec.cert.json"
sed 's/"mode": "plus", //' "$src/certs/pw-harmonic/pw-harmonic.json" > "$tmp/pw.json"
expect 2 "must name a mode (the modes of a model with 'modes'" "switched model: the mode stays required" -- \
    "$exe" enclose "$tmp/pw.json" -o "$tmp/pw.cert.json"

report
