#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Every reading command on a certificate of each hybrid kind (switched,
# sliding, ideal contact, events route) besides a DLVI one: info (the name),
# info --csv (the route column), events (table and CSV, times that contain
# the file's), export (the contact multiplier's columns of an ideal
# contact), plot with --from/--to/--traj/--width (title, axis labels and
# units, legend outside, the window, the multiplier's panel; through a
# stand-in gnuplot that records the script).
# usage: bash tests/cli/hybview.sh DVICERT SRCROOT
set -u
exe=${1:?usage: hybview.sh DVICERT SRCROOT}
src=${2:?usage: hybview.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SW=$src/certs/bridge-switched/bridge-switched.cert.json
SL=$src/certs/stickslip/stickslip.cert.json
TM=$src/certs/threemass/threemass.cert.json
DC=$src/certs/diode-clamp/diode-clamp.cert.json
DL=$src/certs/bridge/gamma0.2.cert.json
EV=$tmp/ev.cert.json
expect 0 "route events" "enclose on the events route (6 events)" -- \
    "$exe" enclose "$src/certs/circuit/circuit.json" -o "$EV"

# ---- info: the name of an ideal contact's embedded problem
expect 0 "^problem: diode-clamped RC circuit" "info names the ideal contact's problem" -- "$exe" info "$DC"
grep -q "^  y  *1 " "$tmp/out" && ok || bad "info: the diode current's row: $(grep '^  y' "$tmp/out")"
expect 0 "^model: Example 5.1" "info names the switched model" -- "$exe" info "$SW"

# the events route's rows carry the embedded problem's names and units
cat > "$tmp/u.json" <<'EOF2'
{"name": "bridge with units", "state_names": ["pos", "vel"], "output_names": ["force"],
 "units": {"t": "s", "pos": "m", "vel": "m/s", "force": "N"},
 "A": [[0, 1], [-4, 0]], "B": [[0], [-1]], "f": ["0", "sin(4*t)"], "Q": [[3, 0]], "M": [[1]],
 "g": ["0"], "l": [0], "u": ["inf"], "x0": [0, 1], "T": 4, "N": 200, "theta": 1}
EOF2
expect 0 "route events" "enclose a problem with units (events route)" -- "$exe" enclose "$tmp/u.json" -o "$tmp/u.cert.json"
expect 0 "^  force \[N\] " "info: names and units of the events route's rows" -- "$exe" info "$tmp/u.cert.json"
grep -q "^  vel \[m/s\] " "$tmp/out" && ok || bad "info: the state's unit"

# ---- info --csv: every kind, the route column says which
for kv in "$SW:switched:0" "$SL:sliding:0" "$TM:sliding:0" "$DC:ideal-contact:1" "$EV:events:4"; do
    f=${kv%%:*} r=${kv#*:}
    m=${r#*:} r=${r%%:*}
    expect 0 "" "info --csv $(basename "$f")" -- "$exe" info --csv "$f"
    [ "$(wc -l < "$tmp/out")" -eq 2 ] && ok || bad "info --csv $(basename "$f"): not two lines"
    sed -n 2p "$tmp/out" | grep -q ",$m,[0-9.]*,[0-9]*,$r,53," && ok ||
        bad "info --csv $(basename "$f"): m, route: $(sed -n 2p "$tmp/out")"
done
# the header's columns match the data's (the name field may hold commas)
"$exe" info --csv "$DC" | python3 -c 'import csv,sys; r=list(csv.reader(sys.stdin)); sys.exit(len(r[0]) != len(r[1]))' \
    && ok || bad "info --csv: header and data widths differ"

# ---- events: table and CSV
expect 0 "^6 events" "events table (sliding)" -- "$exe" events "$SL"
grep -q "slip *friction'+ *friction=0 *friction>0" "$tmp/out" && ok || bad "events table: first row"
expect 0 "^event,kind,switch,from,to,t_lo,t_hi,width$" "events --csv (ideal contact)" -- "$exe" events --csv "$DC"
[ "$(wc -l < "$tmp/out")" -eq 7 ] && ok || bad "events --csv: $(wc -l < "$tmp/out") lines, expected 7"
grep -q '^1,enter-slide,contact,contact>0,contact=0,' "$tmp/out" && ok || bad "events --csv: first row $(sed -n 2p "$tmp/out")"
# the listed times contain the file's (rounded outward): t_lo <= file t_lo, t_hi >= file t_hi
python3 - "$DC" "$tmp/out" <<'EOF' && ok || bad "events --csv: times do not contain the file's"
import csv, json, sys
from fractions import Fraction as F
ev = json.load(open(sys.argv[1]))["events"]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(ev)
for r, e in zip(rows, ev):
    assert F(r["t_lo"]) <= F(e["t_lo"]) and F(r["t_hi"]) >= F(e["t_hi"]), (r, e)
    assert F(r["width"]) >= F(e["t_hi"]) - F(e["t_lo"]), (r, e)
EOF
expect 0 "cross" "events on the events route" -- "$exe" events --csv "$EV"
[ "$(wc -l < "$tmp/out")" -eq 7 ] && ok || bad "events --csv (events route): $(wc -l < "$tmp/out") lines"
expect 0 "^22 events" "events --verify (threemass)" -- "$exe" events --verify "$TM"
expect 0 "^4 events" "events (switched)" -- "$exe" events "$SW"
expect 2 "locates no events" "events refuses a DLVI certificate" -- "$exe" events "$DL"
expect 2 "" "events refuses a missing file" -- "$exe" events "$tmp/none.json"
expect 0 "t_lo, t_hi" "events --help says what it prints" -- "$exe" events --help

# ---- export: the diode current's columns
expect 0 "wrote" "export of the ideal contact" -- "$exe" export "$DC" -o "$tmp/dc.csv"
[ "$(head -n 1 "$tmp/dc.csv")" = "kind,t_lo,t_hi,v_lo,v_hi,y_lo,y_hi,mode" ] && ok ||
    bad "export header: $(head -n 1 "$tmp/dc.csv")"
# while sliding on v = Vc = 1 the current is y = U sin(t) - Vc (R = C = 1):
# every step wholly inside the first slide [1.3331, 2.6179] holds it
python3 - "$tmp/dc.csv" <<'EOF' && ok || bad "export: the diode current misses U sin t - Vc"
import csv, math, sys
n = 0
for r in csv.DictReader(open(sys.argv[1])):
    a, b = float(r["t_lo"]), float(r["t_hi"])
    if r["kind"] in ("grid", "step") and r["mode"] == "contact=0" and 1.34 < a and b < 2.61:
        for t in (a, (a + b) / 2, b):
            y = 2 * math.sin(t) - 1
            assert float(r["y_lo"]) - 1e-9 <= y <= float(r["y_hi"]) + 1e-9, (r, y)
        n += 1
    if r["kind"] == "grid" and r["mode"] == "contact>0" and (a < 1.3 or 2.7 < a < 7.8):
        assert float(r["y_lo"]) == 0 == float(r["y_hi"]), r
assert n >= 4, n
EOF
expect 0 "kind,t_lo,t_hi,x1_lo,x1_hi,x2_lo,x2_hi,mode" "export of a switched certificate keeps its columns" -- \
    "$exe" export "$SW" -o -

# ---- plot: a stand-in gnuplot records the script
fake_gnuplot "$tmp/fakegp"
gp() { env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$@"; }
"$exe" predict "$src/certs/bridge-switched/bridge-switched.json" -o "$tmp/sw.csv" > /dev/null && ok ||
    bad "predict the switched bridge"
expect 0 "2 panels" "plot a switched certificate with --from/--to/--traj/--width" -- \
    gp "$SW" -o "$tmp/sw.svg" --from 2 --to 6 --traj "$tmp/sw.csv" --width 500
grep -q "^set multiplot.*title 'Example 5.1 (Chen & Wang 2012) as a switched" "$tmp/gp.in" && ok || bad "plot title: the model's name"
grep -q "^set key outside" "$tmp/gp.in" && ok || bad "plot: legend outside the data"
grep -q "^set xrange \[2:6\]" "$tmp/gp.in" && ok || bad "plot: the window $(grep xrange "$tmp/gp.in")"
grep -q "^set ylabel 'x2'" "$tmp/gp.in" && ok || bad "plot: the state names as axis labels"
grep -q "title 'trajectory'" "$tmp/gp.in" && ok || bad "plot: the trajectory overlaid"
# the trajectory's rows in the window only; the grid rows in it and one either side
awk '/^\$T << EOD/ {on = 1; next} /^EOD/ {on = 0} on' "$tmp/gp.in" | awk -F, '$1 < 2 || $1 > 6 { bad = 1 } END { exit bad || NR < 100 }' \
    && ok || bad "plot: trajectory rows outside the window"
awk '/^\$D << EOD/ {on = 1; next} /^EOD/ {on = 0} on' "$tmp/gp.in" | awk -F, '$1 < 2 { lo++ } $1 > 6 { hi++ } END { exit !(lo == 1 && hi == 1) }' \
    && ok || bad "plot: grid rows beyond the window's neighbours"
# events outside the window are not marked
n=$(grep -c "^set arrow" "$tmp/gp.in")
[ "$n" -eq 1 ] && ok || bad "plot: $n events marked in [2, 6], expected 1 (at 3 pi/2)"
expect 0 "2 panels" "plot of the ideal contact: the diode current's panel" -- gp "$DC" -o "$tmp/dc.png"
grep -q "^set ylabel 'y'" "$tmp/gp.in" && ok || bad "plot: no panel of the diode current"
grep -q "title 'diode-clamped RC circuit" "$tmp/gp.in" && ok || bad "plot: the ideal contact's name"
expect 0 "1 panels" "plot --only y of the ideal contact" -- gp "$DC" -o "$tmp/dcy.png" --only y
expect 0 "8 panels" "plot of the events route with a window" -- gp "$EV" -o "$tmp/ev.png" --from 0.5 --to 1.5
expect 0 "6 panels" "plot of the sliding threemass" -- gp "$TM" -o "$tmp/tm.png" --to 3
expect 2 "misses" "plot: a window outside [t0, T]" -- gp "$SW" -o "$tmp/x.png" --from 20 --to 30
absent "$tmp/x.png" "plot outside the window"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
