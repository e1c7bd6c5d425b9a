#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Digests of the certificates dvicert writes for every certs/ example and the
# test problems, on every route: a refactoring that does not change the
# arithmetic must leave every line of the output unchanged.
#   bash bench/cert_digests.sh [DVICERT] > digests.txt ; diff old.txt digests.txt
# Each line: sha256 of the certificate (or of the exit status and stderr's
# first line when the run refuses), then the command's arguments.
set -u
exe=${1:-build/dvicert}
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
run() { # run ARGS... : enclose ARGS -o OUT, print the digest
    local out=$work/c.json
    rm -f "$out"
    if "$exe" enclose "$@" -o "$out" >"$work/log" 2>&1; then
        printf '%s  %s\n' "$(sha256sum <"$out" | cut -c1-16)" "$*"
    else
        printf 'exit %s: %s  %s\n' "$?" "$(grep -m1 -i error "$work/log" | cut -c1-60)" "$*"
    fi
}
dlvi="certs/bridge/gamma0.2.json certs/bridge/gamma1.0.json certs/bridge/gamma2.0.json
certs/remark43/x0_1.json certs/remark43/x0_0.json certs/circuit/circuit.json
certs/pounding/pounding.json tests/data/scale/wall.json tests/data/from_grid/bridge2.json"
for p in $dlvi; do
    run "$p"
    run "$p" --method lognorm
    run "$p" --method lognorm --predictor heun
    run "$p" --method chen-wang
    run "$p" --method chen-wang --local-beta
    run "$p" --method auto --scale none
done
run certs/pounding/pounding_long.json --method lognorm
run certs/circuit/circuit_long.json
run certs/bridge/gamma0.2.json --radius 1e-3
run certs/bridge/gamma0.2.json --method chen-wang --prec 80
run tests/data/from_grid/bridge2.json --from tests/data/from_grid/rk4_uniform.csv
for f in pw-harmonic bridge-switched elliptic stickslip diode-clamp threemass; do
    run certs/$f/$f.json
done
run certs/two-contact/unique.json
run certs/two-contact/ambiguous.json
# switched DAEs (docs/dae.md)
run certs/buck-dae/buck-dae.json
run certs/stickslip/stickslip-dae.json
run certs/stickslip/stickslip-dae-table2.json
run certs/pendulum/pendulum.json
run certs/cubic-dae/cubic-dae.json
# hysteresis (docs/hybrid.md section 5)
run certs/thermostat/thermostat.json
run certs/thermostat/relay.json
