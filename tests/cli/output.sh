#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Output files never destroy data: an output that is one of the inputs is
# refused (by device and inode), symbolic links are refused, devices and
# pipes are written directly and never replaced, '-' is standard output,
# the temporary file is unpredictable and created exclusively, and nothing
# (no partial output, no temporary file) is left behind on failure.
# usage: bash tests/cli/output.sh DVICERT SRCROOT
set -u
exe=${1:?usage: output.sh DVICERT SRCROOT}
src=${2:?usage: output.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# expect RC PATTERN DESCRIPTION -- command...: exit status RC and PATTERN
# (grep -E; empty: any) in the combined output.
expect() {
    local rc=$1 pat=$2 what=$3
    shift 4
    "$@" > "$tmp/out" 2>&1
    local got=$?
    if [ "$got" -ne "$rc" ]; then
        bad "$what: exit $got, expected $rc"
        sed 's/^/    /' "$tmp/out" | head -5 >&2
        return 1
    fi
    if [ -n "$pat" ] && ! grep -Eq -- "$pat" "$tmp/out"; then
        bad "$what: output lacks '$pat'"
        sed 's/^/    /' "$tmp/out" | head -5 >&2
        return 1
    fi
    ok
}
same() { if cmp -s "$1" "$2"; then ok; else bad "$3"; fi; }
# no temporary or other stray file in directory $1 besides the names given
only() {
    local d=$1 what=$2
    shift 2
    local want got
    want=$(printf '%s\n' "$@" | sort)
    got=$(ls -A "$d" | sort)
    if [ "$want" = "$got" ]; then ok; else bad "$what: directory holds [$(echo $got)], expected [$(echo $want)]"; fi
}

cert="$src/certs/remark43/x0_1.cert.json"
cat > "$tmp/p.json" <<'EOF'
{"A": [[-1]], "B": [[1]], "Q": [[1]], "M": [[1]], "l": [0], "u": ["inf"], "x0": [1], "T": "1", "N": 10}
EOF
cp "$tmp/p.json" "$tmp/p.orig"
cp "$cert" "$tmp/c.json"
"$exe" export "$tmp/c.json" -o "$tmp/ref.csv" > /dev/null 2>&1 && ok || bad "reference export"

# ---- 1. an output that is one of the inputs is refused ------------------------
expect 2 "same file as the input" "enclose p.json -o p.json" -- "$exe" enclose "$tmp/p.json" -o "$tmp/p.json"
same "$tmp/p.json" "$tmp/p.orig" "enclose -o INPUT destroyed the problem file"
expect 2 "same file as the input" "export c.json -o c.json" -- "$exe" export "$tmp/c.json" -o "$tmp/c.json"
same "$tmp/c.json" "$cert" "export -o INPUT destroyed the certificate"
mkdir "$tmp/sub"
expect 2 "same file as the input" "another spelling of the input" -- "$exe" enclose "$tmp/p.json" -o "$tmp/sub/../p.json"
ln "$tmp/p.json" "$tmp/hard.json"
expect 2 "same file as the input" "a hard link to the input" -- "$exe" enclose "$tmp/p.json" -o "$tmp/hard.json"
same "$tmp/p.json" "$tmp/p.orig" "enclose -o HARDLINK destroyed the problem file"
ln "$tmp/c.json" "$tmp/hardc.json"
expect 2 "same file as the input" "export to a hard link of the certificate" -- "$exe" export "$tmp/c.json" -o "$tmp/hardc.json"
same "$tmp/c.json" "$cert" "export -o HARDLINK destroyed the certificate"
expect 2 "same file as the input" "plot over its certificate" -- "$exe" plot "$tmp/hardc.json" -o "$tmp/c.json"
rm "$tmp/hard.json" "$tmp/hardc.json"
# a file the problem reads (a table) is an input too
printf 't,f\n0,1\n1,2\n' > "$tmp/data.csv"
cp "$tmp/data.csv" "$tmp/data.orig"
sed 's/"N": 10}/"N": 10, "f": [{"csv": "data.csv"}]}/' "$tmp/p.json" > "$tmp/ptab.json"
expect 0 "certified" "enclose with a table" -- "$exe" enclose "$tmp/ptab.json" -o "$tmp/ptab.cert.json"
expect 2 "same file as the input .*data.csv" "enclose -o TABLE" -- "$exe" enclose "$tmp/ptab.json" -o "$tmp/data.csv"
same "$tmp/data.csv" "$tmp/data.orig" "enclose -o TABLE destroyed the table"
ln "$tmp/data.csv" "$tmp/data2.csv"
expect 2 "same file as the input" "enclose -o (hard link of the table)" -- "$exe" enclose "$tmp/ptab.json" -o "$tmp/data2.csv"
same "$tmp/data.csv" "$tmp/data.orig" "enclose -o TABLE-LINK destroyed the table"
rm "$tmp/data2.csv" "$tmp/ptab.cert.json"

# ---- 2. symbolic links: refused, neither the link nor its target touched ------
echo "precious" > "$tmp/target.csv"
ln -s target.csv "$tmp/link.csv"
expect 2 "symbolic link" "-o a link to a regular file" -- "$exe" export "$tmp/c.json" -o "$tmp/link.csv"
[ -L "$tmp/link.csv" ] && [ "$(cat "$tmp/target.csv")" = precious ] && ok || bad "link or target changed"
ln -s nowhere.csv "$tmp/dangling.csv"
expect 2 "symbolic link" "-o a dangling link" -- "$exe" export "$tmp/c.json" -o "$tmp/dangling.csv"
[ -L "$tmp/dangling.csv" ] && [ ! -e "$tmp/nowhere.csv" ] && ok || bad "dangling link followed"
rm "$tmp/link.csv" "$tmp/dangling.csv" "$tmp/target.csv"
# a link to a device is written through (the device is not replaced)
ln -s /dev/null "$tmp/null.csv"
expect 0 "wrote" "-o a link to /dev/null" -- "$exe" export "$tmp/c.json" -o "$tmp/null.csv"
[ -L "$tmp/null.csv" ] && ok || bad "link to /dev/null replaced"
rm "$tmp/null.csv"

# ---- 3. the temporary file: unpredictable, exclusive, never left behind -------
# the former scheme was OUT.tmp.<pid>: plant links at that name (exec keeps the
# pid) and at a few others; none may be followed
mkdir "$tmp/w"
echo "victim" > "$tmp/victim"
( for n in 0 1 2 3; do ln -s ../victim "$tmp/w/out.csv.tmp.$((BASHPID + n))"; done
  exec "$exe" export "$tmp/c.json" -o "$tmp/w/out.csv" ) > /dev/null 2>&1 && ok || bad "export beside planted links"
[ "$(cat "$tmp/victim")" = victim ] && ok || bad "a planted link at the temporary name was followed"
[ -f "$tmp/w/out.csv" ] && [ ! -L "$tmp/w/out.csv" ] && ok || bad "output is not a regular file"
same "$tmp/w/out.csv" "$tmp/ref.csv" "output beside planted links differs"
rm -f "$tmp"/w/out.csv.tmp.*
only "$tmp/w" "after a successful write" out.csv
# permissions: 0644 & ~umask for a new file (not mkstemp's 0600); an
# existing file keeps its own
(umask 022; exec "$exe" export "$tmp/c.json" -o "$tmp/w/m644.csv") > /dev/null 2>&1
[ "$(stat -c %a "$tmp/w/m644.csv")" = 644 ] && ok || bad "new file under umask 022: mode $(stat -c %a "$tmp/w/m644.csv"), want 644"
(umask 027; exec "$exe" export "$tmp/c.json" -o "$tmp/w/m640.csv") > /dev/null 2>&1
[ "$(stat -c %a "$tmp/w/m640.csv")" = 640 ] && ok || bad "new file under umask 027: mode $(stat -c %a "$tmp/w/m640.csv"), want 640"
echo old > "$tmp/w/keep.csv"; chmod 600 "$tmp/w/keep.csv"
(umask 022; exec "$exe" export "$tmp/c.json" -o "$tmp/w/keep.csv") > /dev/null 2>&1
[ "$(stat -c %a "$tmp/w/keep.csv")" = 600 ] && ok || bad "replaced file lost its mode 600: $(stat -c %a "$tmp/w/keep.csv")"
same "$tmp/w/keep.csv" "$tmp/ref.csv" "replaced file has the wrong contents"
rm "$tmp"/w/*

# ---- 4. nothing left behind on failure ---------------------------------------
# a write that fails half-way (file size limit): no partial output, no temporary
echo "old contents" > "$tmp/w/big.csv"
cp "$tmp/w/big.csv" "$tmp/big.orig"
( ulimit -f 8; trap '' XFSZ; exec "$exe" export "$tmp/c.json" -o "$tmp/w/big.csv" ) > "$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot write" "$tmp/out" && ok || bad "write beyond the size limit: exit $rc, $(head -1 "$tmp/out")"
same "$tmp/w/big.csv" "$tmp/big.orig" "a failed write changed the existing output"
only "$tmp/w" "after a failed write" big.csv
( ulimit -f 8; trap '' XFSZ; exec "$exe" export "$tmp/c.json" -o "$tmp/w/new.csv" ) > /dev/null 2>&1
only "$tmp/w" "after a failed write of a new file" big.csv
# not certified: no output, no temporary
cat > "$tmp/np.json" <<'EOF'
{"A": [[-1]], "B": [[1, 0]], "Q": [[1], [1]], "M": [[0, 1], [1, 0]], "l": [0, 0], "u": ["inf", "inf"], "x0": [0], "T": "1", "N": 10}
EOF
expect 1 "not certified" "enclose, not certified" -- "$exe" enclose "$tmp/np.json" -o "$tmp/w/np.cert.json"
only "$tmp/w" "after a run that was not certified" big.csv
# interrupted while the output is being produced (plot waits for a gnuplot
# that is slow): the temporary file is removed
printf '#!/bin/sh\ncat > /dev/null\nsleep 3\n' > "$tmp/slowgp"
chmod +x "$tmp/slowgp"
DVC_GNUPLOT="$tmp/slowgp" "$exe" plot "$tmp/c.json" -o "$tmp/w/slow.png" > /dev/null 2>&1 &
plotter=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
    [ "$(ls -A "$tmp/w" | wc -l)" -gt 1 ] && break
    sleep 0.2
done
[ "$(ls -A "$tmp/w" | wc -l)" -eq 2 ] && ok || bad "plot: no temporary file while gnuplot runs"
kill -TERM "$plotter"
wait "$plotter"
rc=$?
[ "$rc" -eq 143 ] && ok || bad "plot killed by SIGTERM: exit $rc, expected 143"
only "$tmp/w" "after SIGTERM" big.csv
sleep 3
# refusals happen before any work and leave nothing either
expect 2 "is a directory" "-o a directory" -- "$exe" export "$tmp/c.json" -o "$tmp/w"
expect 2 "cannot write" "-o in a missing directory" -- "$exe" export "$tmp/c.json" -o "$tmp/w/no/x.csv"
only "$tmp/w" "after refused outputs" big.csv

# ---- 5. repeated options are refused ------------------------------------------
expect 2 "given twice" "-o a -o b" -- "$exe" export "$tmp/c.json" -o "$tmp/w/a.csv" -o "$tmp/w/b.csv"
expect 2 "given twice" "-o a --output=b" -- "$exe" enclose "$tmp/p.json" -o "$tmp/w/a.json" --output="$tmp/w/b.json"
only "$tmp/w" "after repeated -o" big.csv

# ---- 6. standard output, devices and pipes: written directly ------------------
"$exe" export "$tmp/c.json" -o - > "$tmp/stdout.csv" 2> "$tmp/err"
[ $? -eq 0 ] && ok || bad "export -o -: exit status"
same "$tmp/stdout.csv" "$tmp/ref.csv" "export -o - differs from the file output (report mixed in?)"
grep -q "^wrote" "$tmp/err" && ok || bad "export -o -: the report goes to stderr"
"$exe" enclose "$tmp/p.json" -o - > "$tmp/stdout.cert.json" 2> "$tmp/err"
[ $? -eq 0 ] && grep -q "^certified" "$tmp/err" && ok || bad "enclose -o -"
expect 0 "accepted" "certificate written to standard output verifies" -- "$exe" verify "$tmp/stdout.cert.json"
"$exe" export "$tmp/c.json" -o /dev/stdout > "$tmp/devstdout.csv" 2> /dev/null
same "$tmp/devstdout.csv" "$tmp/ref.csv" "export -o /dev/stdout redirected to a file"
"$exe" export "$tmp/c.json" -o /dev/stdout 2> /dev/null | cat > "$tmp/pipe.csv"
same "$tmp/pipe.csv" "$tmp/ref.csv" "export -o /dev/stdout into a pipe"
expect 0 "wrote" "export -o /dev/null" -- "$exe" export "$tmp/c.json" -o /dev/null
[ "$(stat -c %F /dev/null)" = "character special file" ] && ok || bad "/dev/null is no longer a character device"
expect 0 "certified" "enclose -o /dev/null" -- "$exe" enclose "$tmp/p.json" -o /dev/null
[ "$(stat -c %F /dev/null)" = "character special file" ] && ok || bad "/dev/null is no longer a character device"
ls /dev/null.* > /dev/null 2>&1 && bad "temporary files left in /dev" || ok
# a device that fails the write: the error is reported
if [ -c /dev/full ]; then
    expect 2 "cannot write" "-o /dev/full" -- "$exe" export "$tmp/c.json" -o /dev/full
    [ -c /dev/full ] && ok || bad "/dev/full replaced"
fi
# a named pipe
mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" > "$tmp/fifo.csv" &
reader=$!
expect 0 "wrote" "export -o FIFO" -- timeout 20 "$exe" export "$tmp/c.json" -o "$tmp/fifo"
wait "$reader"
[ -p "$tmp/fifo" ] && ok || bad "the FIFO was replaced"
same "$tmp/fifo.csv" "$tmp/ref.csv" "export through a FIFO"

report
