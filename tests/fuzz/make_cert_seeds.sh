#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Re-make the certificate seeds (corpus/cert) from the problem seeds with a
# small N, after a change of the certificate format:
#   bash tests/fuzz/make_cert_seeds.sh build/dvicert
set -euo pipefail
dvicert=$(realpath "$1")
cd "$(dirname "$0")"
for p in corpus/problem/*.N*.json corpus/problem/csv_text.json corpus/problem/pounding.at2_text.json; do
    out=corpus/cert/$(basename "$p" .json).cert.json
    "$dvicert" enclose "$p" -o "$out" >/dev/null
done
"$dvicert" enclose corpus/problem/x0_1.N20.json --sharpen -o corpus/cert/x0_1.N20.sharpen.cert.json >/dev/null
