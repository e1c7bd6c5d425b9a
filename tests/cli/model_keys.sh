#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Hybrid model files refuse unknown and misspelled keys (exit 2, naming the
# file and the key path) as DLVI problem files do: a misspelled key would
# otherwise certify a different model than the one written. Also the
# messages of files that are neither a complete model nor a problem.
# usage: bash tests/cli/model_keys.sh DVICERT SRCROOT
set -u
exe=${1:?usage: model_keys.sh DVICERT SRCROOT}
src=${2:?usage: model_keys.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# mutate NAME SED-EXPR BASE: a copy of a model file with one edit.
mutate() { sed "$2" "$3" > "$tmp/$1.json"; }
BR="$src/certs/bridge-switched/bridge-switched.json"
ST="$src/certs/stickslip/stickslip.json"

# bad NAME PATTERN: enclose refuses the model, naming file and key path,
# and leaves no certificate.
bad_model() {
    expect 2 "$2" "$1: refused" -- "$exe" enclose "$tmp/$1.json" -o "$tmp/$1.cert.json"
    grep -q "$1.json" "$tmp/out" && ok || bad "$1: message does not name the file"
    absent "$tmp/$1.cert.json" "$1"
}

mutate rest 's/"direction": "-"/"direction": "-", "rest": ["x1", "x2"]/' "$BR"
bad_model rest "field 'transitions\[0\]': unknown field 'rest'"
mutate upper-b '0,/"b": \[/s//"B": [/' "$BR"
bad_model upper-b "field 'modes\.[a-z]*': unknown field 'B'"
mutate guard 's/"direction": "-"/"direction": "-", "guard": "x1"/' "$BR"
bad_model guard "unknown field 'guard'"
mutate zzz 's/^{/{ "zzz": 1,/' "$BR"
bad_model zzz "unknown field 'zzz'"
mutate dlvi 's/^{/{ "M": [[1, 0], [0, 1]], "x0": [0, 0],/' "$BR"
bad_model dlvi "a key of a DLVI problem file"
mutate initial 's/"initial": {/"initial": { "t0": 0,/' "$BR"
bad_model initial "field 'initial': unknown field 't0'"
mutate term 's/"f+":/"g": ["0", "0"], "f+":/' "$ST"
bad_model term "field 'decomposed.terms.[a-z0-9]*': unknown field 'g'"
# the same models without the edit still certify; '_' keys are comments
mutate comment 's/^{/{ "_note": "a comment",/' "$BR"
expect 0 "" "a '_' key is a comment" -- "$exe" enclose "$tmp/comment.json" -o "$tmp/comment.cert.json"
expect 0 "" "the certificate of the commented model verifies" -- "$exe" verify "$tmp/comment.cert.json"

# a model without "modes" is not read as a DLVI problem
sed 's/"modes"/"moods"/' "$BR" > "$tmp/nomodes.json"
expect 2 "looks like a hybrid model" "a model without 'modes'" -- \
    "$exe" enclose "$tmp/nomodes.json" -o "$tmp/nomodes.cert.json"
grep -q "unknown field 'states'" "$tmp/out" && bad "a model without 'modes' read as a DLVI problem" || ok
absent "$tmp/nomodes.cert.json" "model without modes"

# dimension errors: the file name first, then the whole key path
sed 's/"A": \[\[0, 1\], \[-4, 0\]\]/"A": [[0, 1, 0], [-4, 0, 0], [0, 0, 1]]/' "$BR" > "$tmp/dim.json"
expect 2 "error: dim.json: field 'modes.stretched.A' is 3x3, expected 2x2" "dimension error: file first" -- \
    "$exe" enclose "$tmp/dim.json" -o "$tmp/dim.cert.json"
absent "$tmp/dim.cert.json" "dimension error"

# a start time that is not exact says why and how to write it; an end time
# is enclosed (the run covers every T in the enclosure, as for a DLVI)
sed 's/"T": *[0-9.]*/"T": 4, "t0": "0.1"/' "$BR" > "$tmp/T.json"
expect 2 "field 't0': \"0.1\" is not exactly representable at 53 bits (the initial state is given at one exact time)" "inexact t0" -- \
    "$exe" enclose "$tmp/T.json" -o "$tmp/T.cert.json"
grep -q "write it as a JSON number, 0.1 without quotes" "$tmp/out" && ok || bad "inexact t0: no way out named"
sed 's/"T": *[0-9.]*/"T": "3.1416"/' "$BR" > "$tmp/T1.json"
expect 0 "" "T as a decimal string" -- "$exe" enclose "$tmp/T1.json" -o "$tmp/T1.cert.json"
sed 's/"T": *[0-9.]*/"T": 3.1416/' "$BR" > "$tmp/T2.json"
expect 0 "" "T as a JSON number" -- "$exe" enclose "$tmp/T2.json" -o "$tmp/T2.cert.json"

report
