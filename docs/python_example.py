#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
"""Certify a trajectory computed in Python (docs/python.md).

The suspension bridge of Chen & Wang's Example 5.1 with gamma = 1.5, whose
cables go slack (contact phases, y > 0), is integrated by a plain RK4 in
numpy; dvicert then proves a tube around that trajectory (the lognorm
route, as `dvicert enclose --from`), writes the certificate and checks the
RK4 samples and a finer RK4 run against it.

    PYTHONPATH=python DVICERT_LIB=build/libdvicert.so python3 docs/python_example.py [OUT.cert.json]
    dvicert verify OUT.cert.json      # the command accepts the same file
"""

import sys

import numpy as np

import dvicert

gamma = "1.5"
problem = {
    "name": "Example 5.1, gamma = 1.5, RK4 trajectory",
    "constants": {"gamma": gamma},
    "A": np.array([[0, 1], [-4, 0]]),
    "B": np.array([[0], [-1]]),
    "f": ["0", "sin(4*t)"],
    "Q": np.array([[3, 0]]),
    "M": np.array([[1]]),
    "g": ["0"],
    "l": [0], "u": ["inf"],
    "x0": [0, "gamma"],
    "T": 2, "N": 2000, "theta": 1,
}


def rhs(t, x):
    # y solves the LCP 0 <= y _|_ y + 3 x1 >= 0: y = max(0, -3 x1)
    y = max(0.0, -3.0 * x[0])
    return np.array([x[1], -4.0 * x[0] - y + np.sin(4.0 * t)])


def rk4(T, N, x0):
    h = T / N
    t = np.linspace(0.0, T, N + 1)
    x = np.empty((N + 1, 2))
    x[0] = x0
    for i in range(N):
        k1 = rhs(t[i], x[i])
        k2 = rhs(t[i] + h / 2, x[i] + h / 2 * k1)
        k3 = rhs(t[i] + h / 2, x[i] + h / 2 * k2)
        k4 = rhs(t[i] + h, x[i] + h * k3)
        x[i + 1] = x[i] + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return t, x


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "bridge-rk4.cert.json"
    t, x = rk4(2.0, 2000, [0.0, float(gamma)])
    cert = dvicert.enclose(problem, out, method="lognorm", trajectory=(t, x))
    print("certified %s: route %s, N = %d, eps_x at T <= %s, max eps_x <= %s, verdict %s"
          % (out, cert.route, cert.N, cert.summary["eps_x_at_T"], cert.summary["max_eps_x"],
             cert.verdict))
    # the samples themselves lie in the tube, and so does a 4x finer RK4 run
    # (it is another approximation, inside because the tube is wider than
    # the RK4 error)
    for label, (ts, xs) in (("RK4 samples", (t, x)), ("finer RK4", rk4(2.0, 8000, [0.0, float(gamma)]))):
        r = cert.check(ts, xs)
        print("%s: %d samples, %d values outside, smallest margin %.3g"
              % (label, len(ts), r.violations, r.worst))
    tube = cert.tube()
    print("x1(T) in [%.12g, %.12g]" % (tube.x_lo[-1, 0], tube.x_hi[-1, 0]))
    return 0 if dvicert.verify(out) else 1


if __name__ == "__main__":
    sys.exit(main())
