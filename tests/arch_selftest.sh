#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# tests/arch.sh on small trees built here: each rule it enforces is broken
# once on purpose (a 1,001-line file, a 151-line function, an io header and
# an io-only function used from src/dlvi, tube.h reaching dlvi.h through
# another header, a cert <-> hybrid include cycle) and must be reported with
# its file:line; the limits themselves (1,000 and 150 lines), a justified
# exception and a clean tree must pass; a stale exception must not.
# Usage: arch_selftest.sh [ARCH_SH]
set -u
. "$(dirname "$0")/cli/lib.sh"
arch=${1:-"$(dirname "$0")/arch.sh"}
command -v python3 >/dev/null || { echo "python3 not found"; exit 77; }

# lines N: N lines of a function body.
body() { local i; for ((i = 0; i < $1; i++)); do echo "    x += $i;"; done; }
# func NAME TOTAL: a function of TOTAL lines, signature to closing brace,
# with its return type on a line of its own.
func() {
    printf 'static int\n%s(int x)\n{\n' "$1"
    body $(($2 - 5))
    printf '    return x;\n}\n'
}

# A clean tree: every rule holds, sizes exactly at the limits.
clean=$tmp/clean
mkdir -p "$clean/src/io" "$clean/src/dlvi" "$clean/src/hybrid" "$clean/src/cli" \
         "$clean/include/dvicert" "$clean/docs"
{
    echo '/* SPDX-License-Identifier: LGPL-3.0-or-later */'
    echo '#include "dvicert/dlvi.h"'
    echo 'struct s { int a; };'
    echo 'static const int tbl[] = { 1, 2 };'
    func at_limit 150
    echo '/* "}" in a comment and a string: "{" */'
    echo 'static const char *str = "{{{";'
    yes '/* filler */' | head -n $((1000 - 6 - 150))
} > "$clean/src/dlvi/ok.c"
printf '#include "dvicert/ival.h"\n' > "$clean/include/dvicert/tube.h"
printf '#include "dvicert/tube.h"\n' > "$clean/include/dvicert/dlvi.h"
printf '#include "dvicert/ival.h"\nint dvc_ival_x(void);\n' > "$clean/include/dvicert/ival.h"
printf '#include "dvicert/dlvi.h"\n' > "$clean/include/dvicert/cert.h"
printf '#ifdef __cplusplus\nextern "C" {\n#endif\nint dvc_io_only_(void);\n#ifdef __cplusplus\n}\n#endif\n' \
    > "$clean/src/io/io_private.h"
printf '#include "io/io_private.h"\n#include "dvicert/cert.h"\nint f(void) { return dvc_io_only_(); }\n' \
    > "$clean/src/cli/cmd.c"
printf '#include "dvicert/cert.h"\nint g(void) { return 0; }\n' > "$clean/src/cert.c"
# a static namesake of an io-only function is the file's own
printf 'static int dvc_io_only_(void) { return 1; }\nint k(void) { return dvc_io_only_(); }\n' \
    > "$clean/src/own.c"
printf '# Architecture\n\n## Justified exceptions\n\n| file:function | why |\n|---|---|\n' \
    > "$clean/docs/architecture.md"

n=$(wc -l < "$clean/src/dlvi/ok.c")
[ "$n" -eq 1000 ] && ok || bad "clean tree: ok.c has $n lines, not 1000"
expect 0 'total 0 violation' "clean tree passes" -- bash "$arch" "$clean"

# The bad tree: the clean one with one violation of each kind.
b=$tmp/bad
cp -r "$clean" "$b"
{ cat "$clean/src/dlvi/ok.c"; echo '/* one line too many */'; } > "$b/src/big.c"
{
    echo '#include "io/io_private.h"'
    func too_long 151
    printf 'int h(void)\n{\n    return dvc_io_only_();\n}\n'
} > "$b/src/dlvi/bad.c"
printf '#include "dvicert/cert.h"\n' > "$b/src/hybrid/uses_cert.c"
printf '#include "dvicert/dlvi.h"\n#include "dvicert/hybrid.h"\n' > "$b/include/dvicert/cert.h"
printf '#include "dvicert/ival.h"\n' > "$b/include/dvicert/hybrid.h"
printf '#include "dvicert/width.h"\n' > "$b/include/dvicert/tube.h"
printf '#include "dvicert/lognorm.h"\n' > "$b/include/dvicert/width.h"
printf '#include "dvicert/dlvi.h"\n' > "$b/include/dvicert/lognorm.h"

expect 1 '' "bad tree fails" -- bash "$arch" "$b"
cp "$tmp/out" "$tmp/bad.out"
has() {
    if grep -qF -- "$1" "$tmp/bad.out"; then ok; else bad "not reported: $1"; sed 's/^/    /' "$tmp/bad.out" >&2; fi
}
has 'size: src/big.c:1001: file has 1001 lines'
has 'size: src/dlvi/bad.c:2: function too_long has 151 lines'
has 'io: src/dlvi/bad.c:1: includes io/io_private.h'
has 'io: src/dlvi/bad.c:155: uses dvc_io_only_'
has 'tube: include/dvicert/tube.h:1: tube.h reaches engine header dvicert/lognorm.h (through include/dvicert/width.h:1)'
has 'cycle: src/hybrid/uses_cert.c:1: engine hybrid includes cert header dvicert/cert.h'
has 'cycle: include/dvicert/cert.h:2: cert -> hybrid, on the cycle among {cert, hybrid}'
has 'cycle: src/hybrid/uses_cert.c:1: hybrid -> cert, on the cycle among {cert, hybrid}'
has 'total 9 violation(s)'
if grep -q 'ok.c\|own.c\|src/cli/\|src/cert.c' "$tmp/bad.out"; then bad "a clean file reported"; else ok; fi
expect 0 'total 9 violation(s) (report only)' "--report exits 0" -- bash "$arch" --report "$b"

# Justified exceptions come from docs/architecture.md; a stale one fails.
printf '| `src/big.c` | a table |\n| `src/dlvi/bad.c:too_long` | a switch |\n' >> "$b/docs/architecture.md"
expect 1 'total 7 violation(s)' "exceptions listed in the doc are accepted" -- bash "$arch" "$b"
if grep -q 'big.c\|too_long' "$tmp/out"; then bad "an excepted entry reported"; else ok; fi
printf '| `src/dlvi/ok.c:at_limit` | not above the limit |\n' >> "$b/docs/architecture.md"
expect 1 'exception src/dlvi/ok.c:at_limit matches no file or function' "stale exception" -- \
    bash "$arch" "$b"
report
