#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The verdict's advice on wide tubes (issue 21, item 2): it names the factor
# that dominates the bound, measured by the route (e^{L T} of Algorithm 4.2,
# e^{mu T}, a bound that feeds on itself, the predictor's defect), and the
# option or route that narrows it, or says that none will. Each case follows
# the advice and checks the tube narrows as said:
#   - the bridge and chain8 on chen-wang: e^{L T} dominates, a smaller step
#     will not help, --method lognorm narrows it below the informative mark;
#   - the building without contact and the pounding example on lognorm: the
#     defect dominates, N x 4 narrows it about 4 times (at least 3), and
#     --predictor heun narrows it;
#   - the building with contact (T = 3) on lognorm: the bound feeds on itself
#     and the dynamics expands; N x 4 narrows it but leaves it uninformative,
#     the exact route (--method events) makes it informative;
#   - the building over T = 10 overflows: the note says so and does not offer
#     --prec-max.
# usage: bash tests/cli/advice.sh DVICERT SRCROOT
set -u
exe=${1:?usage: advice.sh DVICERT SRCROOT}
src=${2:?usage: advice.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# rel CERT: the certificate's largest relative radius (its summary claim)
rel() { sed -n 's/.*"radius_rel_max_upper": *"\([^"]*\)".*/\1/p' "$1" | head -1; }
# narrower A B F: B <= A / F
narrower() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a != "" && b != "" && b * f <= a) }'; }
above() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 > b + 0) }'; }
# has PATTERN WHAT: the last output ($tmp/out) holds PATTERN
has() { if grep -q -- "$1" "$tmp/out"; then ok; else bad "$2: no '$1' in the report"; sed 's/^/    /' "$tmp/out" | tail -20 >&2; fi; }

B=$src/tests/data/events/building.json
sed 's/"kc": "1e9"/"kc": "0"/' "$B" > "$tmp/nocontact.json"
sed 's/"kc": "1e9"/"kc": "0"/; s/"h": "0.001"/"h": "0.00025"/' "$B" > "$tmp/nocontact4.json"
sed 's/"T": 10,/"T": 3,/' "$B" > "$tmp/b3.json"
sed 's/"T": 10,/"T": 3,/; s/"h": "0.001"/"h": "0.00025"/' "$B" > "$tmp/b3x4.json"
cp "$src/certs/pounding/synthetic.AT2" "$tmp/"
cp "$src/certs/pounding/pounding.json" "$tmp/pounding.json"
sed 's/"h": "0.001"/"h": "0.00025"/' "$src/certs/pounding/pounding.json" > "$tmp/pounding4.json"

# chen-wang: e^{L T} dominates; lognorm (the advice) narrows it
for p in "$src/tests/data/events/bridge.json" "$src/tests/data/events/chain8.json"; do
    name=$(basename "$p" .json)
    expect 0 "dominant: e^{L T}" "$name chen-wang" -- "$exe" enclose "$p" --method chen-wang -o "$tmp/$name.cw.json"
    has "a smaller step will not help" "$name chen-wang"
    has "--method lognorm" "$name chen-wang"
    has "the exact route (--method events" "$name chen-wang"
    expect 0 "" "$name lognorm" -- "$exe" enclose "$p" --method lognorm -o "$tmp/$name.ln.json"
    a=$(rel "$tmp/$name.cw.json") b=$(rel "$tmp/$name.ln.json")
    if narrower "$a" "$b" 1e3 && ! above "$b" 0.1; then ok; else bad "$name: lognorm radius $b not informative and 1e3 x below chen-wang's $a"; fi
done

# lognorm, defect-dominated: N x 4 narrows about 4 times, heun narrows
for name in nocontact pounding; do
    expect 0 "dominant: the predictor's defect" "$name lognorm" -- \
        "$exe" enclose "$tmp/$name.json" --method lognorm -o "$tmp/$name.ln.json"
    has "N x 4 gives about radius / 4" "$name lognorm"
    has "--predictor heun" "$name lognorm"
    if grep -q "e^{mu T} = e^" "$tmp/out"; then bad "$name: e^{mu T} named although mu <= 0"; else ok; fi
    expect 0 "" "$name N x 4" -- "$exe" enclose "$tmp/${name}4.json" --method lognorm -o "$tmp/$name.x4.json"
    a=$(rel "$tmp/$name.ln.json") b=$(rel "$tmp/$name.x4.json")
    if narrower "$a" "$b" 3; then ok; else bad "$name: N x 4 gives $b from $a (not 3 x narrower)"; fi
    expect 0 "" "$name heun" -- "$exe" enclose "$tmp/$name.json" --method lognorm --predictor heun -o "$tmp/$name.hn.json"
    b=$(rel "$tmp/$name.hn.json")
    if narrower "$a" "$b" 3; then ok; else bad "$name: heun gives $b from $a (not 3 x narrower)"; fi
done

# lognorm, the building with contact: the bound feeds on itself
expect 0 "dominant: the bound feeds on itself" "building T=3" -- \
    "$exe" enclose "$tmp/b3.json" --method lognorm -o "$tmp/b3.ln.json"
has "and the dynamics expands: e^{mu T}" "building T=3"
has "expect no informative tube from a smaller step" "building T=3"
has "the exact route (--method events" "building T=3"
if grep -q "prec-max BITS\|use --prec-max" "$tmp/out"; then bad "building T=3: --prec-max offered"; else ok; fi
expect 0 "" "building T=3 N x 4" -- "$exe" enclose "$tmp/b3x4.json" --method lognorm -o "$tmp/b3.x4.json"
a=$(rel "$tmp/b3.ln.json") b=$(rel "$tmp/b3.x4.json")
if narrower "$a" "$b" 1 && above "$b" 1; then ok; else bad "building T=3: N x 4 gives $b from $a (narrower, still uninformative, expected)"; fi
expect 0 "verdict: informative" "building T=3 events" -- "$exe" enclose "$tmp/b3.json" --method events -o "$tmp/b3.ev.json"

# an overflow is not a precision problem
for m in lognorm chen-wang; do
    expect 1 "overflowed binary64" "building $m overflow" -- "$exe" enclose "$B" --method $m -o "$tmp/b.$m.json"
    if grep -q "prec-max BITS retries" "$tmp/out"; then bad "building $m: --prec-max offered after an overflow"; else ok; fi
    absent "$tmp/b.$m.json" "building $m overflow"
done

# item 7: check of a CSV without the y columns prints no y margin (the
# problem has a y; the trajectory does not give it)
"$exe" export "$tmp/pounding.ln.json" -o "$tmp/p.csv" > /dev/null 2>&1
awk -F, 'BEGIN { print "t,x1,x2,x3,x4" }
         $1 == "grid" { printf "%s,%.17g,%.17g,%.17g,%.17g\n", $2, ($4+$5)/2, ($6+$7)/2, ($8+$9)/2, ($10+$11)/2 }' \
    "$tmp/p.csv" > "$tmp/p.tr.csv"
expect 0 "worst x margin" "check without y columns" -- "$exe" check "$tmp/pounding.ln.json" "$tmp/p.tr.csv"
if grep -q "y margin" "$tmp/out"; then bad "check prints a y margin for a CSV without y"; else ok; fi

report
