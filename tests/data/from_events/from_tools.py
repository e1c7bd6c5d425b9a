# SPDX-License-Identifier: LGPL-3.0-or-later
"""Helpers of tests/cli/from_events.sh over events certificates with an
embedded trajectory (docs/from_events.md, docs/formats.md):

  dense CERT K > dense.csv
      t = 0, T and 15 interior points of the K steps with the largest
      certified bound of each state (the linear interpolant, in binary64):
      where the truth of the sup over [0, T] is measured
  contains CERT53 CERT256
      the same samples; at every sample and state the 53-bit two-sided
      error contains the 256-bit one (the 256-bit tube inside the 53-bit
      tube, and the 53-bit bounds hold against the 256-bit truth)
  ratios CERT CERT_AT_T CERT_TRUTH LIMIT
      per state: the certified bound over [0, T] (CERT) and at T
      (CERT_AT_T) against the truth (CERT_TRUTH: the 256-bit error at the
      dense points and at T); prints 'ratio xJ over=R1 at_T=R2' lines and
      exits 1 when a bound is below the truth or (LIMIT > 0) a ratio above
      LIMIT.
  tamper CERT OUT WHAT
      OUT: CERT with one claim changed (WHAT: 'step_upper', the largest
      step bound of x1 lowered by 1%; 'error_lo', a sample's lower bound of
      x1 raised above its upper one; 'none', nothing), digests recomputed
      as the writer computes them (jansson's compact text, keys sorted)."""
import json
import sys


def traj(path):
    return json.load(open(path))["model"]["dlvi_events"]["trajectory"]


def dense(path, K):
    tr = traj(path)
    t, p, up = tr["t"], tr["p"], tr["step_upper"]
    n = len(p[0])
    pick = set()
    for j in range(n):
        order = sorted(range(len(up)), key=lambda k: -up[k][j])
        pick.update(order[:K])
    rows = {0: (t[0], p[0]), len(t) - 1: (t[-1], p[-1])}
    out = [(t[0], p[0]), (t[-1], p[-1])]
    for k in sorted(pick):
        for i in range(0, 17):
            s = i / 16.0
            tt = t[k] + s * (t[k + 1] - t[k]) if 0 < i < 16 else (t[k] if i == 0 else t[k + 1])
            out.append((tt, [(1 - s) * p[k][j] + s * p[k + 1][j] for j in range(n)]))
    del rows
    seen, lines = set(), ["t," + ",".join("x%d" % (j + 1) for j in range(n))]
    for tt, v in sorted(out, key=lambda r: r[0]):
        if tt in seen:
            continue
        seen.add(tt)
        lines.append(repr(tt) + "," + ",".join(repr(x) for x in v))
    print("\n".join(lines))


def contains(p53, p256):
    a, b = traj(p53), traj(p256)
    assert a["t"] == b["t"] and a["p"] == b["p"], "not the same samples"
    bad = 0
    for k in range(len(a["t"])):
        for j in range(len(a["p"][0])):
            if not (a["error_lo"][k][j] <= b["error_lo"][k][j] and b["error_hi"][k][j] <= a["error_hi"][k][j]):
                bad += 1
                if bad <= 3:
                    print("sample %d x%d: 53-bit [%r, %r] does not contain 256-bit [%r, %r]" % (
                        k + 1, j + 1, a["error_lo"][k][j], a["error_hi"][k][j], b["error_lo"][k][j],
                        b["error_hi"][k][j]))
    print("contains: %d samples x %d states, %d not contained" % (len(a["t"]), len(a["p"][0]), bad))
    return 1 if bad else 0


def ratios(pfull, pT, ptruth, limit):
    a, b, d = traj(pfull), traj(pT), traj(ptruth)
    n, rc = len(a["p"][0]), 0
    for j in range(n):
        bound = max(u[j] for u in a["step_upper"])
        truth = max(max(e[j] for e in d["error_lo"]), max(e[j] for e in a["error_lo"]))
        truth_hi = max(e[j] for e in d["error_hi"])
        bT, tT, tT_hi = b["error_hi"][-1][j], d["error_lo"][-1][j], d["error_hi"][-1][j]
        r1 = bound / truth
        r2 = bT / tT if tT > 0 else float("inf")
        if bound < truth_hi or bT < tT_hi:
            rc = 1
            print("x%d: a bound below the truth" % (j + 1))
        if limit > 0 and (r1 > limit or r2 > limit):
            rc = 1
        print("ratio x%d over=%.4f at_T=%.4f (bound over [0,T] %.6e, truth >= %.6e; at T bound %.6e, "
              "truth in [%.6e, %.6e])" % (j + 1, r1, r2, bound, truth, bT, tT, tT_hi))
    return rc


def jtext(o):
    # the text jansson's json_dumps(JSON_SORT_KEYS | JSON_COMPACT) gives
    if isinstance(o, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + jtext(o[k]) for k in sorted(o)) + "}"
    if isinstance(o, list):
        return "[" + ",".join(jtext(v) for v in o) + "]"
    if o is True or o is False or o is None:
        return json.dumps(o)
    if isinstance(o, float):
        t = "%.17g" % o
        if "e" in t:
            m, e = t.split("e")
            t = m + "e" + str(int(e))
        elif "." not in t:
            t += ".0"
        return t
    if isinstance(o, int):
        return str(o)
    return json.dumps(o, ensure_ascii=False)


def digest(o):
    h = 0xcbf29ce484222325
    for b in jtext(o).encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return "fnv1a64:%016x" % h


def tamper(path, out, what):
    root = json.load(open(path))
    tr = root["model"]["dlvi_events"]["trajectory"]
    if what == "step_upper":
        up = tr["step_upper"]
        k = max(range(len(up)), key=lambda i: up[i][0])
        up[k][0] *= 0.99
    elif what == "error_lo":
        k = len(tr["t"]) // 2
        tr["error_lo"][k][0] = tr["error_hi"][k][0] * 1.01 + 1e-300
    root["model_digest"] = digest(root["model"])
    del root["digest"]
    root["digest"] = digest(root)
    json.dump(root, open(out, "w"))


cmd = sys.argv[1]
if cmd == "tamper":
    tamper(sys.argv[2], sys.argv[3], sys.argv[4])
    sys.exit(0)
if cmd == "dense":
    dense(sys.argv[2], int(sys.argv[3]))
elif cmd == "contains":
    sys.exit(contains(sys.argv[2], sys.argv[3]))
else:
    sys.exit(ratios(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])))
