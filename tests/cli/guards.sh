#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Guarded transitions (GESDA's "and" of switching functions, docs/hybrid.md):
# two transitions on the same crossing chosen by the sign of another
# switching function, proven over the crossing's enclosure; a guard whose
# sign is not proven there is refused naming the transition and the guard;
# verify recomputes with the model's guards (a certificate whose model guard
# was edited, digests recomputed, is rejected by recomputation); unknown keys
# and bad values in a guard are refused.
# usage: bash tests/cli/guards.sh DVICERT SRCROOT
set -u
exe=${1:?usage: guards.sh DVICERT SRCROOT}
src=${2:?usage: guards.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# x' = 1 from x = -1: g1 = x crosses upward at t = 1; y is constant in
# mode a, so the guard on g2 = y picks 'up' (y > 0) or 'down' (y < 0).
M="$tmp/g.json"
cat > "$M" << 'JSON'
{
  "name": "guarded transitions",
  "states": ["x", "y"],
  "modes": {
    "a": {"A": [[0, 0], [0, 0]], "b": ["1", "0"]},
    "up": {"A": [[0, 0], [0, 0]], "b": ["1", "1"]},
    "down": {"A": [[0, 0], [0, 0]], "b": ["1", "-1"]}
  },
  "switches": {"g1": "x", "g2": "y"},
  "transitions": [
    {"from": "a", "switch": "g1", "direction": "+", "to": "up", "guards": [{"switch": "g2", "sign": "+"}]},
    {"from": "a", "switch": "g1", "direction": "+", "to": "down", "guards": [{"switch": "g2", "sign": "-"}]}
  ],
  "initial": {"mode": "a", "x": {"x": -1, "y": 0.5}},
  "T": 2
}
JSON
C="$tmp/g.cert.json"
expect 0 "1 crossings" "enclose: the guard g2 > 0 holds at the crossing" -- "$exe" enclose "$M" -o "$C"
grep -q '"switch":"g1","from":"a","to":"up"' "$C" && ok || bad "the event does not go to 'up'"
grep -q '"switch":"g1","from":"a","to":"down"' "$C" && bad "the event goes to 'down'" || ok
grep -q '"guards"' "$C" && ok || bad "the certificate's model has no guards"
expect 0 "^accepted: .*1 crossings" "verify accepts the guarded certificate" -- "$exe" verify "$C"
sed 's/"y": 0.5/"y": -0.5/' "$M" > "$tmp/down.json"
expect 0 "1 crossings" "enclose: the guard g2 < 0 holds" -- "$exe" enclose "$tmp/down.json" -o "$tmp/down.cert.json"
grep -q '"switch":"g1","from":"a","to":"down"' "$tmp/down.cert.json" && ok || bad "the event does not go to 'down'"

# y moving in mode a (y' = 1 from -0.5): the guard is taken at the crossing
# (y = 0.5 at t = 1), not at the step's start
sed 's/"b": \["1", "0"\]/"b": ["1", "1"]/; s/"y": 0.5/"y": -0.5/' "$M" > "$tmp/moving.json"
expect 0 "1 crossings" "enclose: a guard whose function changes sign before the crossing" -- \
    "$exe" enclose "$tmp/moving.json" -o "$tmp/moving.cert.json"
grep -q '"switch":"g1","from":"a","to":"up"' "$tmp/moving.cert.json" && ok || bad "moving guard: not 'up'"
# the floating-point companion takes the guarded transition too
expect 0 "1 transitions" "predict: guarded transitions" -- "$exe" predict "$M" -o "$tmp/p.csv"
tail -n 1 "$tmp/p.csv" | grep -q ',1\.5' && ok || bad "predict: y at T is not 1.5 (mode 'up')"

# a guard not proven at the crossing: refused, naming the transition and the guard
sed 's/"y": 0.5/"y": 0/' "$M" > "$tmp/undecided.json"
expect 1 "guard 'g2' > 0 of transition 0 ('a' -> 'up' on 'g1') is undecided" \
    "enclose refuses an undecided guard" -- "$exe" enclose "$tmp/undecided.json" -o "$tmp/u.cert.json"
absent "$tmp/u.cert.json" "undecided guard"
sed 's/"y": 0.5/"y": [-0.1, 0.1]/' "$M" > "$tmp/box.json"
expect 1 "guard 'g2' > 0 .* is undecided" "enclose refuses a guard undecided over the initial box" -- \
    "$exe" enclose "$tmp/box.json" -o "$tmp/b.cert.json"
# overlapping guards: both transitions would fire
sed 's/"sign": "-"}/"sign": "+"}/' "$M" > "$tmp/overlap.json"
expect 1 "transitions 0 and 1 both fire at the crossing of 'g1'" "enclose refuses overlapping guards" -- \
    "$exe" enclose "$tmp/overlap.json" -o "$tmp/o.cert.json"

# bad guards in the model file: exit 2, naming the key path
sed 's/"sign": "+"}/"sign": "+", "when": 1}/' "$M" > "$tmp/key.json"
expect 2 "field 'transitions\[0\].guards\[0\]': unknown field 'when'" "unknown key in a guard" -- \
    "$exe" enclose "$tmp/key.json" -o "$tmp/k.cert.json"
absent "$tmp/k.cert.json" "unknown key in a guard"
sed 's/"sign": "+"}/"sign": ">"}/' "$M" > "$tmp/sign.json"
expect 2 "guards\[0\]': .*'sign' be \"+\"" "a sign not + or -" -- "$exe" enclose "$tmp/sign.json" -o "$tmp/s.cert.json"
sed 's/"switch": "g2", "sign": "-"/"switch": "g3", "sign": "-"/' "$M" > "$tmp/name.json"
expect 2 "transitions\[1\].guards\[0\].switch': no switching function named 'g3'" "a guard on a missing function" -- \
    "$exe" enclose "$tmp/name.json" -o "$tmp/n.cert.json"
sed 's/"guards": \[{"switch": "g2", "sign": "+"}\]/"guards": []/' "$M" > "$tmp/empty.json"
expect 2 "guards': expected a nonempty array" "empty guards" -- "$exe" enclose "$tmp/empty.json" -o "$tmp/e.cert.json"
sed 's/, "guards": \[{"switch": "g2", "sign": "+"}\]//' "$M" > "$tmp/one.json"
expect 2 "two transitions on 'g1' in the same direction (give both 'guards'" \
    "a guarded and an unguarded transition on one crossing" -- "$exe" enclose "$tmp/one.json" -o "$tmp/1.cert.json"

# the model guard of the certificate edited, digests recomputed: rejected by recomputation
if command -v python3 > /dev/null; then
    python3 - "$C" "$tmp/tampered.json" << 'PY'
import json, sys
def fnv(o):
    h = 0xcbf29ce484222325
    for b in json.dumps(o, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return "fnv1a64:%016x" % h
root = json.load(open(sys.argv[1]))
for t in root["model"]["transitions"]:
    for g in t["guards"]:
        g["sign"] = "-" if g["sign"] == "+" else "+"
root["model_digest"] = fnv(root["model"])
del root["digest"]
root["digest"] = fnv(root)
json.dump(root, open(sys.argv[2], "w"))
PY
    expect 1 "^rejected: .*recomputed" "verify rejects a certificate whose model guard was edited" -- \
        "$exe" verify "$tmp/tampered.json"
    grep -q "digest" "$tmp/out" && bad "the guard edit was caught by the digest, not by recomputation" || ok
fi

report
