#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The speed comparisons (dvicert against its engine and against the floating-point
# tools) in one run, each printed as a ratio:
#  1. certificate I/O vs the engine: `dvicert enclose --method chen-wang` and `dvicert verify`
#     (whole processes) against the engine's own time on the same problem
#     (bench_certio: the engine alone in one process), on the bridge
#     (h = 1e-4, T = 1) and the chain of k = 2 and 8 masses (h = 1e-4);
#     target enclose/engine and verify/engine <= 1.3;
#  2. `dvicert enclose --method lognorm` against Siconos' float time
#     stepping of the same problem on the same grid (whole processes,
#     paired: run in turns), when `/usr/bin/python3 -c 'import
#     siconos.kernel'` works (Debian package python3-siconos); skipped
#     otherwise; target dvicert/Siconos <= 1;
#  2b. the events route (the exact solution; `dvicert enclose`'s default)
#     against Siconos at h = 1e-3 and 1e-4: the pounding (T = 20, three
#     tones) and the chain of k = 2, 4, 8, 16 masses (T = 1; with --large
#     also k = 32, 64, minutes); target <= 1 at h = 1e-4;
#  2c. the hybrid engine against scipy's DOP853 with events (rtol 1e-10;
#     bench/scipy_hybrid.py, when /usr/bin/python3 imports scipy: Debian
#     python3-scipy) on certs/elliptic, stickslip and threemass: the
#     integration loops alone (bench_hybrid --model) and whole processes,
#     paired; targets loop <= 3, process <= 1;
#  2d. the cost of a certified radius <= 1e-4 on the chain of 8 masses (T = 1):
#     dvicert's default route against Siconos at the coarsest h of 1e-2,
#     1e-3, 1e-4, 1e-5 (theta = 0.5) whose actual error at T (distance of its x(T) from the
#     certified enclosure) is <= 1e-4; target <= 1;
#  2f. the default route (whatever --method auto picks) on the long chains
#     against Siconos at h = 1e-4: k = 32 (T = 1), 64 (T = 0.1), 128
#     (T = 0.01), with the route and its verdict; target <= 1;
#  2e. chen-wang --local-beta against plain chen-wang on the chain of k = 8
#     and 32 masses (h = 1e-4, T = 1): CPU ratio and how much tighter the
#     radius is (target: the cost proportional to nnz(Q), used by auto only
#     where it pays);
#  3. bench_lvi (certified LCP vs Lemke), bench_beta, bench_solve, bench_expr
#     (the bridge with f as expressions: certified / predictor of both
#     routes, and the lognorm route per step against Algorithm 4.2);
#  3b. beta_M of the nonsymmetric positive definite matrices of bench_beta
#     (m = 24: target <= 5 s, gap <= 1e-9; m = 30: gap <= 1e-6 within the
#     default 60 s budget) through `dvicert beta`, and `dvicert lcp-all -o`
#     against its engine (bench_lcpall: n = 17, target process <= 2x engine;
#     n = 20, 2^20 solutions, target <= 10 s with flat memory).
# Times are the best of R runs (wall clock; CPU seconds of the child next to
# them, which the load of a shared machine disturbs less).
#
# usage: bench/compare.sh [BUILD_DIR] [--large] [--runs R] [--no-others] [--hybrid] [--cost]
#                         [--events [--base BUILD2]] [--extra]
#   BUILD_DIR   meson build directory (default: build), built beforehand
#   --large     also the bridge at N = 1e6 and the chains k = 32, 64 in 2b (minutes)
#   --no-others skip part 3
#   --hybrid    part 2c only
#   --cost      part 2d only
#   --events    part 2b only, with the chain k = 32 (k = 64 too with --large)
#   --base B2   with --events: also B2's dvicert (an older build) in the same
#               turns, its CPU seconds and ratio to Siconos beside the others
#   --extra     parts 2f, 2e and 3b only
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=build
large=0
runs=3
others=1
hybrid_only=0
cost_only=0
events_only=0
extra_only=0
base=
while [ $# -gt 0 ]; do
    case $1 in
        --large) large=1 ;;
        --runs) shift; runs=$1 ;;
        --no-others) others=0 ;;
        --hybrid) hybrid_only=1 ;;
        --cost) cost_only=1 ;;
        --events) events_only=1 ;;
        --base) shift; base=$1 ;;
        --extra) extra_only=1 ;;
        -h|--help) sed -n '2,56p' "$0"; exit 0 ;;
        *) build=$1 ;;
    esac
    shift
done
dvicert=$build/dvicert
certio=$build/bench/bench_certio
for b in "$dvicert" "$certio"; do
    [ "$hybrid_only$cost_only$events_only$extra_only" != 0000 ] && [ "$b" = "$certio" ] && continue
    [ -x "$b" ] || { echo "compare.sh: $b not found: build first (ninja -C $build)" >&2; exit 2; }
done
py=$(command -v python3 || echo /usr/bin/python3)
tmp=$(mktemp -d /tmp/dvc_compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# best-of wall and CPU seconds of a command: "wall cpu"
TIMEFORMAT='%R %U %S'
once() {
    local t
    t=$( { time "$@" >/dev/null 2>&1; } 2>&1 | tail -n 1)
    echo "$t" | awk '{printf "%.4f %.4f\n", $1, $2 + $3}'
}
min2() { # "w1 c1" "w2 c2" -> the smaller of each
    echo "$1 $2" | awk '{w = $1 < $3 ? $1 : $3; c = $2 < $4 ? $2 : $4; printf "%.4f %.4f\n", w, c}'
}
# has_siconos: /usr/bin/python3 imports Siconos (Debian python3-siconos)
has_siconos() { /usr/bin/python3 -c 'import siconos.kernel' >/dev/null 2>&1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "nan" }'; }

# 2c: the hybrid engine against scipy (see the header)
hybrid_rows() {
    echo
    hyb=$build/bench/bench_hybrid
    if [ -x "$hyb" ] && /usr/bin/python3 -c 'import scipy.integrate' >/dev/null 2>&1; then
        echo "2c. the hybrid engine vs scipy's DOP853 with events (rtol 1e-10, atol 1e-12, restarted"
        echo "    at each event, Filippov sliding; bench/scipy_hybrid.py), best of $runs, CPU seconds:"
        echo "    loop: bench_hybrid --model (dvc_hybrid_enclose alone) / the scipy integration loop;"
        echo "    process: dvicert enclose -o / python3 scipy_hybrid.py (whole processes, in turns)"
        printf "%-10s %8s %8s %6s | %8s %8s %6s | %s\n" problem engine scipy loop dvicert python process events
        for f in elliptic stickslip threemass; do
            model=$here/../certs/$f/$f.json
            [ -f "$model" ] || continue
            eng=$("$hyb" --model "$model" --runs "$runs" | awk '{print $2, $6}')
            sp=$(/usr/bin/python3 "$here/scipy_hybrid.py" "$model" "$runs" | awk '{print $2, $4}')
            bd="1e9 1e9"
            bp="1e9 1e9"
            for r in $(seq "$runs"); do # paired: each run of one next to one of the other
                bd=$(min2 "$bd" "$(once "$dvicert" enclose "$model" -o "$tmp/$f.cert.json")")
                bp=$(min2 "$bp" "$(once /usr/bin/python3 "$here/scipy_hybrid.py" "$model")")
            done
            set -- $eng $sp $bd $bp
            printf "%-10s %8.4f %8.4f %6s | %8.4f %8.4f %6s | %s / %s\n" "$f" "$1" "$3" "$(ratio "$1" "$3")" \
                "$6" "$8" "$(ratio "$6" "$8")" "$2" "$4"
            rm -f "$tmp/$f.cert.json"
        done
        echo "    targets: loop <= 3, process <= 1 (events: dvicert's / scipy's, which must agree)"
    else
        echo "2c. scipy: skipped (bench_hybrid not built, or /usr/bin/python3 cannot import scipy;"
        echo "    Debian: apt-get install python3-scipy)"
    fi
}
# 2d: the cost of a certified radius <= 1e-4 (see the header)
cost_rows() {
    echo
    if ! has_siconos; then
        echo "2d. Siconos: skipped (/usr/bin/python3 cannot import siconos)"
        return
    fi
    echo "2d. the cost of a certified radius <= 1e-4 at T, chain of 8 masses, T = 1: dvicert's default"
    echo "    route against Siconos (theta = 0.5) at the coarsest h whose actual error at T is <= 1e-4"
    echo "    (error: the largest distance of Siconos' x(T) from dvicert's certified x(T)); whole"
    echo "    processes, best of $runs, CPU seconds"
    "$py" "$here/siconos_dlvi.py" problem chain 8 1000 "$tmp/cost8.json" || exit 2
    if ! "$dvicert" enclose "$tmp/cost8.json" -o "$tmp/cost8.cert.json" >/dev/null 2>&1 ||
        ! "$dvicert" export "$tmp/cost8.cert.json" -o "$tmp/cost8.csv" --grid-only >/dev/null 2>&1; then
        echo "    dvicert refused the problem"
        return
    fi
    local last rad N err pick="" sx
    last=$(awk -F, '$1 == "grid"' "$tmp/cost8.csv" | tail -n 1)
    rad=$(echo "$last" | awk -F, '{r = 0; for (i = 4; i + 1 <= 35; i += 2) if (($(i+1) - $i) / 2 > r) r = ($(i+1) - $i) / 2; printf "%.3g", r}')
    printf "    dvicert: radius at T %s\n" "$rad"
    printf "%-10s %10s %10s\n" "Siconos N" "error" "<= 1e-4"
    for N in 100 1000 10000 100000; do
        sx=$(/usr/bin/python3 "$here/siconos_dlvi.py" run chain 8 "$N" --theta 0.5 | sed -n 's/.*x(T) \(.*\) loop_s.*/\1/p')
        err=$(awk -F, -v s="$sx" -v line="$last" 'BEGIN {
            n = split(s, x, " "); split(line, c, ","); e = 0
            for (i = 1; i <= n; i++) { lo = c[2 + 2 * i]; hi = c[3 + 2 * i]
                d = x[i] < lo ? lo - x[i] : (x[i] > hi ? x[i] - hi : 0); if (d > e) e = d }
            printf "%.3g", e }')
        printf "%-10s %10s %10s\n" "$N" "$err" "$(awk -v e="$err" 'BEGIN { print (e <= 1e-4 ? "yes" : "no") }')"
        [ -z "$pick" ] && awk -v e="$err" 'BEGIN { exit !(e <= 1e-4) }' && pick=$N && break
    done
    [ -n "$pick" ] || { echo "    Siconos does not reach 1e-4 at N <= 100000"; return; }
    local bd="1e9 1e9" bs="1e9 1e9"
    for ((k = 0; k < runs; k++)); do
        bd=$(min2 "$bd" "$(once "$dvicert" enclose "$tmp/cost8.json" -o "$tmp/cost8.cert.json")")
        bs=$(min2 "$bs" "$(once /usr/bin/python3 "$here/siconos_dlvi.py" run chain 8 "$pick" --theta 0.5)")
    done
    read -r _ dc <<<"$bd"
    read -r _ sc <<<"$bs"
    printf "    dvicert %.3f s (radius %s), Siconos N = %s %.3f s: ratio %s (target <= 1)\n" "$dc" "$rad" \
        "$pick" "$sc" "$(ratio "$dc" "$sc")"
}
# 2f: the default route on the long chains (see the header)
default_rows() {
    echo
    if ! has_siconos; then
        echo "2f. Siconos: skipped (/usr/bin/python3 cannot import siconos)"
        return
    fi
    echo "2f. dvicert's default route (--method auto) vs Siconos on the long chains, h = 1e-4; whole"
    echo "    processes, paired, best of $runs, CPU seconds; the route auto chose and enclose's verdict"
    printf "%-10s %6s %9s %9s %7s  %s\n" problem T dvicert Siconos ratio "route / verdict"
    for p in "32 1 10000" "64 0.1 1000" "128 0.01 100"; do
        set -- $p
        "$py" "$here/siconos_dlvi.py" problem chain "$1" "$3" "$tmp/dc$1.json" --T "$2" || exit 2
        local bd="1e9 1e9" bs="1e9 1e9" log route verdict
        for ((r = 0; r < runs; r++)); do
            bd=$(min2 "$bd" "$(once "$dvicert" enclose "$tmp/dc$1.json" -o "$tmp/dc.cert.json")")
            bs=$(min2 "$bs" "$(once /usr/bin/python3 "$here/siconos_dlvi.py" run chain "$1" "$3" --T "$2")")
        done
        log=$("$dvicert" enclose "$tmp/dc$1.json" -o "$tmp/dc.cert.json" 2>&1)
        route=$(echo "$log" | sed -n 's/^route: \([^,]*\), chosen.*/\1/p' | head -n 1)
        verdict=$(echo "$log" | sed -n 's/^verdict: \([^;)]*\).*/\1/p' | head -n 1)
        case $verdict in *"("*) verdict="$verdict)" ;; esac
        read -r _ dc <<<"$bd"
        read -r _ sc <<<"$bs"
        printf "%-10s %6s %9.3f %9.3f %7s  %s / %s\n" "chain$1" "$2" "$dc" "$sc" "$(ratio "$dc" "$sc")" \
            "${route:-?}" "${verdict:-?}"
        rm -f "$tmp/dc.cert.json"
    done
    echo "    target: ratio <= 1 whichever route auto picks"
}
# 2e: chen-wang --local-beta against plain chen-wang (see the header)
localbeta_rows() {
    echo
    echo "2e. chen-wang --local-beta vs plain chen-wang, chain of k masses, h = 1e-4, T = 1; best of $runs,"
    echo "    CPU seconds; radius = the largest radius relative to the state's size (enclose's verdict)"
    printf "%-10s %10s %10s %8s %12s %12s %10s\n" problem plain local cost "radius plain" "radius local" tighter
    for k in 8 32; do
        "$py" "$here/siconos_dlvi.py" problem chain "$k" 10000 "$tmp/lb$k.json" || exit 2
        local bp="1e9 1e9" bl="1e9 1e9" rp rl
        for ((r = 0; r < runs; r++)); do
            bp=$(min2 "$bp" "$(once "$dvicert" enclose "$tmp/lb$k.json" -o "$tmp/lb.cert.json" --method chen-wang)")
            bl=$(min2 "$bl" "$(once "$dvicert" enclose "$tmp/lb$k.json" -o "$tmp/lb.cert.json" --method chen-wang \
                --local-beta)")
        done
        rp=$("$dvicert" enclose "$tmp/lb$k.json" -o "$tmp/lb.cert.json" --method chen-wang 2>&1 |
            sed -n 's/.*the largest radius is \([^ ]*\) times.*/\1/p' | head -n 1)
        rl=$("$dvicert" enclose "$tmp/lb$k.json" -o "$tmp/lb.cert.json" --method chen-wang --local-beta 2>&1 |
            sed -n 's/.*the largest radius is \([^ ]*\) times.*/\1/p' | head -n 1)
        read -r _ cp <<<"$bp"
        read -r _ cl <<<"$bl"
        printf "%-10s %10.3f %10.3f %8s %12s %12s %10s\n" "chain$k" "$cp" "$cl" "$(ratio "$cl" "$cp")" "${rp:-?}" \
            "${rl:-?}" "$(ratio "${rp:-0}" "${rl:-0}")"
        rm -f "$tmp/lb.cert.json"
    done
    echo "    cost = local / plain (CPU), tighter = radius plain / radius local"
}
# 3b: beta_M past m = 20 and lcp-all at 2^17, 2^20 solutions (see the header)
beta_lcp_rows() {
    echo
    echo "3b. beta_M, nonsymmetric positive definite (bench_beta json M), dvicert beta with its defaults"
    echo "    (60 s wall budget, one thread per processor: $(nproc 2>/dev/null || echo ?)); wall and CPU seconds"
    echo "    of the process, load average $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?) at the start"
    local bb=$build/bench/bench_beta lc=$build/bench/bench_lcpall
    if [ -x "$bb" ]; then
        printf "%-6s %8s %8s %22s %22s %10s  %s\n" m wall CPU lower upper gap method
        for m in 24 30; do
            "$bb" json "$m" > "$tmp/beta$m.json"
            local t w out lo hi how
            out=$( { TIMEFORMAT='%R %U %S'; time "$dvicert" beta "$tmp/beta$m.json" > "$tmp/beta.out" 2>&1; } 2>&1 | tail -n 1)
            w=$(echo "$out" | awk '{printf "%.2f", $1}')
            t=$(echo "$out" | awk '{printf "%.2f", $2 + $3}')
            lo=$(sed -n 's/^beta_M lower: //p' "$tmp/beta.out")
            hi=$(sed -n 's/^beta_M upper: //p' "$tmp/beta.out")
            how=$(sed -n 's/^beta_M method: //p' "$tmp/beta.out")
            printf "%-6s %8s %8s %22s %22s %10s  %s\n" "$m" "$w" "$t" "${lo:-?}" "${hi:-?}" \
                "$(awk -v a="${lo:-0}" -v b="${hi:-0}" 'BEGIN { if (a > 0) printf "%.2g", (b - a) / a; else print "?" }')" \
                "${how:-?}"
        done
        echo "    targets: m = 24 <= 5 s with gap <= 1e-9; m = 30 gap <= 1e-6 within 60 s"
    else
        echo "    bench_beta not built"
    fi
    echo
    echo "3b. lcp-all -o against its engine (bench_lcpall DVICERT N)"
    if [ -x "$lc" ]; then
        "$lc" "$dvicert" | grep '^lcp-all'
        "$lc" "$dvicert" 20 | grep '^lcp-all'
        echo "    targets: process <= 2x engine (CPU); n = 20 within 10 s, memory flat"
    else
        echo "    bench_lcpall not built"
    fi
}
event_rows() {
    echo "2b. the events route (the exact solution, no time step) vs Siconos at h = 1e-3 and 1e-4,"
    echo "   whole processes, paired, best of $runs; CPU seconds; width = the widest state enclosure at T"
    if [ -n "$base" ]; then
        printf "%-10s %10s %10s %10s %8s %8s %10s %8s %10s\n" problem events "Sic 1e-3" "Sic 1e-4" ratio3 \
            ratio4 width base "b ratio4"
    else
        printf "%-10s %10s %10s %10s %8s %8s %10s\n" problem events "Sic 1e-3" "Sic 1e-4" ratio3 ratio4 width
    fi
    ev=("pounding pounding 0 20" "chain2 chain 2 1" "chain4 chain 4 1" "chain8 chain 8 1" "chain16 chain 16 1")
    [ "$large$events_only" != 00 ] && ev+=("chain32 chain 32 1")
    [ "$large" = 1 ] && ev+=("chain64 chain 64 1")
    cp "$here/../tests/data/events/pounding3.json" "$tmp/pounding.json"
    for p in "${ev[@]}"; do
        set -- $p
        [ "$2" = chain ] && { "$py" "$here/siconos_dlvi.py" problem chain "$3" 1000 "$tmp/$1.json" || exit 2; }
        N3=$(awk -v T="$4" 'BEGIN { printf "%d", T * 1000 }')
        bd="1e9 1e9"
        bb="1e9 1e9"
        b3="1e9 1e9"
        b4="1e9 1e9"
        for ((k = 0; k < runs; k++)); do
            bd=$(min2 "$bd" "$(once "$dvicert" enclose "$tmp/$1.json" -o "$tmp/$1.cert.json" --method events)")
            [ -n "$base" ] && bb=$(min2 "$bb" "$(once "$base/dvicert" enclose "$tmp/$1.json" -o "$tmp/$1.base.json" \
                --method events)")
            b3=$(min2 "$b3" "$(once /usr/bin/python3 "$here/siconos_dlvi.py" run "$2" "$3" "$N3")")
            b4=$(min2 "$b4" "$(once /usr/bin/python3 "$here/siconos_dlvi.py" run "$2" "$3" "$((N3 * 10))")")
        done
        w=$("$dvicert" enclose "$tmp/$1.json" -o "$tmp/$1.cert.json" --method events 2>&1 |
            sed -n 's/.*widest state enclosure at T <= //p')
        read -r dw dc <<<"$bd"
        read -r sw3 sc3 <<<"$b3"
        read -r sw4 sc4 <<<"$b4"
        read -r bw bc <<<"$bb"
        if [ -n "$base" ]; then
            cmp -s "$tmp/$1.cert.json" "$tmp/$1.base.json" || w="$w(differs)"
            printf "%-10s %10.3f %10.3f %10.3f %8s %8s %10s %8.3f %10s\n" "$1" "$dc" "$sc3" "$sc4" \
                "$(ratio "$dc" "$sc3")" "$(ratio "$dc" "$sc4")" "${w:-refused}" "$bc" "$(ratio "$bc" "$sc4")"
        else
            printf "%-10s %10.3f %10.3f %10.3f %8s %8s %10s\n" "$1" "$dc" "$sc3" "$sc4" "$(ratio "$dc" "$sc3")" \
                "$(ratio "$dc" "$sc4")" "${w:-refused}"
        fi
        rm -f "$tmp/$1.cert.json" "$tmp/$1.base.json"
    done
    echo "   ratio3, ratio4 = dvicert events / Siconos at h = 1e-3, 1e-4 (target <= 1 at 1e-4)"
    [ -n "$base" ] && echo "   base = CPU seconds of $base/dvicert in the same turns, b ratio4 its ratio4;" \
        "(differs): its certificate is not byte-identical"
}
if [ "$events_only" = 1 ]; then
    has_siconos ||
        { echo "compare.sh: --events needs Siconos (/usr/bin/python3 cannot import siconos)" >&2; exit 2; }
    echo "load: $(uptime)"
    event_rows
    exit 0
fi
[ "$hybrid_only" = 1 ] && { hybrid_rows; exit 0; }
[ "$extra_only" = 1 ] && { default_rows; localbeta_rows; beta_lcp_rows; exit 0; }
[ "$cost_only" = 1 ] && { cost_rows; exit 0; }

# the problems: name kind k N
probs=("bridge bridge 0 10000" "chain2 chain 2 10000" "chain8 chain 8 10000")
[ "$large" = 1 ] && probs+=("bridge1e6 bridge 0 1000000")
for p in "${probs[@]}"; do
    set -- $p
    "$py" "$here/siconos_dlvi.py" problem "$2" "$3" "$4" "$tmp/$1.json" || exit 2
done

echo "1. certificate I/O vs the engine (best of $runs; CPU seconds, the wall-clock ratios after them)"
echo "   engine: bench_certio, the engine alone in one process (enclose: predictor + certification;"
echo "   certify: certification from the stored predictor, what verify recomputes);"
echo "   enclose / verify: whole dvicert processes (start, problem file, proofs, certificate)"
printf "%-10s %8s %8s %8s %6s %8s %8s %6s | %6s %6s | %9s\n" problem N engine enclose ratio certify verify ratio \
    wall wall in-proc
for p in "${probs[@]}"; do
    set -- $p
    name=$1
    r=$("$certio" "$tmp/$name.json" "$runs" "$tmp/$name.inproc.cert.json") || { echo "$name: bench_certio failed"; continue; }
    read -r N n m eng encin cer verin engc encinc cerc verinc <<<"$r"
    be="1e9 1e9"
    bv="1e9 1e9"
    for ((k = 0; k < runs; k++)); do
        # the route bench_certio's engine runs (Algorithm 4.2, tests/enclose_call.h)
        be=$(min2 "$be" "$(once "$dvicert" enclose "$tmp/$name.json" -o "$tmp/$name.cert.json" --method chen-wang)")
        bv=$(min2 "$bv" "$(once "$dvicert" verify "$tmp/$name.cert.json")")
    done
    "$dvicert" verify "$tmp/$name.cert.json" >/dev/null 2>&1 || echo "$name: the certificate does not verify"
    read -r ew ec <<<"$be"
    read -r vw vc <<<"$bv"
    printf "%-10s %8s %8.4f %8.4f %6s %8.4f %8.4f %6s | %6s %6s | %4s/%-4s\n" "$name" "$N" "$engc" "$ec" \
        "$(ratio "$ec" "$engc")" "$cerc" "$vc" "$(ratio "$vc" "$cerc")" "$(ratio "$ew" "$eng")" \
        "$(ratio "$vw" "$cer")" "$(ratio "$encinc" "$engc")" "$(ratio "$verinc" "$cerc")"
    rm -f "$tmp/$name.cert.json" "$tmp/$name.inproc.cert.json"
done
echo "   ratio = whole process / engine (target <= 1.3); wall = the same on the wall clock"
echo "   (enclose, verify); in-proc = enclose / engine and verify / certify inside one process"
echo "   (CPU: what the certificate costs without process start)"

echo
if has_siconos; then
    echo "2. dvicert enclose vs Siconos float time stepping (EulerMoreauOSI theta = 1, LCP by Lemke),"
    echo "   whole processes, paired (in turns), best of $runs; seconds"
    printf "%-10s %8s %10s %10s %10s %10s %8s %8s\n" problem N dvicert "(cpu)" Siconos "(cpu)" ratio "(cpu)"
    for p in "${probs[@]}"; do
        set -- $p
        [ "$4" -gt 100000 ] && continue
        bd="1e9 1e9"
        bs="1e9 1e9"
        for ((k = 0; k < runs; k++)); do
            bd=$(min2 "$bd" "$(once "$dvicert" enclose "$tmp/$1.json" -o "$tmp/$1.cert.json" --method lognorm)")
            bs=$(min2 "$bs" "$(once /usr/bin/python3 "$here/siconos_dlvi.py" run "$2" "$3" "$4")")
        done
        read -r dw dc <<<"$bd"
        read -r sw sc <<<"$bs"
        printf "%-10s %8s %10.4f %10.4f %10.4f %10.4f %8s %8s\n" "$1" "$4" "$dw" "$dc" "$sw" "$sc" \
            "$(ratio "$dw" "$sw")" "$(ratio "$dc" "$sc")"
        rm -f "$tmp/$1.cert.json"
    done
    echo "   ratio = dvicert / Siconos (target <= 1: certified no slower than the float tool)"
    echo
    event_rows
    default_rows
    cost_rows
else
    echo "2. Siconos: skipped (/usr/bin/python3 cannot import siconos; Debian: apt-get install python3-siconos)"
fi

hybrid_rows
localbeta_rows

if [ "$others" = 1 ]; then
    for b in bench_lvi:0.2 bench_beta: bench_solve:0.2 bench_expr:; do
        exe=$build/bench/${b%%:*}
        arg=${b#*:}
        echo
        if [ -x "$exe" ]; then
            echo "3. ${b%%:*} ${arg}"
            "$exe" $arg
        else
            echo "3. ${b%%:*}: not built"
        fi
    done
fi
[ "$others" = 1 ] && beta_lcp_rows
