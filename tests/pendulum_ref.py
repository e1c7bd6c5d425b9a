#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Independent reference of certs/pendulum (docs/dae.md) at 40 digits
(mpmath), by another method than the certificate's: the taut phases in the
angle coordinate, theta'' = -(g/L) sin(theta), integrated by mpmath.odefun
(Taylor series); the release where the tension L theta'^2 + g cos(theta)
vanishes found by mpmath.findroot; the free flight as the parabola in
closed form; the string taut again where |position| = L (findroot); the
plastic jerk keeping the tangential velocity only.

usage: pendulum_ref.py T N SEED [DELTA]
    the CSV `dvicert check` reads: t, x, y, u, v, c, lambda at N random
    times of [0, T] (seeded), each value shifted by DELTA (0: the solution);
       pendulum_ref.py events EVENTS.txt
    checks that the time enclosure of each event in `dvicert events`'s
    table (release, end of the dwell, taut again) contains the reference
    time; prints "events inside: K of 3" and exits 1 unless K = 3."""
import random
import sys

import mpmath as mp

mp.mp.dps = 40
G, L = mp.mpf(1), mp.mpf(1)
V0 = mp.sqrt(mp.mpf('3.5'))
DWELL = mp.mpf('0.5')


def taut(t0, th0, om0):
    """theta(t) and theta'(t) from the angle at t0 (theta = 0 at the bottom)."""
    sol = mp.odefun(lambda t, y: [y[1], -(G / L) * mp.sin(y[0])], t0, [th0, om0])
    return lambda t: sol(t)


def state_taut(f, t):
    th, om = f(t)
    x, y = L * mp.sin(th), -L * mp.cos(th)
    u, v = L * om * mp.cos(th), L * om * mp.sin(th)
    return [x, y, u, v, (u * u + v * v - G * y) / (L * L)]


def phases():
    f1 = taut(mp.mpf(0), mp.mpf(0), V0 / L)
    ts = mp.findroot(lambda t: state_taut(f1, t)[4], mp.mpf('1.5'))
    x, y, u, v, _ = state_taut(f1, ts)

    def flight(t):
        s = t - ts
        return [x + u * s, y + v * s - G * s * s / 2, u, v - G * s, mp.mpf(0)]

    tr = mp.findroot(lambda t: flight(t)[0] ** 2 + flight(t)[1] ** 2 - L * L, ts + mp.mpf('2.4'))
    xr, yr, ur, vr, _ = flight(tr)
    f2 = taut(tr, mp.atan2(xr, -yr), (xr * vr - yr * ur) / (L * L))
    return f1, ts, flight, tr, f2


def main():
    f1, ts, flight, tr, f2 = phases()
    if sys.argv[1] == 'events':
        ref = [ts, ts + DWELL, tr]
        rows = [ln.split() for ln in open(sys.argv[2]) if len(ln.split()) >= 8 and ln.split()[0].isdigit()]
        k = sum(1 for r, e in zip(rows, ref) if mp.mpf(r[-3]) <= e <= mp.mpf(r[-2]))
        print("events inside: %d of 3 (reference %s, %s, %s)" % (
            k if len(rows) == 3 else 0, mp.nstr(ts, 20), mp.nstr(ts + DWELL, 20), mp.nstr(tr, 20)))
        sys.exit(0 if k == 3 and len(rows) == 3 else 1)
    T, n, seed = mp.mpf(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    d = mp.mpf(sys.argv[4]) if len(sys.argv) > 4 else mp.mpf(0)
    rnd = random.Random(seed)
    times = sorted(mp.mpf(rnd.random()) * T for _ in range(n))
    print("t,x,y,u,v,c,lambda")
    for t in times:
        if t < ts:
            s, c = state_taut(f1, t), t
        elif t < tr:
            s, c = flight(t), t - ts
        else:
            s, c = state_taut(f2, t), t - ts
        vals = s[:4] + [c, s[4]]
        print(",".join(mp.nstr(w, 30) for w in [t] + [w + d for w in vals]))


if __name__ == '__main__':
    main()
