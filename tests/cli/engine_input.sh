#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# enclose on inputs at the edges of the engine: the "use N >= ..." hint of a
# failed step condition stays in range (or says that no admissible N exists),
# values beyond the binary64 range are refused at input naming the field, and
# a run whose bounds overflow ends "not certified" (exit 1) without output.
# usage: bash tests/cli/engine_input.sh DVICERT SRCROOT
# Every enclose here names the Algorithm 4.2 route (--method chen-wang), whose
# step condition, bounds and messages these tests are about.
set -u
exe=${1:?usage: engine_input.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# x' = y, y = SOL(0, inf, x, 1): h_max = 1/(beta_M ||B|| ||Q||) = 1 exactly.
# prob NAME T N [X0] writes $tmp/NAME.json.
prob() {
    printf '{"A":[[0]],"B":[[1]],"Q":[[1]],"M":[[1]],"l":[0],"u":["inf"],"x0":[%s],"T":"%s","N":%s}\n' \
        "${4:-0}" "$2" "$3" > "$tmp/$1.json"
}

# run_enclose NAME RC PATTERN DESCRIPTION: enclose $tmp/NAME.json; no output on failure.
run_enclose() {
    expect "$2" "$3" "$4" -- "$exe" enclose --method chen-wang "$tmp/$1.json" -o "$tmp/$1.cert.json"
    if [ "$2" -ne 0 ]; then absent "$tmp/$1.cert.json" "$4"; fi
}

# --- the N suggestion ------------------------------------------------------
prob t300 1e300 1
run_enclose t300 1 "no admissible N" "T = 1e300: no admissible N"
if grep -q -- "N >= -" "$tmp/out"; then bad "T = 1e300: negative N suggested"; else ok; fi
prob t17 1e17 1
run_enclose t17 1 "no admissible N.*N <= 100000000" "T = 1e17: suggestion above the cap refused"
prob t10 10 1
run_enclose t10 1 "use N >= 11)" "T = 10: smallest N with T/N < 1 is 11"
prob t10ok 10 11
run_enclose t10ok 0 "" "T = 10, N = 11: the suggested N certifies"

# --- values beyond binary64 are refused at input (exit 2, field named) -----
prob x0big 1 10 '"1e309"'
run_enclose x0big 2 "field 'x0' entry 1: must be finite" "x0 = 1e309"
prob x0neg 1 10 '"-1e400"'
run_enclose x0neg 2 "field 'x0' entry 1" "x0 = -1e400"
prob Tbig 1e309 10
run_enclose Tbig 2 "field 'T'" "T = 1e309"
sed 's/"A":\[\[0\]\]/"A":[["2e308"]]/' "$tmp/t10ok.json" > "$tmp/Abig.json"
run_enclose Abig 2 "field 'A' row 1 column 1" "A = 2e308"
sed 's/"u":\["inf"\]/"u":["1e309"]/' "$tmp/t10ok.json" > "$tmp/ubig.json"
run_enclose ubig 2 "field 'u' entry 1" "u = 1e309 (not \"inf\")"
sed 's/"N":11/"N":11,"f":["1e309"]/' "$tmp/t10ok.json" > "$tmp/fbig.json"
run_enclose fbig 2 "field 'f' entry 1" "constant f = 1e309"
sed 's/"N":11/"N":11,"f":[{"csv_text":"t,v\\n0,1\\n5,1e309\\n20,0\\n"}]/' "$tmp/t10ok.json" > "$tmp/tabbig.json"
run_enclose tabbig 2 "field 'f' entry 1: sample 2" "table value 1e309"
sed 's/"N":11/"N":11,"f":[{"csv_text":"t,v\\n0,1\\n5,1e300\\n20,0\\n"}]/' "$tmp/t10ok.json" > "$tmp/tabok.json"
expect 1 "not certified" "table value 1e300 is read (then not certified)" -- "$exe" enclose --method chen-wang "$tmp/tabok.json" -o "$tmp/tabok.cert.json"

# --- bounds that overflow binary64: not certified, step named, no output ---
# x' = 1000 y (L = 1000, hL = 1/2): eps grows by a factor >= 2 per step from 1e-9.
cat > "$tmp/over.json" <<'JSON'
{"A":[[0]],"B":[[1000]],"Q":[[1]],"M":[[1]],"l":[0],"u":["inf"],
 "x0":[["1", "1.000000001"]],"T":"1","N":2000}
JSON
run_enclose over 1 "step [0-9]* (t in \[.*not finite" "overflowing bound"

# --- g undefined at a grid time: only the run sees it; the message names the
# file and the field once (not the engine's "g(t)") ---
sed 's/"N":11/"N":11,"g":["log(3*t)"]/' "$tmp/t10ok.json" > "$tmp/glog.json"
run_enclose glog 2 "glog.json: .*t = 0: field 'g' entry 1: in 'log(3\*t)'" "g undefined at t = 0"

report
