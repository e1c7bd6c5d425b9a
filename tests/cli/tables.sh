#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# enclose and the table files a problem names: only regular files are read
# (a device or a FIFO is refused before any byte is read), up to a size limit
# (--max-table-bytes), and only inside the problem file's directory tree
# unless --allow-outside-tables; messages name the field once and a NUL byte
# by its line. Nothing here writes or replaces a device.
# usage: bash tests/cli/tables.sh DVICERT SRCROOT
set -u
exe=${1:?usage: tables.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# expect RC PATTERN DESCRIPTION -- command...: exit status RC within 20 s and
# (when PATTERN is not empty) PATTERN (a fixed string) in the combined output.
expect() {
    local rc=$1 pat=$2 what=$3
    shift 4
    timeout 20 "$@" > "$tmp/out" 2>&1
    local got=$?
    if [ "$got" -ne "$rc" ]; then
        bad "$what: exit $got, expected $rc"
        sed 's/^/    /' "$tmp/out" | head -5 >&2
        return 1
    fi
    if [ -n "$pat" ] && ! grep -qF -- "$pat" "$tmp/out"; then
        bad "$what: output lacks '$pat'"
        sed 's/^/    /' "$tmp/out" | head -5 >&2
        return 1
    fi
    ok
    return 0
}

# x' = y + f(t), y = SOL(0, inf, x, 1) on [0, 1]: any table covering [0, 1].
# prob FILE ENTRY writes a problem whose f is [ENTRY].
prob() {
    printf '{"A":[[0]],"B":[[1]],"Q":[[1]],"M":[[1]],"l":[0],"u":["inf"],"x0":[0],"T":"1","N":10,"f":[%s]}\n' \
        "$2" > "$1"
}

# run DESCRIPTION RC PATTERN PROBLEM [options]: enclose; no output on failure.
run() {
    local what=$1 rc=$2 pat=$3 p=$4
    shift 4
    rm -f "$tmp/out.cert.json"
    expect "$rc" "$pat" "$what" -- "$exe" enclose "$p" -o "$tmp/out.cert.json" "$@"
    if [ "$rc" -ne 0 ]; then absent "$tmp/out.cert.json" "$what"; fi
}

mkdir -p "$tmp/proj/data" "$tmp/outside"
printf 't,v\n0,1\n0.5,2\n1,3\n' > "$tmp/proj/data/ok.csv"
printf 't,v\n0,7\n1,9\n' > "$tmp/outside/secret.csv"

# --- confinement to the problem file's directory tree ------------------------
prob "$tmp/proj/in.json" '{"csv": "data/ok.csv"}'
# run from elsewhere: the path is taken relative to the problem file
(cd / && run "relative path inside the tree" 0 "" "$tmp/proj/in.json")
prob "$tmp/proj/abs_in.json" "{\"csv\": \"$tmp/proj/data/ok.csv\"}"
run "absolute path inside the tree" 0 "" "$tmp/proj/abs_in.json"
prob "$tmp/proj/abs.json" "{\"csv\": \"$tmp/outside/secret.csv\"}"
run "absolute path outside" 2 "field 'f' entry 1: table file '$tmp/outside/secret.csv' is outside the problem file's directory" "$tmp/proj/abs.json"
prob "$tmp/proj/up.json" '{"csv": "data/../../outside/secret.csv"}'
run "'..' leading outside" 2 "is outside the problem file's directory" "$tmp/proj/up.json"
ln -s ../../outside/secret.csv "$tmp/proj/data/link.csv"
prob "$tmp/proj/link.json" '{"table": "data/link.csv"}'
run "symbolic link leading outside" 2 "(it is $tmp/outside/secret.csv)" "$tmp/proj/link.json"
ln -s ok.csv "$tmp/proj/data/inlink.csv"
prob "$tmp/proj/inlink.json" '{"csv": "data/inlink.csv"}'
run "symbolic link inside the tree" 0 "" "$tmp/proj/inlink.json"
prob "$tmp/proj/etc.json" '{"csv": "/etc/passwd"}'
run "/etc/passwd" 2 "refused, its contents would be copied into the certificate" "$tmp/proj/etc.json"
if grep -q root "$tmp/out" 2> /dev/null; then bad "/etc/passwd: contents echoed"; else ok; fi

# --allow-outside-tables reads it, embeds it, and the certificate verifies
run "--allow-outside-tables" 0 "" "$tmp/proj/abs.json" --allow-outside-tables
if grep -qF '0,7\n1,9' "$tmp/out.cert.json"; then ok; else bad "--allow-outside-tables: table not embedded"; fi
expect 0 "" "certificate of an outside table verifies" -- "$exe" verify "$tmp/out.cert.json"
run "--allow-outside-tables, '..'" 0 "" "$tmp/proj/up.json" --allow-outside-tables

# --- only regular files -------------------------------------------------------
prob "$tmp/proj/zero.json" '{"csv": "/dev/zero"}'
run "/dev/zero" 2 "/dev/zero: is not a regular file" "$tmp/proj/zero.json" --allow-outside-tables
ln -s /dev/zero "$tmp/proj/data/zero.csv"
prob "$tmp/proj/zlink.json" '{"csv": "data/zero.csv"}'
run "link to /dev/zero" 2 "is outside the problem file's directory" "$tmp/proj/zlink.json"
run "link to /dev/zero, allowed outside" 2 "is not a regular file" "$tmp/proj/zlink.json" --allow-outside-tables
if mkfifo "$tmp/proj/data/fifo.csv" 2> /dev/null; then
    prob "$tmp/proj/fifo.json" '{"csv": "data/fifo.csv"}'
    run "FIFO (would block)" 2 "data/fifo.csv: is not a regular file" "$tmp/proj/fifo.json"
else
    ok
fi
prob "$tmp/proj/dir.json" '{"csv": "data"}'
run "directory" 2 "is a directory" "$tmp/proj/dir.json"

# --- the size limit ------------------------------------------------------------
run "--max-table-bytes below the file" 2 "is 18 bytes, more than the limit of 17 bytes for a table file: refused (enclose --max-table-bytes sets another)" \
    "$tmp/proj/in.json" --max-table-bytes 17
run "--max-table-bytes at the file" 0 "" "$tmp/proj/in.json" --max-table-bytes 18
run "--max-table-bytes 1k" 0 "" "$tmp/proj/in.json" --max-table-bytes 1k
# one byte over the default 256 MiB: refused by its size, before reading (sparse)
if truncate -s $((256 * 1024 * 1024 + 1)) "$tmp/proj/data/huge.csv" 2> /dev/null; then
    prob "$tmp/proj/huge.json" '{"csv": "data/huge.csv"}'
    run "default limit 256 MiB" 2 "more than the limit of 268435456 bytes" "$tmp/proj/huge.json"
    rm -f "$tmp/proj/data/huge.csv"
else
    ok
fi
for v in 0 -1 abc 10X 1.5M ""; do
    expect 2 "--max-table-bytes must be a positive number" "--max-table-bytes '$v'" -- \
        "$exe" enclose "$tmp/proj/in.json" -o "$tmp/out.cert.json" --max-table-bytes "$v"
done

# --- messages ----------------------------------------------------------------
prob "$tmp/proj/emb.json" '{"csv_text": "0,1\n1,x\n"}'
run "bad embedded table" 2 "emb.json: field 'f' entry 1: table line 2: value 'x' is not a number" \
    "$tmp/proj/emb.json"
if grep -q "entry 1:.*entry 1" "$tmp/out"; then bad "bad embedded table: field named twice"; else ok; fi
prob "$tmp/proj/emb2.json" '{"csv_text": "0,1\n1,2\n", "source": "rec.csv"}'
sed -i 's/"T":"1"/"T":"2"/' "$tmp/proj/emb2.json"
run "embedded table too short" 2 "field 'f' entry 1: the table covers" "$tmp/proj/emb2.json"
printf '0,1\n0.5,2\0,3\n1,4\n' > "$tmp/proj/data/nul.csv"
prob "$tmp/proj/nul.json" '{"csv": "data/nul.csv"}'
run "NUL byte in a CSV" 2 "data/nul.csv: NUL byte at line 2" "$tmp/proj/nul.json"
if grep -q "fields" "$tmp/out"; then bad "NUL byte: field count reported"; else ok; fi
printf 'title\nrecord\nunits\nNPTS= 3, DT= .5 SEC\n1 2\n\0 3\n' > "$tmp/proj/data/nul.at2"
prob "$tmp/proj/nul2.json" '{"at2": "data/nul.at2"}'
run "NUL byte in an AT2 file" 2 "data/nul.at2: NUL byte at line 6" "$tmp/proj/nul2.json"

report
