#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Exact reference for the DAE modes with a g_z depending on t and the state
written out by tests/cli/pendulum.sh (docs/dae.md section 1.1): x' = 1,
x(0) = 0 (so x = t), and n_z = 2 or 3 constraints affine in z,
    (1 + x) z1 + z2 = 1,   z1 - x z2 (+ t z3) = 2,   z2 + (3 + x^2) z3 = x,
solved at rational times by Gaussian elimination over the rationals (no
interval or floating-point arithmetic), printed to 30 digits: the CSV
`dvicert check` reads (t, x, z1.., each value shifted by DELTA).
usage: dae_gz_ref.py NZ N SEED [DELTA]"""
import random
import sys
from decimal import Decimal, getcontext
from fractions import Fraction

getcontext().prec = 40


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = next(r for r in range(c, n) if m[r][c] != 0)
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c] / m[c][c]
                m[r] = [u - f * w for u, w in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def dec(q):
    return format(Decimal(q.numerator) / Decimal(q.denominator), '.30g')


def main():
    nz, n, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    d = Fraction(sys.argv[4]) if len(sys.argv) > 4 else Fraction(0)
    rnd = random.Random(seed)
    print("t,x," + ",".join("z%d" % (j + 1) for j in range(nz)))
    for t in sorted(Fraction(rnd.randrange(1, 10 ** 6), 10 ** 6) for _ in range(n)):
        x = t
        if nz == 2:
            z = solve([[1 + x, Fraction(1)], [Fraction(1), -x]], [Fraction(1), Fraction(2)])
        else:
            z = solve([[1 + x, Fraction(1), Fraction(0)], [Fraction(1), -x, t],
                       [Fraction(0), Fraction(1), 3 + x * x]], [Fraction(1), Fraction(2), x])
        print(",".join([dec(t)] + [dec(v + d) for v in [x] + z]))


if __name__ == '__main__':
    main()
