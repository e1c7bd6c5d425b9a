#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Automatic scaling of the states (enclose --scale auto|none, docs/bounds.md
# "Scaling of the state"). The wall problem tests/data/scale/wall.json is the
# bridge of Example 5.1 with contact, written in "SI units": time scaled by
# C = 64, so x1'' = -w^2 x1 - y + ..., w = 128, and the velocity is 64 times
# the bridge's. Its exact solution comes from the bridge's piecewise closed
# form (tests/gen_traj.c "wall", 256 bits), independent of the engine.
#  (a) on both routes the scaled tube contains the exact solution (x and y),
#      and its largest relative radius at T (radius_rel_at_T_upper) is at
#      least 100 times smaller than that of --scale none; a shift of x1 by
#      0.01 is inside the unscaled lognorm tube and outside the scaled one;
#  (c) verify accepts the scaled certificates and rejects a tampered scale;
#  (d) the well-scaled bridge keeps scale 1: no 'x_scale_log2', and the
#      committed certificate is reproduced byte for byte with and without
#      --scale none.
# The exported tube shows per-state radii: at T the x2 half-width is
# s_2 / s_1 times the x1 half-width (a power of two, within rounding).
# usage: bash tests/cli/scale.sh DVICERT SRCROOT   (run in the build's tests dir)
set -u
exe=${1:?usage: scale.sh DVICERT SRCROOT}
src=${2:?usage: scale.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
W=$src/tests/data/scale/wall.json
gen=$(ref_tool gen_traj) || exit 1

# method entry or summary entry KEY of a certificate (compact JSON objects)
entry() { grep -o "\"$2\":\"[^\"]*\"" "$1" | head -1 | sed 's/.*:"\(.*\)"/\1/'; }
ratio_ge() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { exit !(a != "" && b != "" && a + 0 >= r * b) }'; }

"$gen" wall 64 0.1 -0.5 0.015625 3000 64 > "$tmp/wall.csv" || bad "reference solution"
awk -F, 'NR > 1 && $4 > 1 { n++ } END { exit !(n > 300) }' "$tmp/wall.csv" && ok || bad "reference: contact (y > 0) expected on many samples"
awk -F, -v OFS=, 'NR > 1 && $1 >= 0.004 { $2 = $2 + 0.01 } { print }' "$tmp/wall.csv" > "$tmp/shift.csv"

for m in chen-wang lognorm; do
    A=$tmp/$m-auto.cert.json
    U=$tmp/$m-none.cert.json
    expect 0 "certified" "$m: enclose the wall (auto scale)" -- "$exe" enclose --method $m "$W" -o "$A"
    expect 0 "certified" "$m: enclose the wall (--scale none)" -- "$exe" enclose --method $m --scale none "$W" -o "$U"
    [ "$(entry "$A" x_scale_log2)" = "0,7" ] || [ "$(entry "$A" x_scale_log2)" = "0,8" ] && ok ||
        bad "$m: scale of the velocity should be 2^7 or 2^8 (sqrt(7) 64 = 169), got '$(entry "$A" x_scale_log2)'"
    grep -q x_scale_log2 "$U" && bad "$m: --scale none states a scale" || ok
    case "$(entry "$A" norm)" in *"z = S^-1 x"*) ok ;; *) bad "$m: the summary's norm does not name the scaled states" ;; esac
    ra=$(entry "$A" radius_rel_at_T_upper)
    ru=$(entry "$U" radius_rel_at_T_upper)
    ratio_ge "$ru" "$ra" 100 && ok || bad "$m: relative radius at T $ra (scaled) vs $ru (none): less than 100x"
    expect 0 "^accepted" "$m: verify the scaled certificate" -- "$exe" verify "$A"
    expect 0 "^accepted" "$m: verify the unscaled certificate" -- "$exe" verify "$U"
    expect 0 "inside: 0 of 3000" "$m: exact wall solution inside the scaled tube (x and y)" -- "$exe" check "$A" "$tmp/wall.csv"
    expect 0 "inside: 0 of 3000" "$m: exact wall solution inside the unscaled tube" -- "$exe" check "$U" "$tmp/wall.csv"
    # tampered scale: the embedded problem gives another one
    sed 's/"x_scale_log2":"0,\([0-9]*\)"/"x_scale_log2":"0,5"/' "$A" > "$tmp/tamper.json"
    expect 1 "x_scale_log2" "$m: a tampered scale is rejected" -- "$exe" verify "$tmp/tamper.json"
    # the scale dropped: the stated radii are those of the scaled run
    sed 's/,"x_scale_log2":"[^"]*"//' "$A" > "$tmp/drop.json"
    expect 1 "^rejected" "$m: a certificate whose scale was removed is rejected" -- "$exe" verify "$tmp/drop.json"
    sed 's/"x_scale_log2":"0,\([0-9]*\)"/"x_scale_log2":"0,x"/' "$A" > "$tmp/bad.json"
    expect 2 "x_scale_log2" "$m: a malformed scale is unusable" -- "$exe" verify "$tmp/bad.json"
    # per-state radii in the exported tube: at T, half-width of x2 = 2^k half-width of x1
    expect 0 "wrote" "$m: export" -- "$exe" export "$A" -o "$tmp/ex.csv"
    k=$(entry "$A" x_scale_log2 | cut -d, -f2)
    awk -F, -v k="$k" '$1 == "grid" { l = $0 } END { split(l, a, ","); r = (a[7] - a[6]) / (a[5] - a[4]);
        exit !(r > 0.99 * 2^k && r < 1.01 * 2^k) }' "$tmp/ex.csv" && ok || bad "$m: exported x2/x1 half-widths at T are not 2^$k"
done
# the lognorm tube: x1 shifted by 0.01 for t >= 0.004 lies outside the scaled
# tube (x1 radius below 0.001 on [0, T]) and inside the unscaled one (radius
# above 0.025 there, while the scaled tube bounds the true error by 0.001)
expect 1 "VIOLATED" "lognorm: x1 + 0.01 outside the scaled tube" -- "$exe" check "$tmp/lognorm-auto.cert.json" "$tmp/shift.csv"
expect 0 "inside: 0 of 3000" "lognorm: x1 + 0.01 inside the unscaled tube" -- "$exe" check "$tmp/lognorm-none.cert.json" "$tmp/shift.csv"
# the trajectory route certifies another tool's samples in the scaled states
"$gen" wall 64 0.1 -0.5 0.015625 400 5 > "$tmp/w400.csv" || bad "reference solution (400)"
{ echo "t,x1,x2"; tail -n +2 "$tmp/w400.csv" | sort -t, -k1,1g | awk -F, -v OFS=, '{ print $1, $2, $3 }'; } > "$tmp/traj.csv"
expect 0 "certified" "lognorm --from: the exact samples certified (scaled)" -- "$exe" enclose --method lognorm --from "$tmp/traj.csv" "$W" -o "$tmp/from.cert.json"
grep -q x_scale_log2 "$tmp/from.cert.json" && ok || bad "--from: no scale stated"
expect 0 "^accepted" "lognorm --from: verify" -- "$exe" verify "$tmp/from.cert.json"

# (d) the bridge is well scaled: identity, same bytes as the committed certificate
for g in 0.2 1.0; do
    expect 0 "certified" "bridge gamma=$g (auto)" -- "$exe" enclose --method chen-wang "$src/certs/bridge/gamma$g.json" -o "$tmp/b.cert.json"
    cmp -s "$tmp/b.cert.json" "$src/certs/bridge/gamma$g.cert.json" && ok || bad "bridge gamma=$g: certificate differs from the committed one"
    grep -q x_scale_log2 "$tmp/b.cert.json" && bad "bridge gamma=$g: a scale is stated" || ok
    expect 0 "certified" "bridge gamma=$g (--no-scale)" -- "$exe" enclose --method chen-wang --no-scale "$src/certs/bridge/gamma$g.json" -o "$tmp/bn.cert.json"
    cmp -s "$tmp/b.cert.json" "$tmp/bn.cert.json" && ok || bad "bridge gamma=$g: --no-scale changes the certificate"
done
grep -q "one bound for every state" <("$exe" info "$src/certs/bridge/gamma1.0.cert.json" 2>&1) && ok || bad "bridge info: unscaled table"
grep -q "s_j eps_x" <("$exe" info "$tmp/lognorm-auto.cert.json" 2>&1) && ok || bad "wall info: scaled table"

# scaled states on a grid whose h does not divide T (a shorter last step):
# both routes, the exact solution inside, verify accepts
sed 's/"N": *1000/"h": "0.00007"/' "$W" > "$tmp/wallh.json"
grep -q '"h": "0.00007"' "$tmp/wallh.json" && ok || bad "wallh: h not set"
for m in chen-wang lognorm; do
    expect 0 "the last of length" "$m: wall with a shorter last step (auto scale)" -- "$exe" enclose --method $m "$tmp/wallh.json" -o "$tmp/wh-$m.cert.json"
    grep -q x_scale_log2 "$tmp/wh-$m.cert.json" && ok || bad "$m: shorter last step: no scale stated"
    expect 0 "^accepted" "$m: verify (scaled, shorter last step)" -- "$exe" verify "$tmp/wh-$m.cert.json"
    expect 0 "inside: 0 of 3000" "$m: exact wall solution inside (scaled, shorter last step)" -- "$exe" check "$tmp/wh-$m.cert.json" "$tmp/wall.csv"
done

# bad option values
expect 2 "--scale must be auto or none" "--scale bad" -- "$exe" enclose --scale bad "$W" -o "$tmp/x.cert.json"
absent "$tmp/x.cert.json" "--scale bad"
report
