#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Switches into a mode that does not watch the crossed surface (docs/hybrid.md
# section 5): the thermostat with hysteresis of certs/thermostat certified
# over 50 switches, every switch-time enclosure narrower than 1e-10 and
# containing the closed form at 50 digits (tests/hysteresis_ref.py), a
# shifted reference outside, an event moved in the certificate rejected;
# the relay feedback oscillator of certs/thermostat/relay.json likewise
# (51 switches, re-framed at its switches);
# and the relay without a gap refused at its first switch with the mode and
# the switching function named (chattering reported, not looped on), both
# when the two modes share the switching function and when each has its own.
# usage: bash tests/cli/hysteresis.sh DVICERT SRCROOT
set -u
exe=${1:?usage: hysteresis.sh DVICERT SRCROOT}
src=${2:?usage: hysteresis.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# case NAME N SHIFT: certs/thermostat/NAME.json certified with N switches,
# verified, equal to its committed certificate, each switch-time width <=
# 1e-10, the closed form inside every switch time and, shifted by SHIFT,
# outside all of them
case_() {
    local name=$1 n=$2 shift=$3 M=$src/certs/thermostat/$1.json
    expect 0 "$n crossings" "$name: certified" -- "$exe" enclose "$M" -o "$tmp/$name.cert.json"
    expect 0 "accepted" "$name: verified" -- "$exe" verify "$tmp/$name.cert.json"
    cmp -s "$tmp/$name.cert.json" "$src/certs/thermostat/$name.cert.json" && ok ||
        bad "$name: the certificate differs from certs/thermostat/$name.cert.json"
    "$exe" events "$tmp/$name.cert.json" --csv > "$tmp/$name.ev" 2>/dev/null
    awk -F, -v n="$n" 'NR > 1 { k++; if (!($8 + 0 <= 1e-10)) w++; if ($5 == $4) s++ }
        END { exit !(k == n && w == 0 && s == 0) }' "$tmp/$name.ev" &&
        ok || bad "$name: $n switches between the two modes, each switch-time width <= 1e-10"
    if command -v python3 > /dev/null 2>&1; then
        expect 0 "inside: $n of $n" "$name: the closed form inside every switch time" -- \
            python3 "$src/tests/hysteresis_ref.py" "$M" "$tmp/$name.cert.json"
        expect 1 "inside: 0 of $n" "$name: the closed form shifted by $shift outside" -- \
            python3 "$src/tests/hysteresis_ref.py" "$M" "$tmp/$name.cert.json" "$shift"
    else
        echo "skipped: the closed-form reference (python3 not found)"
    fi
}
case_ thermostat 50 1e-12
# the relay feedback oscillator (two states, field modes): re-framed at its switches
case_ relay 51 1e-9
# an event moved (its time enclosure narrowed past the recomputed one): rejected
sed '0,/"t_lo":"2.19722457733621823e+00"/s//"t_lo":"2.19722457733621900e+00"/' "$tmp/thermostat.cert.json" > "$tmp/moved.cert.json"
cmp -s "$tmp/thermostat.cert.json" "$tmp/moved.cert.json" && bad "tamper: the first event's time not found"
expect 1 "" "thermostat: an event time narrowed: rejected" -- "$exe" verify "$tmp/moved.cert.json"

# the relay without a gap: both fields point toward the surface at the switch
cat > "$tmp/relay.json" <<'JSON'
{"states": ["x"], "constants": {"a": "1", "b": "2", "xs": "1"},
 "modes": {"on": {"f": ["-a*x + b"]}, "off": {"f": ["-a*x"]}},
 "switches": {"s": "x - xs"},
 "transitions": [{"from": "on", "to": "off", "switch": "s", "direction": "+"},
                 {"from": "off", "to": "on", "switch": "s", "direction": "-"}],
 "initial": {"mode": "on", "x": {"x": "0.5"}}, "t0": 0, "T": 5, "h": 0.25}
JSON
expect 1 "switching function 's': the field of mode 'off' points back to the surface.*possible sliding" \
    "relay without a gap (one function): refused, mode and function named" -- \
    "$exe" enclose "$tmp/relay.json" -o "$tmp/o.json"
grep -q "certified up to t = 0.25 (1 steps, 0 crossings)" "$tmp/out" && ok ||
    bad "relay without a gap: refused at its first switch"
absent "$tmp/o.json" "relay without a gap"
# the same with a function per mode (a zero gap): the new mode may leave at once
sed 's/"switches": {"s": "x - xs"}/"switches": {"hi": "x - xs", "lo": "x - xs"}/;
     s/"switch": "s", "direction": "+"/"switch": "hi", "direction": "+"/;
     s/"switch": "s", "direction": "-"/"switch": "lo", "direction": "-"/' "$tmp/relay.json" > "$tmp/relay2.json"
expect 1 "mode 'off', entered on 'hi', may leave on 'lo' at once (chattering without hysteresis" \
    "relay with a zero gap (two functions): refused, mode and functions named" -- \
    "$exe" enclose "$tmp/relay2.json" -o "$tmp/o.json"
grep -q "classified: undecided" "$tmp/out" && ok || bad "relay with a zero gap: classified undecided"
absent "$tmp/o.json" "relay with a zero gap"
report
