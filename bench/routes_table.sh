#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Radius at T and time of every DLVI example on the three enclose routes
# (docs/events.md, "Every example on every route"): for each problem file,
# `dvicert enclose P --method M` with M = events, lognorm, chen-wang and the
# default options, one run each; radius = the largest state radius at T
# (events: half the widest state enclosure at T; lognorm and chen-wang:
# the stated eps_x at T, in the scaled states when the route scales them),
# seconds = wall clock of the whole
# process, and what auto chose.
# usage: bench/routes_table.sh [BUILD_DIR] [PROBLEM.json ...]
#   default problems: every DLVI problem under certs/ and tests/data/events/
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
[ $# -gt 0 ] && shift
dvicert=$build/dvicert
[ -x "$dvicert" ] || { echo "routes_table.sh: $dvicert not found: build first" >&2; exit 2; }
if [ $# -eq 0 ]; then
    set -- "$here"/certs/bridge/gamma*[0-9].json "$here"/certs/remark43/x0_[01].json \
        "$here"/certs/circuit/circuit.json "$here"/certs/circuit/circuit_long.json \
        "$here"/certs/pounding/pounding.json "$here"/certs/pounding/pounding_long.json \
        "$here"/tests/data/events/*.json
fi
tmp=$(mktemp -d /tmp/dvc_routes.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf "%-26s | %-10s %7s | %-10s %7s | %-10s %7s | %s\n" problem events s lognorm s chen-wang s auto
for p in "$@"; do
    case $p in *.cert.json) continue ;; esac
    # DLVI problems only (hybrid models and ideal contacts have their own engine)
    grep -q '"modes"\|"contacts"\|"field"' "$p" && continue
    row=$(printf "%-26s" "$(basename "$(dirname "$p")")/$(basename "$p" .json)")
    for m in events lognorm chen-wang; do
        s0=$(date +%s.%N)
        msg=$("$dvicert" enclose "$p" --method $m -o "$tmp/c.json" 2>&1)
        rc=$?
        s1=$(date +%s.%N)
        if [ $rc = 0 ]; then
            w=$(echo "$msg" | sed -n 's/^widest state enclosure at T <= //p')
            if [ -n "$w" ]; then r=$(awk -v w="$w" 'BEGIN { printf "%.2e", w / 2 }')
            else r=$(echo "$msg" | sed -n 's/^eps_x at T <= \([^,]*\),.*/\1/p' | awk '{ printf "%.2e", $1 }'); fi
        else
            r="exit $rc"
        fi
        row="$row | $(printf "%-10s %7.2f" "$r" "$(echo "$s1 - $s0" | bc)")"
    done
    a=$("$dvicert" enclose "$p" -o "$tmp/c.json" 2>&1 | sed -n 's/^route: \([a-z-]*\).*/\1/p' | head -1)
    echo "$row | ${a:-refused}"
done
