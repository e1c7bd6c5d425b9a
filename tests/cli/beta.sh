#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# End-to-end tests of `dvicert beta`: $1 = dvicert executable, $2 = source root.
set -u
exe=$1
src=$2
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# run NAME EXPECTED_RC ARGS...: output in $tmp/NAME.out / .err
run() {
    local name=$1 want=$2
    shift 2
    "$exe" beta "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else bad "$name: exit $rc, expected $want"; cat "$tmp/$name.err" >&2; fi
}
expect() { # expect NAME FILE(out|err) REGEX
    if grep -Eq -- "$3" "$tmp/$1.$2"; then ok; else bad "$1: $2 does not match '$3'"; cat "$tmp/$1.$2" >&2; fi
}
# bound NAME KEY: value printed on "KEY: value"
bound() { sed -n "s/^$2: //p" "$tmp/$1.out"; }
# le A B: A <= B numerically (awk reads the 17-digit decimals exactly enough here)
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

# Remark 4.3 of the paper: beta_M = 1 + |mu|, mu = 0.5 (file in certs/).
run r43 0 "$src/certs/beta/remark43.json" --alpha
expect r43 out '^P-matrix: proven'
expect r43 out '^beta_M lower: 1\.4999999999|^beta_M lower: 1\.5000000000'
expect r43 out '^beta_M upper: 1\.5000000000|^beta_M upper: 1\.5000000001'
expect r43 out '^alpha_M upper: '
if le "$(bound r43 'beta_M lower')" 1.5 && le 1.5 "$(bound r43 'beta_M upper')"; then ok; else bad "r43: 1.5 not enclosed"; fi

# mu = -3 given as a decimal string: beta_M = 4, every method must enclose it.
printf '{"M": [["1", "0"], ["-3", "1"]]}\n' >"$tmp/m3.json"
for meth in auto enum bnb struct; do
    run "m3$meth" 0 "$tmp/m3.json" --method "$meth"
    if le "$(bound "m3$meth" 'beta_M lower')" 4 && le 4 "$(bound "m3$meth" 'beta_M upper')"; then ok; else bad "m3 $meth: 4 not enclosed"; fi
done
expect m3enum out '^beta_M method: vertex enumeration'

# A 3x3 P-matrix (minors 1,1,1, 4,1,4, 7) that is neither an H-matrix nor positive
# definite: struct gives no bound (exit 1); enum and bnb agree.
printf '{"M": [[1, -3, 0], [1, 1, -3], [0, 1, 1]]}\n' >"$tmp/tri.json"
run trienum 0 "$tmp/tri.json" --method enum --alpha
run tribnb 0 "$tmp/tri.json" --method bnb --alpha
if le "$(bound trienum 'beta_M lower')" "$(bound tribnb 'beta_M upper')" &&
   le "$(bound tribnb 'beta_M lower')" "$(bound trienum 'beta_M upper')"; then ok; else bad "tri: enum and bnb disagree"; fi
run tristruct 1 "$tmp/tri.json" --method struct
expect tristruct err 'not certified'

# 20x20 example: the full enumeration runs and the bounds are tight.
run pd20 0 "$src/certs/beta/pd20.json"
expect pd20 out '^beta_M method: vertex enumeration'
expect pd20 out '^beta_M nodes: 1048576'

# Not a P-matrix: refused with exit 1 and the reason.
printf '{"M": [[1, 2], [2, 1]]}\n' >"$tmp/np.json"
run np 1 "$tmp/np.json"
expect np err 'not a P-matrix'

# Bad input: exit 2 with a message naming the file / field.
printf '{"M": [[1, 2], [2, 1]' >"$tmp/malformed.json"
run malformed 2 "$tmp/malformed.json"
expect malformed err 'malformed\.json'
printf '{"M": [[1, 2, 3], [2, 1, 0]]}\n' >"$tmp/rect.json"
run rect 2 "$tmp/rect.json"
expect rect err 'square'
printf '{"A": [[1]]}\n' >"$tmp/noM.json"
run noM 2 "$tmp/noM.json"
expect noM err '"?M"?'
printf '{"M": [["1", "x"], [0, 1]]}\n' >"$tmp/garbage.json"
run garbage 2 "$tmp/garbage.json"
run nofile 2 "$tmp/does-not-exist.json"
run badmethod 2 "$tmp/np.json" --method fast
expect badmethod err 'method'
run badgap 2 "$tmp/np.json" --gap -1
run noarg 2

# Help.
"$exe" beta --help >"$tmp/help.out" 2>&1 && ok || bad "help exit"
expect help out 'usage: dvicert beta'

report
