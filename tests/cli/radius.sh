#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# enclose --radius R: the number of steps is chosen for a target radius.
# On the bridge (Example 5.1, gamma = 0.2, T = 1, the file's h = 0.001, so
# N = 1000 there) each route's certificate must state a radius <= R, read
# back with 'dvicert info --csv' (not from enclose's own report), verify
# must accept it, and its embedded problem must state the N that enclose
# reported (and no "h"). An unreachable R exits 1 leaving no file; bad values
# exit 2. The chen-wang route's radius falls like h from 0.03 at N = 1000
# (--local-beta), so its check uses R = 1e-3 (N of a few 10^4) to keep the
# run short; the lognorm route gets R = 1e-4 (1e-3 at N = 1000).
# usage: bash tests/cli/radius.sh DVICERT SRCROOT   (run in the build's tests dir)
set -u
exe=${1:?usage: radius.sh DVICERT SRCROOT}
src=${2:?usage: radius.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
P=$src/certs/bridge/gamma0.2.json

# column COL of the data line of 'info --csv' (the name field holds commas
# inside quotes: count from the end, the last 7 columns are plain)
csv_col() { # CERT NAME
    "$exe" info --csv "$1" 2> /dev/null | awk -F, -v want="$2" '
        NR == 1 { for (k = 1; k <= NF; k++) h[k] = $k; nh = NF; next }
        NR == 2 { for (k = nh; k >= 1; k--) if (h[k] == want) { print $(NF - (nh - k)); exit } }'
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 <= b + 0) }'; }

# one route: R, where (T or all), summary column, extra options
check_route() { # LABEL R AT COLUMN OPTIONS...
    local label=$1 R=$2 at=$3 col=$4 out=$tmp/$1.cert.json
    shift 4
    if expect 0 "chosen after" "$label: --radius $R" -- "$exe" enclose "$P" -o "$out" --radius "$R" \
        --radius-at "$at" "$@"; then
        local rep_N got N_csv emb
        rep_N=$(sed -n 's/^radius: N = \([0-9]*\) chosen.*/\1/p' "$tmp/out")
        got=$(csv_col "$out" "$col")
        N_csv=$(csv_col "$out" N)
        if le "$got" "$R"; then ok; else bad "$label: stated $col '$got' above $R"; fi
        if [ -n "$rep_N" ] && [ "$rep_N" = "$N_csv" ] && [ "$rep_N" != 1000 ]; then ok
        else bad "$label: reported N '$rep_N', certificate N '$N_csv' (file: 1000)"; fi
        emb=$(grep '^  "problem":' "$out")
        if echo "$emb" | grep -q "\"N\":$rep_N[,}]" && ! echo "$emb" | grep -q '"h":'; then ok
        else bad "$label: embedded problem does not state N = $rep_N without h"; fi
        expect 0 "accepted" "$label: verify" -- "$exe" verify "$out"
    fi
}

check_route lognorm 1e-4 T eps_x_at_T --method lognorm
check_route lognorm_all 1e-4 all max_eps_x --method lognorm
check_route chen_wang 1e-3 T eps_x_at_T --method chen-wang --local-beta
check_route auto 1e-3 T eps_x_at_T

# the file's own N reaches 1e-2 by the lognorm route: a smaller N is chosen
if expect 0 "chosen after" "lognorm: --radius 1e-2" -- "$exe" enclose "$P" -o "$tmp/loose.cert.json" \
    --method lognorm --radius 1e-2; then
    N=$(csv_col "$tmp/loose.cert.json" N)
    if [ -n "$N" ] && [ "$N" -lt 1000 ]; then ok; else bad "--radius 1e-2: N '$N' not below the file's 1000"; fi
fi

# unreachable: exit 1, nothing written, the best radius named
expect 1 "best radius" "--radius 1e-30" -- "$exe" enclose "$P" -o "$tmp/none.cert.json" --method lognorm \
    --radius 1e-30
absent "$tmp/none.cert.json" "--radius 1e-30"
expect 1 "it would take" "--radius 1e-4 --max-steps 1000" -- "$exe" enclose "$P" -o "$tmp/cap.cert.json" \
    --method chen-wang --local-beta --radius 1e-4 --max-steps 1000
absent "$tmp/cap.cert.json" "--max-steps 1000"
# a file already at the path survives a failed search
echo keep > "$tmp/kept.json"
expect 1 "best radius" "existing output" -- "$exe" enclose "$P" -o "$tmp/kept.json" --radius 1e-30
if [ "$(cat "$tmp/kept.json")" = keep ]; then ok; else bad "a failed --radius replaced the existing file"; fi

# lognorm without a stated predictor pilots Heun too and keeps the cheaper:
# 1e-5 on the bridge takes ~113,000 theta steps, a few hundred Heun steps; the
# run that reached R is the certificate (not run again), no temporary left
mkdir -p "$tmp/rdir"
if expect 0 "its certificate is the result" "--radius 1e-5 chooses heun" -- "$exe" enclose "$P" \
    -o "$tmp/rdir/h.cert.json" --radius 1e-5; then
    if grep -q "^predictor: heun" "$tmp/out" && grep -q "predictor heun .* costs less" "$tmp/out"; then ok
    else bad "--radius 1e-5: heun not reported as chosen"; fi
    N=$(csv_col "$tmp/rdir/h.cert.json" N)
    if [ -n "$N" ] && [ "$N" -lt 5000 ]; then ok; else bad "--radius 1e-5 with heun: N '$N' (theta needs ~113000)"; fi
    r=$(csv_col "$tmp/rdir/h.cert.json" eps_x_at_T)
    if awk -v r="$r" 'BEGIN { exit !(r <= 1e-5) }'; then ok; else bad "--radius 1e-5: radius '$r' above R"; fi
    expect 0 "accepted" "--radius 1e-5: verify" -- "$exe" verify "$tmp/rdir/h.cert.json"
    if [ "$(ls -A "$tmp/rdir")" = h.cert.json ]; then ok; else bad "--radius left files: $(ls -A "$tmp/rdir")"; fi
    # the predictor is chosen by a count of operations, never by the pilots'
    # seconds: the same problem gives the same certificate, byte for byte,
    # however loaded the machine (docs/lognorm.md)
    expect 0 "its certificate is the result" "--radius 1e-5 again" -- "$exe" enclose "$P" \
        -o "$tmp/h2.cert.json" --radius 1e-5
    if cmp -s "$tmp/rdir/h.cert.json" "$tmp/h2.cert.json"; then ok
    else bad "--radius 1e-5: two runs wrote different certificates"; fi
fi
# a stated predictor is kept
expect 0 "chosen after" "--radius --predictor theta" -- "$exe" enclose "$P" -o "$tmp/rdir/t.cert.json" \
    --radius 1e-3 --predictor theta --method lognorm
if grep -q "costs less" "$tmp/out"; then bad "--predictor theta was overridden"; else ok; fi
echo keep > "$tmp/rdir/kept2.json"
expect 1 "best radius" "existing output, heun" -- "$exe" enclose "$P" -o "$tmp/rdir/kept2.json" --radius 1e-30
if [ "$(cat "$tmp/rdir/kept2.json")" = keep ] && [ "$(ls -A "$tmp/rdir" | wc -l)" = 3 ]; then ok
else bad "a failed --radius changed the directory: $(ls -A "$tmp/rdir")"; fi

# bad values
for v in -1 0 nan NaN inf abc 1e-4x ""; do
    expect 2 "radius" "--radius '$v'" -- "$exe" enclose "$P" -o "$tmp/bad.cert.json" --radius "$v"
    absent "$tmp/bad.cert.json" "--radius '$v'"
done
expect 2 "radius-at" "--radius-at x" -- "$exe" enclose "$P" -o "$tmp/bad.cert.json" --radius 1e-3 --radius-at x
expect 2 "max-steps" "--max-steps 0" -- "$exe" enclose "$P" -o "$tmp/bad.cert.json" --radius 1e-3 --max-steps 0
expect 2 "belongs to --radius" "--radius-at alone" -- "$exe" enclose "$P" -o "$tmp/bad.cert.json" --radius-at all
expect 2 "not with --from" "--radius --from" -- "$exe" enclose "$P" -o "$tmp/bad.cert.json" --radius 1e-3 \
    --from "$tmp/none.csv"
# the hybrid engine chooses its own steps: refused, not ignored
expect 2 "hybrid engine" "--radius on a hybrid model" -- "$exe" enclose "$src/certs/stickslip/stickslip.json" \
    -o "$tmp/bad.cert.json" --radius 1e-3
expect 2 "hybrid engine" "--radius on ideal contacts" -- "$exe" enclose "$src/certs/diode-clamp/diode-clamp.json" \
    -o "$tmp/bad.cert.json" --radius 1e-3
absent "$tmp/bad.cert.json" "bad options"

report
