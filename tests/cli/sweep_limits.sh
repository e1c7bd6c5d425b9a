#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Sweep specifications are checked whole when they are read: a grid of more
# runs than the bound (10000 by default; --max-runs raises it) is refused
# naming the product of the axes, before any problem is built, and the
# 'enclose' options are checked as 'dvicert enclose' checks them, not when
# the runs start. Nothing is written in either case.
# usage: bash tests/cli/sweep_limits.sh DVICERT SRCROOT
set -u
exe=${1:?usage: sweep_limits.sh DVICERT SRCROOT}
src=${2:?usage: sweep_limits.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mkdir -p "$tmp/s"
sed 's/"constants": {"gamma": "1.0"}/"constants": {"gamma": "1.0", "a": 1, "b": 1}/' \
    "$src/certs/bridge/gamma1.0.json" > "$tmp/s/base.json"
# axis N: N values 1..N
axis() { seq -s, 1 "$1" | sed 's/^/[/; s/$/]/'; }

# spec NAME JSON: a specification in $tmp/s
spec() { printf '%s\n' "$2" > "$tmp/s/$1.json"; }

spec cube "{\"base\": \"base.json\", \"constants\": {\"gamma\": $(axis 50), \"a\": $(axis 50), \"b\": $(axis 50)}}"
expect 2 "50 x 50 x 50 = 125000 runs, more than the limit of 10000" "50 x 50 x 50 refused" -- \
    timeout 60 "$exe" sweep "$tmp/s/cube.json" -o "$tmp/s/cube"
grep -q -- "--max-runs" "$tmp/out" && ok || bad "the message does not name --max-runs"
absent "$tmp/s/cube" "50 x 50 x 50"
spec square "{\"base\": \"base.json\", \"constants\": {\"gamma\": $(axis 1000), \"a\": $(axis 1000)}}"
expect 2 "1000 x 1000 = 1000000 runs" "1000 x 1000 refused at once" -- \
    timeout 60 "$exe" sweep "$tmp/s/square.json" -o "$tmp/s/square"
absent "$tmp/s/square" "1000 x 1000"
expect 2 "more than the limit of 5" "--max-runs lowers the bound" -- \
    "$exe" sweep "$tmp/s/cube.json" -o "$tmp/s/cube" --max-runs 5
expect 2 "--max-runs must be an integer" "--max-runs 0 refused" -- \
    "$exe" sweep "$tmp/s/cube.json" -o "$tmp/s/cube" --max-runs 0
expect 2 "--max-runs must be an integer" "--max-runs above 1000000 refused" -- \
    "$exe" sweep "$tmp/s/cube.json" -o "$tmp/s/cube" --max-runs 1000001
spec six "{\"base\": \"base.json\", \"constants\": {\"gamma\": $(axis 2), \"a\": $(axis 3)}}"
expect 2 "2 x 3 = 6 runs, more than the limit of 5" "6 runs over --max-runs 5" -- \
    "$exe" sweep "$tmp/s/six.json" -o "$tmp/s/six" --max-runs 5
expect 0 "6 runs" "6 runs within --max-runs 6" -- "$exe" sweep "$tmp/s/six.json" -o "$tmp/s/six" --max-runs 6
"$exe" sweep --help | grep -q -- "--max-runs N" && ok || bad "--help does not document --max-runs"

# 'enclose' options: checked when the specification is read
badopt() {
    spec opt "{\"base\": \"base.json\", \"constants\": {\"gamma\": [1, 2]}, \"enclose\": $2}"
    expect 2 "$3" "enclose options: $1" -- "$exe" sweep "$tmp/s/opt.json" -o "$tmp/s/opt"
    grep -q "field 'enclose'" "$tmp/out" && ok || bad "enclose options: $1: message does not name the field"
    absent "$tmp/s/opt" "enclose options: $1"
}
badopt "misspelled option" '["--sharpn"]' "sharpn"
badopt "missing value" '["--prec"]' "prec"
badopt "bad --prec" '["--prec", "abc"]' "prec must be an integer"
badopt "repeated option" '["--sharpen", "--sharpen"]' "sharpen"
badopt "a positional argument" '["extra.json"]' "extra.json"
badopt "--help" '["--help"]' "is not an option of a run"
spec good '{"base": "base.json", "constants": {"gamma": [1, 2]}, "enclose": ["--sharpen", "--prec", "64"]}'
expect 0 "2 runs" "good enclose options" -- "$exe" sweep "$tmp/s/good.json" -o "$tmp/s/good"
grep -q -- "--sharpen --prec 64" "$tmp/s/good/manifest.txt" && ok || bad "the options are not in the manifest"

report
