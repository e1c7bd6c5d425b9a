#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Reference of certs/buck-dae (docs/dae.md) in closed form at 60 digits
(mpmath): both modes are linear with constant forcing, x(t) = xs + e^{A (t -
tk)} (x(tk) - xs), and the switch times are those of the comparator,
sin(w t) R2 / (R1 + R2) = Vth, known exactly. Prints the CSV `dvicert check`
reads: t, the states iL, vC and the algebraic variables va, is, id, vc at
N random times of [0, T] (seeded), each shifted by DELTA (0: the solution).
usage: dae_ref.py T N SEED [DELTA]

   dae_ref.py stickslip T N SEED [DELTA]: certs/stickslip/stickslip-dae.json
in closed form (T < 2.88, before the re-stick): stuck until t* = asin(0.8)
(v1 = v2 = (1 - cos t)/2, alpha = (0.8 - sin t)/1.6), then slipping with
alpha = 0; columns t, p1, p2, v1, v2, alpha."""
import random
import sys

import mpmath as mp

mp.mp.dps = 60
V, L, C, R, R1, R2, VTH = (mp.mpf(1), mp.mpf(1), mp.mpf(1), mp.mpf(1), mp.mpf(1), mp.mpf(1),
                           mp.mpf('0.1'))
W = 2 * mp.pi
A = mp.matrix([[0, -1 / L], [1 / C, -1 / (R * C)]])
B = {'on': mp.matrix([V / L, 0]), 'off': mp.matrix([0, 0])}


def xs(mode):
    return -(A ** -1) * B[mode]


def switch_times(T):
    """(time, mode after) of every switch in (0, T], in order."""
    a = mp.asin(2 * VTH * (R1 + R2) / (2 * R2)) / W  # sin(w t) = Vth (R1 + R2) / R2
    out, k = [], 0
    while True:
        up, down = k + a, k + mp.mpf(1) / 2 - a
        for t, m in ((up, 'on'), (down, 'off')):
            if t > T:
                return out
            out.append((t, m))
        k += 1


def state(t, knots):
    """x(t) from the knots [(t_k, mode, x(t_k))]."""
    tk, mode, xk = knots[0]
    for kn in knots:
        if kn[0] <= t:
            tk, mode, xk = kn
    e = mp.expm(A * (t - tk))
    return mode, xs(mode) + e * (xk - xs(mode))


def stickslip(T, n, seed, delta):
    ts = mp.asin(mp.mpf('0.8'))
    vs, ps = (1 - mp.cos(ts)) / 2, 1 + (ts - mp.sin(ts)) / 2
    rng = random.Random(seed)
    print("t,p1,p2,v1,v2,alpha")
    for t in sorted(mp.mpf(rng.random()) * T for _ in range(n)):
        if t <= ts:
            p = 1 + (t - mp.sin(t)) / 2
            v = (1 - mp.cos(t)) / 2
            row = [p, p, v, v, (mp.mpf('0.8') - mp.sin(t)) / mp.mpf('1.6')]
        else:
            s = t - ts
            row = [ps + vs * s + mp.cos(ts) * s - (mp.sin(t) - mp.sin(ts)) - s * s / 5,
                   ps + vs * s + s * s / 5,
                   vs + mp.cos(ts) - mp.cos(t) - 2 * s / 5, vs + 2 * s / 5, mp.mpf(0)]
        print(",".join([mp.nstr(t, 25)] + [mp.nstr(v + delta, 25, min_fixed=-5, max_fixed=5)
                                           for v in row]))


def main():
    if sys.argv[1] == "stickslip":
        delta = mp.mpf(sys.argv[5]) if len(sys.argv) > 5 else mp.mpf(0)
        return stickslip(mp.mpf(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), delta)
    T, n, seed = mp.mpf(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    delta = mp.mpf(sys.argv[4]) if len(sys.argv) > 4 else mp.mpf(0)
    knots = [(mp.mpf(0), 'off', mp.matrix([0, 0]))]
    for t, m in switch_times(T):
        _, x = state(t, knots)
        knots.append((t, m, x))
    rng = random.Random(seed)
    times = sorted(mp.mpf(rng.random()) * T for _ in range(n))
    print("t,iL,vC,va,is,id,vc")
    for t in times:
        mode, x = state(t, knots)
        iL, vC = x[0], x[1]
        vc = R2 * mp.sin(W * t) / (R1 + R2)
        z = (V, iL, 0, vc) if mode == 'on' else (0, 0, iL, vc)
        row = [t] + [iL + delta, vC + delta] + [v + delta for v in z]
        print(",".join(mp.nstr(v, 25, min_fixed=-5, max_fixed=5) if v != 0 else "0" for v in row))


if __name__ == "__main__":
    main()
