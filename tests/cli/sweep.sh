#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Many runs: 'dvicert sweep' expands a grid of constants and table files of
# a base problem into problem files and a manifest; 'dvicert info --csv'
# gives one summary line per certificate. Checked: the expansion (count,
# names, values substituted exactly, table files embedded), bad
# specifications (exit 2 naming the field, no directory left), and a local
# parallel run of the manifest (xargs -P 2) whose collected CSV has one
# line per run.
# usage: bash tests/cli/sweep.sh DVICERT SRCROOT   (run in the build's tests dir)
set -u
exe=${1:?usage: sweep.sh DVICERT SRCROOT}
src=${2:?usage: sweep.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")

# ---- info --csv
expect 0 "" "info --csv" -- "$exe" info --csv "$src/certs/bridge/gamma0.2.cert.json"
cp "$tmp/out" "$tmp/info.csv"
if [ "$(head -n 1 "$tmp/info.csv")" = "file,name,n,m,T,N,route,precision,eps_x_at_T,max_eps_x,radius_rel_max,verdict,x1_radius_max,x1_radius_at_T,x1_scale_log2,x2_radius_max,x2_radius_at_T,x2_scale_log2,y1_radius_max,y1_radius_at_T" ]
then ok; else bad "info --csv header: $(head -n 1 "$tmp/info.csv")"; fi
if [ "$(wc -l < "$tmp/info.csv")" -eq 2 ]; then ok; else bad "info --csv: not one header and one data line"; fi
# the name holds a comma: quoted; the figures are the certificate's own
line=$(sed -n 2p "$tmp/info.csv")
eps=$(grep -o '"eps_x_at_T": *"[^"]*"' "$src/certs/bridge/gamma0.2.cert.json" | sed 's/.*: *"\(.*\)"/\1/')
verdict=$(grep -o '"radius_verdict": *"[^"]*"' "$src/certs/bridge/gamma0.2.cert.json" | sed 's/.*: *"\(.*\)"/\1/')
case "$line" in
"$src/certs/bridge/gamma0.2.cert.json,\"Example 5.1"*"\",2,1,1,1000,chen-wang,53,$eps,$eps,"*",$verdict,"*",0,"*",0,"*","*) ok ;;
*) bad "info --csv line: $line (eps $eps, verdict $verdict)" ;;
esac
# a certificate written before the width claims (they removed): the verdict
# and the relative radius are recomputed while reading, the same as stated
sed -E 's/,"radius_(rel_max_upper|rel_at_T_upper|verdict)":"[^"]*"//g; s/"radius_(rel_max_upper|rel_at_T_upper|verdict)":"[^"]*",//g' \
    "$src/certs/pounding/pounding.cert.json" > "$tmp/old.cert.json"
grep -q radius_ "$tmp/old.cert.json" && bad "old-style certificate still has radius claims" || ok
new=$("$exe" info --csv "$src/certs/pounding/pounding.cert.json" | sed -n 2p | cut -d, -f11-12)
got=$("$exe" info --csv "$tmp/old.cert.json" | sed -n 2p | cut -d, -f11-12)
if [ -n "$new" ] && [ "${got#*,}" = "${new#*,}" ] &&
   awk -v a="${got%,*}" -v b="${new%,*}" 'BEGIN { exit !(a > 0 && (a - b) / b < 1e-6 && (b - a) / b < 1e-6) }'
then ok; else bad "info --csv of an old-style certificate: '$got', stated '$new'"; fi
expect 2 "unusable" "info --csv of a non-certificate" -- "$exe" info --csv "$src/certs/bridge/gamma0.2.json"

# ---- expansion
mkdir -p "$tmp/s/rec"
cp "$src/certs/bridge/gamma0.2.json" "$tmp/s/bridge.json"
cat > "$tmp/s/spec.json" <<'EOF'
{"base": "bridge.json",
 "constants": {"gamma": ["0.1", "0.1000000000000000000000001", 3, "1/3"]},
 "enclose": ["--sharpen"]}
EOF
expect 0 "4 runs" "sweep of 4 values" -- "$exe" sweep "$tmp/s/spec.json" -o "$tmp/s/out"
n=$(ls "$tmp/s/out/problems" | wc -l)
[ "$n" -eq 4 ] && ok || bad "sweep wrote $n problem files, expected 4"
[ "$(wc -l < "$tmp/s/out/manifest.txt")" -eq 4 ] && ok || bad "manifest does not have 4 lines"
[ "$(wc -l < "$tmp/s/out/runs.txt")" -eq 4 ] && ok || bad "runs.txt does not have 4 lines"
for nm in "bridge_gamma=0.1" "bridge_gamma=0.1000000000000000000000001" "bridge_gamma=3" "bridge_gamma=1_3"; do
    f=$tmp/s/out/problems/$nm.json
    [ -f "$f" ] && ok || bad "no problem file $nm.json"
    grep -q "^$nm\$" "$tmp/s/out/runs.txt" && ok || bad "$nm not in runs.txt"
done
p=$tmp/s/out/problems
grep -q '"gamma": "0.1"' "$p/bridge_gamma=0.1.json" && ok || bad "0.1 not substituted as a decimal string"
grep -q '"gamma": "0.1000000000000000000000001"' "$p/bridge_gamma=0.1000000000000000000000001.json" && ok ||
    bad "a long decimal not substituted exactly"
grep -q '"gamma": 3[,}]*$' "$p/bridge_gamma=3.json" && ok || bad "the integer 3 not substituted as an integer"
grep -q '"gamma": "1/3"' "$p/bridge_gamma=1_3.json" && ok || bad "the expression 1/3 not substituted"
grep -q '"name": ".*\[gamma = 1/3\]"' "$p/bridge_gamma=1_3.json" && ok || bad "the problem's name does not say the value"
grep -q 'enclose problems/bridge_gamma=3.json -o certs/bridge_gamma=3.cert.json --sharpen > logs/bridge_gamma=3.log 2>&1 && .* info --csv certs/bridge_gamma=3.cert.json > summaries/bridge_gamma=3.csv$' \
    "$tmp/s/out/manifest.txt" && ok || bad "manifest line: $(sed -n 3p "$tmp/s/out/manifest.txt")"
# a generated problem is a problem file the command reads as the base would be
expect 0 "certified" "enclose a generated problem" -- "$exe" enclose "$p/bridge_gamma=0.1.json" -o "$tmp/g.cert.json"

# table files: a grid over records, embedded in each problem
cp "$src/certs/pounding/pounding.json" "$src/certs/pounding/synthetic.AT2" "$tmp/s/"
cp "$src/certs/pounding/synthetic26.AT2" "$tmp/s/rec/long.AT2"
cat > "$tmp/s/tables.json" <<'EOF'
{"base": "pounding.json", "name": "pd",
 "constants": {"d": ["0.05", "0.1"]},
 "tables": {"record": {"field": "f", "entries": [3, 4], "files": ["synthetic.AT2", "rec/long.AT2"]}}}
EOF
expect 0 "4 runs" "sweep over constants and tables" -- "$exe" sweep "$tmp/s/tables.json" -o "$tmp/s/t"
for nm in "pd_d=0.05_record=synthetic" "pd_d=0.05_record=long" "pd_d=0.1_record=synthetic" "pd_d=0.1_record=long"; do
    [ -f "$tmp/s/t/problems/$nm.json" ] && ok || bad "no problem file $nm.json"
done
f=$tmp/s/t/problems/pd_d=0.1_record=long.json
[ "$(grep -c '"source": "rec/long.AT2"' "$f")" -eq 2 ] && ok || bad "record not substituted in both entries"
grep -q 'NPTS=    2601' "$f" && ok || bad "the long record's text is not embedded"
grep -q '"scale": "-9.80665"' "$f" && ok || bad "the base entry's scale was lost"
grep -q 'NPTS=    2601' "$tmp/s/t/problems/pd_d=0.1_record=synthetic.json" && bad "long record in the short run" || ok

# ---- bad specifications: exit 2 naming the field, no directory left
badspec() { # DESCRIPTION PATTERN JSON
    printf '%s\n' "$3" > "$tmp/s/bad.json"
    expect 2 "$2" "$1" -- "$exe" sweep "$tmp/s/bad.json" -o "$tmp/s/bad"
    absent "$tmp/s/bad" "$1"
    if ls -d "$tmp/s/bad.tmp-"* > /dev/null 2>&1; then bad "$1: temporary directory left"; else ok; fi
}
badspec "unknown constant" "field 'constants.gam': unknown constant 'gam'" \
    '{"base": "bridge.json", "constants": {"gam": ["0.1"]}}'
badspec "empty grid" "field 'constants.gamma': empty grid" '{"base": "bridge.json", "constants": {"gamma": []}}'
badspec "no axis" "empty grid" '{"base": "bridge.json"}'
badspec "duplicate names" "field 'constants.gamma': values 1 and 2 give the same run name part '1_3'" \
    '{"base": "bridge.json", "constants": {"gamma": ["1/3", "1_3"]}}'
badspec "duplicate value" "duplicate names" '{"base": "bridge.json", "constants": {"gamma": ["0.2", "0.2"]}}'
badspec "duplicate record names" "field 'tables.record': values 1 and 2" \
    '{"base": "pounding.json", "tables": {"record": {"field": "f", "entries": [3], "files": ["synthetic.AT2", "rec/../synthetic.AT2"]}}}'
badspec "unknown key" "unknown key 'constant'" '{"base": "bridge.json", "constant": {"gamma": ["0.1"]}}'
badspec "missing base" "field 'base'" '{"constants": {"gamma": ["0.1"]}}'
badspec "base not found" "field 'base'" '{"base": "nothere.json", "constants": {"gamma": ["0.1"]}}'
badspec "value not a number" "constants.gamma' value 1" '{"base": "bridge.json", "constants": {"gamma": [true]}}'
badspec "value the reader refuses" "run bridge_gamma=zz" '{"base": "bridge.json", "constants": {"gamma": ["zz"]}}'
badspec "table entry not a table" "'f' entry 2 is not a table" \
    '{"base": "pounding.json", "tables": {"r": {"field": "f", "entries": [2], "files": ["synthetic.AT2"]}}}'
badspec "table outside the tree" "outside the specification's directory" \
    '{"base": "pounding.json", "tables": {"r": {"field": "f", "entries": [3], "files": ["/etc/hostname"]}}}'
badspec "output option in enclose" "field 'enclose' entry 1" \
    '{"base": "bridge.json", "constants": {"gamma": ["0.1"]}, "enclose": ["-o", "x"]}'
mkdir "$tmp/s/exists"
expect 2 "exists" "existing directory" -- "$exe" sweep "$tmp/s/spec.json" -o "$tmp/s/exists"

# ---- a local parallel run (xargs -P 2; GNU parallel may be absent)
cat > "$tmp/s/run.json" <<'EOF'
{"base": "bridge.json", "name": "b", "constants": {"gamma": ["0.2", "0.5", "1.0"]}}
EOF
expect 0 "3 runs" "sweep for a run" -- "$exe" sweep "$tmp/s/run.json" -o "$tmp/s/r" --dvicert "$exe"
(cd "$tmp/s/r" && xargs -P 2 -d '\n' -n 1 sh -c < manifest.txt) > "$tmp/xargs.out" 2>&1 && ok ||
    { bad "running the manifest failed"; cat "$tmp/xargs.out" >&2; }
expect 0 "3 runs, 0 without a summary" "collect.sh" -- "$tmp/s/r/collect.sh"
csv=$tmp/s/r/summary.csv
[ "$(wc -l < "$csv")" -eq 4 ] && ok || bad "summary.csv has $(wc -l < "$csv") lines, expected 4"
[ "$(grep -c '^file,name,' "$csv")" -eq 1 ] && ok || bad "summary.csv: not one header line"
head -n 1 "$csv" | grep -q ',verdict,x1_radius_max,x1_radius_at_T,x1_scale_log2,.*,x2_scale_log2,y1_radius_max,y1_radius_at_T$' && ok ||
    bad "summary.csv: no per-state radius columns: $(head -n 1 "$csv")"
for g in 0.2 0.5 1.0; do
    grep -q "^certs/b_gamma=$g.cert.json,\".*\[gamma = $g\]\",2,1,1,[0-9]*,events,53," "$csv" && ok ||
        bad "summary.csv lacks the run gamma = $g"
    expect 0 "accepted" "verify run gamma = $g" -- "$exe" verify "$tmp/s/r/certs/b_gamma=$g.cert.json"
done
# a run without a certificate is listed by collect.sh
rm "$tmp/s/r/summaries/b_gamma=0.5.csv"
expect 1 "no summary: b_gamma=0.5" "collect.sh with a missing run" -- "$tmp/s/r/collect.sh"
[ "$(wc -l < "$csv")" -eq 3 ] && ok || bad "summary.csv after a missing run has $(wc -l < "$csv") lines"

# ---- an interrupted sweep leaves DIR complete or nothing, never DIR.tmp-*
vals=$(seq 1 4000 | sed 's/.*/"&"/' | paste -sd, -)
printf '{"base": "bridge.json", "name": "i", "constants": {"gamma": [%s]}}\n' "$vals" > "$tmp/s/big.json"
for d in 0.02 0.05 0.1 0.2 0.4; do
    rm -rf "$tmp/s/int" "$tmp/s/int.tmp-"*
    "$exe" sweep "$tmp/s/big.json" -o "$tmp/s/int" > /dev/null 2>&1 &
    pid=$!
    sleep "$d"
    kill -INT "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    if ls -d "$tmp/s/int.tmp-"* > /dev/null 2>&1; then
        bad "sweep interrupted after $d s: temporary directory left"
    elif [ -d "$tmp/s/int" ] && [ "$(wc -l < "$tmp/s/int/manifest.txt")" -ne 4000 ]; then
        bad "sweep interrupted after $d s: incomplete directory"
    else ok; fi
done

report
