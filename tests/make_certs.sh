#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Regenerates every certificate in certs/ with `dvicert enclose` (run it after
# a change of the engine, then re-run the test suite, which re-verifies them).
# usage: bash tests/make_certs.sh [DVICERT] [SRCROOT]
set -eu
exe=${1:-build/dvicert}
src=${2:-$(cd "$(dirname "$0")/.." && pwd)}
c="$src/certs"
for g in 0.2 0.5 1.0 1.5 2.0; do
    "$exe" enclose --method chen-wang "$c/bridge/gamma$g.json" -o "$c/bridge/gamma$g.cert.json"
done
"$exe" enclose --method chen-wang "$c/remark43/x0_1.json" -o "$c/remark43/x0_1.cert.json"
"$exe" enclose --method chen-wang "$c/remark43/x0_1.json" -o "$c/remark43/x0_1.sharpen.cert.json" --sharpen
"$exe" enclose --method chen-wang "$c/remark43/x0_0.json" -o "$c/remark43/x0_0.sharpen.cert.json" --sharpen
"$exe" enclose --method chen-wang "$c/circuit/circuit.json" -o "$c/circuit/circuit.cert.json"
"$exe" enclose --method chen-wang "$c/pounding/pounding.json" -o "$c/pounding/pounding.cert.json" --sharpen
for f in pw-harmonic bridge-switched elliptic stickslip diode-clamp threemass buck-dae pendulum cubic-dae; do
    "$exe" enclose "$c/$f/$f.json" -o "$c/$f/$f.cert.json"
done
"$exe" enclose "$c/two-contact/unique.json" -o "$c/two-contact/unique.cert.json"
"$exe" enclose "$c/stickslip/stickslip-dae.json" -o "$c/stickslip/stickslip-dae.cert.json"
"$exe" enclose "$c/stickslip/stickslip-dae-table2.json" -o "$c/stickslip/stickslip-dae-table2.cert.json"
for f in thermostat relay; do
    "$exe" enclose "$c/thermostat/$f.json" -o "$c/thermostat/$f.cert.json"
done
