#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Re-make the certificate seeds (corpus/cert) from the problem seeds with a
# small N, after a change of the certificate format:
#   bash tests/fuzz/make_cert_seeds.sh build/dvicert
set -euo pipefail
dvicert=$(realpath "$1")
cd "$(dirname "$0")"
rm -f corpus/cert/*.cert.json
for p in corpus/problem/*.N*.json corpus/problem/csv_text.json corpus/problem/pounding.at2_text.json; do
    out=corpus/cert/$(basename "$p" .json).cert.json
    "$dvicert" enclose "$p" -o "$out" >/dev/null
done
"$dvicert" enclose corpus/problem/x0_1.N20.json --sharpen -o corpus/cert/x0_1.N20.sharpen.cert.json >/dev/null
# a problem naming a table file (tables are read from the problem's
# directory tree only): the certificate embeds the table's data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp corpus/problem/bridge.table_ref.json "$tmp/"
cp corpus/csv/tab_small.csv "$tmp/table.csv"
"$dvicert" enclose "$tmp/bridge.table_ref.json" -o corpus/cert/bridge.table_ref.cert.json >/dev/null
