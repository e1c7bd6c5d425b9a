#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The certified error of a trajectory of another tool against the exact
# solution (docs/from_events.md) on the pounding example
# (tests/data/events/pounding3.json): a plain RK4 run over the nonsmooth
# field and an implicit Euler run (theta = 1: Siconos' Moreau-Jean for this
# DLVI), h = 1e-3, written by tests/data/from_events/sim_pounding.py.
#  - check: the two-sided report ('outside:', 'error x1: largest in'), its
#    bounds around the 256-bit truth, exit 1 outside / 0 inside / 2 bad;
#  - enclose --from through the events route (auto and --method events):
#    verify accepts, rejects a lowered step bound or a raised lower bound;
#    bad trajectories (a time past T, NaN) exit 2 with no file; a table
#    forcing falls back to lognorm under auto;
#  - acceptance (T = 20): certified bound over [0, T] and at T within 1.5x
#    of the truth (256-bit events tube, itself checked inside the 53-bit
#    one at every sample where it is used).
# usage: bash tests/cli/from_events.sh DVICERT SRCROOT
set -u
exe=${1:?usage: from_events.sh DVICERT SRCROOT}
src=${2:?usage: from_events.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
command -v "$PY" > /dev/null || { echo "no python3: skipped"; exit 77; }
D="$src/tests/data/from_events"
sim="$D/sim_pounding.py"
tools="$D/from_tools.py"
P20="$src/tests/data/events/pounding3.json"
P2="$tmp/pounding_T2.json"
sed 's/"T": 20,/"T": 2,/' "$P20" > "$P2"
grep -q '"T": 2,' "$P2" && ok || bad "pounding with T = 2"

# ---- check: the two-sided report (T = 2) --------------------------------------
"$PY" "$sim" rk4 1e-3 2 > "$tmp/rk4.csv"
expect 0 "certified: the exact solution" "the events tube, T = 2" -- \
    "$exe" enclose "$P2" --method events -o "$tmp/p2.cert.json"
expect 1 "^outside: 2000 of 2001 samples" "check: RK4 outside the 1e-10 tube, exit 1 kept" -- \
    "$exe" check "$tmp/p2.cert.json" "$tmp/rk4.csv"
cp "$tmp/out" "$tmp/check.out"
grep -q "VIOLATED" "$tmp/check.out" && bad "check: 'VIOLATED' with a narrow tube" || ok
for j in 1 2 3 4; do
    grep -q "^error x$j: largest in \[.*\] at t = .* (line .*); at the last sample t = 2: \[" "$tmp/check.out" &&
        ok || bad "check: the error line of x$j"
done
# the reference: the 256-bit events tube, the same samples (its bounds are
# 1e-15 wide); checked inside the 53-bit tube at every sample
expect 0 "trajectory error x1" "enclose --from, 53 bits" -- \
    "$exe" enclose "$P2" --method events --from "$tmp/rk4.csv" -o "$tmp/r53.cert.json"
expect 0 "trajectory error x1" "enclose --from, 256 bits (the reference)" -- \
    "$exe" enclose "$P2" --method events --from "$tmp/rk4.csv" --prec 256 -o "$tmp/r256.cert.json"
expect 0 "0 not contained" "the 53-bit two-sided error holds the 256-bit truth at every sample" -- \
    "$PY" "$tools" contains "$tmp/r53.cert.json" "$tmp/r256.cert.json"
# check's largest and last-sample bounds against the truth at every sample
"$PY" - "$tmp/check.out" "$tmp/r256.cert.json" > "$tmp/cmp.out" 2>&1 <<'PY'
import json, re, sys
tr = json.load(open(sys.argv[2]))["model"]["dlvi_events"]["trajectory"]
bad = 0
for line in open(sys.argv[1]):
    m = re.match(r"error x(\d+): largest in \[(\S+), (\S+)\] at .*: \[(\S+), (\S+)\]", line)
    if not m:
        continue
    j = int(m.group(1)) - 1
    lo, hi, llo, lhi = (float(m.group(k)) for k in range(2, 6))
    # printed to 10 digits, outward: the largest truth within [lo, hi]
    tlo = max(e[j] for e in tr["error_lo"])
    thi = max(e[j] for e in tr["error_hi"])
    if not (lo <= tlo and thi <= hi):
        bad += 1
        print("x%d: largest [%r, %r] misses the truth [%r, %r]" % (j + 1, lo, hi, tlo, thi))
    if not (llo <= tr["error_lo"][-1][j] and tr["error_hi"][-1][j] <= lhi):
        bad += 1
        print("x%d: last [%r, %r] misses the truth" % (j + 1, llo, lhi))
print("compared, %d bad" % bad)
PY
grep -q "^compared, 0 bad" "$tmp/cmp.out" && ok || { bad "check's bounds against the 256-bit truth"; cat "$tmp/cmp.out" >&2; }
# inside: the 256-bit tube's grid midpoints in the 53-bit tube, exit 0
expect 0 "" "export of the 256-bit tube" -- "$exe" enclose "$P2" --method events --prec 256 -o "$tmp/p256.cert.json"
"$exe" export "$tmp/p256.cert.json" --grid-only --no-verify -o "$tmp/g256.csv" > /dev/null 2>&1
awk -F, -v OFS=, '/^#/ {next} NR == 1 || /^kind/ {print "t,x1,x2,x3,x4"; next}
    $1 == "grid" { printf "%s,%.17g,%.17g,%.17g,%.17g\n", $2, ($4+$5)/2, ($6+$7)/2, ($8+$9)/2, ($10+$11)/2 }' \
    "$tmp/g256.csv" > "$tmp/mid.csv"
expect 0 "^inside: 0 of" "check: the 256-bit midpoints inside the 53-bit tube, exit 0" -- \
    "$exe" check "$tmp/p2.cert.json" "$tmp/mid.csv"

# ---- enclose --from: verify, tampering, bad input (T = 2) -----------------------
expect 0 "^accepted" "verify: the certificate with a trajectory" -- "$exe" verify "$tmp/r53.cert.json"
"$PY" "$tools" tamper "$tmp/r53.cert.json" "$tmp/t_none.json" none
expect 0 "^accepted" "verify: the digests recomputed, nothing changed" -- "$exe" verify "$tmp/t_none.json"
"$PY" "$tools" tamper "$tmp/r53.cert.json" "$tmp/t_up.json" step_upper
expect 1 "^rejected: .*claimed error bound .* below the recomputed" "verify: a step bound lowered by 1%" -- \
    "$exe" verify "$tmp/t_up.json"
"$PY" "$tools" tamper "$tmp/r53.cert.json" "$tmp/t_lo.json" error_lo
expect 1 "^rejected: .*trajectory sample" "verify: a sample's lower bound raised" -- "$exe" verify "$tmp/t_lo.json"
expect 0 "trajectory error x1" "auto with --from: the events route first" -- \
    "$exe" enclose "$P2" --from "$tmp/rk4.csv" -o "$tmp/auto.cert.json"
grep -q '"trajectory":{"t":\[' "$tmp/auto.cert.json" && ok || bad "auto: the trajectory embedded"
awk -F, -v OFS=, 'END { print 2.5, $2, $3, $4, $5 } { print }' "$tmp/rk4.csv" > "$tmp/past.csv"
expect 2 "outside \[0, 2\]" "a sample past T: exit 2" -- \
    "$exe" enclose "$P2" --method events --from "$tmp/past.csv" -o "$tmp/past.cert.json"
absent "$tmp/past.cert.json" "a sample past T"
awk -F, -v OFS=, 'NR == 500 { $3 = "nan" } { print }' "$tmp/rk4.csv" > "$tmp/nan.csv"
expect 2 "" "a NaN: exit 2" -- "$exe" enclose "$P2" --from "$tmp/nan.csv" -o "$tmp/nan.cert.json"
absent "$tmp/nan.cert.json" "a NaN"
expect 2 "" "check: a time past T, exit 2" -- "$exe" check "$tmp/p2.cert.json" "$tmp/past.csv"
expect 2 "" "--method chen-wang --from still refused" -- \
    "$exe" enclose "$P2" --method chen-wang --from "$tmp/rk4.csv" -o "$tmp/cw.cert.json"
absent "$tmp/cw.cert.json" "--method chen-wang --from"
# a table forcing: the events route does not bound it; auto falls back
"$PY" "$sim" rk4 1e-3 5.99 > "$tmp/rk4_599.csv"
expect 0 "route: lognorm, chosen by --method auto: the events route did not apply" \
    "a table forcing: auto falls back to lognorm" -- \
    "$exe" enclose "$src/tests/data/events/pounding_csv.json" --from "$tmp/rk4_599.csv" -o "$tmp/tab.cert.json"

# ---- check on a DLVI certificate with y columns: the y error reported too --------
gen=$(ref_tool gen_traj) || exit 1
"$gen" bridge 0.2 1 500 3 | awk -F, -v OFS=, 'NR > 1 { $4 = $4 + 1 } { print }' > "$tmp/ypert.csv"
expect 1 "^error y1: largest in \[9.99.*e-01, 1.00000.*e+00\] at t = 0 (line 2)" "check: the y error of a DLVI certificate" -- \
    "$exe" check "$src/certs/bridge/gamma0.2.cert.json" "$tmp/ypert.csv"
grep -q "^error x1: largest in \[0, " "$tmp/out" && ok || bad "check: x1 inside, its error bound from 0"

# ---- the bridge's closed form (tests/ref_bridge.c, 256 bits), kinks included ----
# samples of the exact solution at 2000 sorted random times: the certified
# bound between samples against the closed form at 20000 other times
"$gen" bridgesw 0 1 10 2000 18 | cut -d, -f1-3 | { read -r h; echo "$h"; sort -t, -k1,1g; } > "$tmp/bsw.csv"
"$gen" bridgesw 0 1 10 20000 7 | cut -d, -f1-3 > "$tmp/probe.csv"
expect 0 "trajectory error x2" "bridge: the closed form's interpolant certified" -- \
    "$exe" enclose "$src/tests/data/events/bridge.json" --from "$tmp/bsw.csv" -o "$tmp/bsw.cert.json"
"$PY" - "$tmp/bsw.cert.json" "$tmp/probe.csv" > "$tmp/probe.out" 2>&1 <<'PY'
import bisect, json, sys
tr = json.load(open(sys.argv[1]))["model"]["dlvi_events"]["trajectory"]
t, p, up = tr["t"], tr["p"], tr["step_upper"]
worst, bad = [0.0, 0.0], 0
for line in open(sys.argv[2]).read().split("\n")[1:]:
    if not line:
        continue
    f = [float(v) for v in line.split(",")]
    k = min(max(bisect.bisect_right(t, f[0]) - 1, 0), len(t) - 2)
    s = (f[0] - t[k]) / (t[k + 1] - t[k])
    for j in range(2):
        e = abs((1 - s) * p[k][j] + s * p[k + 1][j] - f[1 + j])
        # 1e-15: the binary64 interpolation here and the 25-digit reference
        if e > up[k][j] + 1e-15:
            bad += 1
        worst[j] = max(worst[j], e / max(up[k][j], 1e-300))
print("probes: %d above the bound; largest true / bound x1 %.4f x2 %.4f" % (bad, worst[0], worst[1]))
PY
grep -q "^probes: 0 above the bound" "$tmp/probe.out" && ok || bad "bridge: a probe above the certified bound"
cat "$tmp/probe.out"

# ---- acceptance, T = 20: within 1.5x of the truth ------------------------------
# (a figure of the normal run; under the sanitizers, whose slowdown would make
# it the longest test, the T = 2 sections above exercise the same code)
runs="rk4 euler"
if [ -n "${ASAN_OPTIONS:-}" ]; then
    echo "acceptance at T = 20: skipped under the sanitizers (ASAN_OPTIONS set)"
    runs=""
fi
for run in $runs; do
    "$PY" "$sim" $run 1e-3 20 > "$tmp/$run.20.csv"
    expect 0 "trajectory error x4" "$run, T = 20: enclose --from (events route)" -- \
        "$exe" enclose "$P20" --from "$tmp/$run.20.csv" -o "$tmp/$run.20.cert.json"
    # the truth of the sup over [0, T]: 15 interior points of the 20 steps
    # with the largest bound per state, and T; at 256 bits (checked inside
    # the 53-bit tube) and at 106 bits (the bound at T with a tube narrower
    # than the RK4 error there, 3e-11)
    "$PY" "$tools" dense "$tmp/$run.20.cert.json" 20 > "$tmp/$run.dense.csv"
    for b in 53 106 256; do
        "$exe" enclose "$P20" --method events --from "$tmp/$run.dense.csv" --prec $b \
            -o "$tmp/$run.d$b.cert.json" > /dev/null 2>&1 && ok || bad "$run: the dense run at $b bits"
    done
    expect 0 "0 not contained" "$run: the 256-bit truth inside the 53-bit bounds" -- \
        "$PY" "$tools" contains "$tmp/$run.d53.cert.json" "$tmp/$run.d256.cert.json"
    expect 0 "" "$run: certified bounds against the truth (53 bits)" -- \
        "$PY" "$tools" ratios "$tmp/$run.20.cert.json" "$tmp/$run.d53.cert.json" "$tmp/$run.d256.cert.json" 0
    sed "s/^/$run 53 bits: /" "$tmp/out"
    expect 0 "" "$run: within 1.5x over [0, T] and at T (the bound at T from the 106-bit tube)" -- \
        "$PY" "$tools" ratios "$tmp/$run.20.cert.json" "$tmp/$run.d106.cert.json" "$tmp/$run.d256.cert.json" 1.5
    sed "s/^/$run: /" "$tmp/out"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
