# SPDX-License-Identifier: LGPL-3.0-or-later
# Helpers shared by the tests/cli/*.sh scripts (sourced, not run): a scratch
# directory $tmp removed on exit, the pass/fail counters and the summary line
# "N passed, N failed" that the test log reports.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the verified-certificate cache of this script's runs only
export XDG_CACHE_HOME="$tmp/cache"
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# absent FILE WHAT: a failed command must not leave a partial output file.
absent() { if [ -e "$1" ]; then bad "$2: partial output $1 left behind"; else ok; fi; }

# expect RC PATTERN DESCRIPTION -- command...: exit status RC and (when
# PATTERN is not empty) PATTERN in the combined output, kept in $tmp/out.
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
    if [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/out"; then
        bad "$what: output lacks '$pat'"
        sed 's/^/    /' "$tmp/out" | head -5 >&2
        return 1
    fi
    ok
    return 0
}

# inside_outside CERT CSV LABEL GEN...: the reference GEN prints (1000 rows,
# kept in CSV) lies in CERT's tube at every row, and GEN with a last argument
# 1e-9 (every value moved by 1e-9, kept in CSV.pert) at no row: a containment
# test that can fail. The inside check's report is left in $tmp/inside. Needs $exe.
inside_outside() {
    local cert=$1 csv=$2 label=$3
    shift 3
    "$@" > "$csv"
    expect 0 "inside: 0 of 1000" "$label: inside" -- "$exe" check "$cert" "$csv"
    cp "$tmp/out" "$tmp/inside"
    "$@" 1e-9 > "$csv.pert"
    expect 1 "outside: 1000 of 1000" "$label: moved by 1e-9, outside" -- "$exe" check "$cert" "$csv.pert"
}

# ref_tool NAME: the path of a reference generator of tests/ (NAME.c, built
# by meson into the working directory; compiled into $tmp when the script
# runs elsewhere): gen_traj (with ref_bridge.c) or gen_hyb_traj. Needs $src.
ref_tool() {
    local name=$1 extra=
    if [ -x "./$name" ]; then echo "./$name"; return 0; fi
    [ "$name" = gen_traj ] && extra="$src/tests/ref_bridge.c"
    cc -O2 -I"$src/tests" -o "$tmp/$name" "$src/tests/$name.c" $extra -lmpfr -lgmp -lm ||
        { echo "cannot build $name" >&2; exit 1; }
    echo "$tmp/$name"
}

# report: the summary line; exit status nonzero when any check failed.
report() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

# fake_gnuplot PATH [RECORD]: a stand-in gnuplot at PATH that records the
# script it is given (in RECORD, default $tmp/gp.in) and writes a minimal
# whole image at the script's 'set output' (a PNG signature and IEND chunk,
# or an empty SVG), as plot checks that the image is whole before it
# replaces anything.
fake_gnuplot() {
    local rec=${2:-$tmp/gp.in}
    cat > "$1" <<EOF
#!/bin/bash
cat > "$rec"
f=\$(sed -n "s/^set output '\\(.*\\)'\$/\\1/p" "$rec" | head -1)
[ -n "\$f" ] || exit 0
case \$(sed -n 's/^set terminal \([a-z]*\).*/\1/p' "$rec" | head -1) in
    svg) printf '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n' > "\$f" ;;
    *) printf '\211PNG\r\n\032\n\0\0\0\0IEND\256B\140\202' > "\$f" ;;
esac
EOF
    chmod +x "$1"
}
