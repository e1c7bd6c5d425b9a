#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# One entry point for the quick start and CI:
#   bash tests/run.sh example   install what is missing, build, run the bundled example
#   bash tests/run.sh all       install what is missing, build, run the whole test suite
#   bash tests/run.sh sanitize  the test suite again under AddressSanitizer + UBSan
#   bash tests/run.sh fuzz      libFuzzer harnesses (clang, build-fuzz): replay the seed
#                               corpora and regression inputs, then fuzz each reader for
#                               DVC_FUZZ_SECONDS (default 20) seconds; see tests/fuzz/meson.build
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS="libmpfi-dev libmpfr-dev libgmp-dev libjansson-dev zlib1g-dev nettle-dev meson ninja-build pkg-config gcc gnuplot-nox python3-numpy"

install_missing() {
    local missing=()
    for p in $PKGS; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build() { # build DIR [meson options...]
    local dir=$1; shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@" >/dev/null
    fi
    meson compile -C "$dir" >/dev/null
}

mode=${1:-all}
# the fuzzer runtime is only a recommendation of clang on Debian
if [ "$mode" = fuzz ]; then PKGS="$PKGS clang libclang-rt-14-dev"; fi
install_missing
case "$mode" in
example)
    build build
    bash tests/example.sh build
    ;;
all)
    build build
    meson test -C build --print-errorlogs
    ;;
sanitize)
    build build-san -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C build-san --print-errorlogs -t 4
    ;;
fuzz)
    if [ ! -f build-fuzz/build.ninja ]; then
        CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined \
            -Db_lundef=false -Ddefault_library=static >/dev/null
    fi
    meson compile -C build-fuzz fuzz >/dev/null
    # one harness at a time: each fuzzing run takes a core
    meson test -C build-fuzz --no-rebuild --suite fuzz --suite fuzz-run --num-processes 1 -v
    ;;
*)
    echo "usage: bash tests/run.sh [example|all|sanitize|fuzz]" >&2
    exit 2
    ;;
esac
