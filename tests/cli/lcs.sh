#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of ideal contacts (a DLVI problem file with M = 0,
# docs/ideal_contacts.md): the diode-clamped RC circuit is enclosed as a
# sliding motion, its certificate lists the enter/leave events, verify
# re-derives and re-checks it, check accepts the 256-bit reference
# (./test_lcs --csv) and rejects a perturbed copy, export and plot work,
# edits are rejected; problems outside the class are refused with the
# reason and no output file.
# usage: bash tests/cli/lcs.sh DVICERT SRCROOT
set -u
exe=${1:?usage: lcs.sh DVICERT SRCROOT}
src=${2:?usage: lcs.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

P="$src/certs/diode-clamp/diode-clamp.json"
C="$tmp/dc.cert.json"
expect 0 "ideal contact (M = 0, Q B > 0 proven).*6 events" "enclose the diode clamp" -- \
    "$exe" enclose "$P" -o "$C"
for k in enter-slide leave-slide; do
    n=$(grep -c "\"kind\":\"$k\"" "$C")
    [ "$n" -eq 3 ] && ok || bad "certificate: $n $k events, expected 3"
done
grep -q '"t_lo":"2.617993877990' "$C" && ok || bad "first leave time (5 pi / 6) not stated"
expect 0 "^accepted: .*ideal contact.*6 events" "verify the diode-clamp certificate" -- \
    "$exe" verify "$C"
expect 0 "^accepted: .*ideal contact" "committed diode-clamp certificate re-verified" -- \
    "$exe" verify "$src/certs/diode-clamp/diode-clamp.cert.json"
# edits: a narrowed event time, an edited embedded problem
sed '0,/"t_lo":"2.617993877990[0-9]*e+00"/s//"t_lo":"2.61799387799149e+00"/' "$C" > "$tmp/t.json"
cmp -s "$C" "$tmp/t.json" && bad "the sed edit did not apply" || ok
expect 1 "^rejected: " "verify rejects a narrowed leave time" -- "$exe" verify "$tmp/t.json"
sed 's/"U":"2"/"U":"3"/g' "$C" > "$tmp/u.json"
cmp -s "$C" "$tmp/u.json" && bad "the sed edit did not apply" || ok
expect 1 "^rejected: \|digest" "verify rejects an edited source amplitude" -- "$exe" verify "$tmp/u.json"

# check: the independent reference inside the tube; v moved by 1e-9 outside
./test_lcs --csv 1999 0 > "$tmp/ref.csv" && ok || bad "reference trajectory"
./test_lcs --csv 1999 1e-9 > "$tmp/pert.csv" && ok || bad "perturbed trajectory"
# the embedded K edited, digests recomputed: the model is not the
# translation of the embedded problem; verify and check refuse it
./test_lcs --tampered "$src/certs" "$tmp/k.cert.json" && ok || bad "tampered certificate"
expect 1 "^rejected: .*not the translation" "verify rejects an edited K" -- "$exe" verify "$tmp/k.cert.json"
expect 1 "not the translation" "check refuses an edited K" -- \
    "$exe" check "$tmp/k.cert.json" "$tmp/ref.csv"

expect 0 "inside: 0 of 2000 samples" "check: the reference" -- "$exe" check "$C" "$tmp/ref.csv"
expect 1 "outside: " "check: a perturbed reference" -- "$exe" check "$C" "$tmp/pert.csv"
expect 0 "" "export the diode-clamp tube" -- "$exe" export "$C" -o "$tmp/tube.csv"
[ -s "$tmp/tube.csv" ] && ok || bad "export wrote nothing"
expect 0 "" "plot the diode-clamp tube" -- "$exe" plot "$C" -o "$tmp/dc.svg"
[ -s "$tmp/dc.svg" ] && ok || bad "plot wrote nothing"

# refusals: the reason, the exit status, no output file
refuse() {
    local rc=$1 what=$2 pat=$3 file="$tmp/bad.json"
    cat > "$file"
    expect "$rc" "$pat" "refused: $what" -- "$exe" enclose "$file" -o "$tmp/bad.cert.json"
    absent "$tmp/bad.cert.json" "refused: $what"
}
refuse 2 "Q B < 0" "bad.json: field 'B': Q B <= 0" <<EOF
{"A": [[-1]], "B": [[1]], "f": ["2*sin(t)"], "Q": [[-1]], "g": [1], "M": [[0]],
 "l": [0], "u": ["inf"], "x0": [0], "T": 1, "h": "0.25"}
EOF
refuse 2 "Q B = 0 (impacts)" "relative degree two (impacts.*out of scope" <<EOF
{"A": [[0, 1], [0, 0]], "B": [[0], [1]], "Q": [[1, 0]], "M": [[0]], "l": [0], "u": ["inf"],
 "x0": [1, 0], "T": 1, "h": "0.25"}
EOF
refuse 2 "l != 0" "field 'l'.*requires l = 0 and u = inf" <<EOF
{"A": [[-1]], "B": [[-1]], "Q": [[-1]], "g": [1], "M": [[0]], "l": [-1], "u": ["inf"],
 "x0": [0], "T": 1, "h": "0.25"}
EOF
refuse 2 "finite u" "field 'u'.*requires l = 0 and u = inf" <<EOF
{"A": [[-1]], "B": [[-1]], "Q": [[-1]], "g": [1], "M": [[0]], "l": [0], "u": [3],
 "x0": [0], "T": 1, "h": "0.25"}
EOF
refuse 2 "g depending on t" "field 'g'.*depending on t is not supported" <<EOF
{"A": [[-1]], "B": [[-1]], "Q": [[-1]], "g": ["1 + sin(t)/4"], "M": [[0]], "l": [0],
 "u": ["inf"], "x0": [0], "T": 1, "h": "0.25"}
EOF
refuse 1 "two faces at once" "cannot be ordered" <<EOF
{"A": [[-1, 0], [0, -1]], "B": [[-1, 0], [0, -1]], "Q": [[-1, 0], [0, -1]], "g": [1, 1],
 "f": ["2*sin(t)", "2*sin(t)"], "M": [[0, 0], [0, 0]], "l": [0, 0], "u": ["inf", "inf"],
 "x0": [0, 0], "T": 3, "h": "0.25"}
EOF
refuse 2 "Q B not a P-matrix" "Q B is not a P-matrix" <<EOF
{"A": [[-1, 0], [0, -1]], "B": [[-1, -2], [-2, -1]], "Q": [[-1, 0], [0, -1]], "g": [1, 1],
 "M": [[0, 0], [0, 0]], "l": [0, 0], "u": ["inf", "inf"], "x0": [0, 0], "T": 3, "h": "0.25"}
EOF
refuse 1 "Q B > 0 not provable" "Q B > 0 could not be proven" <<EOF
{"A": [[-1]], "B": [[["-1", "1"]]], "Q": [[-1]], "g": [1], "M": [[0]], "l": [0],
 "u": ["inf"], "x0": [0], "T": 1, "h": "0.25"}
EOF
cat > "$tmp/bad.json" <<EOF
{"A": [[-1]], "B": [[-1]], "Q": [[-1]], "g": [1], "M": [[0]], "l": [0], "u": ["inf"],
 "x0": [0], "T": 1, "h": "0.25"}
EOF
expect 2 "--sharpen does not apply to an ideal contact" "--sharpen refused" -- \
    "$exe" enclose "$tmp/bad.json" -o "$tmp/bad.cert.json" --sharpen
absent "$tmp/bad.cert.json" "--sharpen"
# a step h that does not divide T: the model steps on the problem's grid
# (t_k = k h, the last step shorter), not with T/N for N = ceil(T/h)
sed 's/"h": "0.25"/"h": "0.3"/' "$P" > "$tmp/h03.json"
grep -q '"h": "0.3"' "$tmp/h03.json" && ok || bad "the edit did not set h"
expect 0 "ideal contact" "enclose the diode clamp with h = 0.3 (T = 20)" -- "$exe" enclose "$tmp/h03.json" -o "$tmp/h03.cert.json"
mh=$(grep -o '"h": *[0-9][^,}]*' "$tmp/h03.cert.json" | sed 's/.*: *//')
# the largest double <= 0.3 is within 2^-54 of it; T/N = 20/67 = 0.2985...
awk -v h="$mh" 'BEGIN { exit !(h <= 0.3 && h >= 0.3 * (1 - 2^-52) && 66 * h < 20 && 67 * h >= 20) }' && ok ||
    bad "model step '$mh' is not the problem's h = 0.3"
expect 0 "accepted" "verify with h = 0.3" -- "$exe" verify "$tmp/h03.cert.json"
report
