#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""The switch times of GESDA's stick-slip (certs/stickslip, m1 = m2 = FN = 1,
mu = 0.4, force sin(t) on body 1, both at rest at t = 0) in closed form at
50 digits with Python's decimal module (no other dependency), checked
against the events of a certificate.

Sticking ends when the friction needed, |sin t|/2, reaches mu FN: at
sin t = +-0.8 (release, alpha reaching 0 or 1). Slipping with
w = v1 - v2 from w = 0 at the release t_r, w' = sin t -+ 0.8, so
    w(t) = cos t_r - cos t -+ 0.8 (t - t_r)
and the re-stick is the next zero of w (GESDA's Table 2: 0.9273, 2.8870,
4.0689, 6.0286, 7.2105, 9.1702). The DAE form's watch of the re-stick is
armed where |w| = eps: that is an exact reformulation when w is monotone
from the release to the arming, which this script checks (w' has the
slip's sign there).

usage: stickslip_events_ref.py CERT.json [EPS [SHIFT]]
       stickslip_events_ref.py --against ODE.cert.json DAE.cert.json
       stickslip_events_ref.py --states T N SEED [DELTA]
(the second form: the DAE's release and re-stick events, in order, each
intersecting the ODE form's event of the same rank; "same: K of N"; the
third: a CSV t,p1,p2,v1,v2,alpha of the closed form at N random times of
[0, T], each value moved by DELTA, for `dvicert check`).
Matches the certificate's events in order by kind: release / releaseneg
(the DAE) or friction'+ / friction'- (the ODE form) with a release,
armed / armedneg with an arming (DAE only), restick / friction with a
re-stick. Prints one line per event (name, reference, inside or not) and
"inside: K of N"; exit 0 when all N are inside."""
import json
import random
import sys
from decimal import Decimal, getcontext

getcontext().prec = 60
D = Decimal


def sincos(x):
    """sin x, cos x by their Taylor series (|x| < 12 here: 60 digits hold)."""
    s, c, term, k = D(0), D(0), D(1), 0
    while True:
        if k % 4 == 0: c += term
        elif k % 4 == 1: s += term
        elif k % 4 == 2: c -= term
        else: s -= term
        k += 1
        term = term * x / k
        if abs(term) < D(10) ** -70 and k > 10:
            return s, c


def newton(f, df, x):
    for _ in range(100):
        dx = f(x) / df(x)
        x -= dx
        if abs(dx) < D(10) ** -55:
            return x
    raise SystemExit("no convergence")


def events(T, eps):
    """(kind, time) in order: 'release', 'arm', 'restick'."""
    pi = newton(lambda x: sincos(x)[0], lambda x: sincos(x)[1], D(3))
    a = newton(lambda x: sincos(x)[0] - D("0.8"), lambda x: sincos(x)[1], D(1))  # asin(0.8)
    out, tr, sgn = [], a, 1
    while tr < T:
        out.append(("release", tr))
        acc = D("0.8") * sgn
        ctr = sincos(tr)[1]
        w = lambda t: ctr - sincos(t)[1] - acc * (t - tr)
        dw = lambda t: sincos(t)[0] - acc
        # the arming: w = sgn eps, w monotone from tr (w' of the slip's sign)
        ta = newton(lambda t: w(t) - sgn * eps, dw, tr + D("0.05"))
        if not (sgn * dw(ta) > 0 and tr < ta < tr + pi - 2 * a):  # w' = sin t -+ 0.8
            raise SystemExit("w is not monotone up to the arming")
        out.append(("arm", ta))
        # the re-stick: the next zero of w, past the extremum of w
        ts = newton(w, dw, tr + D(2))
        out.append(("restick", ts))
        tr, sgn = tr + pi, -sgn  # the next release: sin t = -+0.8
    return [e for e in out if e[1] < T]


def kind(sw):
    if sw in ("release", "releaseneg", "friction'+", "friction'-"): return "release"
    if sw in ("armed", "armedneg"): return "arm"
    if sw in ("restick", "friction"): return "restick"
    return sw


def against(ode, dae):
    e1 = json.load(open(ode))["events"]
    e2 = [e for e in json.load(open(dae))["events"] if kind(e["switch"]) != "arm"]
    same = 0
    for i, (a, b) in enumerate(zip(e1, e2)):
        ok = kind(a["switch"]) == kind(b["switch"]) and \
            D(a["t_lo"]) <= D(b["t_hi"]) and D(b["t_lo"]) <= D(a["t_hi"])
        same += ok
        print("%d %s [%s, %s] %s [%s, %s] %s" % (i + 1, a["switch"], a["t_lo"], a["t_hi"], b["switch"],
                                                 b["t_lo"], b["t_hi"], "intersect" if ok else "DISJOINT"))
    if len(e1) != len(e2):
        print("the ODE form has %d events, the DAE %d" % (len(e1), len(e2)))
        same = -1
    print("same: %d of %d" % (same, len(e1)))
    return 0 if same == len(e1) else 1


def states(T, n, seed, delta):
    """Piecewise closed form: sticking, both bodies move together with
    v' = sin(t)/2 and alpha = (0.8 - sin t)/1.6; slipping after a release
    at sin t = +-0.8, v1' = sin t -+ 0.4, v2' = +-0.4, alpha = 0 (1)."""
    evs = [e for e in events(T, D("0.001")) if e[0] != "arm"]

    def at(t, k):  # p1, p2, v1, v2, alpha at t from the knot k
        t0, p1, p2, v1, v2, mode, sgn = k
        s0, c0 = sincos(t0)
        s1, c1 = sincos(t)
        u = t - t0
        if mode == "stick":  # v1 = v2 at the knot
            d = v1 * u + (u * c0 - (s1 - s0)) / 2
            return p1 + d, p2 + d, v1 + (c0 - c1) / 2, v2 + (c0 - c1) / 2, (D("0.8") - s1) / D("1.6")
        f = D("0.4") * sgn
        return (p1 + v1 * u + u * c0 - (s1 - s0) - f * u * u / 2, p2 + v2 * u + f * u * u / 2,
                v1 + c0 - c1 - f * u, v2 + f * u, D(0) if sgn > 0 else D(1))
    knots = [(D(0), D(1), D(1), D(0), D(0), "stick", 1)]
    for kind_, te in evs:
        k = knots[-1]
        r = at(te, k)
        if kind_ == "release":
            knots.append((te, r[0], r[1], r[2], r[3], "slip", k[6]))
        else:  # the re-stick: v1 = v2 (exactly, r[2] - r[3] is 0 up to the 60 digits)
            knots.append((te, r[0], r[1], r[3], r[3], "stick", -k[6]))
    rng = random.Random(seed)
    print("t,p1,p2,v1,v2,alpha")
    for t in sorted(D(repr(rng.random())) * T for _ in range(n)):
        row = at(t, [kn for kn in knots if kn[0] <= t][-1])
        print(",".join([format(t, ".25g")] + [format(x + delta, ".25g") for x in row]))
    return 0


def main():
    if sys.argv[1] == "--states":
        delta = D(sys.argv[5]) if len(sys.argv) > 5 else D(0)
        return states(D(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), delta)
    if sys.argv[1] == "--against":
        return against(sys.argv[2], sys.argv[3])
    cert = json.load(open(sys.argv[1]))
    eps = D(sys.argv[2]) if len(sys.argv) > 2 else D("0.001")
    shift = D(sys.argv[3]) if len(sys.argv) > 3 else D(0)
    T = D(str(cert["model"]["T"]))
    ref = events(T, eps)
    evs = cert["events"]
    if not any(kind(e["switch"]) == "arm" for e in evs):
        ref = [r for r in ref if r[0] != "arm"]
    n = len(evs)
    inside = 0
    for i, e in enumerate(evs):
        if i >= len(ref) or kind(e["switch"]) != ref[i][0]:
            print("event %d ('%s'): not the reference's next event" % (i + 1, e["switch"]))
            continue
        lo, hi, t = D(e["t_lo"]), D(e["t_hi"]), ref[i][1] + shift
        ok = lo <= t <= hi
        inside += ok
        print("%d %s %s %s" % (i + 1, e["switch"], format(ref[i][1], ".20f"), "inside" if ok else "OUTSIDE"))
    if n != len(ref):
        print("the certificate has %d events, the reference %d before T" % (n, len(ref)))
        inside = -1
    print("inside: %d of %d" % (inside, n))
    return 0 if inside == n else 1


if __name__ == "__main__":
    sys.exit(main())
