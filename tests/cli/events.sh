#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of the events route (enclose --method events,
# docs/events.md): the exact DLVI solution as a hybrid certificate whose
# embedded model is the problem. verify rebuilds the model from it and
# re-runs, check accepts the 256-bit closed form of the bridge, export and
# info take it, tampered copies (an event time moved, a pattern swapped, a
# step box narrowed; digests recomputed) are rejected, and the options the
# route does not take exit 2 naming them, with nothing written.
# usage: bash tests/cli/events.sh DVICERT SRCROOT
set -u
exe=${1:?usage: events.sh DVICERT SRCROOT}
src=${2:?usage: events.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

gen=$(ref_tool gen_traj) || exit 1
D="$src/tests/data/events"

# ---- enclose, verify ----------------------------------------------------------
C="$tmp/bridge.cert.json"
expect 0 "certified: the exact solution (route events)" "enclose the bridge, x(0) = (0, 1), T = 10" -- \
    "$exe" enclose "$D/bridge.json" --method events -o "$C"
grep -q '"format": "dvicert-hybrid-certificate"' "$C" && ok || bad "a hybrid certificate"
grep -q '"model": {"dlvi_events":{"problem":{' "$C" && ok || bad "the embedded problem"
n=$(sed -n '/^  "events": \[/,/^  \]/p' "$C" | grep -c '"t_lo":')
[ "$n" -ge 4 ] && ok || bad "bridge: $n events, expected >= 4"
expect 0 "^accepted: .*the exact DLVI solution (route events)" "verify rebuilds the model from the problem" -- "$exe" verify "$C"
expect 0 "^problem: Example 5.1" "info names the embedded problem" -- "$exe" info "$C"
expect 0 "" "export" -- "$exe" export "$C" -o "$tmp/tube.csv"
[ "$(wc -l < "$tmp/tube.csv")" -gt 10 ] && ok || bad "export: tube too short"

# the closed form (tests/ref_bridge.c, 256 bits) inside at 1000 random times
"$gen" bridgesw 0 1 10 1000 18 | cut -d, -f1-3 > "$tmp/exact.csv"
expect 0 "inside: 0 of 1000" "check: the closed form inside the tube" -- "$exe" check "$C" "$tmp/exact.csv"
awk -F, -v OFS=, 'NR > 1 { $2 = $2 + 1e-9 } { print }' "$tmp/exact.csv" > "$tmp/pert.csv"
expect 1 "outside: " "check: the closed form + 1e-9 outside" -- "$exe" check "$C" "$tmp/pert.csv"

# ---- the y tube (the pattern's affine map on the states, computed on reading) --
# check: the closed form with its y column (y = max(0, -3 x1)) inside; one
# sample's y moved by 1e-6 outside (exit 1)
"$gen" bridgesw 0 1 10 1000 18 > "$tmp/exacty.csv"
head -n 1 "$tmp/exacty.csv" | grep -qx 't,x1,x2,y1' && ok || bad "gen_traj: no y column"
expect 0 "inside: 0 of 1000" "check: x and y of the closed form inside" -- "$exe" check "$C" "$tmp/exacty.csv"
grep -q "worst y margin" "$tmp/out" && ok || bad "check: no y margin reported"
awk -F, -v OFS=, 'NR == 6 { $4 = sprintf("%.17g", $4 + 1e-6) } { print }' "$tmp/exacty.csv" > "$tmp/perty.csv"
expect 1 "y1" "check: y + 1e-6 at one sample outside, y1 named" -- "$exe" check "$C" "$tmp/perty.csv"
grep -q "1 of 1000 samples" "$tmp/out" && ok || bad "check: not one sample outside: $(tail -n 3 "$tmp/out")"
# export lists y (grid, step and event rows)
head -n 1 "$tmp/tube.csv" | grep -qx 'kind,t_lo,t_hi,x1_lo,x1_hi,x2_lo,x2_hi,y1_lo,y1_hi,mode' && ok ||
    bad "export header: $(head -n 1 "$tmp/tube.csv")"
awk -F, '$1 == "grid" && NF != 10 { exit 1 } $1 == "event" && NF != 10 { exit 1 }' "$tmp/tube.csv" && ok ||
    bad "export: rows without the y columns"
# info: a y row; --csv: the DLVI columns, then y columns
expect 0 "^  y1 " "info shows the y row" -- "$exe" info "$C"
expect 0 "y1_radius_max,y1_radius_at_T$" "info --csv lists y columns" -- "$exe" info --csv "$C"
grep -q ',2,1,10,[0-9]*,events,53,' "$tmp/out" && ok || bad "info --csv: n, m, T, route: $(tail -n 1 "$tmp/out")"
# a plain hybrid certificate keeps m = 0 (no y columns; route switched)
expect 0 "x2_scale_log2$" "info --csv on a plain hybrid certificate" -- \
    "$exe" info --csv "$src/certs/bridge-switched/bridge-switched.cert.json"
grep -q ',2,0,10,[0-9]*,switched,53,' "$tmp/out" && ok || bad "info --csv switched: $(tail -n 1 "$tmp/out")"
# plot: y panels as for a DLVI certificate (one panel per state and multiplier)
if command -v gnuplot > /dev/null 2>&1; then
    expect 0 "3 panels" "plot: x and y panels" -- "$exe" plot "$C" -o "$tmp/ev.png"
    expect 0 "1 panels" "plot --only y" -- "$exe" plot "$C" -o "$tmp/evy.svg" --only y
    grep -q "y1" "$tmp/evy.svg" && ok || bad "plot --only y: no y1 panel"
else
    echo "SKIP: plot tests (gnuplot not installed: apt-get install gnuplot-nox)"
fi

# pounding with a three-tone ground motion (expression forcing), T = 20
expect 0 "certified: the exact solution" "enclose pounding, three-tone forcing" -- \
    "$exe" enclose "$D/pounding3.json" --method events -o "$tmp/p.cert.json"
expect 0 "^accepted: " "verify pounding" -- "$exe" verify "$tmp/p.cert.json"

# ---- tampered certificates, digests recomputed: rejected by recomputation ------
# tamper WHAT: edit $C into $tmp/WHAT.json (python3; the writers' digests)
tamper() {
    python3 - "$C" "$tmp/$1.json" "$1" <<'PY'
import json, sys
def digest(o):
    s = json.dumps(o, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode()
    h = 0xcbf29ce484222325
    for b in s:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return "fnv1a64:%016x" % h
root = json.load(open(sys.argv[1]))
what = sys.argv[3]
if what == "time":      # the first event 1e-6 later
    e = root["events"][0]
    e["t_lo"] = "%.17e" % (float(e["t_lo"]) + 1e-6)
    e["t_hi"] = "%.17e" % (float(e["t_hi"]) + 1e-6)
elif what == "pattern": # the first event's patterns before and after swapped
    e = root["events"][0]
    e["from"], e["to"] = e["to"], e["from"]
elif what == "step":    # a step's mode replaced by another pattern of the run
    s = root["steps"]
    other = [p["mode"] for p in s[1:] if p["mode"] != s[1]["mode"]]
    s[1]["mode"] = other[0]
elif what == "box":     # a step box narrowed to its lower end
    b = root["steps"][3]["box"][0]
    b[1] = b[0]
del root["digest"]
root["digest"] = digest(root)
json.dump(root, open(sys.argv[2], "w"))
PY
}
if command -v python3 > /dev/null; then
    for w in time pattern step box; do
        tamper $w || bad "tamper $w"
        expect 1 "^rejected: " "verify rejects a tampered certificate ($w)" -- "$exe" verify "$tmp/$w.json"
        grep -q "digest" "$tmp/out" && bad "tamper $w: caught by the digest, not by recomputation" || ok
    done
fi

# ---- options and problems the route does not take: exit 2, nothing written ----
O="$tmp/no.cert.json"
# --from is taken (tests/cli/from_events.sh); a trajectory out of time order is unusable
expect 2 "does not increase" "--from: unsorted times refused" -- "$exe" enclose "$D/bridge.json" --method events -o "$O" --from "$tmp/exact.csv"
absent "$O" "--from"
expect 2 "--predictor" "--predictor refused" -- "$exe" enclose "$D/bridge.json" --method events -o "$O" --predictor heun
absent "$O" "--predictor"
expect 2 "--local-beta" "--local-beta refused" -- "$exe" enclose "$D/bridge.json" --method events -o "$O" --local-beta
absent "$O" "--local-beta"
expect 2 "--radius" "--radius refused" -- "$exe" enclose "$D/bridge.json" --method events -o "$O" --radius 1e-3
absent "$O" "--radius"
sed 's/"h": "0.001"/"grid": [0, 5, 10]/' "$D/bridge.json" > "$tmp/grid.json"
expect 2 "field 'grid'" "a grid refused" -- "$exe" enclose "$tmp/grid.json" --method events -o "$O"
absent "$O" "grid"
printf 't,v\n0,0\n10,1\n' > "$tmp/f.csv"
sed 's/"f": \["0", "sin(4\*t)"\]/"f": ["0", {"csv": "f.csv"}]/' "$D/bridge.json" > "$tmp/tab.json"
grep -q '"csv": "f.csv"' "$tmp/tab.json" && ok || bad "the sed edit (table) did not apply"
# a table in f: its breakpoints are step ends (docs/events.md section 4)
expect 0 "certified: the exact solution" "a table in f certified" -- "$exe" enclose "$tmp/tab.json" --method events -o "$tmp/tab.cert.json"
expect 0 "accepted" "a table in f: verify accepts" -- "$exe" verify "$tmp/tab.cert.json"
# a table in g is refused (g enters the switching functions), the field named
sed 's/"g": \[\(.*\)\]/"g": [{"csv": "f.csv"}]/' "$D/bridge.json" > "$tmp/tabg.json"
grep -q '"g": \[{"csv": "f.csv"}\]' "$tmp/tabg.json" && ok || bad "the sed edit (table in g) did not apply"
expect 2 "g\[1\]: a tabulated function" "a table in g refused, the field named" -- "$exe" enclose "$tmp/tabg.json" --method events -o "$O"
absent "$O" "table in g"
expect 2 "chen-wang, lognorm or events" "unknown method" -- "$exe" enclose "$D/bridge.json" --method nope -o "$O"

report
