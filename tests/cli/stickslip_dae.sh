#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# GESDA's stick-slip as a switched DAE through the switches of its Table 2
# (certs/stickslip/stickslip-dae-table2.json) against the decomposed ODE
# form with Filippov sliding (certs/stickslip/stickslip.json): every release
# and re-stick of the two forms intersect, both contain the closed form at
# 50 digits (tests/stickslip_events_ref.py, Python's decimal module), every
# switch-time width <= 1e-10; the states and GESDA's alpha of both forms
# contain the closed form at 1,000 random times of [0, 10] and a copy moved
# by 1e-9 is outside; an event moved in the certificate is rejected; and
# without the armed watch (the re-stick watched from the release on) the
# grazing departure is refused with the functions named.
# usage: bash tests/cli/stickslip_dae.sh DVICERT SRCROOT
set -u
exe=${1:?usage: stickslip_dae.sh DVICERT SRCROOT}
src=${2:?usage: stickslip_dae.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
S=$src/certs/stickslip/stickslip-dae-table2.json
O=$src/certs/stickslip/stickslip.json
R=$src/tests/stickslip_events_ref.py

expect 0 "9 crossings" "stick-slip DAE (Table 2): certified" -- "$exe" enclose "$S" -o "$tmp/s.cert.json"
expect 0 "accepted" "stick-slip DAE (Table 2): verified" -- "$exe" verify "$tmp/s.cert.json"
cmp -s "$tmp/s.cert.json" "$src/certs/stickslip/stickslip-dae-table2.cert.json" && ok ||
    bad "stick-slip DAE: the certificate differs from certs/stickslip/stickslip-dae-table2.cert.json"
expect 0 "6 crossings" "stick-slip ODE form: certified" -- "$exe" enclose "$O" -o "$tmp/o.cert.json"
"$exe" events "$tmp/s.cert.json" --csv > "$tmp/s.ev" 2>/dev/null
awk -F, 'NR > 1 { n++; if (!($8 + 0 <= 1e-10)) w++ } END { exit !(n == 9 && w == 0) }' "$tmp/s.ev" &&
    ok || bad "stick-slip DAE: 9 switches, each switch-time width <= 1e-10"
if command -v python3 > /dev/null 2>&1; then
    expect 0 "same: 6 of 6" "stick-slip: the DAE's releases and re-sticks meet the ODE form's events" -- \
        python3 "$R" --against "$tmp/o.cert.json" "$tmp/s.cert.json"
    expect 0 "inside: 9 of 9" "stick-slip DAE: the closed form inside every switch time" -- python3 "$R" "$tmp/s.cert.json"
    expect 0 "inside: 6 of 6" "stick-slip ODE form: the closed form inside every switch time" -- python3 "$R" "$tmp/o.cert.json"
    expect 1 "inside: 0 of 9" "stick-slip DAE: the closed form shifted by 1e-12 outside" -- \
        python3 "$R" "$tmp/s.cert.json" 0.001 1e-12
    inside_outside "$tmp/s.cert.json" "$tmp/ref.csv" "stick-slip DAE: closed form (states and alpha)" \
        python3 "$R" --states 10 1000 11
    cut -d, -f1-5 "$tmp/ref.csv" > "$tmp/ref5.csv"
    expect 0 "inside: 0 of 1000" "stick-slip ODE form: closed form inside" -- \
        "$exe" check "$tmp/o.cert.json" "$tmp/ref5.csv"
else
    echo "skipped: the closed-form references (python3 not found)"
fi
# an event moved (the first re-stick's enclosure narrowed): rejected
sed '0,/"t_lo":"2.88700390598077749e+00"/s//"t_lo":"2.88700390598077900e+00"/' "$tmp/s.cert.json" > "$tmp/moved.cert.json"
cmp -s "$tmp/s.cert.json" "$tmp/moved.cert.json" && bad "tamper: the re-stick's time not found"
expect 1 "" "stick-slip DAE: an event time narrowed: rejected" -- "$exe" verify "$tmp/moved.cert.json"
# the re-stick watched from the release on (leaving -> slip at once): at the
# release v1 - v2 = 0 with a zero derivative, not decided from enclosures
sed 's/"from": "stick", "to": "leaving"/"from": "stick", "to": "slip"/' "$S" > "$tmp/graze.json"
expect 1 "switching functions 'release' and 'restick' may vanish together: mode 'slip', entered on 'release', may leave on 'restick' at once" \
    "stick-slip DAE without the armed watch: refused at the release" -- "$exe" enclose "$tmp/graze.json" -o "$tmp/g.json"
absent "$tmp/g.json" "stick-slip DAE without the armed watch"
report
