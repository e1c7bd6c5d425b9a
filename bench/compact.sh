#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Certificate size and the cost of reading a verified certificate again
# (issue 21, item 3). Sizes: the bridge (Example 5.1, gamma = 0.2) at
# N = 1e5 on the chen-wang and lognorm routes, plain and gzip (.gz).
# Times: export and plot of a certificate verified earlier (the cache),
# against the same command with --no-verify (writing the CSV or the image
# alone) and with --no-cache (a full re-verification), in one run; CPU
# seconds (user + system, the machine may be shared) and wall seconds.
#   bash bench/compact.sh [DVICERT]
set -u
exe=${1:-build/dvicert}
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
cd "$work"
sed 's/"h": "0.001"/"N": 100000/' "$root/certs/bridge/gamma0.2.json" > b1e5.json

echo "== size: bridge N = 1e5"
printf '%-10s %12s %12s %8s\n' route plain gzip ratio
for r in chen-wang lognorm; do
    "$exe" enclose b1e5.json --method $r -o $r.cert.json > /dev/null
    "$exe" enclose b1e5.json --method $r -o $r.cert.json.gz > /dev/null
    gzip -dc $r.cert.json.gz | cmp -s - $r.cert.json || echo "error: $r: the .gz is not the plain text"
    p=$(stat -c %s $r.cert.json) z=$(stat -c %s $r.cert.json.gz)
    printf '%-10s %12d %12d %8.3f\n' $r "$p" "$z" "$(echo "$z / $p" | bc -l)"
done

# t LABEL CMD...: CPU and wall seconds of one run
t() {
    local label=$1
    shift
    /usr/bin/time -f "%U %S %e" -o "$work/t" "$@" > /dev/null 2>&1 || echo "error: $label: $*"
    read -r u s e < "$work/t"
    cpu=$(echo "$u + $s" | bc -l)
    printf '  %-34s cpu %7.2f s  wall %7.2f s\n' "$label" "$cpu" "$e"
}

echo "== time: export and plot of a verified certificate (ratio: cached / --no-verify, in CPU)"
certs="lognorm.cert.json.gz chen-wang.cert.json $root/certs/threemass/threemass.cert.json
$root/certs/elliptic/elliptic.cert.json $root/certs/diode-clamp/diode-clamp.cert.json"
have_gnuplot=0
command -v gnuplot > /dev/null 2>&1 && have_gnuplot=1
for c in $certs; do
    echo "$(basename "$c") ($(stat -c %s "$c") bytes)"
    "$exe" verify "$c" > /dev/null # verified once on this machine: the cache entry
    for cmd in export plot; do
        [ $cmd = plot ] && [ $have_gnuplot = 0 ] && continue
        out=o.csv
        [ $cmd = plot ] && out=o.png
        t "$cmd --no-verify (writing alone)" "$exe" $cmd --no-verify "$c" -o $out; alone=$cpu
        t "$cmd (verified earlier: cache)" "$exe" $cmd "$c" -o $out; cached=$cpu
        t "$cmd --no-cache (re-verified)" "$exe" $cmd --no-cache "$c" -o $out; full=$cpu
        printf '  %s: cached / alone = %.2f, re-verified / alone = %.2f\n' $cmd \
            "$(echo "$cached / ($alone + 0.001)" | bc -l)" "$(echo "$full / ($alone + 0.001)" | bc -l)"
    done
done
