#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# A DAE mode whose g_z depends on the state (docs/dae.md, certs/pendulum):
# the pendulum on a string certified and verified, the committed
# certificate reproduced byte for byte, every event enclosure containing
# the reference time and the states, the clock and lambda inside the tube
# at 1,000 random times against an independent reference (the angle
# equation by mpmath.odefun at 40 digits, tests/pendulum_ref.py; skipped
# without mpmath), a reference moved by 1e-9 outside; a tampered event
# rejected; a coefficient vanishing on the path refused with the mode;
# n_z = 2 and 3 with g_z(t, x) against the exact rational solution.
# usage: bash tests/cli/pendulum.sh DVICERT SRCROOT
set -u
exe=${1:?usage: pendulum.sh DVICERT SRCROOT}
src=${2:?usage: pendulum.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
P=$src/certs/pendulum/pendulum.json

expect 0 "3 crossings" "pendulum: certified" -- "$exe" enclose "$P" -o "$tmp/p.cert.json"
cmp -s "$tmp/p.cert.json" "$src/certs/pendulum/pendulum.cert.json" && ok ||
    bad "pendulum: the committed certificate is not reproduced"
expect 0 "accepted" "pendulum: verified" -- "$exe" verify "$tmp/p.cert.json"
expect 0 "3 events" "pendulum: events" -- "$exe" events "$tmp/p.cert.json"
cp "$tmp/out" "$tmp/events.txt"
grep -q "tension taut *release" "$tmp/events.txt" && grep -q "stretch slack *taut" "$tmp/events.txt" &&
    ok || bad "pendulum: release and taut-again events"
# the release moved past its recomputed enclosure: rejected
lo=$(grep -o '"t_lo":"[^"]*"' "$tmp/p.cert.json" | head -1 | cut -d'"' -f4)
sed "0,/\"t_lo\":\"$lo\"/s//\"t_lo\":\"1.5096504164640000e+00\"/" "$tmp/p.cert.json" > "$tmp/moved.cert.json"
cmp -s "$tmp/p.cert.json" "$tmp/moved.cert.json" && bad "tamper: the release time not found"
expect 1 "" "pendulum: an event time narrowed: rejected" -- "$exe" verify "$tmp/moved.cert.json"

if python3 -c "import mpmath" 2>/dev/null; then
    expect 0 "events inside: 3 of 3" "pendulum: the reference event times inside" -- \
        python3 "$src/tests/pendulum_ref.py" events "$tmp/events.txt"
    inside_outside "$tmp/p.cert.json" "$tmp/ref.csv" "pendulum: reference (x, y, u, v, c and lambda)" \
        python3 "$src/tests/pendulum_ref.py" 5 1000 3
    grep -q "worst y margin" "$tmp/inside" && ok || bad "pendulum: lambda is checked"
else
    echo "skipped: the pendulum reference (python3 with mpmath not found)"
fi

# the coefficient of lambda written as x: it vanishes on the path (x = 0 at
# the start), so g_z is not proven nonsingular there: refused, naming the
# file, the mode and the constraint
sed 's/lambda\*(x^2 + y^2)"/lambda*x"/' "$P" > "$tmp/px.json"
expect 1 "px.json: g_z = dg/dz of mode 'taut' (constraint 0 = u^2 + v^2 - g\*y - lambda\*x) is not proven nonsingular at t in \[0, " \
    "a coefficient vanishing on the path: refused with the mode" -- "$exe" enclose "$tmp/px.json" -o "$tmp/o.json"
grep -q "det g_z over the state enclosure is \[0, 0\], it contains 0" "$tmp/out" && ok ||
    bad "the refusal shows det g_z"
absent "$tmp/o.json" "a coefficient vanishing on the path"

# n_z = 2 and 3 (Cramer's rule, the adjugate): z against the exact
# rational solution at 1,000 random times (tests/dae_gz_ref.py), moved by
# 1e-9 outside
gz() { # gz NZ CONSTRAINTS
    printf '{"states": ["x"], "algebraic": [%s], "modes": {"m": {"f": ["1 + 0*z1"], "g": [%s]}},
"initial": {"mode": "m", "x": [0]}, "t0": 0, "T": 1, "h": 0.125}\n' \
        "$([ "$1" = 2 ] && echo '"z1", "z2"' || echo '"z1", "z2", "z3"')" "$2" > "$tmp/gz$1.json"
    expect 0 "certified" "g_z(t, x) with n_z = $1: certified" -- "$exe" enclose "$tmp/gz$1.json" -o "$tmp/gz$1.cert.json"
    inside_outside "$tmp/gz$1.cert.json" "$tmp/gz$1.csv" "g_z(t, x) with n_z = $1: the exact z" \
        python3 "$src/tests/dae_gz_ref.py" "$1" 1000 5
}
gz 2 '"(1 + x)*z1 + z2 - 1", "z1 - x*z2 - 2"'
gz 3 '"(1 + x)*z1 + z2 - 1", "z1 - x*z2 + t*z3 - 2", "z2 + (3 + x^2)*z3 - x"'
# a coefficient written with functions (each rewritten as text by the walk)
# that is 1 in exact arithmetic: z1 = 1 inside, 1 + 1e-6 outside
printf '%s\n' '{"states": ["x"], "algebraic": ["z1"], "modes": {"m": {"f": ["1 + 0*z1"], "g":
["(sin(x)^2 + cos(x)^2)*exp(log(2 + x))/(2 + x)*(1 + x)^(-2)*(1 + x)^2*(1 + x)^0.5*(1 + x)^0.5/(1 + x)*cosh(0*x)*(1 + sinh(tanh(x))*0 + abs(-1) - sqrt(1))*z1 - 1"]}},
"initial": {"mode": "m", "x": [0]}, "t0": 0, "T": 1, "h": 0.125}' > "$tmp/fn.json"
expect 0 "certified" "g_z(x) written with functions: certified" -- "$exe" enclose "$tmp/fn.json" -o "$tmp/fn.cert.json"
printf 't,x,z1\n0.1,0.1,1\n0.5,0.5,1\n0.9,0.9,1\n' > "$tmp/fn.csv"
expect 0 "inside: 0 of 3" "g_z(x) written with functions: z1 = 1 inside" -- "$exe" check "$tmp/fn.cert.json" "$tmp/fn.csv"
printf 't,x,z1\n0.5,0.5,1.000001\n' > "$tmp/fnp.csv"
expect 1 "outside: 1 of 1" "g_z(x) written with functions: 1 + 1e-6 outside" -- \
    "$exe" check "$tmp/fn.cert.json" "$tmp/fnp.csv"
report
