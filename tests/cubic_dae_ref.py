#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
# Reference for certs/cubic-dae (x' = -z, 0 = z^3 + z - x, x(0) = 2, so
# z(0) = 1): along the solution (3 z^2 + 1) z' = -z, hence exactly
#     t = -(3/2)(z^2 - 1) - ln z,
# solved for z by Newton at 50 decimal digits (plain decimal, no package);
# x = z^3 + z. Prints "t,x,z" rows at N random times in [0, T].
# usage: cubic_dae_ref.py T N SEED [EPS]   (EPS: added to x and z)
import random
import sys
from decimal import Decimal, getcontext

getcontext().prec = 50
T, N, seed = Decimal(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
eps = Decimal(sys.argv[4]) if len(sys.argv) > 4 else Decimal(0)
rng = random.Random(seed)


def z_of(t):
    z = Decimal(1)
    for _ in range(200):  # F(z) = -(3/2)(z^2 - 1) - ln z - t, F' = -(3z + 1/z) < 0
        F = -Decimal("1.5") * (z * z - 1) - z.ln() - t
        dz = F / (3 * z + 1 / z)
        z += dz
        if abs(dz) < Decimal("1e-45"):
            break
    return z


print("t,x,z")
for _ in range(N):
    t = Decimal(repr(rng.uniform(0, float(T))))
    z = z_of(t)
    x = z * z * z + z
    print("%s,%s,%s" % (t, format(x + eps, ".30e"), format(z + eps, ".30e")))
