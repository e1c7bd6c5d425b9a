# SPDX-License-Identifier: LGPL-3.0-or-later
"""Tests of the Python module (python/dvicert) against the built library.

Usage: test_dvicert.py DVICERT_EXE SRC_ROOT GEN_TRAJ (run by run.sh).
- containment: the closed-form bridge solution (tests/gen_traj, 256-bit
  MPFR) lies in the tubes of both routes; shifted by more than the tube's
  radius, it is reported outside;
- round trip: a certificate written from Python is accepted by
  `dvicert verify`, one written by the command is read and verified from
  Python, and the tube agrees with `dvicert export`;
- errors: a bad dict raises InputError naming the key; a tampered
  certificate raises NotCertified; a trajectory certified from Python
  (the --from route) gives a certificate the command accepts, and so does
  the example script docs/python_example.py;
- a switched DAE's algebraic variables z (certs/buck-dae) as `dvicert
  export` gives them, its closed form inside; no z for other certificates.
"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import dvicert

exe, src, gen = sys.argv[1:4]
passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what, file=sys.stderr)


def raises(exc, needle, what, fn, *a, **kw):
    try:
        fn(*a, **kw)
    except exc as e:
        ok(needle in str(e), "%s: message %r lacks %r" % (what, str(e), needle))
        return
    except Exception as e:  # noqa: BLE001 - any other exception is a failure
        ok(False, "%s: raised %s (%s), expected %s" % (what, type(e).__name__, e, exc.__name__))
        return
    ok(False, "%s: no exception, expected %s" % (what, exc.__name__))


def gen_traj(*args):
    out = subprocess.run([gen] + [str(a) for a in args], check=True, capture_output=True,
                         text=True).stdout
    rows = list(csv.reader(io.StringIO(out)))
    head, data = rows[0], np.array([[float(v) for v in r] for r in rows[1:]])
    return head, data


def run(*args):
    return subprocess.run([exe] + [str(a) for a in args], capture_output=True, text=True)


tmp = tempfile.mkdtemp()
# the verified-certificate cache of this run only (the command writes it)
os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
os.chdir(tmp)
try:
    # Example 5.1 of the paper (certs/bridge/gamma0.2.json) as a dict with numpy arrays.
    bridge = {
        "name": "bridge gamma 0.2",
        "constants": {"gamma": "0.2"},
        "A": np.array([[0, 1], [-4, 0]]), "B": np.array([[0], [-1]]),
        "f": ["0", "sin(4*t)"], "Q": np.array([[3, 0]]), "M": np.array([[1]]),
        "l": np.array([0]), "u": ["inf"], "g": ["0"],
        "x0": [0, "gamma"], "T": 1, "h": "0.001", "theta": 1,
    }

    # ---- containment of the closed form, both routes
    head, ref = gen_traj("bridge", "0.2", 1, 400, 11)
    ok(head == ["t", "x1", "x2", "y1"], "gen_traj header %s" % head)
    for method in ("chen-wang", "lognorm"):
        c = dvicert.enclose(bridge, "py-%s.cert.json" % method, method=method)
        ok(c.route == method, "%s: route %s" % (method, c.route))
        ok((c.n, c.m, c.N) == (2, 1, 1000), "%s: dims %s" % (method, (c.n, c.m, c.N)))
        ok(c.name == "bridge gamma 0.2", "%s: name %r" % (method, c.name))
        r = c.check(ref[:, 0], ref[:, 1:3], ref[:, 3:4])
        ok(r.ok and r.violations == 0 and r.worst >= 0,
           "%s: closed form outside the tube: %s" % (method, r))
        ok(r.margins.shape == (len(ref), 3), "%s: margins shape %s" % (method, r.margins.shape))
        tb = c.tube()
        # the grid bounds contain the closed form at the grid times t = 0 and T
        ok(tb.x_lo[0, 1] <= 0.2 <= tb.x_hi[0, 1], "%s: x2(0) = 0.2 not in the tube" % method)
        end = ref[ref[:, 0] == 1.0][0]
        ok(np.all(tb.x_lo[-1] <= end[1:3]) and np.all(end[1:3] <= tb.x_hi[-1]),
           "%s: x(T) not in the grid bounds" % method)
        ok(np.all(tb.hx_lo <= tb.x_hi[1:]) and np.all(tb.hx_lo <= tb.x_lo[1:] + 0) and
           np.all(tb.hx_hi >= tb.x_hi[1:]), "%s: step hulls do not contain the grid bounds" % method)
        eps = float(c.summary["eps_x_at_T"])
        ok(eps > 0 and abs((tb.x_hi[-1] - tb.x_lo[-1]).max() / 2 - eps) <= 1e-9 * eps + 1e-15,
           "%s: radius at T %s vs eps_x_at_T %s" % (method, (tb.x_hi[-1] - tb.x_lo[-1]) / 2, eps))
        # a trajectory shifted by more than the radius must be reported outside
        _, shifted = gen_traj("bridge", "0.2", 1, 400, 11, "%.6g" % (3 * float(c.summary["max_eps_x"])))
        r = c.check(shifted[:, 0], shifted[:, 1:3])
        ok(not r.ok and r.violations > 0 and r.worst < 0 and r.worst_component == 0,
           "%s: shifted trajectory accepted: %s" % (method, r))
        ok(np.isinf(r.worst_y), "%s: worst_y without y columns should be inf" % method)
    # chen-wang on the bridge is wide/uninformative (README), lognorm informative
    ok(dvicert.read("py-lognorm.cert.json").verdict == "informative", "lognorm verdict")
    cw = dvicert.read("py-chen-wang.cert.json")
    ok(cw.verdict == cw.summary["radius_verdict"], "verdict %s vs summary %s"
       % (cw.verdict, cw.summary.get("radius_verdict")))

    # ---- round trips with the command
    for f in ("py-chen-wang.cert.json", "py-lognorm.cert.json"):
        p = run("verify", f)
        ok(p.returncode == 0 and "accepted" in p.stdout, "dvicert verify %s: %s%s" % (f, p.stdout, p.stderr))
    cw.write("rewritten.cert.json")
    p = run("verify", "rewritten.cert.json")
    ok(p.returncode == 0, "dvicert verify of Certificate.write: %s%s" % (p.stdout, p.stderr))
    cli_cert = os.path.join(src, "certs", "bridge", "gamma0.2.cert.json")
    c = dvicert.read(cli_cert, verify=True)
    ok(c.verified and c.N == 1000, "read(verify=True) of the committed certificate")
    ok(dvicert.verify(cli_cert) is True, "verify() of the committed certificate")
    p = run("export", cli_cert, "--grid-only", "-o", "tube.csv")
    ok(p.returncode == 0, "dvicert export: %s" % p.stderr)
    ex = np.genfromtxt("tube.csv", delimiter=",", skip_header=1)[:, 3:]
    tb = c.tube(hulls=False)
    # export prints 17 digits rounded outward: never inside our doubles
    ok(ex.shape == (1001, 6), "export shape %s" % (ex.shape,))
    ok(np.all(ex[:, 0] <= tb.x_lo[:, 0]) and np.all(ex[:, 1] >= tb.x_hi[:, 0]) and
       np.all(ex[:, 4] <= tb.y_lo[:, 0]) and np.all(ex[:, 5] >= tb.y_hi[:, 0]),
       "python tube not inside the exported one")
    ok(np.allclose(ex[:, 0], tb.x_lo[:, 0], rtol=1e-14, atol=1e-300) and
       np.allclose(ex[:, 3], tb.x_hi[:, 1], rtol=1e-14, atol=1e-300), "python tube differs from export")

    # ---- a hybrid certificate through the same read path (one Certificate
    # for every kind): its tube against the command's export
    hyb = os.path.join(src, "certs", "bridge-switched", "bridge-switched.cert.json")
    h = dvicert.read(hyb, verify=True)
    ok(h.kind == "hybrid" and h.route == "hybrid" and h.m == 0 and h.N >= 1 and not h.method,
       "hybrid certificate: kind %s, m %d, N %d" % (h.kind, h.m, h.N))
    ok(c.kind == "dlvi", "DLVI certificate kind %s" % c.kind)
    p = run("export", hyb, "--grid-only", "-o", "htube.csv")
    ok(p.returncode == 0, "dvicert export (hybrid): %s" % p.stderr)
    hx = np.array([[float(v) for v in l.split(",")[3:3 + 2 * h.n]]
                   for l in open("htube.csv").read().splitlines()[1:] if l.startswith("grid,")])
    htb = h.tube(hulls=True)
    ok(hx.shape == (h.N + 1, 2 * h.n), "hybrid export shape %s" % (hx.shape,))
    ok(np.all(hx[:, 0::2] <= htb.x_lo) and np.all(hx[:, 1::2] >= htb.x_hi),
       "hybrid python tube not inside the exported one")
    ok(h.verdict in ("informative", "wide", "uninformative"), "hybrid verdict %r" % h.verdict)
    r = h.check(htb.t, (htb.x_lo + htb.x_hi) / 2)
    ok(r.worst_x > -1e-300, "hybrid: midpoints of the grid enclosures inside (worst %r)" % r.worst_x)
    h.write("hybrid-rewritten.cert.json")
    p = run("verify", "hybrid-rewritten.cert.json")
    ok(p.returncode == 0, "dvicert verify of a hybrid Certificate.write: %s%s" % (p.stdout, p.stderr))

    # ---- the exact route (method "events"): a certificate of the hybrid kind
    # embedding the DLVI problem, verified by rebuilding its model
    ev = dvicert.enclose(os.path.join(src, "tests", "data", "events", "bridge.json"),
                         "events.cert.json", method="events")
    ok(ev.kind == "hybrid" and ev.n == 2, "events route: kind %s, n %d" % (ev.kind, ev.n))
    ok(dvicert.verify("events.cert.json") is True, "events route: verify()")
    etb = ev.tube(hulls=False)
    ok(np.max(etb.x_hi[-1] - etb.x_lo[-1]) < 1e-12,
       "events route: width at T %r" % np.max(etb.x_hi[-1] - etb.x_lo[-1]))
    # its y tube, from the pattern's affine map on the state enclosures, as a
    # DLVI certificate's: the closed form's y = max(0, -3 x1) inside
    ev = dvicert.read("events.cert.json")
    ok(ev.route == "events" and ev.m == 1 and ev.name.startswith("Example 5.1"),
       "events route: route %s, m %d, name %r" % (ev.route, ev.m, ev.name))
    etb = ev.tube()
    ok(etb.y_lo.shape == (ev.N + 1, 1) and etb.hy_lo.shape == (ev.N, 1) and
       np.all(etb.y_lo <= etb.y_hi) and np.all(etb.hy_lo <= etb.hy_hi) and np.all(etb.y_lo >= 0),
       "events route: y tube shapes and order")
    ok(np.max(etb.y_hi - etb.y_lo) < 1e-12 and np.max(etb.y_hi) > 1,
       "events route: y tube width %r, largest y %r" % (np.max(etb.y_hi - etb.y_lo), np.max(etb.y_hi)))
    _, d = gen_traj("bridgesw", 0, 1, 10, 300, 7)
    r = ev.check(d[:, 0], d[:, 1:3], d[:, 3])
    ok(r.ok and r.margins.shape == (300, 3), "events route: the closed form's x and y inside: %r" % (r,))
    yb = d[:, 3].copy()
    yb[5] += 1e-6 if yb[5] > 0 else -1e-6
    r = ev.check(d[:, 0], d[:, 1:3], yb)
    ok(not r.ok and r.violating_samples == 1 and r.worst_component == 2,
       "events route: y moved by 1e-6 outside: %r" % (r,))
    # ---- a switched DAE (docs/dae.md): its algebraic variables z, named by
    # the model, enclosed on reading as `dvicert export` encloses them
    dae = os.path.join(src, "certs", "buck-dae", "buck-dae.cert.json")
    dc = dvicert.read(dae, verify=True)
    ok(dc.algebraic == ["va", "is", "id", "vc"] and dc.m == 4 and dc.n == 2,
       "DAE: algebraic %r, n %d, m %d" % (dc.algebraic, dc.n, dc.m))
    dtb = dc.tube()
    ok(dtb.z_lo is dtb.y_lo and dtb.z_hi is dtb.y_hi and dtb.hz_lo is dtb.hy_lo and
       dtb.z_lo.shape == (dc.N + 1, 4) and dtb.hz_hi.shape == (dc.N, 4), "DAE: z in the tube")
    p = run("export", dae, "-o", "dae.csv")
    zrows = list(csv.DictReader(open("dae.csv")))
    ok(p.returncode == 0 and list(zrows[0])[7:15] == ["va_lo", "va_hi", "is_lo", "is_hi", "id_lo", "id_hi",
                                                     "vc_lo", "vc_hi"], "DAE export: %s" % p.stderr)
    for kind, lo, hi in (("grid", dtb.z_lo, dtb.z_hi), ("step", dtb.hz_lo, dtb.hz_hi)):
        ez = np.array([[float(r["%s_%s" % (a, e)]) for a in dc.algebraic for e in ("lo", "hi")]
                       for r in zrows if r["kind"] == kind])
        # export prints 17 digits rounded outward from the same enclosures
        ok(ez.shape == (lo.shape[0], 8) and np.all(ez[:, 0::2] <= lo) and np.all(ez[:, 1::2] >= hi) and
           np.allclose(ez[:, 0::2], lo, rtol=1e-15, atol=1e-300) and
           np.allclose(ez[:, 1::2], hi, rtol=1e-15, atol=1e-300),
           "DAE: z at the %s points as export's" % kind)
    zmid = lambda a, b: (a + b) / 2
    r = dc.check(dtb.t, zmid(dtb.x_lo, dtb.x_hi), z=zmid(dtb.z_lo, dtb.z_hi))
    ok(r.ok and r.margins.shape == (dc.N + 1, 6), "DAE: grid midpoints of x and z inside: %r" % r)
    r = dc.check(dtb.t, zmid(dtb.x_lo, dtb.x_hi), z=dtb.z_hi + 1e-6)
    ok(not r.ok and r.worst_y < 0, "DAE: z moved by 1e-6 outside: %r" % r)
    # the closed form (tests/dae_ref.py, mpmath at 60 digits) inside, z too
    p = subprocess.run(["python3", os.path.join(src, "tests", "dae_ref.py"), "10", "200", "3"],
                       capture_output=True, text=True)
    if p.returncode == 0:
        zref = np.array([[float(v) for v in l.split(",")] for l in p.stdout.splitlines()[1:]])
        r = dc.check(zref[:, 0], zref[:, 1:3], z=zref[:, 3:7])
        ok(r.ok and np.isfinite(r.worst_y), "DAE: the closed form inside, z too: %r" % r)
        r = dc.check(zref[:, 0], zref[:, 1:3], z=zref[:, 3:7] + 1e-3)
        ok(not r.ok, "DAE: the closed form's z moved by 1e-3 outside: %r" % r)
    else:
        print("skipped: the DAE's closed form (python3 with mpmath not found)")
    # a certificate of no DAE has no z
    ok(h.algebraic == [] and htb.z_lo is None and htb.hz_hi is None and c.algebraic == [] and
       c.tube().z_hi is None, "no DAE: no z")
    raises(dvicert.InputError, "not a DAE", "check with z on a non-DAE", h.check, htb.t,
           zmid(htb.x_lo, htb.x_hi), z=np.zeros((h.N + 1, 1)))
    raises(dvicert.InputError, "outside", "events route refuses a trajectory past T", dvicert.enclose,
           os.path.join(src, "tests", "data", "events", "bridge.json"), "no.cert.json",
           method="events", trajectory=(np.array([0.0, 11.0]), np.zeros((2, 2))))
    ok(not os.path.exists("no.cert.json"), "events route: nothing written on refusal")
    # ---- every hybrid kind: read, tube, check and the events (as `dvicert
    # events --csv`, times rounded outward from the file's decimals)
    for sub, kind, name in (("bridge-switched/bridge-switched", "switched", "Example 5.1"),
                            ("stickslip/stickslip", "sliding", None),
                            ("threemass/threemass", "sliding", None),
                            ("diode-clamp/diode-clamp", "ideal-contact", "diode-clamped RC"),
                            ("two-contact/unique", "sliding", None)):
        path = os.path.join(src, "certs", sub + ".cert.json")
        hc = dvicert.read(path)
        ok(hc.model_kind == kind, "%s: model_kind %r" % (sub, hc.model_kind))
        ok((hc.name or "").startswith(name) if name else hc.name is None, "%s: name %r" % (sub, hc.name))
        htb = hc.tube()
        r = hc.check(htb.t, (htb.x_lo + htb.x_hi) / 2)
        ok(r.ok, "%s: grid midpoints inside: %r" % (sub, r))
        evs = hc.events()
        p = run("events", "--csv", path)
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        ok(p.returncode == 0 and len(rows) == len(evs), "%s: events %d, command %d" % (sub, len(evs), len(rows)))
        # the module says what the command says (stick / slip for a
        # friction model)
        ok(all(e["kind"] == w["kind"] and e["switch"] == w["switch"] and e["from"] == w["from"] and
               e["to"] == w["to"] and e["t_lo"] <= e["t_hi"] and e["width"] >= e["t_hi"] - e["t_lo"] and
               abs(e["t_lo"] - float(w["t_lo"])) <= 1e-15 * max(1.0, abs(e["t_lo"]))
               for e, w in zip(evs, rows)), "%s: events differ from the command's" % sub)
    ok(len(dvicert.read(os.path.join(src, "certs", "diode-clamp", "diode-clamp.cert.json")).events()) == 6,
       "diode clamp: 6 events")
    # an ideal contact's multipliers y are the tube's y, as `dvicert export`
    # prints them (decimals rounded outward: the module's y inside them)
    dcp = os.path.join(src, "certs", "diode-clamp", "diode-clamp.cert.json")
    dtb = dvicert.read(dcp).tube()
    p = run("export", dcp, "-o", "dc.csv")
    rows = list(csv.DictReader(open("dc.csv")))
    grid = [r for r in rows if r["kind"] == "grid"]
    steps = [r for r in rows if r["kind"] == "step"]
    ok(p.returncode == 0 and dtb.y_lo.shape == (len(grid), 1) and dtb.hy_lo.shape == (len(steps), 1),
       "diode clamp: m = 1 (its contact), %r grid rows, %r steps" % (dtb.y_lo.shape, dtb.hy_lo.shape))
    ok(all(float(r["y_lo"]) <= a and b <= float(r["y_hi"]) and a <= b
           for r, a, b in zip(grid, dtb.y_lo[:, 0], dtb.y_hi[:, 0])) and
       all(float(r["y_lo"]) <= a and b <= float(r["y_hi"]) and a <= b
           for r, a, b in zip(steps, dtb.hy_lo[:, 0], dtb.hy_hi[:, 0])),
       "diode clamp: y inside export's y at every grid point and step")
    ok(max(dtb.hy_hi[:, 0]) > 0, "diode clamp: the multiplier is active somewhere")
    p = run("events", "--csv", "events.cert.json")
    ok(ev.model_kind == "events" and len(ev.events()) == len(p.stdout.splitlines()) - 1,
       "events route: model_kind %r, events %d" % (ev.model_kind, len(ev.events())))
    raises(dvicert.InputError, "locates no events", "events() of a DLVI certificate", c.events)

    # the certificate never replaces its problem (the command refused it,
    # the module did not), and a NUL byte does not truncate a path
    shutil.copy(os.path.join(src, "tests", "data", "events", "bridge.json"), "self.json")
    before = open("self.json").read()
    raises(dvicert.InputError, "same file as the input", "enclose onto its own problem", dvicert.enclose,
           "self.json", "self.json")
    ok(open("self.json").read() == before, "enclose onto its own problem: the problem is whole")
    raises(dvicert.InputError, "NUL byte", "a NUL in the output path", dvicert.enclose,
           "self.json", "out\0x.cert.json")
    ok(not os.path.exists("out"), "a NUL in the output path: nothing written at the truncated name")
    # arguments of the wrong kind: InputError naming the argument, never a
    # raw ValueError/TypeError, never a silent cast or a changed route
    raises(dvicert.InputError, "prec must be an integer", "prec='53'", dvicert.enclose,
           "self.json", "o.cert.json", prec="53")
    raises(dvicert.InputError, "prec_max 64 is below prec 80", "prec_max < prec", dvicert.enclose,
           "self.json", "o.cert.json", prec=80, prec_max=64)
    raises(dvicert.InputError, "method must be a text", "method=1", dvicert.enclose,
           "self.json", "o.cert.json", method=1)
    raises(dvicert.InputError, "complex values", "complex times", dvicert.enclose,
           "self.json", "o.cert.json", method="lognorm",
           trajectory=(np.array([0.0, 10.0]) + 0j, np.zeros((2, 2))))
    raises(dvicert.InputError, "an array of numbers is expected", "a path where arrays are expected",
           dvicert.enclose, "self.json", "o.cert.json", method="lognorm", trajectory=("t.csv", "x.csv"))
    raises(dvicert.InputError, "trajectory must be a pair", "a trajectory that is not a pair",
           dvicert.enclose, "self.json", "o.cert.json", trajectory=np.zeros((3, 3)))
    # a trajectory longer than the stated limit: refused before anything is written
    big = dvicert.MAX_TRAJECTORY_ROWS + 1
    raises(dvicert.InputError, "MAX_TRAJECTORY_ROWS", "a trajectory past the row limit",
           dvicert.enclose, "self.json", "o.cert.json", method="lognorm",
           trajectory=(np.linspace(0.0, 1.0, big), np.zeros((big, 2))))
    ok(not os.path.exists("o.cert.json"), "a trajectory past the row limit left o.cert.json")
    ok(not os.path.exists("o.cert.json"), "bad arguments: nothing written")
    evc = dvicert.read("events.cert.json")
    raises(dvicert.InputError, "an array of numbers is expected", "check with a path",
           evc.check, "t.csv", np.zeros((1, 2)))
    raises(dvicert.InputError, "complex values", "check with complex x",
           evc.check, np.array([0.0]), np.zeros((1, 2)) + 1j)

    # ---- a tampered certificate is rejected
    text = open(cli_cert).read().replace('"eps_x_at_T":"4.', '"eps_x_at_T":"1.', 1)
    if text == open(cli_cert).read():
        ok(False, "tamper: pattern not found")
    open("tampered.cert.json", "w").write(text)
    raises(dvicert.NotCertified, "", "tampered certificate", dvicert.verify, "tampered.cert.json")

    # ---- a trajectory of another integrator certified (the --from route)
    def rk4(x0, T, N):
        def F(t, x):  # contact free for this start: y = 0
            return np.array([x[1], -4 * x[0] + np.sin(4 * t)])
        h, x, xs = T / N, np.array(x0, dtype=float), [np.array(x0, dtype=float)]
        for i in range(N):
            t = i * h
            k1 = F(t, x); k2 = F(t + h / 2, x + h / 2 * k1)
            k3 = F(t + h / 2, x + h / 2 * k2); k4 = F(t + h, x + h * k3)
            x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            xs.append(x)
        return np.linspace(0, T, N + 1), np.array(xs)
    t, xs = rk4([0, 0.2], 1.0, 500)
    c = dvicert.enclose(bridge, "rk4.cert.json", method="lognorm", trajectory=(t, xs))
    ok(c.route == "lognorm" and c.method.get("predictor") == "external" and c.N == 500,
       "trajectory route: %s %s N=%d" % (c.route, c.method.get("predictor"), c.N))
    r = c.check(ref[:, 0], ref[:, 1:3])
    ok(r.ok, "closed form outside the RK4 certificate: %s" % r)
    p = run("verify", "rk4.cert.json")
    ok(p.returncode == 0, "dvicert verify of the RK4 certificate: %s%s" % (p.stdout, p.stderr))
    # the same on non-uniform times (steps T/500 and 2T/500 alternating):
    # certified on the trajectory's own times, stated as the problem's grid
    tn = [0.0]
    while tn[-1] < 1.0:
        tn.append(min(1.0, tn[-1] + (0.002 if len(tn) % 2 else 0.004)))
    xn = [np.array([0, 0.2])]
    for i in range(len(tn) - 1):
        h, t0, x = tn[i + 1] - tn[i], tn[i], xn[-1]
        def F(t, x):
            return np.array([x[1], -4 * x[0] + np.sin(4 * t)])
        k1 = F(t0, x); k2 = F(t0 + h / 2, x + h / 2 * k1)
        k3 = F(t0 + h / 2, x + h / 2 * k2); k4 = F(t0 + h, x + h * k3)
        xn.append(x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4))
    c = dvicert.enclose(bridge, "rk4-grid.cert.json", method="lognorm", trajectory=(np.array(tn), np.array(xn)))
    tb = c.tube(hulls=False)
    ok(c.N == len(tn) - 1 and "grid" in c.problem and np.array_equal(tb.t, np.array(tn)),
       "non-uniform trajectory: N=%d of %d, grid %s, times equal %s" % (
           c.N, len(tn) - 1, "grid" in c.problem, tb.t.shape == (len(tn),) and np.array_equal(tb.t, tn)))
    r = c.check(ref[:, 0], ref[:, 1:3])
    ok(r.ok, "closed form outside the non-uniform RK4 certificate: %s" % r)
    r = c.check(np.array(tn), np.array(xn))
    ok(r.ok, "the trajectory itself outside its own certificate: %s" % r)
    p = run("verify", "rk4-grid.cert.json")
    ok(p.returncode == 0, "dvicert verify of the non-uniform RK4 certificate: %s%s" % (p.stdout, p.stderr))
    # a grid given in Python: floats as exact hex, the theta predictor refuses it
    pj = json.loads(dvicert.problem_json(dict(bridge, grid=[0, 0.1, 0.25, 1.0])))
    ok(pj["grid"] == [0, (0.1).hex(), (0.25).hex(), (1.0).hex()], "grid to JSON: %s" % pj.get("grid"))
    raises(dvicert.InputError, "problem['grid'][1]", "NaN in the grid", dvicert.problem_json,
           dict(bridge, grid=[0, float("nan"), 1.0]))

    # ---- errors name the key
    bad = dict(bridge)
    del bad["Q"]
    raises(dvicert.InputError, "'Q'", "missing key", dvicert.enclose, bad, "bad.cert.json")
    raises(dvicert.InputError, "'Bx'", "unknown key", dvicert.enclose, dict(bridge, Bx=1), "bad.cert.json")
    raises(dvicert.InputError, "field 'B'", "dimension mismatch", dvicert.enclose,
           dict(bridge, B=np.zeros((3, 1))), "bad.cert.json")
    raises(dvicert.InputError, "problem['x0']", "object in a vector", dvicert.enclose,
           dict(bridge, x0=[0, object()]), "bad.cert.json")
    raises(dvicert.InputError, "problem['N']", "N not an integer", dvicert.enclose,
           dict(bridge, N=2.5), "bad.cert.json")
    raises(dvicert.InputError, "method", "unknown method", dvicert.enclose, bridge, "bad.cert.json",
           method="euler")
    raises(dvicert.NotCertified, "P-matrix", "M not a P-matrix", dvicert.enclose,
           dict(bridge, M=[[-1]]), "bad.cert.json")
    ok(not os.path.exists("bad.cert.json"), "a failed enclose left bad.cert.json")
    ok(not any(f.startswith(".dvicert-problem-") for f in os.listdir(".")),
       "temporary problem files left behind")
    raises(dvicert.InputError, "shape", "check shape", cw.check, [0.0, 0.5], [[0.0, 0.2]])
    raises(dvicert.InputError, "", "check time beyond T", cw.check, [2.0], [[0.0, 0.2]])
    raises(OSError, "", "missing certificate", dvicert.read, "no-such.cert.json")

    # ---- scaled states: the wall in SI units (tests/data/scale/wall.json)
    wc = dvicert.enclose(os.path.join(src, "tests", "data", "scale", "wall.json"), "py-wall.cert.json",
                         method="lognorm")
    ok(list(wc.x_scale) in ([1.0, 128.0], [1.0, 256.0]), "wall x_scale %s" % wc.x_scale)
    ok(list(cw.x_scale) == [1.0, 1.0], "bridge x_scale %s" % cw.x_scale)
    tb = wc.tube(hulls=False)
    eps = float(wc.summary["eps_x_at_T"])
    rad = (tb.x_hi[-1] - tb.x_lo[-1]) / 2
    ok(np.all(np.abs(rad - wc.x_scale * eps) <= 1e-9 * wc.x_scale * eps + 1e-15),
       "wall: per-state radius at T %s vs s_j eps_x_at_T %s" % (rad, wc.x_scale * eps))
    _, wref = gen_traj("wall", 64, "0.1", "-0.5", "0.015625", 500, 3)
    r = wc.check(wref[:, 0], wref[:, 1:3], wref[:, 3:4])
    ok(r.ok, "wall closed form inside the scaled tube: %s" % (r,))
    # scale="none" (enclose --scale none): no scale recorded, one radius for
    # every state, and the certificate verifies
    wn = dvicert.enclose(os.path.join(src, "tests", "data", "scale", "wall.json"), "py-wall-none.cert.json",
                         method="lognorm", scale="none")
    ok("x_scale_log2" not in wn.method, "scale='none': method states x_scale_log2 %r"
       % wn.method.get("x_scale_log2"))
    ok(list(wn.x_scale) == [1.0, 1.0], "scale='none': x_scale %s" % wn.x_scale)
    tb = wn.tube(hulls=False)
    eps = float(wn.summary["eps_x_at_T"])
    rad = (tb.x_hi[-1] - tb.x_lo[-1]) / 2
    ok(np.all(np.abs(rad - eps) <= 1e-9 * eps + 1e-15),
       "scale='none': radius at T %s vs eps_x_at_T %s" % (rad, eps))
    p = run("verify", "py-wall-none.cert.json")
    ok(p.returncode == 0, "dvicert verify of the scale='none' certificate: %s%s" % (p.stdout, p.stderr))
    wa = dvicert.enclose(os.path.join(src, "tests", "data", "scale", "wall.json"), "py-wall-auto.cert.json",
                         method="lognorm", scale="auto")
    ok(wa.method.get("x_scale_log2") == wc.method.get("x_scale_log2"),
       "scale='auto' is the default: %r vs %r" % (wa.method.get("x_scale_log2"), wc.method.get("x_scale_log2")))
    raises(dvicert.InputError, "scale must be auto or none", "bad scale", dvicert.enclose,
           os.path.join(src, "tests", "data", "scale", "wall.json"), "bad.cert.json", scale="some")
    ok(not os.path.exists("bad.cert.json"), "a bad scale left bad.cert.json")

    # ---- the example script (an RK4 trajectory with contact phases certified)
    p = subprocess.run([sys.executable, os.path.join(src, "docs", "python_example.py"), "ex.cert.json"],
                       capture_output=True, text=True)
    ok(p.returncode == 0 and p.stdout.count("0 values outside") == 2,
       "docs/python_example.py: %s%s" % (p.stdout, p.stderr))
    p = run("verify", "ex.cert.json")
    ok(p.returncode == 0, "dvicert verify of the example's certificate: %s%s" % (p.stdout, p.stderr))
    # ---- gzip certificates read as the plain ones (every kind in certs/)
    import glob
    import gzip
    for f in sorted(glob.glob(os.path.join(src, "certs", "*", "*.cert.json"))):
        with open(f, "rb") as fi, gzip.open("z.cert.json.gz", "wb") as fo:
            fo.write(fi.read())
        a, b = dvicert.Certificate(f), dvicert.Certificate("z.cert.json.gz", verify=True)
        ta, tb = a.tube(), b.tube()
        ok(a.kind == b.kind and (a.n, a.m, a.N) == (b.n, b.m, b.N) and a.problem == b.problem and
           np.array_equal(ta.x_lo, tb.x_lo) and np.array_equal(ta.x_hi, tb.x_hi),
           "gzip copy of %s reads as the file" % os.path.basename(f))
        if a.kind == "hybrid":
            ok(a.events() == b.events(), "gzip copy of %s: its events as the file's" % os.path.basename(f))
    ok(any(e["kind"] == "stick" for e in dvicert.read(os.path.join(src, "certs", "stickslip", "stickslip.cert.json")).events()),
       "stick-slip: the module names sticking 'stick'")
finally:
    os.chdir("/")
    shutil.rmtree(tmp, ignore_errors=True)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
