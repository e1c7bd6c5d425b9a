#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Diagnosis of Table 1 of Chen & Wang (2012): the paper's recursion for
Example 5.1 evaluated literally, in plain floating point, under several
readings of the text. NOT a certified computation (no rounding control, the
predictor defect is ignored) -- it only shows which reading of the published
formulas produces the published numbers. Readings (fixed in advance):

  A  Algorithm 4.2 literally: b, L_x without L_f; eps with (L L_x + L_f)
  B  L_f also inside L_x, as in step (i) of the text after Theorem 4.1
  C  A with theta swapped in the bound (1 - theta where the text has theta)
  D  A, but the value reported is b_x^{N+1} (the Euler-based bound), not eps
  E  A with one more step: eps after N + 1 steps (the table says eps^{h,N+1})
  F  A with L_f = 4 (global Lipschitz constant of sin 4t) instead of per step
  G  A with ||A x + B y + f|| measured in the 1-norm
  H  A with ||A x + B y + f|| measured in the 2-norm

usage: python3 bench/table1_readings.py [bench/table1_published.csv]
"""
import math
import sys

A = [[0.0, 1.0], [-4.0, 0.0]]
NA, NB, NQ, BETA = 4.0, 1.0, 3.0, 1.0
L = NA + BETA * NB * NQ


def f(t):
    return (0.0, math.sin(4.0 * t))


def lip_f(t0, t1):
    # max |4 cos 4s| on [t0, t1]
    if math.floor(4 * t0 / math.pi) != math.floor(4 * t1 / math.pi):
        return 4.0
    return max(abs(4 * math.cos(4 * t0)), abs(4 * math.cos(4 * t1)))


def step(x, t1, h, th):
    # x' = x + h{A[th x + (1-th) x'] + B y' + f(t1)}, y' = max(0, -3 x1'), B = (0, -1)
    f1 = f(t1)
    for active in (False, True):
        # (I - h(1-th)A - [active] h B Q) x' = x + h th A x + h f1
        a = 1.0 - th
        rhs = [x[0] + h * th * (A[0][0] * x[0] + A[0][1] * x[1]) + h * f1[0],
               x[1] + h * th * (A[1][0] * x[0] + A[1][1] * x[1]) + h * f1[1]]
        m = [[1 - h * a * A[0][0], -h * a * A[0][1]], [-h * a * A[1][0], 1 - h * a * A[1][1]]]
        if active:  # y = -3 x1 enters x2' with B = -1: + 3 h x1'
            m[1][0] -= 3.0 * h
        det = m[0][0] * m[1][1] - m[0][1] * m[1][0]
        xn = [(rhs[0] * m[1][1] - m[0][1] * rhs[1]) / det, (m[0][0] * rhs[1] - m[1][0] * rhs[0]) / det]
        if (xn[0] >= 0) != active:
            return xn, (0.0 if not active else -3.0 * xn[0])
    return xn, max(0.0, -3.0 * xn[0])


def run(gamma, th, h, reading):
    N = int(round(1.0 / h))
    steps = N + 1 if reading == "E" else N
    x, y, eps, b = [0.0, gamma], 0.0, 0.0, 0.0
    tb = 1.0 - th if reading == "C" else th
    for i in range(steps):
        t0, t1 = i * h, (i + 1) * h
        fi = f(t0)
        r0 = A[0][0] * x[0] + A[0][1] * x[1] + fi[0]
        r1 = A[1][0] * x[0] + A[1][1] * x[1] - y + fi[1]
        if reading == "G":
            F = abs(r0) + abs(r1)
        elif reading == "H":
            F = math.hypot(r0, r1)
        else:
            F = max(abs(r0), abs(r1))
        Lf = 4.0 if reading == "F" else lip_f(t0, t1)
        b = eps / (1 - L * h) + L * h * h / (1 - L * h) * F
        Lx = L * b + (1 + L * h) * F + (Lf if reading == "B" else 0.0)
        den = 1 + h * tb * NA - L * h
        eps = (1 + h * tb * NA) / den * eps + 0.5 * (L * Lx + Lf) / den * h * h
        x, y = step(x, t1, h, th)
    return b if reading == "D" else eps


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "bench/table1_published.csv"
    hs = [1e-4, 5e-4, 1e-3, 5e-3, 1e-2]
    rows = [l.strip().split(",") for l in open(path) if l.strip()][1:]
    readings = "ABCDEFGH"
    ratios = {r: [] for r in readings}
    print("| gamma | theta | h | published | " + " | ".join("%s: value (ratio pub/value)" % r for r in readings) + " |")
    print("|---|---|---|---|" + "---|" * len(readings))
    for row in rows:
        g, th = float(row[0]), float(row[1])
        for h, pv in zip(hs, row[2:]):
            pv = float(pv)
            cells = []
            for r in readings:
                v = run(g, th, h, r)
                q = pv / v
                # the published gamma = 1.5, theta = 0.5, h = 1e-2 cell repeats the
                # h = 5e-3 value (a typesetting slip): left out of the summary
                if not (row[0] == "1.5" and row[1] == "0.5" and h == 1e-2):
                    ratios[r].append(q)
                cells.append("%.4e (%.3f)" % (v, q))
            print("| %s | %s | %g | %.4e | %s |" % (row[0], row[1], h, pv, " | ".join(cells)))
    print()
    print("| reading | min published/value | median | max |")
    print("|---|---|---|---|")
    for r in readings:
        q = sorted(ratios[r])
        print("| %s | %.3f | %.3f | %.3f |" % (r, q[0], q[len(q) // 2], q[-1]))


main()
