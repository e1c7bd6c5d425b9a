# SPDX-License-Identifier: LGPL-3.0-or-later
"""Float runs of the pounding example (tests/data/events/pounding3.json)
for tests/cli/from_events.sh: plain RK4 over the nonsmooth field (the kinks
at contact switches are not located: what a user's RK4 does), or the
implicit Euler step with the contact force at the step's end (theta = 1,
what Siconos' Moreau-Jean scheme does for this DLVI), solved exactly per
pattern. usage: sim_pounding.py rk4|euler H T > traj.csv"""
import math
import sys

m1, m2, r1, r2, k1, k2, d, alpha, ag = 7.8, 7.8, 16.34, 8.17, 3.4215, 0.8554, 0.1, 6.0, 9.80665
A = [[0, 0, 1, 0], [0, 0, 0, 1], [-k1 / m1, 0, -r1 / m1, 0], [0, -k2 / m2, 0, -r2 / m2]]
B = [0, 0, -1 / m1, 1 / m2]


def f(t):
    g = -ag * (0.3 * math.sin(2 * math.pi * 0.8 * t) + 0.2 * math.sin(2 * math.pi * 1.7 * t + 0.5)
               + 0.1 * math.sin(2 * math.pi * 3.1 * t + 1))
    return [0, 0, g, g]


def y_of(x):
    # the LVI with M = 1 on [0, inf): y = max(0, -q), q = alpha (d - x1 + x2)
    return max(0.0, alpha * (x[0] - x[1] - d))


def field(t, x):
    y, ft = y_of(x), f(t)
    return [sum(A[i][j] * x[j] for j in range(4)) + B[i] * y + ft[i] for i in range(4)]


def rk4(x, t, h):
    k1_ = field(t, x)
    k2_ = field(t + h / 2, [x[i] + h / 2 * k1_[i] for i in range(4)])
    k3_ = field(t + h / 2, [x[i] + h / 2 * k2_[i] for i in range(4)])
    k4_ = field(t + h, [x[i] + h * k3_[i] for i in range(4)])
    return [x[i] + h / 6 * (k1_[i] + 2 * k2_[i] + 2 * k3_[i] + k4_[i]) for i in range(4)]


def solve(M, b):
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(M)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c:
                q = M[r][c] / M[c][c]
                M[r] = [M[r][j] - q * M[c][j] for j in range(n + 1)]
    return [M[i][n] / M[i][i] for i in range(n)]


def euler(x, t, h):
    # x1 = x + h (A x1 + B y1 + f(t + h)), y1 = max(0, alpha (x1_1 - x1_2 - d)): per pattern
    ft = f(t + h)
    for contact in (False, True):
        M = [[(1 if i == j else 0) - h * A[i][j] for j in range(4)] for i in range(4)]
        rhs = [x[i] + h * ft[i] for i in range(4)]
        if contact:
            for i in range(4):
                M[i][0] -= h * B[i] * alpha
                M[i][1] += h * B[i] * alpha
                rhs[i] -= h * B[i] * alpha * d
        x1 = solve(M, rhs)
        s = alpha * (x1[0] - x1[1] - d)
        if (s <= 0) != contact:
            return x1
    return x1


def main():
    method, h, T = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    N = int(round(T / h))
    step = rk4 if method == "rk4" else euler
    x = [0.0, 0.0, 0.0, 0.0]
    out = ["t,x1,x2,x3,x4", "0," + ",".join(repr(v) for v in x)]
    for k in range(N):
        t = k * h
        x = step(x, t, h)
        tk = (k + 1) * h if k + 1 < N else T
        out.append(repr(tk) + "," + ",".join(repr(v) for v in x))
    print("\n".join(out))


main()
