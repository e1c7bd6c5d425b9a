# SPDX-License-Identifier: LGPL-3.0-or-later
"""The floating-point peer of the hybrid engine: a hybrid model file
(docs/hybrid.md "Model file": "modes" with "f" expressions and transitions,
or a "decomposed" friction model) integrated with scipy's DOP853 (rtol 1e-10,
atol 1e-12) and its event location, restarted at every event, as a user
without dvicert would do it. Sliding on a switching surface of a decomposed
model is Filippov's convex combination (the equivalent control lambda of
each sliding term, from a linear solve), left when lambda leaves [0, 1].

usage: scipy_hybrid.py MODEL.json [repetitions]
prints: loop <best CPU seconds of the integration loop> events <n> x <state at T>
(no certificate, no rigour: the cost of the float tool)."""
import json
import math
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

RTOL, ATOL = 1e-10, 1e-12
FUNCS = {n: getattr(math, n) for n in ("sin", "cos", "exp", "log", "sqrt", "tanh", "sinh",
                                       "cosh", "atan")}
FUNCS["pi"] = math.pi


def compile_expr(text, names, consts):
    env = dict(FUNCS)
    env.update(consts)
    f = eval("lambda t, %s: %s" % (", ".join(names), str(text).replace("^", "**")), env)
    return lambda t, x: f(t, *x)


def vec(exprs, names, consts):
    fs = [compile_expr(e, names, consts) for e in exprs]
    return lambda t, x: np.array([f(t, x) for f in fs], dtype=float)


def initial_x(ini, names):
    x = ini["x"]
    if isinstance(x, dict):
        return np.array([float(x[n]) for n in names])
    return np.array([float(v) for v in x])


def run_modes(m, names, consts):
    """Plain switched system: each mode a field, transitions on g = 0."""
    f = {k: vec(v["f"], names, consts) for k, v in m["modes"].items()}
    g = {k: compile_expr(v, names, consts) for k, v in m["switches"].items()}
    tr = {}
    for d in m["transitions"]:
        tr.setdefault(d["from"], []).append((d["switch"], 1 if d["direction"] == "+" else -1,
                                             d["to"]))
    t, T = float(m.get("t0", 0)), float(m["T"])
    x, mode, nev = initial_x(m["initial"], names), m["initial"]["mode"], 0
    while t < T:
        evs = []
        for sw, dr, _ in tr.get(mode, []):
            ev = (lambda gg: lambda tt, xx: gg(tt, xx))(g[sw])
            ev.terminal, ev.direction = True, dr
            evs.append(ev)
        sol = solve_ivp(f[mode], (t, T), x, method="DOP853", events=evs, rtol=RTOL, atol=ATOL)
        hit = [i for i, te in enumerate(sol.t_events) if len(te)]
        if sol.status == 1 and hit:
            i = hit[0]
            t, x = sol.t_events[i][0], sol.y_events[i][0]
            mode = tr[mode][i][2]
            nev += 1
        else:
            t, x = T, sol.y[:, -1]
    return nev, x


def run_decomposed(m, names, consts):
    """x' = f0 + sum_i (f+_i if h_i > 0, f-_i if h_i < 0, the Filippov
    combination keeping h_i = 0 if sliding); h_i linear in x."""
    d = m["decomposed"]
    n = len(names)
    f0 = vec(d["f0"], names, consts)
    terms = list(d["terms"].items())
    h = [compile_expr(v["h"], names, consts) for _, v in terms]
    fp = [vec(v["f+"], names, consts) for _, v in terms]
    fm = [vec(v["f-"], names, consts) for _, v in terms]
    # gradients of the linear h_i (finite differences are exact for linear h)
    c = []
    for hi in h:
        z = np.zeros(n)
        c.append(np.array([hi(0.0, np.eye(n)[j]) - hi(0.0, z) for j in range(n)]))
    sign = {}
    for part in m["initial"]["mode"].split("&"):
        for op, s in (("<", -1), (">", 1), ("=", 0)):
            if op in part:
                nm, _ = part.split(op)
                sign[nm] = s
    s = [sign[k] for k, _ in terms]

    def lambdas(t, x):
        g = f0(t, x)
        sl = [i for i in range(len(terms)) if s[i] == 0]
        for i in range(len(terms)):
            if s[i] != 0:
                g = g + (fp[i](t, x) if s[i] > 0 else fm[i](t, x))
        if not sl:
            return g, {}
        P = [fp[i](t, x) for i in sl]
        M = [fm[i](t, x) for i in sl]
        base = g + sum(M)
        A = np.array([[c[i] @ (P[b] - M[b]) for b in range(len(sl))] for i in sl])
        r = np.array([-(c[i] @ base) for i in sl])
        lam = np.linalg.solve(A, r)
        return base + sum(lam[b] * (P[b] - M[b]) for b in range(len(sl))), dict(zip(sl, lam))

    def field(t, x):
        return lambdas(t, x)[0]

    t, T = float(m.get("t0", 0)), float(m["T"])
    x, nev = initial_x(m["initial"], names), 0
    while t < T:
        evs, what = [], []
        for i in range(len(terms)):
            if s[i] != 0:
                ev = (lambda hi: lambda tt, xx: hi(tt, xx))(h[i])
                ev.terminal, ev.direction = True, -s[i]
                evs.append(ev)
                what.append((i, 0))
            else:
                for side in (1, -1):  # lambda reaches 1 (leave to +) or 0 (leave to -)
                    ev = (lambda i, side: lambda tt, xx:
                          lambdas(tt, xx)[1][i] - (1.0 if side > 0 else 0.0))(i, side)
                    ev.terminal, ev.direction = True, side
                    evs.append(ev)
                    what.append((i, side))
        sol = solve_ivp(field, (t, T), x, method="DOP853", events=evs, rtol=RTOL, atol=ATOL)
        hit = [k for k, te in enumerate(sol.t_events) if len(te)]
        if sol.status == 1 and hit:
            k = hit[0]
            t, x = sol.t_events[k][0], sol.y_events[k][0]
            i, side = what[k]
            if side != 0:
                s[i] = side
            else:  # reached h_i = 0: slide if lambda_i is in [0, 1], else cross
                old, s[i] = s[i], 0
                lam = lambdas(t, x)[1][i]
                if not 0.0 <= lam <= 1.0:
                    s[i] = -old
            nev += 1
        else:
            t, x = T, sol.y[:, -1]
    return nev, x


def main():
    path = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    m = json.load(open(path))
    names = m["states"]
    consts = {k: float(v) for k, v in m.get("constants", {}).items()}
    run = run_decomposed if "decomposed" in m else run_modes
    best = math.inf
    for _ in range(reps):
        c0 = time.process_time()
        nev, x = run(m, names, consts)
        best = min(best, time.process_time() - c0)
    print("loop %.4f events %d x %s" % (best, nev, " ".join("%.12g" % v for v in x)))


if __name__ == "__main__":
    main()
