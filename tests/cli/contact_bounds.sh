#!/bin/bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The contact multipliers' bounds agree between the outputs (issue 21,
# item 6): on the diode clamp (an ideal contact, y the diode current) the
# largest half-width of y that 'info' states is that of the bound at the
# grid times in 'export' (grid rows) and in the curves 'plot' draws, and
# info says which bound it states (the bound at t; the step rows are
# hulls over a step).
# usage: bash tests/cli/contact_bounds.sh DVICERT SRCROOT
set -u
exe=${1:?usage: contact_bounds.sh DVICERT SRCROOT}
src=${2:?usage: contact_bounds.sh DVICERT SRCROOT}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

C="$src/certs/diode-clamp/diode-clamp.cert.json"
expect 0 "y: its bound at each grid time" "info labels the y bound" -- "$exe" info "$C"
info_rad=$(awk '$1 == "y" && NF == 4 { print $3 }' "$tmp/out")
expect 0 "" "export" -- "$exe" export "$C" -o "$tmp/e.csv" --no-verify
exp_rad=$(awk -F, '$1 == "kind" { for (k = 1; k <= NF; k++) { if ($k == "y_lo") lo = k; if ($k == "y_hi") hi = k }; next }
    $1 == "grid" { r = ($hi - $lo) / 2; if (r > m) m = r } END { printf "%.6g\n", m }' "$tmp/e.csv")
fake_gnuplot "$tmp/gp"
expect 0 "" "plot" -- env DVC_GNUPLOT="$tmp/gp" "$exe" plot "$C" -o "$tmp/p.png" --no-verify
# the plot's data block: t, then per panel midpoint, lower, upper (y the last panel)
plot_rad=$(awk -F, '/^\$D << EOD/ { on = 1; next } /^EOD/ { on = 0 } on && NF >= 7 { r = ($7 - $6) / 2; if (r > m) m = r }
    END { printf "%.6g\n", m }' "$tmp/gp.in")
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 1e-3 * a) }'; }
same "$info_rad" "$exp_rad" && ok || bad "info y max radius $info_rad, export grid rows $exp_rad"
same "$exp_rad" "$plot_rad" && ok || bad "export grid rows $exp_rad, plot curves $plot_rad"
report
