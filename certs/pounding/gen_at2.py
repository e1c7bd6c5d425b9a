#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Synthetic ground-motion record in PEER NGA .AT2 format (standard library only).

NOT a recorded earthquake. The acceleration is a sum of 40 sinusoids with
frequencies spread over 0.5-10 Hz, amplitudes shaped by a Kanai-Tajimi
spectrum (ground frequency omega_g = 5*pi rad/s, damping zeta_g = 0.6),
random phases from a fixed seed, multiplied by a Jennings-type envelope
(rise 0-1.5 s as (t/1.5)^2, strong phase to 4 s, then exp(-0.5 (t-4))),
and scaled so that the peak ground acceleration is exactly PGA (in g) at the
printed precision. Deterministic: same output on every run.

usage: python3 gen_at2.py [PGA] [DURATION] [DT] [SEED] > synthetic.AT2
"""
import math
import random
import sys

pga = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5
dur = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
dt = float(sys.argv[3]) if len(sys.argv) > 3 else 0.01
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 20120801

rng = random.Random(seed)
wg, zg = 5.0 * math.pi, 0.6
terms = []
for k in range(40):
    f = 0.5 + 9.5 * (k + 0.5) / 40.0
    w = 2.0 * math.pi * f
    r = w / wg
    kt = (1.0 + 4.0 * zg * zg * r * r) / ((1.0 - r * r) ** 2 + 4.0 * zg * zg * r * r)
    terms.append((w, math.sqrt(kt), rng.uniform(0.0, 2.0 * math.pi)))


def envelope(t):
    if t < 1.5:
        return (t / 1.5) ** 2
    if t < 4.0:
        return 1.0
    return math.exp(-0.5 * (t - 4.0))


npts = int(round(dur / dt)) + 1
acc = []
for i in range(npts):
    t = i * dt
    acc.append(envelope(t) * sum(a * math.sin(w * t + p) for w, a, p in terms))
peak = max(abs(a) for a in acc)
acc = [pga * a / peak for a in acc]

print("PEER NGA STRONG MOTION DATABASE RECORD")
print("SYNTHETIC (dvicert certs/pounding/gen_at2.py, seed %d): Kanai-Tajimi sum of sines, PGA %.3f g"
      % (seed, pga))
print("ACCELERATION TIME SERIES IN UNITS OF G")
print("NPTS= %7d, DT= %8.4f SEC" % (npts, dt))
for i in range(0, npts, 5):
    print("".join("%15.7E" % a for a in acc[i:i + 5]))
