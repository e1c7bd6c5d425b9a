#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of Filippov sliding through the command: a model in
# decomposed form (GESDA's stick-slip example) is enclosed, its certificate
# lists the enter-slide / leave-slide events with their active sets, verify
# re-checks it, check accepts the 256-bit reference (./test_sliding --csv)
# and rejects a perturbed copy, edits are rejected; bad decomposed models
# exit 2 naming the field; contacts switching at once are decided by
# Stewart's LCP (13) when its solution is unique and strictly
# complementary (two-contact, three-mass) and refused with the candidates
# otherwise (exit 1, no output file left).
# usage: bash tests/cli/sliding.sh DVICERT SRCROOT
set -u
exe=${1:?usage: sliding.sh DVICERT SRCROOT}
src=${2:?usage: sliding.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

P="$src/certs/stickslip/stickslip.json"
C="$tmp/ss.cert.json"
expect 0 "6 crossings" "enclose a decomposed model (stick-slip)" -- "$exe" enclose "$P" -o "$C"
for k in leave-slide enter-slide; do
    n=$(grep -c "\"kind\":\"$k\"" "$C")
    [ "$n" -eq 3 ] && ok || bad "certificate: $n $k events, expected 3"
done
grep -q '"kind":"enter-slide","active":{"friction":"+-"}' "$C" && ok || bad "active set of sliding"
expect 0 "^accepted: .*6 crossings" "verify the stick-slip certificate" -- "$exe" verify "$C"
expect 0 "^accepted: " "committed stick-slip certificate re-verified" -- \
    "$exe" verify "$src/certs/stickslip/stickslip.cert.json"
# edits: caught by the digest, and by the reader for a kind that does not
# match the modes (recomputation-only edits: tests/test_sliding.c)
sed '0,/"kind":"enter-slide"/s//"kind":"cross"/' "$C" > "$tmp/kind.json"
cmp -s "$C" "$tmp/kind.json" && bad "the sed edit did not apply" || ok
expect 2 "field 'kind'" "verify rejects an edited event kind" -- "$exe" verify "$tmp/kind.json"
sed '0,/"t_lo":"9.2729521800161[0-9]*e-01"/s//"t_lo":"9.2729521800161250e-01"/' "$C" > "$tmp/t.json"
cmp -s "$C" "$tmp/t.json" && bad "the sed edit did not apply" || ok
expect 1 "^rejected: " "verify rejects a narrowed leave-slide time" -- "$exe" verify "$tmp/t.json"

# check: the independent reference (closed forms, switch times bisected at
# 256 bits) inside the tube; p1 moved by 1e-9 outside
./test_sliding --csv 997 0 > "$tmp/ref.csv" && ok || bad "reference trajectory"
./test_sliding --csv 997 1e-9 > "$tmp/pert.csv" && ok || bad "perturbed trajectory"
expect 0 "inside: 0 of 998 samples" "check: the reference" -- "$exe" check "$C" "$tmp/ref.csv"
expect 1 "outside: " "check: a perturbed reference" -- "$exe" check "$C" "$tmp/pert.csv"
expect 0 "" "export the stick-slip tube" -- "$exe" export "$C" -o "$tmp/tube.csv"
[ -s "$tmp/tube.csv" ] && ok || bad "export wrote nothing"

# bad decomposed models: exit 2, the field named, no output
bad_model() {
    local what=$1 pat=$2 file="$tmp/bad.json"
    cat > "$file"
    expect 2 "$pat" "bad model: $what" -- "$exe" enclose "$file" -o "$tmp/bad.cert.json"
    absent "$tmp/bad.cert.json" "bad model: $what"
}
head='"states": ["x", "v"], "initial": {"mode": "c=0", "x": [0, 0]}, "T": 1'
bad_model "h not affine" "decomposed.terms.*term 'c'.*field 'h'.*affine" <<EOF2
{$head, "decomposed": {"f0": ["v", "0"], "terms": {"c": {"h": "v*v", "f+": [0, -1], "f-": [0, 1]}}}}
EOF2
bad_model "f+ of the wrong size" "decomposed.terms.c.f+" <<EOF2
{$head, "decomposed": {"f0": ["v", "0"], "terms": {"c": {"h": "v", "f+": [0], "f-": [0, 1]}}}}
EOF2
bad_model "unknown state in f0" "decomposed.f0\|unknown" <<EOF2
{$head, "decomposed": {"f0": ["w", "0"], "terms": {"c": {"h": "v", "f+": [0, -1], "f-": [0, 1]}}}}
EOF2
bad_model "decomposed and modes" "either 'decomposed'" <<EOF2
{$head, "modes": {"a": {"f": ["v", "0"]}}, "decomposed": {"f0": ["v", "0"], "terms": {}}}
EOF2
bad_model "unknown key in a term" "unknown field 'g'" <<EOF2
{$head, "decomposed": {"f0": ["v", "0"], "terms": {"c": {"h": "v", "g": 1, "f+": [0, -1], "f-": [0, 1]}}}}
EOF2
bad_model "term name not an identifier" "term name 'c,d' is not an identifier" <<EOF2
{$head, "decomposed": {"f0": ["v", "0"], "terms": {"c,d": {"h": "v", "f+": [0, -1], "f-": [0, 1]}}}}
EOF2
bad_model "initial mode not generated" "initial.mode" <<EOF2
{"states": ["x", "v"], "initial": {"mode": "stick", "x": [0, 0]}, "T": 1,
 "decomposed": {"f0": ["v", "0"], "terms": {"c": {"h": "v", "f+": [0, -1], "f-": [0, 1]}}}}
EOF2
# two terms (x' = -sgn x, y' = 2 - sgn y): y crosses at 1/3, x sticks at 1;
# certified, verified, exported (mode names hold no comma: 8 CSV fields)
cat > "$tmp/two_ok.json" <<EOF2
{"states": ["x", "y"], "initial": {"mode": "cx>0&cy<0", "x": [1, -1]}, "T": 3,
 "decomposed": {"f0": ["0", "2"], "terms": {"cx": {"h": "x", "f+": [-1, 0], "f-": [1, 0]},
                                            "cy": {"h": "y", "f+": [0, -1], "f-": [0, 1]}}}}
EOF2
expect 0 "2 crossings" "two terms: cross and stick" -- "$exe" enclose "$tmp/two_ok.json" -o "$tmp/two_ok.cert.json"
grep -q '"kind":"cross","active":{"cx":"+","cy":"+"}' "$tmp/two_ok.cert.json" && ok || bad "two terms: cross event"
grep -q '"kind":"enter-slide","active":{"cx":"+-","cy":"+"}' "$tmp/two_ok.cert.json" && ok ||
    bad "two terms: enter-slide event"
expect 0 "^accepted: " "two terms: verify" -- "$exe" verify "$tmp/two_ok.cert.json"
expect 0 "" "two terms: export" -- "$exe" export "$tmp/two_ok.cert.json" -o "$tmp/two.csv"
awk -F, 'NF != 8 { bad = 1 } END { exit bad }' "$tmp/two.csv" && ok || bad "two terms: export rows not of 8 fields"
# two terms (x' = -sgn x, y' = -sgn y): x sticks at t = 1, y reaches its
# surface at t = 2 while x sticks: the LCP (13) says both stick; the mode
# sliding on both surfaces carries the run to T
cat > "$tmp/two.json" <<EOF2
{"states": ["x", "y"], "initial": {"mode": "cx>0&cy>0", "x": [1, 2]}, "T": 3,
 "decomposed": {"f0": ["0", "0"], "terms": {"cx": {"h": "x", "f+": [-1, 0], "f-": [1, 0]},
                                            "cy": {"h": "y", "f+": [0, -1], "f-": [0, 1]}}}}
EOF2
expect 0 "2 crossings" "two surfaces at once: both stick" -- "$exe" enclose "$tmp/two.json" -o "$tmp/two.cert.json"
grep -q '"kind":"enter-slide","active":{"cx":"+-","cy":"+-"},"lcp":{"contacts":\["cx","cy"\]' "$tmp/two.cert.json" && ok ||
    bad "two surfaces at once: active set and lcp note"
expect 0 "^accepted: " "two surfaces at once: verify" -- "$exe" verify "$tmp/two.cert.json"
# sliding on both, x' = 2 sin t - sgn x: the weight of x reaches 1 at
# t = pi/6 (enclosed), x leaves its surface while y sticks, then crosses
# twice (LCP (13) with y sticking)
cat > "$tmp/leave.json" <<EOF2
{"states": ["x", "y"], "initial": {"mode": "cx=0&cy=0", "x": [0, 0]}, "T": 10,
 "decomposed": {"f0": ["2*sin(t)", "0.5"], "terms": {"cx": {"h": "x", "f+": [-1, 0], "f-": [1, 0]},
                                            "cy": {"h": "y", "f+": [0, -1], "f-": [0, 1]}}}}
EOF2
expect 0 "3 crossings" "two sliding, one weight reaches 1" -- "$exe" enclose "$tmp/leave.json" -o "$tmp/leave.cert.json"
grep -q '"t_lo":"5.235987755982987[0-9]*e-01","t_hi":"5.23598775598299[0-9]*e-01","switch":"cx'"'"'1-z@cx=0&cy=0","from":"cx=0&cy=0","to":"cx>0&cy=0"' \
    "$tmp/leave.cert.json" && ok || bad "two sliding: leave event at pi/6"
expect 0 "^accepted: " "two sliding, leave: verify" -- "$exe" verify "$tmp/leave.cert.json"
# two contacts, LCP (13) at t = 1 with one solution (both leave to h < 0):
# decided and recorded; with f0_y = -1.5 three solutions at t = 2: refused
# with the candidates, no output
expect 0 "1 crossings" "two-contact: unique LCP solution" -- \
    "$exe" enclose "$src/certs/two-contact/unique.json" -o "$tmp/u.cert.json"
grep -q '"active":{"cx":"-","cy":"-"},"lcp":{"contacts":\["cx","cy"\],"size":6,"solutions":1' \
    "$tmp/u.cert.json" && ok || bad "two-contact: lcp note"
expect 0 "^accepted: " "two-contact: verify" -- "$exe" verify "$tmp/u.cert.json"
expect 0 "^accepted: " "two-contact: committed certificate" -- \
    "$exe" verify "$src/certs/two-contact/unique.cert.json"
sed 's/"lcp":{"contacts":\["cx","cy"\]/"lcp":{"contacts":["cy"]/' "$tmp/u.cert.json" > "$tmp/ul.json"
cmp -s "$tmp/u.cert.json" "$tmp/ul.json" && bad "the sed edit did not apply" || ok
expect 2 "field 'lcp'" "verify rejects an edited lcp note" -- "$exe" verify "$tmp/ul.json"
sed 's/,"lcp":{[^}]*}//' "$tmp/u.cert.json" > "$tmp/un.json"
cmp -s "$tmp/u.cert.json" "$tmp/un.json" && bad "the sed edit did not apply" || ok
expect 2 "field 'lcp': missing" "verify rejects a removed lcp note" -- "$exe" verify "$tmp/un.json"
sed 's/"active":{"cx":"-","cy":"-"}/"active":{"cx":"+-","cy":"-"}/' "$tmp/u.cert.json" > "$tmp/ua.json"
cmp -s "$tmp/u.cert.json" "$tmp/ua.json" && bad "the sed edit did not apply" || ok
expect 2 "field 'active'" "verify rejects an edited active set" -- "$exe" verify "$tmp/ua.json"
expect 1 "3 solution(s): (cx:- cy:-), (cx:- cy:+-), (cx:+- cy:+-).*Condition C'" \
    "two-contact: three LCP solutions, refused with the candidates" -- \
    "$exe" enclose "$src/certs/two-contact/ambiguous.json" -o "$tmp/a.cert.json"
absent "$tmp/a.cert.json" "two-contact: ambiguous"
# Stewart's three-mass problem (15): all 22 switching points on [0, 10]
# (13 of them decided by the LCP (13) while m1 sticks), verified
expect 0 "22 crossings" "three-mass: certified on [0, 10]" -- \
    "$exe" enclose "$src/certs/threemass/threemass.json" -o "$tmp/tm.cert.json"
n=$(grep -o '"lcp":' "$tmp/tm.cert.json" | wc -l)
[ "$n" -eq 13 ] && ok || bad "three-mass: $n events decided by the LCP, expected 13"
expect 0 "^accepted: .*22 crossings" "three-mass: committed certificate" -- \
    "$exe" verify "$src/certs/threemass/threemass.cert.json"
# sliding start off the surface: refused by the reader naming the mode the
# state decides (exit 2); a state not proven on it: exit 1 with the reason
cat > "$tmp/off.json" <<EOF2
{"states": ["x", "v"], "initial": {"mode": "c=0", "x": [0, 0.5]}, "T": 1,
 "decomposed": {"f0": ["v", "0"], "terms": {"c": {"h": "v", "f+": [0, -1], "f-": [0, 1]}}}}
EOF2
expect 2 "mode 'c=0' does not fit the initial state.*the mode is 'c>0'" "sliding start off the surface" -- \
    "$exe" enclose "$tmp/off.json" -o "$tmp/off.cert.json"
absent "$tmp/off.cert.json" "sliding start off the surface"
sed 's/"x": \[0, 0.5\]/"x": [0, [-0.5, 0.5]]/' "$tmp/off.json" > "$tmp/near.json"
expect 1 "not proven to lie on that surface" "sliding start not proven on the surface" -- \
    "$exe" enclose "$tmp/near.json" -o "$tmp/near.cert.json"
absent "$tmp/near.cert.json" "sliding start not proven on the surface"
report
