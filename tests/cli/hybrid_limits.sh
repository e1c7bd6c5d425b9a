#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The budgets of the hybrid engine (issue 19): --max-steps / --max-seconds
# and the model keys max_steps / max_seconds for hybrid models, the events
# route and predict; a budget reached exits 1 saying up to where it
# certified, nothing written; progress only on a terminal. An expression
# failing in the run is named by its key path in the model file, and an
# accumulation of crossings (a Zeno ball) is called one, not a tangency.
# usage: bash tests/cli/hybrid_limits.sh DVICERT SRCROOT
set -u
exe=${1:?usage: hybrid_limits.sh DVICERT SRCROOT}
src=${2:?usage: hybrid_limits.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

P="$src/certs/pw-harmonic/pw-harmonic.json"
# ---- the time budget -------------------------------------------------------
sed 's/"T": 100/"T": 100000/' "$P" > "$tmp/long.json"
expect 1 "stopped by the time budget of 0.3 s at t = " "--max-seconds 0.3 stops a long run" -- \
    timeout 30 "$exe" enclose "$tmp/long.json" -o "$tmp/long.cert.json" --max-seconds 0.3
grep -q "nothing written; certified up to t = " "$tmp/out" && ok || bad "the stop names what is certified"
grep -q "hybrid: t = " "$tmp/out" && bad "a progress line while stderr is not a terminal" || ok
absent "$tmp/long.cert.json" "a time budget reached"
n=$(timeout 30 "$exe" enclose "$tmp/long.json" -o - --max-seconds 0.3 2> /dev/null | wc -c)
[ "$n" -eq 0 ] && ok || bad "a stopped run wrote $n bytes of a certificate to stdout"
"$exe" enclose "$P" -o - 2> /dev/null | cmp -s - "$src/certs/pw-harmonic/pw-harmonic.cert.json" && ok ||
    bad "the certificate written to stdout differs"
left=$(ls -a "$tmp" | grep -c "long.cert")
[ "$left" -eq 0 ] && ok || bad "a stopped streamed write left a temporary file"
sed 's/"T": 100/"T": 100000, "max_seconds": 0.3/' "$P" > "$tmp/long2.json"
expect 1 "stopped by the time budget of 0.3 s" "the model key max_seconds" -- \
    timeout 30 "$exe" enclose "$tmp/long2.json" -o "$tmp/long.cert.json"
absent "$tmp/long.cert.json" "max_seconds reached"
expect 0 "wrote " "--max-seconds over the model's key" -- \
    timeout 60 "$exe" enclose "$P" -o "$tmp/pw.cert.json" --max-seconds 0
cmp -s "$tmp/pw.cert.json" "$src/certs/pw-harmonic/pw-harmonic.cert.json" && ok ||
    bad "a budget changed the certificate"
for v in -1 x nan inf; do
    expect 2 "--max-seconds must be a number of seconds >= 0" "--max-seconds $v refused" -- \
        "$exe" enclose "$P" -o "$tmp/x.cert.json" --max-seconds "$v"
done
for v in 0 -3 1.5 many; do
    sed "s/\"T\": 100/\"T\": 100, \"max_seconds\": \"$v\"/" "$P" > "$tmp/bad.json"
    expect 2 "field 'max_seconds': a number of seconds" "max_seconds \"$v\" refused" -- \
        "$exe" enclose "$tmp/bad.json" -o "$tmp/x.cert.json"
done
sed 's/"T": 100/"T": 100, "max_seconds": 0/' "$P" > "$tmp/bad.json"
expect 2 "field 'max_seconds': a number of seconds" "max_seconds 0 refused" -- \
    "$exe" enclose "$tmp/bad.json" -o "$tmp/x.cert.json"

# ---- the step budget from the command line ---------------------------------
expect 1 "beyond the step budget of 5 (the model's max_steps or --max-steps" "--max-steps 5" -- \
    "$exe" enclose "$P" -o "$tmp/x.cert.json" --max-steps 5
absent "$tmp/x.cert.json" "--max-steps reached"
expect 2 "--max-steps must be an integer in \[1, 1000000000\]" "--max-steps 0 refused" -- \
    "$exe" enclose "$P" -o "$tmp/x.cert.json" --max-steps 0

# ---- the events route --------------------------------------------------------
B="$src/certs/bridge/gamma1.0.json"
expect 1 "beyond the step budget of 5" "events route: --max-steps" -- \
    "$exe" enclose "$B" --method events -o "$tmp/ev.cert.json" --max-steps 5
absent "$tmp/ev.cert.json" "events route: step budget"
expect 1 "stopped by the time budget of 1e-06 s at t = " "events route: --max-seconds" -- \
    "$exe" enclose "$B" --method events -o "$tmp/ev.cert.json" --max-seconds 1e-6
absent "$tmp/ev.cert.json" "events route: time budget"
expect 0 "wrote " "events route within its budgets" -- \
    "$exe" enclose "$B" --method events -o "$tmp/ev.cert.json" --max-steps 100 --max-seconds 60
expect 2 "--max-seconds is the budget of the hybrid engine" "--max-seconds with lognorm refused" -- \
    "$exe" enclose "$B" --method lognorm -o "$tmp/ln.cert.json" --max-seconds 5
expect 2 "--max-steps belongs to --radius" "--max-steps with lognorm still belongs to --radius" -- \
    "$exe" enclose "$B" --method lognorm -o "$tmp/ln.cert.json" --max-steps 5

# ---- predict -------------------------------------------------------------------
expect 1 "stopped by the time budget of 0.2 s at t = " "predict --max-seconds" -- \
    timeout 30 "$exe" predict "$tmp/long.json" -o "$tmp/p.csv" --h 0.001 --max-steps 200000000 --max-seconds 0.2
grep -q "nothing written" "$tmp/out" && ok || bad "predict: the stop says nothing is written"
absent "$tmp/p.csv" "predict: time budget"
expect 2 "more than the step budget of 10 " "predict --max-steps" -- \
    "$exe" predict "$P" -o "$tmp/p.csv" --max-steps 10

# ---- an expression failing in the run: its key path, as the reader names it ----
two='"states": ["x", "y"], "switches": {"cable": "x"}, "initial": {"mode": "stretched", "x": [1, 0]}, "T": 3'
cat > "$tmp/rt_b.json" <<EOF
{$two, "modes": {"calm": {"A": [[0, 1], [-1, 0]]},
 "stretched": {"A": [[0, 1], [-1, 0]], "b": ["0", "sqrt(t-1)"]}},
 "transitions": [{"from": "calm", "switch": "cable", "direction": "-", "to": "stretched"},
                 {"from": "stretched", "switch": "cable", "direction": "+", "to": "calm"}]}
EOF
expect 1 "rt_b.json: field 'modes.stretched.b\[1\]': forcing b\[1\]: in 'sqrt(t-1)'" \
    "a forcing term failing: modes.NAME.b[i]" -- "$exe" enclose "$tmp/rt_b.json" -o "$tmp/x.cert.json"
absent "$tmp/x.cert.json" "a forcing term failing"
expect 2 "rt_b.json: field 'modes.stretched.b\[1\]': in 'sqrt(t-1)'" "predict: modes.NAME.b[i]" -- \
    "$exe" predict "$tmp/rt_b.json" -o "$tmp/x.csv"
# model FILE MODES G RESET X0: one mode 'calm' crossing cable = G upward
model() {
    printf '{"states": ["x", "y"], "modes": %s, "switches": {"cable": "%s"},\n "transitions": [{"from": "calm", "switch": "cable", "direction": "+", "to": "calm"%s}],\n "initial": {"mode": "calm", "x": %s}, "T": 3}\n' \
        "$2" "$3" "$4" "$5" > "$1"
}
model "$tmp/rt_f.json" '{"calm": {"f": ["y", "-x + log(t - 0.5)"]}}' 'x - 5' '' '[1, 0]'
expect 2 "rt_f.json: field 'modes.calm.f\[1\]': in '-x + log(t - 0.5)'" "a field failing: modes.NAME.f[i]" -- \
    "$exe" enclose "$tmp/rt_f.json" -o "$tmp/x.cert.json"
model "$tmp/rt_g.json" '{"calm": {"A": [[0, 1], [-1, 0]]}}' 'x - sqrt(t - 0.5)' '' '[0, 1]'
expect 2 "rt_g.json: field 'switches.cable': in 'x - sqrt(t - 0.5)'" "a switching function failing: switches.NAME" -- \
    "$exe" enclose "$tmp/rt_g.json" -o "$tmp/x.cert.json"
model "$tmp/rt_r.json" '{"calm": {"A": [[0, 1], [-1, 0]]}}' 'x - 0.5' ', "reset": ["x", "sqrt(-y)"]' '[0, 1]'
expect 2 "rt_r.json: field 'transitions\[0\].reset\[1\]': .*in 'sqrt(-y)'" "a reset failing: transitions[k].reset[i]" -- \
    "$exe" enclose "$tmp/rt_r.json" -o "$tmp/x.cert.json"
expect 2 "rt_r.json: field 'transitions\[0\].reset\[1\]': in 'sqrt(-y)'" "predict: transitions[k].reset[i]" -- \
    "$exe" predict "$tmp/rt_r.json" -o "$tmp/x.csv"
absent "$tmp/x.csv" "predict: a reset failing"

# ---- a Zeno accumulation (a ball bouncing with restitution 1/2 stops bouncing
# at t* = 3 sqrt(2/9.81) = 1.35457...): not a tangency --------------------------
cat > "$tmp/ball.json" <<'EOF'
{"states": ["x", "v"], "modes": {"fly": {"A": [[0, 1], [0, 0]], "b": ["0", "-9.81"]}},
 "switches": {"ground": "x"},
 "transitions": [{"from": "fly", "switch": "ground", "direction": "-", "to": "fly", "reset": ["0", "-0.5*v"]}],
 "initial": {"mode": "fly", "x": [1, 0]}, "T": 3}
EOF
expect 1 "no tangency; phi' = 0 at t in .*(proven nonzero).*a Zeno accumulation" "a Zeno ball: said so" -- \
    "$exe" enclose "$tmp/ball.json" -o "$tmp/ball.cert.json"
grep -q "infinitely many before about t = 1.3545" "$tmp/out" && ok || bad "the Zeno message: where the crossings accumulate"
grep -q "possible tangency" "$tmp/out" && bad "a Zeno accumulation called a possible tangency" || ok
grep -q "classified: zeno" "$tmp/out" && ok || bad "the Zeno stop's class"
absent "$tmp/ball.cert.json" "a Zeno accumulation"

# ---- progress on a terminal (script(1) gives the run one) ----------------------
if command -v script > /dev/null 2>&1 && script -qc true /dev/null > /dev/null 2>&1; then
    script -qc "timeout 30 '$exe' enclose '$tmp/long.json' -o '$tmp/long.cert.json' --max-seconds 0.8" \
        /dev/null > "$tmp/tty.out" 2>&1
    grep -q "hybrid: t = .* steps, .* crossings" "$tmp/tty.out" && ok || bad "no progress line on a terminal"
    n=$(tr '\r' '\n' < "$tmp/tty.out" | grep -c "hybrid: t = ")
    [ "$n" -le 8 ] && ok || bad "$n progress lines in 0.8 s (at most 4 a second)"
fi

# ---- verify streamed: a certificate in the writer's layout is read a line
# at a time (memory flat in T); the same JSON in another layout is read
# whole: the same verdicts and reasons
C="$src/certs/pw-harmonic/pw-harmonic.cert.json"
sed '1G' "$C" > "$tmp/relaid.json"
expect 0 "^accepted: .*, every stated enclosure" "verify, the writer's layout" -- "$exe" verify "$C"
expect 0 "^accepted: .*, every stated enclosure" "verify, another layout" -- "$exe" verify "$tmp/relaid.json"
if command -v python3 > /dev/null; then
    # the last grid point's x shrunk to a point, the digest made again
    python3 - "$C" "$tmp/shrunk.json" << 'PYEOF'
import json, re, sys
L = open(sys.argv[1]).read().split('\n')
k = L.index('  "events": [') - 2
L[k] = re.sub(r'"x":\[\["[^"]*","([^"]*)"\]', r'"x":[["\1","\1"]', L[k], count=1)
o = json.loads('\n'.join(L)); o.pop('digest')
h = 0xcbf29ce484222325
for b in json.dumps(o, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
L = [('  "digest": "fnv1a64:%016x"' % h) if l.startswith('  "digest"') else l for l in L]
open(sys.argv[2], 'w').write('\n'.join(L))
PYEOF
    sed '1G' "$tmp/shrunk.json" > "$tmp/shrunk2.json"
    for f in shrunk shrunk2; do
        expect 1 "rejected: .*grid point 606 (t = 100): the claimed state does not contain" \
            "verify $f: the last grid point" -- "$exe" verify "$tmp/$f.json"
    done
fi

report
