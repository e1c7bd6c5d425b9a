#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The bundled example of the quick start: the suspension bridge of Chen & Wang,
# Example 5.1 (gamma = 0.2, theta = 1, h = 1e-3, T = 1), end to end:
# enclose -> verify -> check an independent trajectory -> plot.
# usage: bash tests/example.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build}
dvicert="$b/dvicert"
out="$b/example"
mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }

step "dvicert enclose: certified tube of the bridge DLVI"
"$dvicert" enclose certs/bridge/gamma0.2.json -o "$out/bridge.cert.json"

step "dvicert verify: recompute every bound of the certificate"
"$dvicert" verify "$out/bridge.cert.json"

step "an independent trajectory: the closed-form solution at 1000 random times (MPFR, 256 bits)"
"$b/tests/gen_traj" bridge 0.2 1 1000 2026 > "$out/exact.csv"
head -3 "$out/exact.csv"

step "dvicert check: is that trajectory inside the certified tube?"
"$dvicert" check "$out/bridge.cert.json" "$out/exact.csv"

step "dvicert plot: the tube in the style of the paper's Fig. 1"
"$dvicert" plot "$out/bridge.cert.json" -o "$out/bridge.png"

printf '\nAll done: %s/bridge.cert.json, %s/bridge.png\n' "$out" "$out"
