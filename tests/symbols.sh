#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The shared library exports exactly the public API: every dynamic symbol it
# defines is a dvc_ function declared in include/dvicert/*.h, and every
# function declared there is defined and exported.
# Usage: symbols.sh LIBDVICERT.so INCLUDE_DIR
set -u
. "$(dirname "$0")/cli/lib.sh"
lib=$1
incdir=$2
command -v nm >/dev/null || { echo "nm not found (binutils)"; exit 77; }

nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWwDdBbRr]$/ {print $3}' | sed 's/@.*//' | sort -u > "$tmp/exported"
# Declarations: "name(" after a return type, outside comments and static inlines.
sed -e 's://.*$::' "$incdir"/dvicert/*.h | tr '\n' '\r' | sed -e 's:/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/: :g' | tr '\r' '\n' |
    grep -v '^[[:space:]]*#' | grep -v 'static' |
    grep -oE '(^|[[:space:]*])dvc_[A-Za-z0-9_]+[[:space:]]*\(([^*]|$)' | grep -oE 'dvc_[A-Za-z0-9_]+' | sort -u > "$tmp/declared"

[ -s "$tmp/exported" ] && ok || bad "no exported symbol found in $lib"
[ -s "$tmp/declared" ] && ok || bad "no declaration found under $incdir"
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
missing=$(comm -13 "$tmp/exported" "$tmp/declared")
if [ -z "$extra" ]; then ok; else bad "exported but not declared in a public header: $(echo $extra)"; fi
if [ -z "$missing" ]; then ok; else bad "declared in a public header but not exported: $(echo $missing)"; fi
echo "exported: $(wc -l < "$tmp/exported"), declared: $(wc -l < "$tmp/declared")"
report
