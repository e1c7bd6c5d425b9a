#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of 'dvicert lcp-all': the three verdicts and their exit
# codes, solutions known in closed form, the JSON output, and bad input
# (exit 2, the field named, no output file left).
#   bash tests/cli/lcpall.sh DVICERT_EXE SOURCE_ROOT
set -u
exe=$1
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# run CODE PATTERN FILE-CONTENT [OPTIONS...]: exit code and a pattern (grep -E)
run() {
    local code=$1 pat=$2 body=$3 f="$tmp/p.json" out rc
    shift 3
    printf '%s\n' "$body" >"$f"
    out=$("$exe" lcp-all "$f" "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$code" ]; then bad "exit $rc (want $code) for: $body $* -- $out"; return; fi
    if ! grep -Eq -- "$pat" <<<"$out"; then bad "output lacks /$pat/ for: $body $* -- $out"; return; fi
    ok
}

# three solutions: z = 0, (1/3, 0), (0, 1/3) (M = [[-3, 5], [5, -3]], q = 1)
three='{"M": [[-3, 5], [5, -3]], "q": [1, 1], "l": [0, 0], "u": ["inf", "inf"]}'
run 0 "solutions: 3 proven to exist" "$three"
run 0 "verdict: all solutions enclosed, proven complete" "$three"
run 0 "z\[1\] in \[3.33333333333333[0-9]*e-01, 3.33333333333333[0-9]*e-01\]" "$three"
run 0 "solution 3: basis 10 \(nondegenerate\)" "$three"
# a P-matrix: exactly one, by the P route, z = (4/3, 7/3)
p='{"M": [[2, 1], [1, 2]], "q": [-5, -6], "l": [0, 0], "u": ["inf", "inf"]}'
run 0 "route: P-matrix" "$p"
run 0 "solutions: 1 proven to exist" "$p"
run 0 "z\[2\] in \[2.33333333333333[0-9]*e\+00, 2.33333333333333[0-9]*e\+00\]" "$p"
run 0 "bases: 4 examined, 3 excluded" "$p" --method enum
# degenerate (z = 0, w = (0, 1) with q_1 = 0): exit 1 and the candidates
deg='{"M": [[2, 1], [1, 2]], "q": [0, 1], "l": [0, 0], "u": ["inf", "inf"]}'
run 1 "completeness not proven.*nondegenerate" "$deg"
run 1 "basis 10 \(strict complementarity not proven\)" "$deg"
run 1 "basis 00 \(strict complementarity not proven\)" "$deg"
# the two-contact case x1' = -sgn x1, x2' = -sgn x2 made an LCP with a
# singular basis: basis 10 and 01 excluded by Farkas certificates
run 0 "bases: 4 examined, 3 excluded by a Farkas certificate" '{"M": [[0, 1], [1, 0]], "q": [-1, -1], "l": [0, 0], "u": ["inf", "inf"]}'
# size budget: not P and n above --max-n
run 1 "failed: .*refused above n = 2" '{"M": [[-1, 0, 0], [0, -1, 0], [0, 0, -1]], "q": [1, 1, 1], "l": [0, 0, 0], "u": ["inf", "inf", "inf"]}' --max-n 2
# decimal strings are enclosed exactly: q = 0.1 gives z = 1/10 in the box
run 0 "z\[1\] in \[(9.99999999999999[0-9]*e-02|1.0000000000000000e-01), 1.00000000000000[0-9]*e-01\]" '{"M": [[-1]], "q": ["0.1"], "l": [0], "u": ["inf"]}'

# bad input: exit 2, the field named
run 2 "field 'l' entry 2.*LCP" '{"M": [[1, 0], [0, 1]], "q": [1, 2], "l": [0, -1], "u": ["inf", "inf"]}'
run 2 "field 'u' entry 1.*LCP" '{"M": [[1, 0], [0, 1]], "q": [1, 2], "l": [0, 0], "u": [5, "inf"]}'
run 2 "field 'M'.*square" '{"M": [[1, 0]], "q": [1], "l": [0], "u": ["inf"]}'
run 2 "missing field 'q'" '{"M": [[1]], "l": [0], "u": ["inf"]}'
run 2 "field 'q' entry 1.*not a number" '{"M": [[1]], "q": ["nan"], "l": [0], "u": ["inf"]}'
run 2 "method must be auto or enum" "$three" --method lemke
run 2 "max-n must be" "$three" --max-n 99

# JSON output: written for a result, absent after bad input
printf '%s\n' "$three" > "$tmp/three.json"
if "$exe" lcp-all "$tmp/three.json" -o "$tmp/out.json" > "$tmp/log" 2>&1; then ok; else bad "-o: exit $?"; fi
grep -q '"verdict": "complete"' "$tmp/out.json" && ok || bad "-o: no verdict"
grep -q '"basis": "10", "status": "exists", "nondegenerate": true' "$tmp/out.json" && ok || bad "-o: no basis 10"
grep -Eq '"z": \[\["3.33333333333333[0-9]*e-01", "3.33333333333333[0-9]*e-01"\], \["0", "0"\]\]' "$tmp/out.json" && ok || bad "-o: z of basis 10"
grep -q "wrote $tmp/out.json" "$tmp/log" && ok || bad "-o: summary"
if command -v python3 >/dev/null; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["solutions"]) == 3' "$tmp/out.json" && ok || bad "-o: not JSON"
fi
# -o -: the JSON on standard output, the report on standard error
"$exe" lcp-all "$tmp/three.json" -o - > "$tmp/stdout.json" 2> "$tmp/stderr.txt"
grep -q '"verdict": "complete"' "$tmp/stdout.json" && ok || bad "-o -: no JSON on stdout"
grep -q "^verdict: all solutions enclosed" "$tmp/stderr.txt" && ok || bad "-o -: no report on stderr"
grep -q "^verdict:" "$tmp/stdout.json" && bad "-o -: report mixed into the JSON" || ok
printf '%s\n' '{"M": [[1]], "q": [1], "l": [0], "u": [1]}' > "$tmp/box.json"
"$exe" lcp-all "$tmp/box.json" -o "$tmp/none.json" > /dev/null 2>&1
[ $? -eq 2 ] && ok || bad "-o with bad input: exit not 2"
absent "$tmp/none.json" "bad input"
"$exe" lcp-all "$tmp/three.json" -o "$tmp/three.json" > /dev/null 2>&1
[ $? -eq 2 ] && ok || bad "-o onto the input accepted"
grep -q '"M"' "$tmp/three.json" && ok || bad "input overwritten"
# many solutions (streamed to the file while found): -I + 0.01 E, n = 8, all
# 256 bases; the same boxes as the plain report, in the same order
python3 - "$tmp/many.json" <<'PY' 2>/dev/null || printf '%s\n' '{"M": [[-1,0.01,0,0,0,0,0,0],[0,-1,0,0,0,0,0,0],[0,0,-1,0,0,0,0,0],[0,0,0,-1,0,0,0,0],[0,0,0,0,-1,0,0,0],[0,0,0,0,0,-1,0,0],[0,0,0,0,0,0,-1,0],[0,0,0,0,0,0,-0.01,-1]], "q": [1,1,1,1,1,1,1,1], "l": [0,0,0,0,0,0,0,0], "u": ["inf","inf","inf","inf","inf","inf","inf","inf"]}' > "$tmp/many.json"
import json, sys
n = 8
M = [[(-1.0 if i == j else 0.0) + 0.01 * ((3 * i + 5 * j) % 7 - 3) / 3 for j in range(n)] for i in range(n)]
json.dump({"M": M, "q": [1] * n, "l": [0] * n, "u": ["inf"] * n}, open(sys.argv[1], "w"))
PY
"$exe" lcp-all "$tmp/many.json" --method enum -o "$tmp/many_out.json" > /dev/null 2>&1 && ok || bad "many: exit $?"
"$exe" lcp-all "$tmp/many.json" --method enum > "$tmp/many.txt" 2>&1
[ "$(grep -c '"basis"' "$tmp/many_out.json")" = 256 ] && ok || bad "many: not 256 boxes in the JSON"
diff <(grep -o '"basis": "[01]*"' "$tmp/many_out.json" | grep -o '[01][01]*') \
     <(grep -o 'basis [01]*' "$tmp/many.txt" | cut -d' ' -f2) > /dev/null && ok || bad "many: JSON and report differ"
diff <(grep -o '"z": \[\["[^"]*"' "$tmp/many_out.json" | cut -d'"' -f4) \
     <(grep -o 'z\[1\] in \[[^,]*' "$tmp/many.txt" | cut -d'[' -f3) > /dev/null && ok || bad "many: z_1 differs"
ls -a "$tmp" | grep -q spool && bad "many: spool file left behind" || ok
"$exe" lcp-all --help | grep -q "three-valued" && ok || bad "--help"
"$exe" --help | grep -q "lcp-all" && ok || bad "lcp-all not listed"
report
