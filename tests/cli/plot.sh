#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# dvicert plot: the data handed to gnuplot (captured by a stand-in gnuplot)
# is the tube decimated to the image's columns without losing anything
# certified: every step of the exported tube lies inside the envelope of
# the columns it meets; at most --width rows; the window, the trajectory
# overlay, names, units and the problem's name reach the script; bad
# options are refused. With a real gnuplot, a PNG is written.
# usage: bash tests/cli/plot.sh DVICERT SRCROOT   (run in the build's tests dir)
set -u
exe=${1:?usage: plot.sh DVICERT SRCROOT}
src=${2:?usage: plot.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gen=./gen_traj

fake_gnuplot "$tmp/fakegp"
gp() { env DVC_GNUPLOT="$tmp/fakegp" "$exe" plot "$@"; }

cat > "$tmp/p.json" <<'EOF2'
{"name": "bridge named", "state_names": ["pos", "vel"], "output_names": ["force"],
 "units": {"t": "s", "pos": "m", "vel": "m/s", "force": "N"},
 "A": [[0, 1], [-4, 0]], "B": [[0], [-1]], "f": ["0", "sin(4*t)"], "Q": [[3, 0]], "M": [[1]],
 "g": ["0"], "l": [0], "u": ["inf"], "x0": [0, 1], "T": 4, "N": 20000, "theta": 1}
EOF2
C=$tmp/p.cert.json
expect 0 "certified" "enclose (N = 20000, contact phases)" -- "$exe" enclose "$tmp/p.json" -o "$C" --method lognorm
expect 0 "one column per pixel" "plot decimates" -- gp "$C" -o "$tmp/p.png" --width 300
# $D rows: at most 300, each t,pmin,pmax,lo,hi (x3),rx,ry
rows=$(awk '/^\$D << EOD/ {on = 1; next} /^EOD/ {on = 0} on' "$tmp/gp.in" | tee "$tmp/D.csv" | wc -l)
[ "$rows" -ge 250 ] && [ "$rows" -le 300 ] && ok || bad "decimated rows: $rows (want <= 300)"
# every step of the exported tube inside the envelope of the columns it meets
expect 0 "wrote" "export" -- "$exe" export "$C" -o "$tmp/tube.csv"
awk -F, -v W=300 -v T=4 '
    NR == FNR { c = int(($1) / T * W); if (c >= W) c = W - 1; for (k = 1; k <= 3; k++) { lo[c, k] = $(2 + 4 * (k - 1) + 2); hi[c, k] = $(2 + 4 * (k - 1) + 3) }; seen[c] = 1; next }
    FNR == 1 { next }
    $1 == "step" {
        # the columns the open step meets (its ends belong to the neighbours too)
        a = int($2 / T * W + 1e-9); b = int($3 / T * W - 1e-9); if (b >= W) b = W - 1
        for (c = a; c <= b; c++) {
            if (!(c in seen)) { miss++; continue }
            for (k = 1; k <= 3; k++) {
                # export prints 17 digits rounded outward: one ulp of slack
                l = $(4 + 2 * (k - 1)) + 0; h = $(5 + 2 * (k - 1)) + 0
                if (lo[c, k] > l + 4e-16 * (l < 0 ? -l : l)) bad++
                if (hi[c, k] < h - 4e-16 * (h < 0 ? -h : h)) bad++
            }
            n++
        }
    }
    END { if (bad || miss || n < 20000) { printf "bad %d miss %d n %d\n", bad, miss, n; exit 1 } }
' "$tmp/D.csv" "$tmp/tube.csv" && ok || bad "a step of the tube outside the plotted envelope"
grep -q "set ylabel 'pos \[m\]'" "$tmp/gp.in" && ok || bad "axis label with the unit"
grep -q "set xlabel 't \[s\]'" "$tmp/gp.in" && ok || bad "time axis with the unit"
grep -q "title 'bridge named: certified tube" "$tmp/gp.in" && ok || bad "the problem's name in the title"
grep -q "set logscale y" "$tmp/gp.in" && ok || bad "no radius panel on a log scale"
grep -q "key outside" "$tmp/gp.in" && ok || bad "legend inside the data"
grep -qi "#0072B2" "$tmp/gp.in" && grep -qi "#D55E00" "$tmp/gp.in" && ok || bad "not the Okabe-Ito colours"

# a short run: every grid point
cat > "$tmp/s.json" <<'EOF2'
{"A": [[0, 1], [-4, 0]], "B": [[0], [-1]], "f": ["0", "sin(4*t)"], "Q": [[3, 0]], "M": [[1]],
 "g": ["0"], "l": [0], "u": ["inf"], "x0": [0, "0.2"], "T": 1, "N": 50, "theta": 1}
EOF2
expect 0 "" "enclose N = 50" -- "$exe" enclose "$tmp/s.json" -o "$tmp/s.cert.json" --method lognorm
expect 0 "every grid point" "no decimation below the width" -- gp "$tmp/s.cert.json" -o "$tmp/s.png"
rows=$(awk '/^\$D << EOD/ {on = 1; next} /^EOD/ {on = 0} on' "$tmp/gp.in" | wc -l)
[ "$rows" -eq 51 ] && ok || bad "N = 50: $rows rows, want 51"

# window and trajectory overlay
"$gen" bridgesw 0 1 4 300 5 > "$tmp/ref.csv" 2>/dev/null || bad "gen_traj failed"
expect 0 "wrote" "plot --traj --from --to" -- gp "$C" -o "$tmp/w.png" --traj "$tmp/ref.csv" --from 1 --to 2
grep -q "set xrange \[1:2\]" "$tmp/gp.in" && ok || bad "window"
trows=$(awk '/^\$T << EOD/ {on = 1; next} /^EOD/ {on = 0} on' "$tmp/gp.in" | awk -F, '$1 < 1 || $1 > 2 {b++} END {print NR, b + 0}')
awk -v r="$trows" 'BEGIN { split(r, a, " "); exit !(a[1] > 30 && a[1] < 120 && a[2] == 0) }' && ok ||
    bad "trajectory rows in the window: $trows"
grep -q "title 'trajectory'" "$tmp/gp.in" && ok || bad "no trajectory curve"
expect 0 "NOT re-verified" "--no-verify" -- gp "$C" -o "$tmp/n.png" --no-verify
grep -q "certificate NOT re-verified" "$tmp/gp.in" && ok || bad "title says not re-verified"

# bad options, nothing written
expect 2 "--width" "--width too small" -- gp "$C" -o "$tmp/x.png" --width 5
expect 2 "--from must be below --to" "empty window" -- gp "$C" -o "$tmp/x.png" --from 2 --to 1
expect 2 "misses" "window outside [0, T]" -- gp "$C" -o "$tmp/x.png" --from 5 --to 6
expect 2 "--from must be a number" "--from not a number" -- gp "$C" -o "$tmp/x.png" --from abc
printf 't,pos\n0,1\n' > "$tmp/badtraj.csv"
expect 2 "missing column" "a trajectory without all states" -- gp "$C" -o "$tmp/x.png" --traj "$tmp/badtraj.csv"
absent "$tmp/x.png" "bad plot options"

# a gnuplot that exits 0 but leaves the image empty or cut short (a full
# disk, a broken terminal) replaces nothing: exit 2, the previous image whole
gp "$C" -o "$tmp/keep.png" > /dev/null 2>&1 && gp "$C" -o "$tmp/keep.svg" > /dev/null 2>&1 && ok ||
    bad "plot with the stand-in gnuplot"
cp "$tmp/keep.png" "$tmp/keep.png.orig"
cp "$tmp/keep.svg" "$tmp/keep.svg.orig"
printf '#!/bin/bash\ncat > /dev/null\nexit 0\n' > "$tmp/nogp"
printf '#!/bin/bash\nf=$(sed -n "s/^set output %s\\(.*\\)%s$/\\1/p" | head -1)\nprintf "\\211PNG\\r\\n\\032\\n\\0\\0\\0\\rIHDR" > "$f"\n' "'" "'" > "$tmp/cutgp"
printf '#!/bin/bash\nf=$(sed -n "s/^set output %s\\(.*\\)%s$/\\1/p" | head -1)\nprintf "<svg><g>" > "$f"\n' "'" "'" > "$tmp/cutsvg"
chmod +x "$tmp/nogp" "$tmp/cutgp" "$tmp/cutsvg"
expect 2 "the image is empty" "a gnuplot writing nothing, exit 0" -- \
    env DVC_GNUPLOT="$tmp/nogp" "$exe" plot "$C" -o "$tmp/keep.png"
cmp -s "$tmp/keep.png" "$tmp/keep.png.orig" && ok || bad "an empty image replaced the previous PNG"
expect 2 "the image is incomplete" "a PNG cut short, exit 0" -- \
    env DVC_GNUPLOT="$tmp/cutgp" "$exe" plot "$C" -o "$tmp/keep.png"
cmp -s "$tmp/keep.png" "$tmp/keep.png.orig" && ok || bad "a cut PNG replaced the previous one"
expect 2 "the image is incomplete" "an SVG cut short, exit 0" -- \
    env DVC_GNUPLOT="$tmp/cutsvg" "$exe" plot "$C" -o "$tmp/keep.svg"
cmp -s "$tmp/keep.svg" "$tmp/keep.svg.orig" && ok || bad "a cut SVG replaced the previous one"
[ "$(ls "$tmp" | grep -c '^keep\.\(png\|svg\)\..*tmp')" -eq 0 ] && ok || bad "a temporary image left behind"

# a useless tube (chen-wang over T = 10: radius 1e27) would autoscale its
# panels to 1e27 and hide the motion: they are clipped to the motion, and
# the plot says so; an informative tube's panels autoscale
W=$tmp/wide.cert.json
expect 0 "" "enclose a useless tube" -- "$exe" enclose "$src/tests/data/events/bridge.json" --method chen-wang -o "$W"
expect 0 "x1: the tube's bounds reach .* clipped to" "plot of a useless tube says it clips" -- gp "$W" -o "$tmp/wide.png"
grep -q "^set yrange \[" "$tmp/gp.in" && grep -q "tube clipped to the motion" "$tmp/gp.in" && ok ||
    bad "the useless tube's panels are not clipped"
yr=$(sed -n 's/^set yrange \[\(.*\):\(.*\)\]$/\1 \2/p' "$tmp/gp.in" | head -1)
awk -v r="$yr" 'BEGIN { split(r, v, " "); exit !(v[1] > -100 && v[2] < 100) }' && ok || bad "clipped range $yr is not the motion's"
expect 0 "wrote" "plot of an informative tube" -- gp "$C" -o "$tmp/narrow.png"
grep -q "set yrange\|clipped" "$tmp/gp.in" "$tmp/out" && bad "an informative tube's panels were clipped" || ok

if command -v gnuplot > /dev/null 2>&1; then
    expect 0 "wrote" "a real PNG" -- "$exe" plot "$C" -o "$tmp/real.png" --traj "$tmp/ref.csv"
    head -c 8 "$tmp/real.png" | od -An -c | grep -q "P   N   G" && ok || bad "not a PNG file"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
