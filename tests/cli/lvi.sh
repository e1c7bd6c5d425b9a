#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of 'dvicert lvi': exit codes, messages that name the
# field, and a certified enclosure containing a solution known in closed form.
#   bash tests/cli/lvi.sh DVICERT_EXE SOURCE_ROOT
set -u
exe=$1
src=$2
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# expect CODE PATTERN FILE-CONTENT : run on a temp file, check exit code and
# that stderr+stdout match PATTERN (grep -E)
expect() {
    local code=$1 pat=$2 body=$3 f="$tmp/p.json" out rc
    printf '%s\n' "$body" >"$f"
    out=$("$exe" lvi "$f" 2>&1)
    rc=$?
    if [ "$rc" -ne "$code" ]; then bad "exit $rc (want $code) for: $body -- $out"; return; fi
    if ! grep -Eq -- "$pat" <<<"$out"; then bad "output lacks /$pat/ for: $body -- $out"; return; fi
    ok
}

# bad input: exit 2, message names the field
expect 2 "malformed JSON" '{"M": [[1, 0], [0, 1]], "q": [1, 2'
expect 2 "top level" '[1, 2]'
expect 2 "missing field 'q'" '{"M": [[1]], "l": [0], "u": [1]}'
expect 2 "missing field 'M'" '{"q": [1], "l": [0], "u": [1]}'
expect 2 "field 'M'.*square" '{"M": [[1, 0]], "q": [1], "l": [0], "u": [1]}'
expect 2 "field 'M' row 2" '{"M": [[1, 0], [0]], "q": [1, 2], "l": [0, 0], "u": [1, 1]}'
expect 2 "field 'q' has 3 entries" '{"M": [[1, 0], [0, 1]], "q": [1, 2, 3], "l": [0, 0], "u": [1, 1]}'
expect 2 "field 'l' has 1 entries" '{"M": [[1, 0], [0, 1]], "q": [1, 2], "l": [0], "u": [1, 1]}'
expect 2 "field 'u' has 3 entries" '{"M": [[1, 0], [0, 1]], "q": [1, 2], "l": [0, 0], "u": [1, 1, 1]}'
expect 2 "field 'l' entry 2 .*not below field 'u' entry 2" '{"M": [[1, 0], [0, 1]], "q": [1, 2], "l": [0, 1], "u": [1, 1]}'
expect 2 "field 'l' entry 1 .*not below" '{"M": [[1]], "q": [1], "l": [2], "u": ["1.5"]}'
expect 2 "field 'q' entry 1.*not a number" '{"M": [[1]], "q": ["nan"], "l": [0], "u": [1]}'
expect 2 "field 'M' row 1 column 1" '{"M": [["NaN"]], "q": [1], "l": [0], "u": [1]}'
expect 2 "field 'q' entry 1.*finite" '{"M": [[1]], "q": ["inf"], "l": [0], "u": [1]}'
expect 2 "field 'l' entry 1 is \\+inf" '{"M": [[1]], "q": [1], "l": ["inf"], "u": ["inf"]}'
expect 2 "field 'u' entry 1" '{"M": [[1]], "q": [1], "l": [0], "u": ["x"]}'
# not a P-matrix: exit 1 with the reason
expect 1 "not certified.*P-matrix" '{"M": [[0, 1], [1, 0]], "q": [-1, -1], "l": [0, 0], "u": ["inf", "inf"]}'
expect 1 "not certified.*P-matrix" '{"M": [[-1]], "q": [1], "l": [0], "u": [1]}'

# usage errors
out=$("$exe" lvi 2>&1); [ $? -eq 2 ] && grep -q "missing" <<<"$out" && ok || bad "no file: $out"
out=$("$exe" lvi "$tmp/none.json" 2>&1); [ $? -eq 2 ] && grep -q "none.json" <<<"$out" && ok || bad "absent file: $out"
out=$("$exe" lvi --bogus x 2>&1); [ $? -eq 2 ] && ok || bad "unknown option: $out"
out=$("$exe" lvi --help 2>&1); [ $? -eq 0 ] && grep -q '"M"' <<<"$out" && grep -q '"q"' <<<"$out" && ok || bad "help: $out"

# Coarse check in awk (doubles, relative tolerance 1e-15); the exact check
# of the printed ends against the decimal expansion of 4/3 follows below.
contains() { # contains "[lo, hi]" NUM DEN  (lo <= NUM/DEN <= hi, NUM/DEN > 0)
    awk -v iv="$1" -v n="$2" -v d="$3" 'BEGIN {
        gsub(/[\[\] ]/, "", iv); split(iv, e, ",");
        x = n / d; tol = 1e-15 * (x < 0 ? -x : x);
        # the enclosure must contain x and be at most 1e-14 relative wide
        exit !(e[1] <= x + tol && e[2] >= x - tol && e[2] - e[1] <= 1e-14 * (1 + (x < 0 ? -x : x)) &&
               e[1] <= e[2]) }'
}

# closed form: M = [[2,1],[1,2]], q = (-5,-6): y = (4/3, 7/3)
out=$("$exe" lvi "$src/certs/lvi/lcp2.json" --digits 20 2>&1)
rc=$?
y1=$(grep '^y\[1\]' <<<"$out" | sed 's/.* in //')
y2=$(grep '^y\[2\]' <<<"$out" | sed 's/.* in //')
if [ $rc -eq 0 ] && contains "$y1" 4 3 && contains "$y2" 7 3 && grep -q "route: active set" <<<"$out" &&
   grep -q "P-matrix: proven" <<<"$out"; then ok; else bad "lcp2: $out"; fi

# exact ends: the printed interval must contain 4/3 at 20 digits by string
# comparison of the digits after the point (1.3333... has 3s forever)
lo=$(sed 's/\[\(.*\),.*/\1/' <<<"$y1")
hi=$(sed 's/.*, \(.*\)\]/\1/' <<<"$y1")
case "$lo" in 1.3333333333333333333*e+00) bad "lo above 4/3? $lo" ;; 1.333333333333333*) ok ;; *) bad "lo $lo" ;; esac
case "$hi" in 1.333333333333333[4-9]*e+00|1.33333333333333[4-9]*) ok ;; *) bad "hi $hi" ;; esac

# second closed form: q = (-1, 2): y = (1/2, 0) (second entry at its bound)
expect 0 'y\[1\] in \[(4\.9999999999999|5\.0000000000000)[0-9]*e-01, 5\.0000000000000[0-9]*e-01\]' \
    '{"M": [[2, 1], [1, 2]], "q": [-1, 2], "l": [0, 0], "u": ["inf", "inf"]}'
# box with y* = u: M = [[1]], q = -5, u = 2 -> y = 2 exactly
expect 0 'y\[1\] in \[2\.0000000000000000e\+00, 2\.0000000000000000e\+00\]' '{"M": [[1]], "q": [-5], "l": ["-inf"], "u": [2]}'
# nearly singular M given by decimals: at 53 bits the enclosure of M contains
# a singular matrix, the retry at 106 bits certifies (y = (1e17, 1e17))
expect 0 'precision 106 bits' \
    '{"M": [["1", "-1"], ["-1", "1.00000000000000001"]], "q": [-1, 0], "l": [0, 0], "u": ["inf", "inf"]}'
expect 0 'y\[2\] in \[9\.99999999999998[0-9]*e\+16, 1\.00000000000000[0-9]*e\+17\]' \
    '{"M": [["1", "-1"], ["-1", "1.00000000000000001"]], "q": [-1, 0], "l": [0, 0], "u": ["inf", "inf"]}'
# degenerate: vertex route
expect 0 "route: vertex" "$(cat "$src/certs/lvi/degenerate.json")"
# the examples certify
for f in "$src"/certs/lvi/*.json; do
    out=$("$exe" lvi "$f" 2>&1) && grep -q '^certified' <<<"$out" && ok || bad "$f: $out"
done
# interval q: enclosure contains the solutions at two corners of the box
# (all three free there: y = M^{-1}(-q)); M tridiag(−1,3,−1)
out=$("$exe" lvi "$src/certs/lvi/interval_q.json" 2>&1)
y1=$(grep '^y\[1\]' <<<"$out" | sed 's/.* in //')
awk -v iv="$y1" 'BEGIN { gsub(/[\[\] ]/, "", iv); split(iv, e, ",");
    # q = (-1,0.5,-2): y1 = (8*1 - 3*0.5 + 1*2)/21 = 8.5/21; q = (-0.99,0.52,-1.999): (7.92-1.56+1.999)/21
    a = 8.5 / 21; b = (7.92 - 1.56 + 1.999) / 21;
    exit !(e[1] <= a && a <= e[2] && e[1] <= b && b <= e[2]) }' && ok || bad "interval q: $out"


# Size: above the practical size (m = 1000) a warning names it; the
# computation still runs (a diagonal problem, y = 1/2: fast at any size).
awk 'BEGIN { m = 1001; printf "{\"M\": ["; for (i = 0; i < m; i++) { printf "%s[", i ? ", " : "";
    for (j = 0; j < m; j++) printf "%s%d", j ? "," : "", (i == j) ? 2 : 0; printf "]" }
    printf "], \"q\": ["; for (i = 0; i < m; i++) printf "%s-1", i ? "," : ""; printf "], \"l\": [";
    for (i = 0; i < m; i++) printf "%s0", i ? "," : ""; printf "], \"u\": [";
    for (i = 0; i < m; i++) printf "%s\"inf\"", i ? "," : ""; print "]}" }' >"$tmp/big.json"
"$exe" lvi "$tmp/big.json" >"$tmp/big.out" 2>"$tmp/big.err"
rc=$?
if [ "$rc" -eq 0 ]; then ok; else bad "m = 1001: exit $rc"; fi
if grep -q 'warning: m = 1001 is above the practical size 1000' "$tmp/big.err"; then ok; else bad "m = 1001: no size warning: $(cat "$tmp/big.err")"; fi
if grep -q '^y\[1001\] in \[5\.0*e-01, 5\.0*e-01\]' "$tmp/big.out"; then ok; else bad "m = 1001: y = 1/2 not printed"; fi
"$exe" lvi --help >"$tmp/help.out" 2>&1
if grep -q 'above m = 1000 a warning is printed' "$tmp/help.out"; then ok; else bad "lvi --help: no size note"; fi

report
