#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Switch times of the thermostat certs/thermostat/thermostat.json and of
the relay feedback certs/thermostat/relay.json in closed form at 50 digits
(Python's decimal module, no other dependency), checked against the
switch-time enclosures of their certificates.

x' = -a x + b u from x0 in mode on (u = 1): mode on ends when x rises
through xhi, mode off (u = 0) when x falls through xlo, so
    on  from x to xhi:  t = ln((b/a - x) / (b/a - xhi)) / a
    off from xhi to xlo: t = ln(xhi / xlo) / a.
The relay (two states): x' = y, y' = -y + u, u = +1 (mode up) until x
rises through d, u = -1 (down) until x falls through -d; in a mode
    y = u + (y0 - u) e^-s,  x = x0 + u s + (y0 - u)(1 - e^-s),
and x -+ d is convex (concave) in s with one zero after s = 0: Newton from
s = 3, from the right, converges to it.
usage: hysteresis_ref.py MODEL.json CERT.json [SHIFT]
prints "inside: K of N" (K enclosures contain the reference, each shifted
by SHIFT when given) and the widest enclosure; exit 0 when every switch
time of the certificate is inside and they alternate hi, lo as above."""
import json
import sys
from decimal import Decimal, getcontext

getcontext().prec = 50


def relay(model, nev):
    """(switch name, time) of the relay's first nev switches."""
    d = Decimal(model["constants"]["d"])
    x, y, t, u, out = Decimal(0), Decimal(0), Decimal(model["t0"]), 1, []
    for _ in range(nev):
        target = d * u
        def xs(s):
            return x + u * s + (y - u) * (1 - (-s).exp())
        s = Decimal(3)
        for _ in range(200):
            ds = (xs(s) - target) / (u + (y - u) * (-s).exp())
            s -= ds
            if abs(ds) < Decimal(10) ** -45:
                break
        x, y, t = target, u + (y - u) * (-s).exp(), t + s
        out.append(("hi" if u > 0 else "lo", t))
        u = -u
    return out


def main():
    model = json.load(open(sys.argv[1]))
    cert = json.load(open(sys.argv[2]))
    shift = Decimal(sys.argv[3]) if len(sys.argv) > 3 else Decimal(0)
    if len(model["states"]) == 2:
        ref = relay(model, len(cert["events"]))
        inside, widest, alt = 0, 0.0, True
        for ev, (name, t) in zip(cert["events"], ref):
            lo, hi = Decimal(ev["t_lo"]), Decimal(ev["t_hi"])
            widest = max(widest, float(hi - lo))
            alt = alt and ev["switch"] == name
            inside += lo <= t + shift <= hi
        n = len(cert["events"])
        print("inside: %d of %d, widest switch-time enclosure %.3e" % (inside, n, widest))
        return 0 if inside == n and alt else 1
    k = {n: Decimal(v) for n, v in model["constants"].items()}
    a, b, xlo, xhi = k["a"], k["b"], k["xlo"], k["xhi"]
    x = Decimal(str(model["initial"]["x"]["x"]))
    mode = model["initial"]["mode"]
    t = Decimal(str(model["t0"]))
    inside, widest, names = 0, 0.0, []
    for ev in cert["events"]:
        if mode == "on":
            t += ((b / a - x) / (b / a - xhi)).ln() / a
            x, mode, name = xhi, "off", "hi"
        else:
            t += (x / xlo).ln() / a
            x, mode, name = xlo, "on", "lo"
        names.append(ev["switch"] == name)
        lo, hi = Decimal(ev["t_lo"]), Decimal(ev["t_hi"])
        widest = max(widest, float(hi - lo))
        if lo <= t + shift <= hi:
            inside += 1
    n = len(cert["events"])
    print("inside: %d of %d, widest switch-time enclosure %.3e" % (inside, n, widest))
    if not all(names):
        print("the switches do not alternate hi, lo")
        return 1
    return 0 if inside == n else 1


if __name__ == "__main__":
    sys.exit(main())
