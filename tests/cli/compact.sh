#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Compressed certificates and the verified-certificate cache
# (docs/formats.md, "Compressed certificates", "Verified-certificate cache"):
# a gzip copy of every certificate in certs/ reads as the file itself in
# every command (verify, info, info --csv, events, export, plot, check);
# enclose and export write gzip to a name ending in .gz; a damaged or
# tampered .gz is refused naming the file; the cache skips the
# recomputation only for the text it verified, never when the cache is
# corrupt, unusable or bypassed (--no-cache).
# usage: bash tests/cli/compact.sh DVICERT SRCROOT   (run in the build's tests dir)
set -u
exe=${1:?usage: compact.sh DVICERT SRCROOT}
src=${2:?usage: compact.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
have_gnuplot=0
command -v gnuplot > /dev/null 2>&1 && have_gnuplot=1

# edit FILE LINE: a stated bound of the step on LINE narrowed (a DLVI step's
# eps_x to 1e-30, a hybrid step's first state enclosure to a point); the
# file may be gzip (written back compressed)
edit() {
    python3 - "$1" "$2" <<'EOF2'
import gzip, json, sys
path, line = sys.argv[1], int(sys.argv[2])
op = gzip.open if path.endswith(".gz") else open
lines = op(path, "rt").read().split("\n")
s = lines[line - 1].rstrip()
comma = s.endswith(",")
step = json.loads(s[:-1] if comma else s)
if "eps_x" in step:
    step["eps_x"] = "1e-30"
else:
    step["x"][0][0] = step["x"][0][1]
lines[line - 1] = "    " + json.dumps(step, separators=(",", ":")) + ("," if comma else "")
op(path, "wt").write("\n".join(lines))
EOF2
}

# same A B WHAT: the outputs equal once the file names are taken out
same() {
    if diff <(sed -e 's/z\.cert\.json\.gz/p.cert.json/g' -e 's/z\.csv/p.csv/g' -e 's/[0-9.]* s)/s)/' "$1") \
            <(sed -e 's/[0-9.]* s)/s)/' "$2") > "$tmp/diff"; then ok; else
        bad "$3: differs"; head -5 "$tmp/diff" >&2; fi
}

# ---- every certificate in certs/, plain and gzip: the plain one verified
# (and cached), the gzip copy verified again (--no-cache) and read by every
# command (through the cache: the same text)
for c in "$src"/certs/*/*.cert.json; do
    b=$(basename "$c" .cert.json)
    d="$tmp/$b"
    mkdir -p "$d"
    cp "$c" "$d/p.cert.json"
    gzip -c "$c" > "$d/z.cert.json.gz"
    for k in p z; do
        f="$d/$k.cert.json"; [ $k = z ] && f="$d/z.cert.json.gz"
        nc=; [ $k = z ] && nc=--no-cache
        (cd "$d" && "$exe" verify $nc "$(basename "$f")") > "$d/$k.verify" 2>&1; echo "rc $?" >> "$d/$k.verify"
        (cd "$d" && "$exe" info "$(basename "$f")") > "$d/$k.info" 2>&1
        (cd "$d" && "$exe" info --csv "$(basename "$f")") > "$d/$k.csv.info" 2>&1
        (cd "$d" && "$exe" events --csv "$(basename "$f")") > "$d/$k.events" 2>&1; echo "rc $?" >> "$d/$k.events"
        (cd "$d" && "$exe" export "$(basename "$f")" -o $k.csv) > "$d/$k.export" 2>&1
    done
    grep -q "^accepted: z.cert.json.gz" "$d/z.verify" && ok || bad "$b: verify of the gzip copy: $(head -2 "$d/z.verify")"
    same "$d/z.verify" "$d/p.verify" "$b: verify"
    same "$d/z.info" "$d/p.info" "$b: info"
    same "$d/z.csv.info" "$d/p.csv.info" "$b: info --csv"
    same "$d/z.events" "$d/p.events" "$b: events --csv"
    same "$d/z.export" "$d/p.export" "$b: export's message"
    if cmp -s "$d/z.csv" "$d/p.csv"; then ok; else bad "$b: export of the gzip copy differs"; fi
    # check: the grid midpoints of the states (t, x1..xn), inside the tube
    n=$(python3 -c 'import csv, sys; print(list(csv.reader(open(sys.argv[1])))[1][2])' "$d/p.csv.info")
    awk -F, -v n="$n" 'NR == 1 { printf "t"; for (j = 0; j < n; j++) { c = $(4 + 2 * j); sub(/_lo$/, "", c); printf ",%s", c }; print ""; next }
        $1 == "grid" { printf "%.17g", $2; for (j = 0; j < n; j++) printf ",%.17g", ($(4 + 2 * j) + $(5 + 2 * j)) / 2; print "" }' \
        "$d/p.csv" > "$d/traj.csv"
    for k in p z; do
        f="$k.cert.json"; [ $k = z ] && f=z.cert.json.gz
        (cd "$d" && "$exe" check "$f" traj.csv) > "$d/$k.check" 2>&1; echo "rc $?" >> "$d/$k.check"
    done
    same "$d/z.check" "$d/p.check" "$b: check"
    if [ $have_gnuplot = 1 ]; then
        expect 0 "wrote" "$b: plot of the gzip copy" -- "$exe" plot "$d/z.cert.json.gz" -o "$d/z.png"
    fi
done

# ---- writing gzip: enclose and export to a name ending in .gz
b="$src/certs/bridge/gamma0.2.json"
expect 0 "wrote" "enclose -o .gz" -- "$exe" enclose "$b" --method chen-wang -o "$tmp/w.cert.json.gz"
expect 0 "wrote" "enclose -o plain" -- "$exe" enclose "$b" --method chen-wang -o "$tmp/w.cert.json"
if gzip -dc "$tmp/w.cert.json.gz" | cmp -s - "$tmp/w.cert.json"; then ok; else bad "zcat of the .gz certificate is not the plain one"; fi
if [ "$(head -c 2 "$tmp/w.cert.json" | od -An -tx1 | tr -d ' ')" = 7b0a ]; then ok; else bad "a plain name was compressed"; fi
expect 0 "wrote" "enclose --radius -o .gz" -- "$exe" enclose "$b" --radius 1e-3 -o "$tmp/r.cert.json.gz"
gzip -t "$tmp/r.cert.json.gz" 2>/dev/null && ok || bad "enclose --radius -o .gz: not a gzip file"
expect 0 "accepted" "verify of the --radius .gz" -- "$exe" verify "$tmp/r.cert.json.gz"
expect 0 "wrote" "hybrid enclose -o .gz" -- "$exe" enclose "$src/certs/stickslip/stickslip.json" -o "$tmp/s.cert.json.gz"
if gzip -dc "$tmp/s.cert.json.gz" | cmp -s - "$src/certs/stickslip/stickslip.cert.json"; then ok; else
    bad "hybrid .gz certificate is not the plain one"; fi
# a precision retry starts the compressed output again (--prec-max)
cat > "$tmp/ns.json" <<'EOS'
{"A": [[-1]], "B": [[0, 0]], "Q": [[0], [0]],
 "M": [[1, 1], [1, "1.00000000000000000001"]], "l": [0, 0], "u": ["inf", "inf"],
 "g": ["1", "1"], "x0": [1], "T": 1, "N": 10}
EOS
expect 0 "raised from 53 to 106 bits" "--prec-max retry into .gz" -- \
    "$exe" enclose --method chen-wang "$tmp/ns.json" -o "$tmp/ns.cert.json.gz" --prec-max 212
expect 0 "raised from 53 to 106 bits" "--prec-max retry, plain" -- \
    "$exe" enclose --method chen-wang "$tmp/ns.json" -o "$tmp/ns.cert.json" --prec-max 212
if gzip -dc "$tmp/ns.cert.json.gz" | cmp -s - "$tmp/ns.cert.json"; then ok; else bad "--prec-max retry: the .gz is not the plain text"; fi
expect 0 "wrote" "export -o .gz" -- "$exe" export "$tmp/w.cert.json.gz" -o "$tmp/w.csv.gz"
expect 0 "wrote" "export -o plain" -- "$exe" export "$tmp/w.cert.json" -o "$tmp/w.csv"
if gzip -dc "$tmp/w.csv.gz" | cmp -s - "$tmp/w.csv"; then ok; else bad "export -o .gz: not the plain CSV compressed"; fi
# writing to a FIFO named .gz: compressed too, directly
mkfifo "$tmp/fifo.gz"
( gzip -dc < "$tmp/fifo.gz" > "$tmp/fifo.out" ) &
"$exe" export "$tmp/w.cert.json" -o "$tmp/fifo.gz" > /dev/null 2>&1
wait
if cmp -s "$tmp/fifo.out" "$tmp/w.csv"; then ok; else bad "export to a FIFO named .gz"; fi
# the input is never the output, compressed or not
expect 2 "same file as the input" "export over its own .gz input" -- \
    "$exe" export "$tmp/w.cert.json.gz" -o "$tmp/w.cert.json.gz"
gzip -t "$tmp/w.cert.json.gz" 2>/dev/null && ok || bad "the refused export damaged its input"

# ---- damaged and tampered gzip files
head -c 3000 "$tmp/w.cert.json.gz" > "$tmp/trunc.cert.json.gz"
for c in verify info export; do
    o=; [ $c = export ] && o="-o $tmp/t.csv"
    expect 2 "trunc.cert.json.gz: damaged gzip file: truncated" "$c of a truncated .gz" -- "$exe" $c "$tmp/trunc.cert.json.gz" $o
done
absent "$tmp/t.csv" "export of a truncated .gz"
python3 - "$tmp/w.cert.json.gz" "$tmp/crc.cert.json.gz" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[-7] ^= 1  # the CRC-32 of the trailer
open(sys.argv[2], "wb").write(d)
EOF
expect 2 "crc.cert.json.gz: damaged gzip file: incorrect data check" "verify of a .gz with a bad CRC" -- \
    "$exe" verify "$tmp/crc.cert.json.gz"
if [ $have_gnuplot = 1 ]; then
    expect 2 "damaged gzip file" "plot of a .gz with a bad CRC" -- "$exe" plot "$tmp/crc.cert.json.gz" -o "$tmp/crc.png"
    absent "$tmp/crc.png" "plot of a damaged .gz"
fi
# a bound edited inside the compressed text: rejected like a plain edit
cp "$tmp/w.cert.json.gz" "$tmp/edit.cert.json.gz"
edit "$tmp/edit.cert.json.gz" 30
expect 1 "rejected" "verify of an edited .gz" -- "$exe" verify "$tmp/edit.cert.json.gz"
expect 1 "rejected" "export of an edited .gz" -- "$exe" export "$tmp/edit.cert.json.gz" -o "$tmp/e.csv"
absent "$tmp/e.csv" "export of an edited .gz"
# devices and FIFOs are refused before a byte is read, whatever the name
expect 2 "not a regular file" "verify of a FIFO" -- "$exe" verify "$tmp/fifo.gz"

# ---- the cache: a miss verifies and records, a hit says so, --no-cache
# recomputes, a certificate changed after it was cached is verified again
export XDG_CACHE_HOME="$tmp/cache2"
c="$tmp/c.cert.json"
cp "$src/certs/stickslip/stickslip.cert.json" "$c"
expect 0 "certificate verified" "export, first run: verified" -- "$exe" export "$c" -o "$tmp/c1.csv"
expect 0 "verified earlier on this machine (cache)" "export, second run: the cache" -- "$exe" export "$c" -o "$tmp/c2.csv"
if cmp -s "$tmp/c1.csv" "$tmp/c2.csv"; then ok; else bad "export through the cache differs"; fi
expect 0 "certificate verified)" "export --no-cache recomputes" -- "$exe" export --no-cache "$c" -o "$tmp/c3.csv"
expect 0 "accepted, verified earlier on this machine" "info --verify: the cache" -- "$exe" info --verify "$c"
expect 0 "verified earlier on this machine" "events --verify: the cache" -- "$exe" events --verify "$c"
if [ $have_gnuplot = 1 ]; then
    expect 0 "verified earlier on this machine (cache)" "plot: the cache" -- "$exe" plot "$c" -o "$tmp/c.png"
    expect 0 "certificate: .* verified$" "plot --no-cache recomputes" -- "$exe" plot --no-cache "$c" -o "$tmp/c.png"
fi
# the same text compressed is the same certificate
gzip -c "$c" > "$tmp/c.cert.json.gz"
expect 0 "verified earlier on this machine (cache)" "the gzip copy: the cache" -- "$exe" export "$tmp/c.cert.json.gz" -o "$tmp/c4.csv"
# changed after it was cached: a bound of a step narrowed -> recomputed, rejected
edit "$c" 12
if cmp -s "$c" "$src/certs/stickslip/stickslip.cert.json"; then bad "the tamper edit did nothing"; fi
expect 1 "rejected" "export of a certificate changed after it was cached" -- "$exe" export "$c" -o "$tmp/c5.csv"
absent "$tmp/c5.csv" "export of a changed certificate"
expect 1 "rejected" "info --verify of a changed certificate" -- "$exe" info --verify "$c"
# verify records: a DLVI certificate verified, then exported through the cache
cp "$tmp/w.cert.json" "$tmp/v.cert.json"
expect 0 "accepted" "verify records" -- "$exe" verify "$tmp/v.cert.json"
expect 0 "verified earlier on this machine (cache)" "export after verify: the cache" -- "$exe" export "$tmp/v.cert.json" -o "$tmp/v.csv"
expect 0 "verified earlier on this machine" "check after verify: the cache" -- "$exe" check "$tmp/v.cert.json" "$tmp/gamma0.2/traj.csv"
cp "$tmp/w.cert.json" "$tmp/v2.cert.json"
expect 0 "accepted" "verify --no-cache" -- "$exe" verify --no-cache "$tmp/v2.cert.json"
echo >> "$tmp/v2.cert.json"
expect 0 "certificate verified)" "a blank line added: another text, verified again" -- "$exe" export "$tmp/v2.cert.json" -o "$tmp/v2.csv"

# corrupt entries: verified again, never a failure
for e in "$tmp"/cache2/dvicert/*; do printf 'junk' > "$e"; done
expect 0 "certificate verified)" "corrupt cache entries: verified again" -- "$exe" export "$tmp/v.cert.json" -o "$tmp/v.csv"
expect 0 "verified earlier on this machine (cache)" "the entry rewritten" -- "$exe" export "$tmp/v.cert.json" -o "$tmp/v.csv"
# a cache writable by others is not used; a cache that cannot be made neither
chmod 777 "$tmp/cache2/dvicert"
expect 0 "certificate verified)" "a cache writable by others: not used" -- "$exe" export "$tmp/v.cert.json" -o "$tmp/v.csv"
chmod 700 "$tmp/cache2/dvicert"
printf 'a file' > "$tmp/notadir"
XDG_CACHE_HOME="$tmp/notadir" expect 0 "certificate verified)" "no cache directory: verified" -- \
    "$exe" export "$tmp/v.cert.json" -o "$tmp/v.csv"
HOME="$tmp/home" XDG_CACHE_HOME="relative" expect 0 "" "a relative XDG_CACHE_HOME is ignored" -- \
    "$exe" export "$tmp/v.cert.json" -o "$tmp/v.csv"

# ---- trajectories: --from and check read a .gz trajectory as the plain one
# (enclose --from reads it in several passes); a truncated one is named damaged
cat > "$tmp/fb.json" <<EOF
{"A": [[0, 1], [-4, 0]], "B": [[0], [-1]], "f": ["0", "sin(4*t)"],
 "Q": [[3, 0]], "M": [[1]], "g": ["0"], "l": [0], "u": ["inf"],
 "x0": [0, 1], "T": "2", "N": 400, "theta": 1, "state_names": ["pos", "vel"]}
EOF
awk 'BEGIN { print "t,pos,vel"; for (i = 0; i <= 1000; i++) { t = 0.002 * i + 1e-4 * sin(i) * (i > 0 && i < 1000)
  printf "%.17g,%.17g,%.17g\n", t, 0.5 * sin(2 * t), cos(2 * t) } }' > "$tmp/fb.csv"
gzip -c "$tmp/fb.csv" > "$tmp/fb.csv.gz"
head -c 4000 "$tmp/fb.csv.gz" > "$tmp/fbt.csv.gz"
expect 0 "" "--from a plain trajectory" -- "$exe" enclose "$tmp/fb.json" --method lognorm --from "$tmp/fb.csv" -o "$tmp/fb1.cert.json"
expect 0 "" "--from a .gz trajectory" -- "$exe" enclose "$tmp/fb.json" --method lognorm --from "$tmp/fb.csv.gz" -o "$tmp/fb2.cert.json"
if cmp -s "$tmp/fb1.cert.json" "$tmp/fb2.cert.json"; then ok; else bad "--from: the .gz trajectory gave another certificate"; fi
expect 2 "fbt.csv.gz: damaged gzip file: truncated" "--from a truncated .gz trajectory" -- \
    "$exe" enclose "$tmp/fb.json" --method lognorm --from "$tmp/fbt.csv.gz" -o "$tmp/fb3.cert.json"
absent "$tmp/fb3.cert.json" "--from a truncated .gz trajectory"
expect 2 "fbt.csv.gz: damaged gzip file: truncated" "check a truncated .gz trajectory" -- \
    "$exe" check "$tmp/fb1.cert.json" "$tmp/fbt.csv.gz"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
