#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Reproduces Table 1 of Chen & Wang (2012), Example 5.1 (T = 1): runs
# `dvicert enclose` for every (gamma, theta, h) of the table and prints the
# certified eps_x at T next to the published value (bench/table1_published.csv,
# transcribed from the paper), and the bound with --sharpen (Remark 4.3 made
# rigorous: y = 0 is certified on the steps, so the local constant replaces
# beta_M). Output: a Markdown table on stdout.
# usage: bash bench/table1.sh [DVICERT] [SRCROOT]   (DVICERT: e.g. build/dvicert)
set -u
exe=${1:-build/dvicert}
src=${2:-$(cd "$(dirname "$0")/.." && pwd)}
pub="$src/bench/table1_published.csv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hs="0.0001 0.0005 0.001 0.005 0.01"
echo "| gamma | theta | h | eps_x(T) dvicert | published | published / dvicert | eps_x(T) dvicert --sharpen |"
echo "|---|---|---|---|---|---|---|"
tail -n +2 "$pub" | while IFS=, read -r g th p1 p2 p3 p4 p5; do
    set -- $p1 $p2 $p3 $p4 $p5
    for h in $hs; do
        pv=$1; shift
        cat > "$tmp/p.json" <<JSON
{"constants": {"gamma": "$g"}, "A": [[0, 1], [-4, 0]], "B": [[0], [-1]],
 "f": ["0", "sin(4*t)"], "Q": [[3, 0]], "M": [[1]], "l": [0], "u": ["inf"], "g": ["0"],
 "x0": [0, "gamma"], "T": 1, "h": "$h", "theta": "$th"}
JSON
        out=$("$exe" enclose --method chen-wang "$tmp/p.json" -o "$tmp/c.json" 2>&1)
        rc=$?
        if [ $rc -ne 0 ]; then
            ours="not certified ($rc)"
            ratio="-"
        else
            ours=$(sed -n 's/.*"eps_x_at_T":"\([^"]*\)".*/\1/p' "$tmp/c.json" | head -1)
            ratio=$(awk -v a="$pv" -v b="$ours" 'BEGIN { printf "%.3f", a / b }')
            # typesetting slip in the paper: repeats the h = 5e-3 entry
            if [ "$g,$th,$h" = "1.5,0.5,0.01" ]; then ratio="$ratio (slip)"; fi
        fi
        if "$exe" enclose --method chen-wang "$tmp/p.json" -o "$tmp/s.json" --sharpen > /dev/null 2>&1; then
            sharp=$(sed -n 's/.*"eps_x_at_T":"\([^"]*\)".*/\1/p' "$tmp/s.json" | head -1)
        else
            sharp="not certified"
        fi
        printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$g" "$th" "$h" "$ours" "$pv" "$ratio" "$sharp"
    done
done
