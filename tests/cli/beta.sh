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
# a generous budget: under the sanitizers on a loaded machine 60 s is not enough
run pd20 0 "$src/certs/beta/pd20.json" --max-seconds 1200
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

# Budgets (issue: every long computation has a finite time budget).
# A 26 x 26 matrix whose P-property is proven structurally (an M-matrix):
# --method enum would visit 2^26 vertices; --max-seconds stops it cleanly.
awk 'BEGIN { m = 26; printf "{\"M\": ["; for (i = 0; i < m; i++) { printf "%s[", i ? ", " : "";
    for (j = 0; j < m; j++) printf "%s%d", j ? ", " : "", (i == j) ? 3 : (i - j == 1 || j - i == 1) ? -1 : 0;
    printf "]" } print "]}" }' >"$tmp/m26.json"
for v in inf -inf nan 0 -1 1e999; do
    run "secs$v" 2 "$tmp/m26.json" --max-seconds "$v"
    expect "secs$v" err 'max-seconds.*finite number of seconds > 0'
done
run secsword 2 "$tmp/m26.json" --max-seconds soon
start=$(date +%s.%N)
run enumstop 1 "$tmp/m26.json" --method enum --max-seconds 0.3
end=$(date +%s.%N)
if awk -v a="$start" -v b="$end" 'BEGIN { exit !(b - a < 10) }'; then ok; else bad "enum budget: ran $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }') s"; fi
expect enumstop err 'vertex enumeration stopped by the time budget \(0\.3 s\) after [0-9]+ of 67108864 vertices'
expect enumstop out '^beta_M stopped: budget reached'
expect enumstop out '^beta_M upper: inf'
# the partial lower bound is proven: beta_M = ||M^{-1}|| (closed form, method auto)
run m26auto 0 "$tmp/m26.json"
expect m26auto out '^beta_M method: M-matrix'
if le "$(bound enumstop 'beta_M lower')" "$(bound m26auto 'beta_M upper')"; then ok; else bad "enum budget: lower bound above beta_M"; fi
# Branch-and-bound stopped by its budget. I + K with K skew-symmetric is
# positive definite (a P-matrix) but not an H-matrix: no structural bound.
awk 'BEGIN { m = 26; printf "{\"M\": ["; for (i = 0; i < m; i++) { printf "%s[", i ? ", " : "";
    for (j = 0; j < m; j++) { if (i == j) v = 1; else if (i < j) v = ((i * 7 + j * 13) % 11 - 5) / 5;
        else v = -((j * 7 + i * 13) % 11 - 5) / 5; printf "%s%s", j ? ", " : "", v }
    printf "]" } print "]}" }' >"$tmp/sk26.json"
# Its symmetric part is I, so the positive definite node bound
# (docs/beta.md section 6) is finite: the stopped search still proves
# beta_M <= sqrt(26) (the bound at the root), and exits 0.
run bnbstop 0 "$tmp/sk26.json" --method bnb --gap 0 --max-seconds 0.2
expect bnbstop out '^beta_M stopped: budget reached'
expect bnbstop out '^beta_M lower: [1-9]'
if le "$(bound bnbstop 'beta_M upper')" 5.0990195135928 && le "$(bound bnbstop 'beta_M lower')" "$(bound bnbstop 'beta_M upper')"; then ok; else bad "bnbstop: upper bound above sqrt(26)"; fi
# a P-matrix that is neither positive definite nor an H-matrix (8 blocks
# [[1, -4], [1, 1]]: sym part indefinite, comparison matrix not an M-matrix):
# no node bound is finite, the node budget ends the search without an upper bound
awk 'BEGIN { m = 16; printf "{\"M\": ["; for (i = 0; i < m; i++) { printf "%s[", (i ? "," : "");
    for (j = 0; j < m; j++) { v = 0; if (i == j) v = 1; else if (i % 2 == 0 && j == i + 1) v = -4;
    else if (i % 2 == 1 && j == i - 1) v = 1; printf "%s%d", (j ? "," : ""), v }
    printf "]" } print "]}" }' >"$tmp/blk16.json"
run bnbexh 1 "$tmp/blk16.json" --method bnb --max-nodes 100
expect bnbexh err 'branch-and-bound budget exhausted \(60 s, 100 nodes\)'
expect bnbexh out '^beta_M upper: inf'
# progress on a terminal only: none when stderr is a file ...
if grep -q 'vertex enumeration:' "$tmp/enumstop.err"; then bad "progress written to a file"; else ok; fi
# ... and shown on a (pseudo-)terminal
if command -v script >/dev/null 2>&1; then
    script -qec "'$exe' beta '$tmp/m26.json' --method enum --max-seconds 0.6" /dev/null >"$tmp/tty.out" 2>&1
    expect tty out 'vertex enumeration: [0-9]+ of 67108864'
fi

# Threads of the enumeration past m = 20: the same bounds for every count
# (docs/beta.md section 7, "Threads"); a bad count exits 2 naming the option.
awk 'BEGIN { m = 21; printf "{\"M\": ["; for (i = 0; i < m; i++) { printf "%s[", i ? ", " : "";
    for (j = 0; j < m; j++) { if (i == j) v = 1; else if (i < j) v = ((i * 5 + j * 3) % 9 - 4) / 8;
        else v = -((j * 5 + i * 3) % 9 - 4) / 8; printf "%s%s", j ? ", " : "", v }
    printf "]" } print "]}" }' >"$tmp/sk21.json"
for t in 1 2 3; do
    run "thr$t" 0 "$tmp/sk21.json" --method enum --threads "$t"
    grep -E '^beta_M (lower|upper|nodes):' "$tmp/thr$t.out" >"$tmp/thr$t.b"
done
if [ -s "$tmp/thr1.b" ] && cmp -s "$tmp/thr1.b" "$tmp/thr2.b" && cmp -s "$tmp/thr1.b" "$tmp/thr3.b"; then ok; else
    bad "threads: bounds differ between 1, 2 and 3 threads"; cat "$tmp"/thr?.b >&2; fi
expect thr1 out '^beta_M nodes: 2097152$'
for v in -1 65 two 1.5; do
    run "thrbad$v" 2 "$tmp/sk21.json" --threads "$v"
    expect "thrbad$v" err '--threads must be an integer in \[0, 64\]'
done

# Help.
"$exe" beta --help >"$tmp/help.out" 2>&1 && ok || bad "help exit"
expect help out 'usage: dvicert beta'
expect help out 'time budget of the enumeration'
expect help out 'above m = 4000 the matrix is refused'
expect help out '--threads N +threads of the enumeration past m = 20'

report
