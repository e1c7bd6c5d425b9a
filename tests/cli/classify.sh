#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of `dvicert classify`.
# usage: classify.sh PATH/TO/dvicert SOURCE_ROOT
set -u
exe=${1:?usage: classify.sh DVICERT_EXE SOURCE_ROOT}
srcroot=${2:-.}
[ -d "$srcroot" ] || { echo "no source root $srcroot"; exit 1; }
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# run NAME EXPECTED_RC JSON_TEXT [ARGS...]: writes $tmp/NAME.json, runs, keeps
# stdout in $tmp/NAME.out and stderr in $tmp/NAME.err.
run() {
    local name=$1 want=$2 text=$3
    shift 3
    printf '%s' "$text" >"$tmp/$name.json"
    "$exe" classify "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else bad "$name: exit $rc, expected $want"; cat "$tmp/$name.err"; fi
}

# expect NAME REGEX [FILE=out]: grep in the output.
expect() {
    local f=$tmp/$1.${3:-out}
    if grep -Eq -- "$2" "$f"; then ok; else bad "$1: no line matching '$2' in $(basename "$f")"; sed 's/^/    /' "$f"; fi
}
reject() {
    if grep -Eq -- "$2" "$tmp/$1.out"; then bad "$1: unexpected '$2'"; else ok; fi
}

# An M-matrix: everything proven, P by the M-matrix test.
run lap 0 '{"M": [[2, -1, 0], [-1, 2, -1], [0, -1, 2]]}'
for c in Z M H SYM SPD PD P; do expect lap "^$c +proven$"; done
expect lap "P proven by: M-matrix"

# Decimal strings are exact; 0.1 is not a binary number.
run dec 0 '{"M": [["0.3", "-0.1"], ["-0.1", "0.3"]]}'
expect dec "^SPD +proven$"
expect dec "^M +proven$"

# Precision option.
run prec 0 '{"M": [[2, -1], [-1, 2]]}' --prec 113
expect prec "precision 113 bits"
expect prec "^P +proven$"

# P only by enumeration.
run ponly 0 '{"M": [[1, 3], [-1, 1]]}'
expect ponly "^P +proven$"
expect ponly "P proven by: enumeration"
expect ponly "^Z +disproven$"
expect ponly "^H +not proven$"

# Leading minors positive, but the minor of rows {1,3} is -3.
run lead 0 '{"M": [[1, 0, 2], [0, 1, 2], [2, -2, 1]]}'
expect lead "^P +disproven$"
expect lead "rows \{1,3\} is <= 0"
reject lead "^P +proven"

# Classic non-P examples.
run swap 0 '{"M": [[0, 1], [1, 0]]}'
expect swap "^P +disproven$"
run indef 0 '{"M": [[1, 2], [2, 1]]}'
expect indef "^P +disproven$"
expect indef "^SPD +disproven$"
expect indef "^SYM +proven$"

# Interval entries: an interval straddling a singular member is not proven
# either way.
run straddle 0 '{"M": [[1, 1], [["0.5", "1.5"], 1]]}'
expect straddle "^P +not proven$"
expect straddle "could not"
expect straddle "interval matrix"

# Beyond the enumeration limit (m = 24): a block-triangular P-matrix that no
# sufficient test covers is honestly "not proven".
block_p_json() {
    local m=$1 i j
    printf '{"M": ['
    for ((i = 0; i < m; i++)); do
        [ "$i" -gt 0 ] && printf ', '
        printf '['
        for ((j = 0; j < m; j++)); do
            [ "$j" -gt 0 ] && printf ', '
            if [ $((i / 2)) -lt $((j / 2)) ]; then printf '%d' $(((i * 7 + j * 3) % 9 - 4))
            elif [ $((i / 2)) -gt $((j / 2)) ]; then printf '0'
            elif [ "$i" -eq "$j" ]; then printf '1'
            elif [ "$i" -lt "$j" ]; then printf '3'
            else printf -- '-1'; fi
        done
        printf ']'
    done
    printf ']}'
}
run big 0 "$(block_p_json 24)"
expect big "^P +not proven$"
expect big "too large for enumeration"
run b16 0 "$(block_p_json 16)"
expect b16 "P proven by: enumeration"

# Bad input: exit 2 with a message naming the file.
run malformed 2 '{"M": [[1, 2], [3, 4]'
expect malformed "malformed\.json" err
run nonsquare 2 '{"M": [[1, 2, 3], [4, 5, 6]]}'
expect nonsquare "square" err
run missing 2 '{"A": [[1]]}'
expect missing "'M'|\"M\"" err
run ragged 2 '{"M": [[1, 2], [3]]}'
expect ragged "row 2" err
run notnum 2 '{"M": [[1, "abc"], [0, 1]]}'
expect notnum "row 1 column 2" err
run toplevel 2 '[[1]]'
expect toplevel "object" err
"$exe" classify "$tmp/does-not-exist.json" >/dev/null 2>"$tmp/nofile.err"
if [ $? -eq 2 ]; then ok; else bad "missing file: exit code"; fi
"$exe" classify >/dev/null 2>&1
if [ $? -eq 2 ]; then ok; else bad "no argument: exit code"; fi
"$exe" classify "$tmp/lap.json" --bogus >/dev/null 2>&1
if [ $? -eq 2 ]; then ok; else bad "unknown option: exit code"; fi

# Help.
"$exe" classify --help >"$tmp/help.out" 2>&1
if [ $? -eq 0 ]; then ok; else bad "--help exit code"; fi
expect help "usage: dvicert classify"
"$exe" help classify >"$tmp/help2.out" 2>&1
expect help2 "principal minors"

report
