#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The DLVI containment checks of tests/cli/dlvi.sh (which name the chen-wang
# route) on the default route, the exact solution (events): the closed forms
# of tests/gen_traj.c (256 bits) inside the tubes `dvicert enclose P -o C`
# writes without options, x and y, and a perturbed one outside.
# usage: bash tests/cli/events_contain.sh DVICERT SRCROOT
set -u
exe=${1:?usage: events_contain.sh DVICERT SRCROOT}
src=${2:?usage: events_contain.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gen=$(ref_tool gen_traj) || exit 1

# the bridge, gamma 0.2, 1, 2 (published start, T = 1)
for g in 0.2 1.0 2.0; do
    expect 0 "route: events, chosen by --method auto" "gamma = $g: the default route is the exact one" -- \
        "$exe" enclose "$src/certs/bridge/gamma$g.json" -o "$tmp/b$g.cert.json"
    "$gen" bridge $g 1 2000 $((11 + ${#g})) > "$tmp/e$g.csv"
    expect 0 "inside: 0 of 2000" "gamma = $g: closed form inside (2000 random times)" -- \
        "$exe" check "$tmp/b$g.cert.json" "$tmp/e$g.csv"
done
# perturbed by 1e-9 (the tube is 1e-16 wide): every sample outside, exit 1
"$gen" bridge 0.2 1 2000 13 1e-9 > "$tmp/pert.csv"
expect 1 "outside: 2000 of 2000" "perturbed by 1e-9: outside" -- "$exe" check "$tmp/b0.2.cert.json" "$tmp/pert.csv"

# with contact phases from x(0) = (0.1, -0.5): x and y of the closed form
sed -e 's/"x0": \[0, "gamma"\]/"x0": ["0.1", "-0.5"]/' "$src/certs/bridge/gamma0.2.json" > "$tmp/sw.json"
expect 0 "route: events" "contact phases: the exact route" -- "$exe" enclose "$tmp/sw.json" -o "$tmp/sw.cert.json"
"$gen" bridgesw 0.1 -0.5 1 5000 77 > "$tmp/sw.csv"
awk -F, 'NR > 1 && $4 > 1e-3 { n++ } END { exit !(n > 500) }' "$tmp/sw.csv" && ok || bad "reference: contact (y > 0) expected on many samples"
expect 0 "inside: 0 of 5000" "contact phases: closed form inside (x and y)" -- "$exe" check "$tmp/sw.cert.json" "$tmp/sw.csv"
awk -F, -v OFS=, 'NR > 1 && $4 > 1e-3 { $4 = $4 + 1e-6 } { print }' "$tmp/sw.csv" > "$tmp/swy.csv"
expect 1 "outside" "contact force moved by 1e-6: outside its tube" -- "$exe" check "$tmp/sw.cert.json" "$tmp/swy.csv"

# Remark 4.3 (x = y1 = 2 - e^t, y2 = 0) from x(0) = 1
expect 0 "route: events" "Remark 4.3: the exact route" -- "$exe" enclose "$src/certs/remark43/x0_1.json" -o "$tmp/r.cert.json"
"$gen" remark43 10 0.5 5000 43 > "$tmp/r.csv"
expect 0 "inside: 0 of 5000" "Remark 4.3 closed form inside" -- "$exe" check "$tmp/r.cert.json" "$tmp/r.csv"
"$gen" remark43 10 0.5 5000 43 1e-9 > "$tmp/rp.csv"
expect 1 "outside" "Remark 4.3 perturbed by 1e-9: outside" -- "$exe" check "$tmp/r.cert.json" "$tmp/rp.csv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
