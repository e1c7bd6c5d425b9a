#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The shared option parser of the subcommands (repeated, unknown, misplaced
# options refused; values; "--"; --help from the tables) and the messages:
# each place said once (file, field, reason), no module prefixes, and a
# directory given as a file named as such.
# usage: bash tests/cli/options.sh DVICERT SRCROOT
set -u
exe=${1:?usage: options.sh DVICERT SRCROOT}
src=${2:?usage: options.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# expect RC PATTERN DESCRIPTION -- command...: exit status RC and PATTERN
# (grep -E; empty: any) in the combined output.
expect() {
    local rc=$1 pat=$2 what=$3
    shift 4
    "$@" > "$tmp/out" 2>&1
    local got=$?
    if [ "$got" -ne "$rc" ]; then
        bad "$what: exit $got, expected $rc"
        sed 's/^/    /' "$tmp/out" | head -5 >&2
        return 1
    fi
    if [ -n "$pat" ] && ! grep -Eq -- "$pat" "$tmp/out"; then
        bad "$what: output lacks '$pat'"
        sed 's/^/    /' "$tmp/out" | head -5 >&2
        return 1
    fi
    ok
}
# lacks PATTERN DESCRIPTION: the last output does not match PATTERN
lacks() { if grep -Eq -- "$1" "$tmp/out"; then bad "$2: output has '$1': $(head -2 "$tmp/out")"; else ok; fi; }
# count PATTERN N DESCRIPTION: PATTERN occurs N times in the last output
count() {
    local n
    n=$(grep -o -- "$1" "$tmp/out" | wc -l)
    if [ "$n" -eq "$2" ]; then ok; else bad "$3: '$1' occurs $n times, expected $2: $(head -2 "$tmp/out")"; fi
}

cert="$src/certs/remark43/x0_1.cert.json"
lcp="$src/certs/lvi/lcp2.json"
cat > "$tmp/p.json" <<'EOF'
{"A": [[-1]], "B": [[1]], "Q": [[1]], "M": [[1]], "l": [0], "u": ["inf"], "x0": [1], "T": "1", "N": 10}
EOF
printf 't,x1\n0,1\n0.5,0.6\n' > "$tmp/traj.csv"

# ---- 1. repeated options are refused, whatever their spelling ----------------
expect 2 "given twice" "check --digits twice" -- "$exe" check "$cert" "$tmp/traj.csv" --digits 3 --digits=4
expect 2 "given twice" "lvi --prec twice" -- "$exe" lvi "$lcp" --prec 64 --prec 64
expect 2 "given twice" "enclose --sharpen twice" -- "$exe" enclose "$tmp/p.json" -o "$tmp/a.json" --sharpen --sharpen
expect 2 "given twice" "enclose --prec-max twice" -- "$exe" enclose "$tmp/p.json" -o "$tmp/a.json" --prec-max 64 --prec-max=128
expect 2 "given twice" "beta --method twice" -- "$exe" beta "$lcp" --method enum --method bnb
expect 2 "given twice" "plot --title twice" -- "$exe" plot "$cert" -o "$tmp/a.png" --title a --title b
expect 2 "given twice" "check --no-verify twice" -- "$exe" check "$cert" "$tmp/traj.csv" --no-verify --no-verify
[ ! -e "$tmp/a.json" ] && [ ! -e "$tmp/a.png" ] && ok || bad "a refused command wrote its output"

# ---- 2. unknown, abbreviated, misplaced options; values -----------------------
expect 2 "unknown option '--sharp'" "abbreviations are not options" -- "$exe" enclose "$tmp/p.json" -o "$tmp/a.json" --sharp
expect 2 "unknown option '-o'" "-o where there is no output" -- "$exe" verify "$cert" -o "$tmp/a.json"
expect 2 "option --digits has no effect here" "verify --digits" -- "$exe" verify "$cert" --digits=5
expect 2 "option --prec has no effect here" "export --prec" -- "$exe" export "$cert" -o "$tmp/a.csv" --prec 64
expect 2 "takes no value" "a flag with a value" -- "$exe" export "$cert" -o "$tmp/a.csv" --grid-only=yes
expect 2 "needs a file name" "-o without a value" -- "$exe" export "$cert" -o
expect 2 "no output file" "export without -o" -- "$exe" export "$cert"
expect 2 "too many arguments" "two certificates" -- "$exe" verify "$cert" "$cert"
expect 2 "missing argument.*usage: dvicert check" "check with one file" -- "$exe" check "$cert"
[ ! -e "$tmp/a.json" ] && [ ! -e "$tmp/a.csv" ] && ok || bad "a refused command wrote its output"
# values: "--name=VALUE", "--name VALUE", "-oFILE"; a value may start with '-'
expect 0 "precision 106 bits" "--prec=106" -- "$exe" lvi "$lcp" --prec=106
expect 0 "wrote" "-oFILE" -- "$exe" export "$cert" -o"$tmp/attached.csv" --grid-only
[ -s "$tmp/attached.csv" ] && ok || bad "-oFILE wrote nothing"
# "--" ends the options: a file whose name starts with '-'
cp "$cert" "$tmp/-c.json"
expect 0 "accepted" "verify -- -c.json" -- env -C "$tmp" "$exe" verify -- -c.json
expect 2 "unknown option '-c.json'" "without --, -c.json is an option" -- env -C "$tmp" "$exe" verify -c.json

# ---- 3. --help: every option of the table, wherever --help stands -------------
for cmd in lvi beta classify enclose verify check export plot; do
    expect 0 "usage: dvicert $cmd" "$cmd --help" -- "$exe" $cmd --help
    grep -q "^options:" "$tmp/out" && grep -q -- "-h, --help" "$tmp/out" && ok || bad "$cmd --help: no options block"
    grep -q "Each option may be given once" "$tmp/out" && ok || bad "$cmd --help does not say options are given once"
done
expect 0 "--prec-max BITS" "enclose --help lists --prec-max" -- "$exe" enclose --help
grep -q -- "-o, --output FILE" "$tmp/out" && grep -q -- "--sharpen" "$tmp/out" && ok || bad "enclose --help lacks -o or --sharpen"
grep -q "symbolic link is" "$tmp/out" && grep -q "/dev/null" "$tmp/out" && ok || bad "enclose --help does not state the output rules"
expect 0 "--max-seconds S" "beta --help lists its options" -- "$exe" beta "$lcp" --bogus --help
expect 0 "--no-verify" "check --help lists --no-verify" -- "$exe" check --help

# ---- 4. messages: each place once, no module prefixes ------------------------
cat > "$tmp/np.json" <<'EOF'
{"A": [[-1]], "B": [[1, 0]], "Q": [[1], [1]], "M": [[0, 1], [1, 0]], "l": [0, 0], "u": ["inf", "inf"], "x0": [0], "T": "1", "N": 10}
EOF
expect 1 "not certified: .*np.json: M is not proven to be a P-matrix" "enclose, M not a P-matrix: file, field, reason" -- "$exe" enclose "$tmp/np.json" -o "$tmp/np.cert.json"
lacks "(dlvi|lvi): " "no module prefixes"
count "np.json" 1 "the file is named once"
# a bad embedded table: its place is said once
cat > "$tmp/tab.json" <<'EOF'
{"A": [[-1]], "B": [[1]], "Q": [[1]], "M": [[1]], "l": [0], "u": ["inf"], "x0": [0], "T": "1", "N": 10, "f": [{"csv_text": "0,1\nx,2\n"}]}
EOF
expect 2 "tab.json: field 'f' entry 1.*time 'x' is not a number" "bad embedded table" -- "$exe" enclose "$tmp/tab.json" -o "$tmp/tab.cert.json"
count "field 'f' entry 1" 1 "the table's place is said once"
count "tab.json" 1 "the problem file is named once"
# beta: the matrix file is named, no module prefix
echo '{"M": [[0, 1], [1, 0]]}' > "$tmp/m.json"
expect 1 "m.json: .*P-matrix" "beta, M not a P-matrix" -- "$exe" beta "$tmp/m.json"
lacks "beta: (beta|mclass|lvi): " "beta: no module prefixes"

# theta as a JSON real at a bound: the message says why it is refused
sed 's/"N": 10}/"N": 10, "theta": 1.0}/' "$tmp/p.json" > "$tmp/th.json"
expect 2 "field 'theta' must lie in \[0, 1\] \(a JSON real .*write 0 or 1" "theta 1.0 explained" -- "$exe" enclose "$tmp/th.json" -o "$tmp/th.cert.json"
sed 's/"N": 10}/"N": 10, "theta": 2}/' "$tmp/p.json" > "$tmp/th2.json"
expect 2 "field 'theta' must lie in \[0, 1\]" "theta 2 refused" -- "$exe" enclose "$tmp/th2.json" -o "$tmp/th.cert.json"
lacks "JSON real" "theta 2 is an integer: no word about reals"
sed 's/"N": 10}/"N": 10, "theta": "1"}/' "$tmp/p.json" > "$tmp/th3.json"
expect 0 "certified" "theta \"1\" accepted" -- "$exe" enclose "$tmp/th3.json" -o "$tmp/th.cert.json"

# ---- 5. a directory given as a file -------------------------------------------
mkdir "$tmp/d.json" "$tmp/d.csv"
expect 2 "d.json: is a directory" "enclose DIR" -- "$exe" enclose "$tmp/d.json" -o "$tmp/x.json"
expect 2 "d.json: is a directory" "verify DIR" -- "$exe" verify "$tmp/d.json"
expect 2 "d.json: is a directory" "lvi DIR" -- "$exe" lvi "$tmp/d.json"
expect 2 "d.json: is a directory" "beta DIR" -- "$exe" beta "$tmp/d.json"
expect 2 "d.json: is a directory" "classify DIR" -- "$exe" classify "$tmp/d.json"
expect 2 "d.json: is a directory" "export DIR" -- "$exe" export "$tmp/d.json" -o "$tmp/x.csv"
expect 2 "d.csv: is a directory" "check CERT DIR" -- "$exe" check "$cert" "$tmp/d.csv"
lacks "empty file|malformed JSON" "a directory is not an empty or malformed file"
sed 's/"N": 10}/"N": 10, "f": [{"csv": "d.csv"}]}/' "$tmp/p.json" > "$tmp/tabdir.json"
expect 2 "d.csv: is a directory" "a table that is a directory" -- "$exe" enclose "$tmp/tabdir.json" -o "$tmp/x.json"
lacks "read error" "a directory table is not a read error"
[ ! -e "$tmp/x.json" ] && [ ! -e "$tmp/x.csv" ] && ok || bad "an output was written"

report
