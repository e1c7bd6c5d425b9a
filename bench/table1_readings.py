#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Diagnosis of Table 1 of Chen & Wang (2012): the paper's recursion for
Example 5.1 evaluated literally, in plain floating point, under several
readings of the text. NOT a certified computation (no rounding control, the
predictor defect is ignored) -- it only shows which reading of the published
formulas produces the published numbers. Each reading is a statement of what
the authors may have computed, fixed before comparing; nothing is fitted.

Example 5.1: A = [[0, 1], [-4, 0]], B = [[0], [-1]], Q = [[3, 0]], M = [[1]],
l = 0, u = inf, f = (0, sin 4t), g = 0, x0 = (0, gamma), T = 1; infinity
norms: ||A|| = 4, ||B|| = 1, ||Q|| = 3, beta_M = 1, so L = 7.

Algorithm 4.2 as printed (F_i = ||A x^i + B y^i + f(t_i)||, i = 0..N-1):
  b^{i+1}   = eps^i/(1 - Lh) + L h^2/(1 - Lh) F_i
  L_x^i     = L b^{i+1} + (1 + Lh) F_i
  eps^{i+1} = (1 + h th ||A||)/D eps^i + 1/2 (L L_x^i + L_f^i)/D h^2,
  D = 1 + h th ||A|| - L h,  L_f^i = max |4 cos 4s| on [t_i, t_{i+1}],
along the theta-method trajectory (4.2) (same as the predictor of dvicert).

Readings:
  A  Algorithm 4.2 literally (L_f in eps, not in L_x), L_f per step
  B  L_f also inside L_x, as in step (i) of the text after Theorem 4.1
  C  A with theta swapped in the bound (1 - theta where the text has theta)
  D  A, but the value reported is b^N (the Euler-based bound), not eps^N
  E  A with one more step: eps after N + 1 steps (the table says eps^{h,N+1})
  F  A with L_f = 4 (global Lipschitz constant of sin 4t) instead of per step
  G  A with F_i measured in the 1-norm
  H  A with F_i measured in the 2-norm
  I  A without the factor 1/2: (L L_x + L_f) h^2 / D. This is what the proof
     of Theorem 3.1 gives if the integrals of L_x (s - t_i), L_x (t_{i+1} - s)
     (and of L_f (t_{i+1} - s)) over the step are bounded by L_x h^2 instead
     of L_x h^2 / 2, i.e. a factor 1/2 lost in the implementation
  J  I with L_f = 4 (global): the evaluation quoted in an earlier version of
     docs/bounds.md section 9 (1.0608 vs 1.0633 at gamma = 0.2, theta = 1,
     h = 1e-3)
  K  I with one more step (N + 1)
  L  Theorem 2.4's coefficient L h^2 (no 1/2) on L L_x only, L_f h^2 / 2 kept:
     (L L_x + L_f / 2) h^2 / D
  M  I with F_i in the 2-norm
  N  I with L_f also inside L_x (text (i) and no 1/2)
  R  not a reading: dvicert's own recursion (docs/bounds.md (3.1), (4.1)) in
     double, without the (roundoff-level) defect: Gronwall
     L_x = (F_i + L eps_i) e^{Lh} + L_f (e^{Lh} - 1)/L and L_f over blocks of
     16 steps (the engine's lip_block). A cross-check: it should give the
     certified values of bench/table1.sh to about 5 digits.

usage: python3 bench/table1_readings.py [bench/table1_published.csv]
"""
import math
import sys

A = [[0.0, 1.0], [-4.0, 0.0]]
NA, NB, NQ, BETA = 4.0, 1.0, 3.0, 1.0
L = NA + BETA * NB * NQ

# reading -> options; defaults are reading A
DEFAULT = dict(half_lx=0.5, half_lf=0.5, lf="step", lf_in_lx=False,
               swap=False, report_b=False, extra=0, norm="inf", gronwall=False, lf_block=1)
READINGS = {
    "A": {},
    "B": dict(lf_in_lx=True),
    "C": dict(swap=True),
    "D": dict(report_b=True),
    "E": dict(extra=1),
    "F": dict(lf="global"),
    "G": dict(norm="1"),
    "H": dict(norm="2"),
    "I": dict(half_lx=1.0, half_lf=1.0),
    "J": dict(half_lx=1.0, half_lf=1.0, lf="global"),
    "K": dict(half_lx=1.0, half_lf=1.0, extra=1),
    "L": dict(half_lx=1.0),
    "M": dict(half_lx=1.0, half_lf=1.0, norm="2"),
    "N": dict(half_lx=1.0, half_lf=1.0, lf_in_lx=True),
    "R": dict(gronwall=True, lf_block=16),
}


def f(t):
    return (0.0, math.sin(4.0 * t))


def lip_f(t0, t1):
    # max |4 cos 4s| on [t0, t1]: 4 if 4s crosses a multiple of pi, else at an end
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


def trajectory(gamma, th, h, steps):
    """(x^i, y^i), i = 0..steps, of the theta method (4.2); y^0 = max(0, -3 x1^0)."""
    x = [0.0, gamma]
    traj = [(x, max(0.0, -3.0 * x[0]))]
    for i in range(steps):
        x, y = step(x, (i + 1) * h, h, th)
        traj.append((x, y))
    return traj


def residual_norm(x, y, t, norm):
    fi = f(t)
    r0 = A[0][0] * x[0] + A[0][1] * x[1] + fi[0]
    r1 = A[1][0] * x[0] + A[1][1] * x[1] - y + fi[1]
    if norm == "1":
        return abs(r0) + abs(r1)
    if norm == "2":
        return math.hypot(r0, r1)
    return max(abs(r0), abs(r1))


def evaluate(traj, th, h, opt):
    N = int(round(1.0 / h))
    eps, b = 0.0, 0.0
    tb = 1.0 - th if opt["swap"] else th
    for i in range(N + opt["extra"]):
        t0, t1 = i * h, (i + 1) * h
        x, y = traj[i]
        F = residual_norm(x, y, t0, opt["norm"])
        if opt["lf"] == "global":
            Lf = 4.0
        else:
            k0 = (i // opt["lf_block"]) * opt["lf_block"]
            Lf = lip_f(k0 * h, (k0 + opt["lf_block"]) * h)
        b = eps / (1 - L * h) + L * h * h / (1 - L * h) * F
        if opt["gronwall"]:
            Lx = (F + L * eps) * math.exp(L * h) + Lf * math.expm1(L * h) / L
        else:
            Lx = L * b + (1 + L * h) * F + (Lf if opt["lf_in_lx"] else 0.0)
        den = 1 + h * tb * NA - L * h
        eps = (1 + h * tb * NA) / den * eps \
            + (opt["half_lx"] * L * Lx + opt["half_lf"] * Lf) / den * h * h
    return b if opt["report_b"] else eps


def convexity_check(rows, hs, names, val, contact, nruns):
    """Every reading above is eps^N = sum_i w_i F_i + c with weights w_i >= 0
    and c independent of gamma (they depend on h, theta, t_i only). Without
    contact (y^i = 0) the theta-method trajectory is affine in gamma, so each
    F_i, a norm of an affine function of gamma, is convex in gamma, and so is
    eps^N: the slopes in gamma must not decrease. Checks that no trajectory
    has contact, that the readings' values are convex, and whether the
    published values are (val: reading -> {(gamma, theta, h): value})."""
    gs = sorted({float(r[0]) for r in rows})
    thetas = sorted({float(r[1]) for r in rows})
    pub = {(float(r[0]), float(r[1]), h): float(v) for r in rows for h, v in zip(hs, r[2:])}

    def nonconvex(f):
        bad = []
        for th in thetas:
            for h in hs:
                sl = [(f[(gs[k + 1], th, h)] - f[(gs[k], th, h)]) / (gs[k + 1] - gs[k])
                      for k in range(len(gs) - 1)]
                for k in range(len(sl) - 1):
                    if sl[k + 1] < sl[k] * (1 - 1e-12):
                        bad.append((th, h, gs[k], gs[k + 1], gs[k + 2], sl[k], sl[k + 1]))
        return bad

    print()
    print("Convexity in gamma (slopes between consecutive gammas must not decrease):")
    print()
    print("* trajectories with contact (some y^i > 0): %d of %d" % (contact, nruns))
    nr = sum(1 for r in names if nonconvex(val[r]))
    print("* readings with a column (theta, h) not convex in gamma: %d of %d" % (nr, len(names)))
    # the column theta = 0.5, h = 1e-2 holds the typesetting slip (gamma = 1.5)
    bad = [b for b in nonconvex(pub) if not (b[0] == 0.5 and b[1] == 1e-2)]
    cols = sorted({(b[0], b[1]) for b in bad})
    print("* published columns (theta, h) NOT convex in gamma: %d of %d (the column "
          "theta = 0.5, h = 1e-2 with the slip left out)" % (len(cols), len(thetas) * len(hs) - 1))
    for b in bad:
        print("  theta = %g, h = %g: slope %.4g on [%g, %g] > slope %.4g on [%g, %g]"
              % (b[0], b[1], b[5], b[2], b[3], b[6], b[3], b[4]))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "bench/table1_published.csv"
    hs = [1e-4, 5e-4, 1e-3, 5e-3, 1e-2]
    rows = [l.strip().split(",") for l in open(path) if l.strip()][1:]
    names = list(READINGS)
    opts = {r: dict(DEFAULT, **READINGS[r]) for r in names}
    ratios = {r: [] for r in names}
    val = {r: {} for r in names}
    contact, nruns = 0, 0
    print("published / reading, per cell (values: rerun with the reading's options)")
    print()
    print("| gamma | theta | h | published | " + " | ".join(names) + " |")
    print("|---|---|---|---|" + "---|" * len(names))
    for row in rows:
        g, th = float(row[0]), float(row[1])
        for h, pv in zip(hs, row[2:]):
            pv = float(pv)
            traj = trajectory(g, th, h, int(round(1.0 / h)) + 1)
            contact += any(y != 0.0 for _, y in traj)
            nruns += 1
            cells = []
            for r in names:
                v = evaluate(traj, th, h, opts[r])
                val[r][(g, th, h)] = v
                q = pv / v
                # the published gamma = 1.5, theta = 0.5, h = 1e-2 cell repeats the
                # h = 5e-3 value (a typesetting slip): left out of the summary
                if not (row[0] == "1.5" and row[1] == "0.5" and h == 1e-2):
                    ratios[r].append(q)
                cells.append("%.3f" % q)
            print("| %s | %s | %g | %.4e | %s |" % (row[0], row[1], h, pv, " | ".join(cells)))
    print()
    print("Summary over the %d comparable cells (4-digit table: a reproduction "
          "means ratio 1.000 +- 0.0005):" % len(ratios["A"]))
    print()
    print("| reading | min | median | max | cells within 1 % | within 5 % |")
    print("|---|---|---|---|---|---|")
    for r in names:
        q = sorted(ratios[r])
        w1 = sum(1 for v in q if abs(v - 1) <= 0.01)
        w5 = sum(1 for v in q if abs(v - 1) <= 0.05)
        print("| %s | %.3f | %.3f | %.3f | %d | %d |" % (r, q[0], q[len(q) // 2], q[-1], w1, w5))
    convexity_check(rows, hs, names, val, contact, nruns)


main()
