# SPDX-License-Identifier: LGPL-3.0-or-later
"""The benchmark problems of bench/compare.sh, for dvicert and for Siconos.

  siconos_dlvi.py problem bridge|chain K N OUT.json [--T T]
                                                   write the dvicert problem file
  siconos_dlvi.py run bridge|chain|pounding K N [CSV] [--theta TH] [--T T]
                                                   Siconos float time stepping of it
                                                   (CSV: the trajectory t,x1..xn, for
                                                   `dvicert enclose P --from CSV`; TH:
                                                   the theta of EulerMoreauOSI, default 1,
                                                   f taken at t_i + TH h)
  --T T: the horizon (default 1; the pounding 20), h = T / N

The bridge is Example 5.1 (gamma = 0.2, T = 1); the pounding is Example 5.2
with the published parameters and a three-tone ground motion, T = 20 (the
dvicert problem is tests/data/events/pounding3.json; K is ignored); the chain of K masses is the
one of bench/chain.h (ground springs 4, coupling springs 1, damping 0.1,
pounding stiffness 6 at gap 0.01, ground acceleration 0.5 sin(2 pi t),
alternating initial velocities +-0.5). Both as the DLVI
  x' = A x + B y + f(t),  0 <= y  _|_  Q x + g + M y >= 0,
which Siconos integrates as a first-order linear complementarity system
(FirstOrderLinearDS, FirstOrderLinearTIR, EulerMoreauOSI with theta = 1 as
dvicert's theta = 1, LCP solved by Lemke) on the same grid h = T/N. `run`
prints the final state and the seconds of the time-stepping loop; the
whole process (Python and the Siconos import included) is what
compare.sh times.
"""
import json
import math
import sys
import time


def horizon(kind):
    return 20.0 if kind == "pounding" else 1.0


def data(kind, k):
    """A, B, Q, M, g, x0 as lists; f(t) as a function; f as expressions."""
    if kind == "pounding":
        m1, m2, r1, r2, k1, k2, d, al, ag = 7.8, 7.8, 16.34, 8.17, 3.4215, 0.8554, 0.1, 6.0, 9.80665
        A = [[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [-k1 / m1, 0.0, -r1 / m1, 0.0],
             [0.0, -k2 / m2, 0.0, -r2 / m2]]
        B = [[0.0], [0.0], [-1.0 / m1], [1.0 / m2]]
        Q = [[-al, al, 0.0, 0.0]]

        def fp(t):
            a = -ag * (0.3 * math.sin(2 * math.pi * 0.8 * t) + 0.2 * math.sin(2 * math.pi * 1.7 * t + 0.5)
                       + 0.1 * math.sin(2 * math.pi * 3.1 * t + 1))
            return [0.0, 0.0, a, a]
        return A, B, Q, [[1.0]], [al * d], [0.0] * 4, fp, None
    if kind == "bridge":
        A = [[0.0, 1.0], [-4.0, 0.0]]
        B = [[0.0], [-1.0]]
        Q = [[3.0, 0.0]]
        M = [[1.0]]
        g = [0.0]
        x0 = [0.0, 0.2]
        return A, B, Q, M, g, x0, (lambda t: [0.0, math.sin(4.0 * t)]), ["0", "sin(4*t)"]
    n, m = 2 * k, k - 1
    A = [[0.0] * n for _ in range(n)]
    B = [[0.0] * m for _ in range(n)]
    Q = [[0.0] * n for _ in range(m)]
    M = [[1.0 if i == j else 0.0 for j in range(m)] for i in range(m)]
    x0 = [0.0] * n
    for j in range(k):
        A[j][k + j] = 1.0
        A[k + j][j] = -6.0
        if j > 0:
            A[k + j][j - 1] = 1.0
        if j + 1 < k:
            A[k + j][j + 1] = 1.0
        A[k + j][k + j] = -0.1
        x0[k + j] = -0.5 if j % 2 else 0.5
    for c in range(m):
        B[k + c][c] = -1.0
        B[k + c + 1][c] = 1.0
        Q[c][c] = -6.0
        Q[c][c + 1] = 6.0
    g = [0.06] * m

    def f(t):
        v = 0.5 * math.sin(2.0 * math.pi * t)
        return [0.0] * k + [v] * k

    return A, B, Q, M, g, x0, f, ["0"] * k + ["0.5*sin(2*pi*t)"] * k


def write_problem(kind, k, N, out, T=None):
    A, B, Q, M, g, x0, _, fexpr = data(kind, k)
    m = len(M)

    def num(v):
        return int(v) if v == int(v) else repr(v)

    prob = {
        "A": [[num(v) for v in r] for r in A],
        "B": [[num(v) for v in r] for r in B],
        "f": fexpr,
        "Q": [[num(v) for v in r] for r in Q],
        "M": [[num(v) for v in r] for r in M],
        "l": [0] * m,
        "u": ["inf"] * m,
        # decimals as strings: "0.06" means six hundredths, not the nearest double
        "g": ["0.06"] * m if kind == "chain" else ["0"],
        "x0": ["0.2" if (kind == "bridge" and i == 1) else ("0.5" if v > 0 else "-0.5" if v < 0 else 0)
               for i, v in enumerate(x0)],
        "T": 1 if T is None else (int(T) if T == int(T) else repr(T)),
        "N": N,
        "theta": 1,
    }
    with open(out, "w") as fh:
        json.dump(prob, fh)
        fh.write("\n")


def run(kind, k, N, csv=None, theta=1.0, T=None):
    import numpy as np
    import siconos.kernel as sk

    A, B, Q, M, g, x0, f, _ = data(kind, k)
    T = horizon(kind) if T is None else T
    h = T / N
    m = len(M)
    ds = sk.FirstOrderLinearDS(np.array(x0), np.array(A))
    ds.setb(np.array(f(0.0)))
    rel = sk.FirstOrderLinearTIR(np.array(Q), np.array(B))
    rel.setDPtr(np.array(M))
    rel.setePtr(np.array(g))
    inter = sk.Interaction(sk.ComplementarityConditionNSL(m), rel)
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.EulerMoreauOSI(theta), sk.LCP())
    t0 = time.perf_counter()
    i = 0
    rows = [[0.0] + list(x0)] if csv else None
    while sim.hasNextEvent() and i < N:
        i += 1
        ds.setb(np.array(f((i - 1 + theta) * h)))  # f at t_{i+1} for theta = 1
        sim.computeOneStep()
        if rows is not None:
            rows.append([i * h] + list(ds.x()))
        sim.nextStep()
    sec = time.perf_counter() - t0
    print("steps %d x(T) %s loop_s %.4f" % (i, " ".join("%.6g" % v for v in ds.x()), sec))
    if rows is not None:
        with open(csv, "w") as fh:
            fh.write("t," + ",".join("x%d" % (j + 1) for j in range(len(x0))) + "\n")
            for r in rows:
                fh.write(",".join(repr(float(v)) for v in r) + "\n")


def main(argv):
    theta = 1.0
    if "--theta" in argv[:-1]:
        i = argv.index("--theta")
        theta = float(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    T = None
    if "--T" in argv[:-1]:
        i = argv.index("--T")
        T = float(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if len(argv) >= 5 and argv[1] == "problem":
        write_problem(argv[2], int(argv[3]), int(argv[4]), argv[5], T)
    elif len(argv) >= 5 and argv[1] == "run":
        run(argv[2], int(argv[3]), int(argv[4]), argv[5] if len(argv) > 5 else None, theta, T)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
