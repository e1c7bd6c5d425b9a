#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# Driver for the libFuzzer harnesses (see meson.build here):
#   fuzz.sh replay EXE DIR...                      every file of the DIRs once
#   fuzz.sh fuzz EXE NAME SEEDS WORK ARTIFACTS DICT  fuzz for DVC_FUZZ_SECONDS
# Fails on any crash, leak, undefined behaviour, timeout (10 s per input) or
# memory blow-up (2 GB), printing the input that caused it.
set -uo pipefail
mode=$1 exe=$(realpath "$2")
shift 2
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# the harnesses write each input to a file under TMPDIR (in memory when
# possible); a crashing input skips their cleanup, so remove it all here
TMPDIR=$(mktemp -d /dev/shm/dvc-fuzz.XXXXXX 2>/dev/null || mktemp -d)
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
limits=(-rss_limit_mb=2048 -timeout=10)
# A fixed seed (DVC_FUZZ_SEED, default 1) makes the CI run the same mutations
# each time, so CI passes or fails on the code, not on luck; DVC_FUZZ_SEED=0
# lets libFuzzer pick a new seed for exploratory runs.
seed=(-seed="${DVC_FUZZ_SEED:-1}")

case "$mode" in
replay)
    n=0 bad=0
    log=$TMPDIR/replay.log
    for dir in "$@"; do
        [ -d "$dir" ] || continue
        for f in "$dir"/*; do
            [ -f "$f" ] || continue
            n=$((n + 1))
            if ! "$exe" "${limits[@]}" "$f" </dev/null >"$log" 2>&1; then
                bad=$((bad + 1))
                echo "FAILED: $f"
                grep -E "ERROR|SUMMARY|runtime error|property violated|ALARM" "$log" | head -5
                echo "  reproduce: $exe $f"
            fi
        done
    done
    echo "$(basename "$exe"): $n inputs replayed, $bad failed"
    [ "$bad" -eq 0 ]
    ;;
fuzz)
    name=$1 seeds=$2 work=$3 art=$4 dict=${5:-}
    secs=${DVC_FUZZ_SECONDS:-20}
    mkdir -p "$work" "$art"
    log="$art/fuzz.log"
    start=$(date +%s)
    # new inputs go to the first directory (work); stdout/stderr of the
    # code under test are closed, libFuzzer's own report stays
    "$exe" "${limits[@]}" "${seed[@]}" -max_total_time="$secs" -close_fd_mask=3 -print_final_stats=1 \
        -artifact_prefix="$art/" ${dict:+-dict="$dict"} "$work" "$seeds" </dev/null >"$log" 2>&1
    rc=$?
    execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
    echo "$name: ${execs:-?} executions in $(( $(date +%s) - start )) s (${cov:-cov: ?}), exit $rc"
    if [ "$rc" -ne 0 ]; then
        grep -E "ERROR|SUMMARY|runtime error|property violated|ALARM|Test unit written" "$log" | head -10
        sed -n 's/.*Test unit written to //p' "$log" | while read -r f; do
            echo "  reproduce: $exe $f"
        done
        echo "  full log: $log"
        exit 1
    fi
    ;;
*)
    echo "usage: fuzz.sh replay EXE DIR... | fuzz EXE NAME SEEDS WORK ARTIFACTS [DICT]" >&2
    exit 2
    ;;
esac
