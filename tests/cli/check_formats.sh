#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# 'dvicert check' on real simulator output: the summary comes first; state
# and output names of the problem head columns and name them in messages;
# whitespace-separated text and headerless matrices (--columns, '_' skips a
# column) are read; --tol accepts values within a tolerance of the tube
# (and times just past T), is printed in the verdict, and is exact at its
# edge; without --tol the test stays exact.
# usage: bash tests/cli/check_formats.sh DVICERT SRCROOT   (run in the build's tests dir)
set -u
exe=${1:?usage: check_formats.sh DVICERT SRCROOT}
src=${2:?usage: check_formats.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gen=./gen_traj

cat > "$tmp/p.json" <<'EOF2'
{"name": "bridge named", "state_names": ["pos", "vel"], "output_names": ["force"],
 "units": {"t": "s", "pos": "m", "vel": "m/s", "force": "N"},
 "A": [[0, 1], [-4, 0]], "B": [[0], [-1]], "f": ["0", "sin(4*t)"], "Q": [[3, 0]], "M": [[1]],
 "g": ["0"], "l": [0], "u": ["inf"], "x0": [0, "0.2"], "T": 1, "N": 1000, "theta": 1}
EOF2
C=$tmp/p.cert.json
expect 0 "certified" "enclose a named problem" -- "$exe" enclose "$tmp/p.json" -o "$C" --method lognorm
grep -q "  pos " "$tmp/out" && ok || bad "the width table does not use the state names"
# the exact solution (closed form at 256 bits, contact never active: y = 0)
"$gen" bridgesw 0 0.2 1 200 3 > "$tmp/ref.csv" 2>/dev/null || bad "gen_traj failed"

expect 0 "wrote" "export of a named problem" -- "$exe" export "$C" -o "$tmp/tube.csv"
head -n 1 "$tmp/tube.csv" | grep -qx "kind,t_lo,t_hi,pos_lo,pos_hi,vel_lo,vel_hi,force_lo,force_hi" && ok ||
    bad "export header without the names: $(head -n 1 "$tmp/tube.csv")"
# bad names and units are refused when the problem is read (exit 2, the field named)
bad_names() { # WHAT SED PATTERN
    sed "$2" "$tmp/p.json" > "$tmp/bad.json"
    expect 2 "$3" "$1" -- "$exe" enclose "$tmp/bad.json" -o "$tmp/bad.cert.json"
    absent "$tmp/bad.cert.json" "$1"
}
bad_names "a name given twice" 's/"vel"\]/"pos"]/' "the name 'pos' is given twice"
bad_names "too few state names" 's/\["pos", "vel"\]/["pos"]/' "field 'state_names' must be an array of 2 names"
bad_names "a name that is not an identifier" 's/"vel"\]/"v el"]/' "field 'state_names' entry 2 must be a name"
bad_names "t as a name" 's/"vel"\]/"t"]/' "'t' is the time"
bad_names "x1 for the second state" 's/"vel"\]/"x1"]/' "'x1' is the default name of entry 1"
bad_names "a unit of an unknown name" 's/"vel": "m\/s"/"v": "m"/' "field 'units' entry 'v' is neither"
bad_names "a unit with a comma" 's/"m\/s"/"m,s"/' "field 'units' entry 'vel' must be a text"
bad_names "units not an object" 's/"units": {[^}]*}/"units": "SI"/' "field 'units' must be an object"
expect 0 "inside: 0 of 200" "x1..xn header" -- "$exe" check "$C" "$tmp/ref.csv"
# summary first: samples, worst margins, verdict, then violations
awk '/^samples:/ {s = NR} /^worst x margin:/ {x = NR} /^inside:|^VIOLATED:/ {v = NR}
     END { exit !(s && x && v && s < x && x < v) }' "$tmp/out" && ok || bad "summary order"
sed '1s/.*/t,pos,vel,force/' "$tmp/ref.csv" > "$tmp/named.csv"
expect 0 "inside: 0 of 200" "names in the header" -- "$exe" check "$C" "$tmp/named.csv"
grep -q "worst x margin: .*(line [0-9]*, \(pos\|vel\))" "$tmp/out" && ok || bad "messages name the state"
sed '1s/.*/t,pos,x2,force/' "$tmp/ref.csv" > "$tmp/mixed.csv"
expect 0 "inside: 0 of 200" "names and xj mixed" -- "$exe" check "$C" "$tmp/mixed.csv"
sed '1s/.*/t,pos,x1,force/' "$tmp/ref.csv" > "$tmp/dup.csv"
expect 2 "names a state already given" "a state by name and as x1" -- "$exe" check "$C" "$tmp/dup.csv"

# whitespace-separated text with a header, and a headerless matrix
tr ',' ' ' < "$tmp/ref.csv" > "$tmp/ws.txt"
expect 0 "inside: 0 of 200" "whitespace-separated with header" -- "$exe" check "$C" "$tmp/ws.txt"
awk -F, 'NR > 1 { printf "%s\t%s  %s 42 %s\n", $1, $2, $3, $4 }' "$tmp/ref.csv" > "$tmp/mat.txt"
expect 0 "inside: 0 of 200" "Siconos-style matrix with --columns" -- \
    "$exe" check "$C" "$tmp/mat.txt" --columns t,x1,vel,_,force
expect 2 "unknown column '0'" "a matrix without --columns" -- "$exe" check "$C" "$tmp/mat.txt"
expect 2 "5 fields, the --columns list has 3" "--columns with too few names" -- \
    "$exe" check "$C" "$tmp/mat.txt" --columns t,x1,x2
expect 2 "unknown column 'energy'" "--columns with an unknown name" -- \
    "$exe" check "$C" "$tmp/mat.txt" --columns t,x1,x2,energy,y1
( echo "# t x1 x2 e y1"; echo "t x1 x2 e y1"; cat "$tmp/mat.txt" ) > "$tmp/mat2.txt"
expect 0 "inside: 0 of 200" "--columns skips a header line" -- \
    "$exe" check "$C" "$tmp/mat2.txt" --columns t,x1,x2,_,y1

# rounded simulator output: a force of -1e-17 and a time one ulp past T
awk -F, 'NR == 5 { $4 = "-1e-17" } { print $1 "," $2 "," $3 "," $4 }' "$tmp/ref.csv" > "$tmp/neg.csv"
expect 1 "VIOLATED: 1 of 200" "exact test without --tol" -- "$exe" check "$C" "$tmp/neg.csv"
grep -q "violation: line 5 .* force = " "$tmp/out" && ok || bad "the violation names the output"
expect 0 "accepted with tolerance 1e-12: 1 value" "--tol 1e-12" -- "$exe" check "$C" "$tmp/neg.csv" --tol 1e-12
expect 0 "accepted with tolerance force=1e-17" "--tol per column at the edge (double 1e-17 > 1e-17)" -- \
    "$exe" check "$C" "$tmp/neg.csv" --tol force=1e-17
expect 1 "VIOLATED: 1 of 200" "--tol just below the distance" -- "$exe" check "$C" "$tmp/neg.csv" --tol y1=9.99e-18
expect 1 "VIOLATED" "--tol on another column does not help" -- "$exe" check "$C" "$tmp/neg.csv" --tol pos=1
( cat "$tmp/ref.csv"; echo "1.0000000000000002,0.3,-0.0041,0" ) > "$tmp/past.csv"
expect 2 "outside \[0, T\]" "a time past T without --tol" -- "$exe" check "$C" "$tmp/past.csv"
# a sample at T's successor: the predictor at T (the midpoint of the last grid row)
mid=$(awk -F, 'END { printf "%.17g,%.17g,%.17g", ($4 + $5) / 2, ($6 + $7) / 2, ($8 + $9) / 2 }' "$tmp/tube.csv")
( cat "$tmp/ref.csv"; echo "1.0000000000000002,$mid" ) > "$tmp/past.csv"
expect 0 "note: 1 time past T" "a time past T clipped by --tol" -- "$exe" check "$C" "$tmp/past.csv" --tol 1e-12
expect 2 "outside \[0, T\]" "--tol t=0 clips nothing" -- "$exe" check "$C" "$tmp/past.csv" --tol t=0,y1=1
expect 2 "not t or a column" "--tol with an unknown name" -- "$exe" check "$C" "$tmp/neg.csv" --tol foo=1
expect 2 "not a number >= 0" "--tol negative" -- "$exe" check "$C" "$tmp/neg.csv" --tol -1
expect 2 "not a number >= 0" "--tol not a number" -- "$exe" check "$C" "$tmp/neg.csv" --tol x1=abc

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
