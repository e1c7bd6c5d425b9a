# SPDX-License-Identifier: LGPL-3.0-or-later
"""Certified enclosures of DLVI solutions from Python.

A ctypes binding over the shared library libdvicert (its flat interface,
include/dvicert/flat.h): every bound comes from the same C code, and the
same files, as the ``dvicert`` command. See python/README.md and
docs/python.md.

    import numpy as np, dvicert
    cert = dvicert.enclose({"A": [[0, 1], [-4, 0]], ...}, "bridge.cert.json")
    tube = cert.tube()            # t, x_lo, x_hi, y_lo, y_hi (numpy arrays)
    res = cert.check(t, x)        # margins of a numpy trajectory
    print(cert.verdict, cert.summary["eps_x_at_T"])
"""

import ctypes
import fractions as _fr
import gzip
import json
import math
import numbers
import os
import tempfile

import numpy as np

__all__ = ["enclose", "read", "verify", "Certificate", "Tube", "CheckResult",
           "DvicertError", "InputError", "NotCertified", "problem_json"]

# dvc_status (include/dvicert/error.h)
_OK, _NOT_CERTIFIED, _ERR_INPUT, _ERR_IO, _ERR_NOMEM = 0, 1, 2, 3, 4


class DvicertError(Exception):
    """An error reported by libdvicert (the message names file and field)."""


class InputError(DvicertError, ValueError):
    """Bad input: a malformed problem, certificate, trajectory or argument."""


class NotCertified(DvicertError):
    """Valid input, but no proof could be produced (or a certificate was
    rejected by verification); the message says where and why."""


# ---------------------------------------------------------------- library

def _find_library():
    env = os.environ.get("DVICERT_LIB")
    if env:
        return env
    try:  # written by `meson install` (python/meson.build)
        from . import _config
        if os.path.exists(_config.LIBRARY):
            return _config.LIBRARY
    except ImportError:
        pass
    return "libdvicert.so.0"


_lib = None


def _L():
    global _lib
    if _lib is not None:
        return _lib
    path = _find_library()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError("dvicert: cannot load the shared library %r (%s); set DVICERT_LIB "
                          "to the path of libdvicert.so (e.g. build/libdvicert.so)" % (path, e))
    c_long_p = ctypes.POINTER(ctypes.c_long)
    c_double_p = ctypes.POINTER(ctypes.c_double)
    vp = ctypes.c_void_p
    sig = {
        "dvc_flat_enclose": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                            ctypes.c_char_p, ctypes.c_long, ctypes.c_long,
                                            ctypes.c_int, ctypes.c_int]),
        "dvc_flat_enclose_scale": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                                  ctypes.c_char_p, ctypes.c_long, ctypes.c_long,
                                                  ctypes.c_int, ctypes.c_int, ctypes.c_char_p]),
        "dvc_flat_open": (ctypes.c_int, [ctypes.POINTER(vp), ctypes.c_char_p, ctypes.c_int]),
        "dvc_flat_close": (None, [vp]),
        "dvc_flat_kind": (ctypes.c_int, [vp]),
        "dvc_flat_dims": (None, [vp, c_long_p]),
        "dvc_flat_problem_json": (ctypes.c_char_p, [vp]),
        "dvc_flat_friction": (ctypes.c_int, [vp]),
        "dvc_flat_grid": (ctypes.c_int, [vp] + [c_double_p] * 5),
        "dvc_flat_hulls": (ctypes.c_int, [vp] + [c_double_p] * 4),
        "dvc_flat_predictor": (ctypes.c_int, [vp, c_double_p, c_double_p]),
        "dvc_flat_check": (ctypes.c_int, [vp, ctypes.c_long, c_double_p, c_double_p, c_double_p,
                                          c_double_p, c_long_p, c_double_p]),
        "dvc_flat_claim": (ctypes.c_int, [vp, ctypes.c_int, ctypes.c_long,
                                          ctypes.POINTER(ctypes.c_char_p),
                                          ctypes.POINTER(ctypes.c_char_p),
                                          ctypes.POINTER(ctypes.c_longlong)]),
        "dvc_flat_width": (ctypes.c_int, [vp, c_double_p, c_double_p]),
        "dvc_flat_write": (ctypes.c_int, [vp, ctypes.c_char_p]),
        "dvc_error_message": (ctypes.c_char_p, []),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    _lib = lib
    return lib


def _raise(st, replace=None):
    msg = _L().dvc_error_message().decode("utf-8", "replace")
    if replace:
        for old, new in replace:
            msg = msg.replace(old, new)
    if st == _NOT_CERTIFIED:
        raise NotCertified(msg)
    if st == _ERR_INPUT:
        raise InputError(msg)
    if st == _ERR_IO:
        raise OSError(msg)
    if st == _ERR_NOMEM:
        raise MemoryError(msg)
    raise DvicertError(msg)


def _enc(s):
    if s is None:
        return None
    b = os.fsencode(s)
    # the C side reads up to the first NUL: a path holding one would name
    # another file (and a text option another option)
    if b"\0" in b:
        raise InputError("%r: a NUL byte in a path or option" % (s,))
    return b


def _real_array(a, what):
    """a as a float64 array: a clear InputError for a path, text, complex
    or non-numeric data (numpy would raise a bare ValueError or cast
    complex numbers with only a warning)."""
    if isinstance(a, (str, bytes, os.PathLike)):
        raise InputError("%s: an array of numbers is expected, got %r (read a file with "
                         "numpy.loadtxt first)" % (what, a))
    try:
        arr = np.asarray(a)
    except (ValueError, TypeError) as e:
        raise InputError("%s: not an array of numbers (%s)" % (what, e)) from None
    if np.iscomplexobj(arr):
        raise InputError("%s: complex values (a trajectory is real)" % what)
    if arr.dtype.kind not in "biuf":
        raise InputError("%s: an array of numbers is expected, got dtype %s" % (what, arr.dtype))
    return np.ascontiguousarray(arr, dtype=np.float64)


def _int_opt(v, name):
    """An integer option (bits): an int, not a text, a float or a bool."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise InputError("%s must be an integer (bits), got %r (a %s)" % (name, v, type(v).__name__))
    return int(v)


def _text_opt(v, name):
    if v is not None and not isinstance(v, str):
        raise InputError("%s must be a text or None, got %r (a %s)" % (name, v, type(v).__name__))
    return v


def _dptr(a):
    return None if a is None else a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


# ------------------------------------------------------------- problems

# The keys of a problem file (docs/formats.md, "DLVI problem files").
_REQUIRED = ("A", "B", "Q", "M", "l", "u", "x0", "T")
_KNOWN = set(_REQUIRED) | {"h", "N", "grid", "theta", "f", "g", "prec", "constants", "name",
                           "description", "comment", "units", "state_names", "output_names"}
_FREE = {"name", "description", "comment", "units", "state_names", "output_names"}


def _number(v, where):
    """A problem-file number: decimal strings and integers stay exact."""
    if isinstance(v, (bool, np.bool_)):
        raise InputError("%s: a boolean is not a number" % where)
    if isinstance(v, str):
        return v
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, numbers.Real):
        f = float(v)
        if not math.isfinite(f):
            if f > 0:
                return "inf"
            if f < 0:
                return "-inf"
            raise InputError("%s: NaN is not a number" % where)
        return f
    raise InputError("%s: expected a number, a decimal string or [lo, hi], got %s"
                     % (where, type(v).__name__))


def _value(v, where, depth):
    """Numbers, vectors (depth 1) or matrices (depth 2) to JSON values."""
    if isinstance(v, np.ndarray):
        if v.ndim != depth and not (v.ndim == depth + 1 and v.shape[-1] == 2):
            raise InputError("%s: expected %s, got an array of shape %s"
                             % (where, ("a number", "a vector", "a matrix")[depth], v.shape))
        v = v.tolist()
    if depth == 0:
        if isinstance(v, (list, tuple)):  # an interval [lo, hi]
            if len(v) != 2:
                raise InputError("%s: an interval is [lo, hi], got %d entries" % (where, len(v)))
            return [_number(e, where) for e in v]
        return _number(v, where)
    if not isinstance(v, (list, tuple)):
        raise InputError("%s: expected %s, got %s"
                         % (where, "a vector" if depth == 1 else "a matrix", type(v).__name__))
    return [_value(e, "%s[%d]" % (where, i), depth - 1) for i, e in enumerate(v)]


def _functions(v, where):
    """f or g: one entry per component (expression, constant, table object, None)."""
    if v is None:
        return None
    if isinstance(v, np.ndarray):
        v = v.tolist()
    if not isinstance(v, (list, tuple)):
        raise InputError("%s: expected one entry per component, got %s" % (where, type(v).__name__))
    out = []
    for i, e in enumerate(v):
        w = "%s[%d]" % (where, i)
        if e is None or isinstance(e, (str, dict)):
            out.append(e)
        else:
            out.append(_value(e, w, 0))
    return out


def _grid(v, where):
    """An explicit time grid: exact binary64 times (floats as C99 hex, so
    nothing is rounded on the way; integers and strings as given)."""
    if isinstance(v, np.ndarray):
        v = v.tolist()
    if not isinstance(v, (list, tuple)):
        raise InputError("%s: expected a list of times, got %s" % (where, type(v).__name__))
    out = []
    for i, e in enumerate(v):
        w = "%s[%d]" % (where, i)
        if isinstance(e, (bool, np.bool_)):
            raise InputError("%s: a boolean is not a time" % w)
        if isinstance(e, str):
            out.append(e)
        elif isinstance(e, numbers.Integral):
            out.append(int(e))
        elif isinstance(e, numbers.Real) and math.isfinite(float(e)):
            out.append(float(e).hex())
        else:
            raise InputError("%s: expected a finite time, got %r" % (w, e))
    return out


def problem_json(problem):
    """The problem dict as the JSON text of a problem file (docs/formats.md).

    Matrices and vectors may be numpy arrays or nested lists; numbers may be
    decimal strings (enclosed exactly), integers, floats (the double is
    enclosed) or [lo, hi]. Raises InputError naming the key."""
    if not isinstance(problem, dict):
        raise InputError("problem: expected a dict, got %s" % type(problem).__name__)
    for k in _REQUIRED:
        if k not in problem:
            raise InputError("problem: missing key '%s'" % k)
    if "h" not in problem and "N" not in problem and "grid" not in problem:
        raise InputError("problem: missing key 'N', 'h' or 'grid' (the time grid)")
    out = {}
    for k, v in problem.items():
        if not isinstance(k, str):
            raise InputError("problem: key %r is not a string" % (k,))
        where = "problem['%s']" % k
        if k not in _KNOWN and not k.startswith("_"):
            raise InputError("problem: unknown key '%s' (known: %s)" % (k, ", ".join(sorted(_KNOWN))))
        if k in _FREE or k.startswith("_"):
            out[k] = v.tolist() if isinstance(v, np.ndarray) else v
        elif k in ("A", "B", "Q", "M"):
            out[k] = _value(v, where, 2)
        elif k in ("l", "u", "x0"):
            out[k] = _value(v, where, 1)
        elif k in ("f", "g"):
            out[k] = _functions(v, where)
        elif k in ("N", "prec"):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
                raise InputError("%s: expected an integer, got %s" % (where, type(v).__name__))
            out[k] = int(v)
        elif k == "grid":
            out[k] = _grid(v, where)
        elif k == "constants":
            if not isinstance(v, dict):
                raise InputError("%s: expected a dict of name: value" % where)
            out[k] = {str(c): _value(cv, "%s['%s']" % (where, c), 0) for c, cv in v.items()}
        else:  # T, h, theta
            out[k] = _value(v, where, 0)
    return json.dumps(out, indent=1)


# ----------------------------------------------------------- certificates

def _outward(text, direction):
    """The double nearest the decimal text, moved one ulp outward (direction
    -1: down, 1: up) when it lies on the wrong side of the decimal."""
    v = float(text)
    d, e = _fr.Fraction(v), _fr.Fraction(text)
    if (direction < 0 and d > e) or (direction > 0 and d < e):
        v = float(np.nextafter(v, direction * np.inf))
    return v


class Tube:
    """The tube at the grid points (outer bounds, rounded outward): t (N+1),
    x_lo, x_hi (N+1, n), y_lo, y_hi (N+1, m); and, over each step
    [t_{i-1}, t_i], the hulls hx_lo, hx_hi (N, n), hy_lo, hy_hi (N, m).
    t holds the nearest doubles of the grid times (labels): t_i = i T / N,
    or, when the problem's step h does not divide T, t_i = i h' (i < N, h'
    the largest double <= h) and t_N = T, so the last step is shorter, or
    the problem's explicit `grid` (a trajectory certified on its own,
    non-uniform times) (docs/formats.md, "Time grid").

    A switched DAE's certificate (docs/dae.md) has its algebraic variables
    as y (m = their number, Certificate.algebraic names them), also named
    z_lo, z_hi (N+1, nz) and hz_lo, hz_hi (N, nz); any other certificate
    has z_lo = z_hi = hz_lo = hz_hi = None."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __repr__(self):
        return "Tube(N=%d, n=%d, m=%d)" % (len(self.t) - 1, self.x_lo.shape[1], self.y_lo.shape[1])


class CheckResult:
    """Result of Certificate.check: margins (ns, n [+ m]) per value, the
    distance to the nearest edge of the tube rounded down (negative:
    outside); violations (values outside), violating_samples, worst
    (smallest margin), worst_x, worst_y, worst_sample, worst_component
    (0-based; n.. are y), and ok (no value outside)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __repr__(self):
        return ("CheckResult(ok=%s, violations=%d, worst=%.3g)"
                % (self.ok, self.violations, self.worst))


_VERDICTS = ("informative", "wide", "uninformative")


_KINDS = {1: "dlvi", 2: "hybrid"}


class Certificate:
    """A certificate file of any kind ('dlvi' or 'hybrid', its kind) read
    whole (memory grows with N). A hybrid certificate has no claims and its
    model as `problem`, and m = 0 unless it comes from the events route
    (route 'events'): then `problem` is the embedded DLVI problem and the
    tube has the multipliers y too, from the pattern's affine map on the
    state enclosures (docs/events.md), as a DLVI certificate's. An ideal
    contact's certificate (model_kind 'ideal-contact', docs/ideal_contacts.md)
    has its contact multipliers as y (m = contacts), enclosed on reading
    from the state enclosures as `dvicert export` does. A switched
    DAE's certificate (a model with "algebraic" variables, docs/dae.md)
    states x alone; its algebraic variables z are enclosed on reading from
    the state enclosures, as `dvicert export` does, and are the tube's y
    (m = nz, `algebraic` their names from the model; [] for any other
    certificate)."""

    def __init__(self, path, verify=False):
        lib = _L()
        h = ctypes.c_void_p()
        st = lib.dvc_flat_open(ctypes.byref(h), _enc(path), 1 if verify else 0)
        if st != _OK:
            _raise(st)
        self._h = h
        self.path = os.fspath(path)
        self.verified = bool(verify)
        self.kind = _KINDS.get(lib.dvc_flat_kind(h), "dlvi")
        dims = (ctypes.c_long * 4)()
        lib.dvc_flat_dims(h, dims)
        self.n, self.m, self.N, self.precision = dims[0], dims[1], dims[2], dims[3]
        self.problem = json.loads(lib.dvc_flat_problem_json(h).decode("utf-8"))
        self._events = self.kind == "hybrid" and isinstance(self.problem, dict) and \
            isinstance(self.problem.get("dlvi_events"), dict)
        if self._events:
            # the DLVI problem the route certified, as a DLVI certificate holds it
            self.problem = self.problem["dlvi_events"].get("problem", {})
        self.method = self._claims(0)
        self.summary = self._claims(1)
        alg = self.problem.get("algebraic") if self.kind == "hybrid" and not self._events else None
        self.algebraic = [str(a) for a in alg] if isinstance(alg, list) and self.m == len(alg) else []

    def __del__(self):
        h = getattr(self, "_h", None)
        if h is not None and _lib is not None:
            _lib.dvc_flat_close(h)
            self._h = None

    def _claims(self, which):
        out, i = {}, 0
        key, text, ival = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_longlong()
        while True:
            ty = _L().dvc_flat_claim(self._h, which, i, ctypes.byref(key), ctypes.byref(text),
                                     ctypes.byref(ival))
            if ty < 0:
                return out
            k = key.value.decode("utf-8")
            out[k] = text.value.decode("utf-8") if ty == 0 else (int(ival.value) if ty == 1
                                                                   else bool(ival.value))
            i += 1

    @property
    def route(self):
        if self.kind == "hybrid":
            return "events" if self._events else "hybrid"
        return self.method.get("route", "chen-wang")

    @property
    def model_kind(self):
        """What the certificate encloses, as the route column of `dvicert info
        --csv`: the DLVI route ('chen-wang', 'lognorm') for a DLVI certificate,
        else 'events', 'ideal-contact' (an LCS with M = 0, as a sliding
        motion), 'sliding' (a decomposed model) or 'switched'."""
        if self.kind != "hybrid":
            return self.route
        if self._events:
            return "events"
        if isinstance(self.problem.get("lcs"), dict):
            return "ideal-contact"
        return "sliding" if "decomposed" in self.problem else "switched"

    @property
    def name(self):
        """The name of the problem (the events route's and an ideal contact's
        embedded DLVI problem) or model, or None."""
        lcs = self.problem.get("lcs") if self.kind == "hybrid" else None
        if isinstance(lcs, dict) and isinstance(lcs.get("problem"), dict):
            return lcs["problem"].get("name")
        return self.problem.get("name")

    def events(self):
        """The events a hybrid certificate states, in time order (as `dvicert
        events`): a list of dicts with event (1..), kind (the command's word:
        'cross', 'enter-slide', 'leave-slide', and for a friction model 'stick'
        and 'slip' where the certificate says enter-slide and leave-slide,
        docs/sliding.md "Words"), switch, from, to (mode names), t_lo,
        t_hi (the time enclosure as doubles rounded outward from the file's
        decimals) and width (t_hi - t_lo rounded up). A DLVI certificate
        locates no events: InputError. With verify=True at read time they are
        proven, else they are the file's statements."""
        if self.kind != "hybrid":
            raise InputError("%s: a DLVI certificate locates no events (the events route "
                             "writes a certificate that lists them)" % self.path)
        with open(self.path, "rb") as f:
            raw = f.read()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)  # a compressed certificate (docs/formats.md)
        doc = json.loads(raw.decode("utf-8"))
        words = {"enter-slide": "stick", "leave-slide": "slip"} if _L().dvc_flat_friction(self._h) else {}
        out = []
        for k, e in enumerate(doc.get("events") or []):
            lo, hi = _outward(e["t_lo"], -1), _outward(e["t_hi"], 1)
            w = hi - lo
            if _fr.Fraction(w) < _fr.Fraction(hi) - _fr.Fraction(lo):
                w = float(np.nextafter(w, np.inf))
            kind = e.get("kind", "cross")
            out.append({"event": k + 1, "kind": words.get(kind, kind), "switch": e.get("switch"),
                        "from": e.get("from"), "to": e.get("to"), "t_lo": lo, "t_hi": hi,
                        "width": w})
        return out

    @property
    def x_scale(self):
        """Per-state scale s (numpy array of n powers of two; ones when the
        certificate states none): the x tube has radius s_j * eps_x in state j
        (docs/bounds.md, "Scaling of the state")."""
        e = self.method.get("x_scale_log2")
        s = np.ones(self.n)
        if e:
            s = np.ldexp(1.0, np.array([int(v) for v in e.split(",")]))
        return s

    def _width(self):
        rmax = np.empty(self.n)
        rT = np.empty(self.n)
        v = _L().dvc_flat_width(self._h, _dptr(rmax), _dptr(rT))
        return v, rmax, rT

    @property
    def verdict(self):
        """'informative', 'wide' or 'uninformative' (README, "Reading a certificate")."""
        return _VERDICTS[self._width()[0]]

    @property
    def relative_radius(self):
        """(rel_max, rel_at_T): per state, the largest radius and the radius at
        T relative to the size of the solution (rounded up)."""
        _, rmax, rT = self._width()
        return rmax, rT

    def tube(self, hulls=True):
        N, n, m = self.N, self.n, self.m
        t = np.empty(N + 1)
        a = [np.empty((N + 1, n)), np.empty((N + 1, n)), np.empty((N + 1, m)), np.empty((N + 1, m))]
        st = _L().dvc_flat_grid(self._h, _dptr(t), *[_dptr(x) for x in a])
        if st != _OK:
            _raise(st)
        kw = dict(t=t, x_lo=a[0], x_hi=a[1], y_lo=a[2], y_hi=a[3])
        if hulls:
            b = [np.empty((N, n)), np.empty((N, n)), np.empty((N, m)), np.empty((N, m))]
            st = _L().dvc_flat_hulls(self._h, *[_dptr(x) for x in b])
            if st != _OK:
                _raise(st)
            kw.update(hx_lo=b[0], hx_hi=b[1], hy_lo=b[2], hy_hi=b[3])
        # a DAE's algebraic variables under their own name too
        dae = bool(self.algebraic)
        kw.update(z_lo=kw["y_lo"] if dae else None, z_hi=kw["y_hi"] if dae else None,
                  hz_lo=kw.get("hy_lo") if dae else None, hz_hi=kw.get("hy_hi") if dae else None)
        return Tube(**kw)

    def predictor(self):
        """The stored predictor (x (N+1, n), y (N+1, m)), exact binary values."""
        x = np.empty((self.N + 1, self.n))
        y = np.empty((self.N + 1, self.m))
        st = _L().dvc_flat_predictor(self._h, _dptr(x), _dptr(y))
        if st != _OK:
            _raise(st)
        return x, y

    def check(self, t, x, y=None, z=None):
        """Check samples (t (ns,), x (ns, n), y (ns, m) or None) against the
        tube, as `dvicert check` does. Returns a CheckResult. For a DAE's
        certificate y are its algebraic variables (z: the same argument
        under their name)."""
        if z is not None:
            if not self.algebraic:
                raise InputError("check: z given, but %s is not a DAE's certificate (no algebraic "
                                 "variables)" % self.path)
            if y is not None:
                raise InputError("check: give the algebraic variables as y or as z, not both")
            y = z
        t = _real_array(t, "check: t").reshape(-1)
        x = _real_array(x, "check: x")
        ns = t.shape[0]
        if x.ndim == 1 and self.n == 1:
            x = x.reshape(-1, 1)
        if x.shape != (ns, self.n):
            raise InputError("check: x has shape %s, expected (%d, %d)" % (x.shape, ns, self.n))
        w = self.n
        if y is not None:
            y = _real_array(y, "check: y")
            if y.ndim == 1 and self.m == 1:
                y = y.reshape(-1, 1)
            if y.shape != (ns, self.m):
                raise InputError("check: y has shape %s, expected (%d, %d)" % (y.shape, ns, self.m))
            w += self.m
        margins = np.empty((ns, w))
        counts = (ctypes.c_long * 4)()
        worst = (ctypes.c_double * 3)()
        st = _L().dvc_flat_check(self._h, ns, _dptr(t), _dptr(x), _dptr(y), _dptr(margins),
                                 counts, worst)
        if st != _OK:
            _raise(st)
        return CheckResult(margins=margins, violations=counts[0], violating_samples=counts[1],
                           worst_sample=counts[2], worst_component=counts[3], worst=worst[0],
                           worst_x=worst[1], worst_y=worst[2], ok=counts[0] == 0)

    def verify(self):
        """Re-verify the file as `dvicert verify` does: True when accepted;
        raises NotCertified with the reason when rejected."""
        return verify(self.path)

    def write(self, path):
        """Write the certificate (atomically) to path."""
        st = _L().dvc_flat_write(self._h, _enc(path))
        if st != _OK:
            _raise(st)

    def __repr__(self):
        return "Certificate(%r, n=%d, m=%d, N=%d, route=%s)" % (self.path, self.n, self.m, self.N,
                                                                self.route)


def read(path, verify=False):
    """Read a certificate file (verify=True: re-verify it while reading)."""
    return Certificate(path, verify)


def verify(path):
    """True when the certificate at path is accepted; raises NotCertified
    (rejected, with the reason) or InputError (unusable file)."""
    lib = _L()
    h = ctypes.c_void_p()
    st = lib.dvc_flat_open(ctypes.byref(h), _enc(path), 1)
    if st != _OK:
        _raise(st)
    lib.dvc_flat_close(h)
    return True


# The most samples enclose(trajectory=...) takes: the certificate it
# returns has one step per sample and a Certificate holds its tube whole
# (about 3 KB per step), so 10^6 samples already need about 3 GB. Longer
# trajectories: `dvicert enclose PROBLEM --from TRAJ.csv`, which streams.
MAX_TRAJECTORY_ROWS = 1000000


def _traj_arrays(t, x):
    t = _real_array(t, "trajectory: t").reshape(-1)
    x = _real_array(x, "trajectory: x")
    if x.ndim == 1:
        x = x.reshape(-1, 1)
    if x.shape[0] != t.shape[0]:
        raise InputError("trajectory: %d times but %d rows of x" % (t.shape[0], x.shape[0]))
    if t.shape[0] > MAX_TRAJECTORY_ROWS:
        raise InputError("trajectory: %d samples, more than MAX_TRAJECTORY_ROWS = %d (the certificate "
                         "returned would hold a step per sample in memory, about 3 KB each); write the "
                         "trajectory to a CSV file and run `dvicert enclose PROBLEM --from TRAJ.csv`, "
                         "which streams" % (t.shape[0], MAX_TRAJECTORY_ROWS))
    return t, x


def _write_csv(path, t, x):
    with open(path, "w") as f:
        f.write("t," + ",".join("x%d" % (j + 1) for j in range(x.shape[1])) + "\n")
        # a block of rows at a time: the text of the whole file is never held
        for s0 in range(0, t.shape[0], 4096):
            rows = zip(t[s0:s0 + 4096].tolist(), x[s0:s0 + 4096].tolist())
            # repr: the shortest decimal that reads back as the same double
            f.write("".join(",".join(map(repr, (ts, *xs))) + "\n" for ts, xs in rows))


def enclose(problem, path, method=None, trajectory=None, prec=0, prec_max=0, sharpen=False,
            allow_outside_tables=False, base_dir=None, scale="auto"):
    """Certified enclosure of a problem (a dict with the keys of a problem
    file, numpy arrays allowed, or the path of a problem file), written to
    the certificate file path as `dvicert enclose` writes it; returns the
    Certificate read back.

    method: "auto" (default, as `dvicert enclose`: the events route for
    n <= 64 where it applies, else lognorm for n <= 16, else chen-wang with
    the local beta), "chen-wang", "lognorm" or "events"
    (the exact solution event by event, docs/events.md: a certificate of the
    hybrid kind); trajectory: (t, x) arrays
    of another integrator to certify instead of the theta predictor (the
    lognorm route, `enclose --from`), at most MAX_TRAJECTORY_ROWS = 10^6
    samples (InputError above: the Certificate returned holds a step per
    sample in memory; `dvicert enclose --from` streams longer ones). Table files named in a dict are taken
    relative to base_dir (default: the current directory). scale: "auto"
    (default, as `dvicert enclose`: certify in the automatic scale of the
    states, recorded in the certificate, Certificate.x_scale) or "none"
    (the states as given, `enclose --scale none`). Raises
    InputError (bad problem, naming the key) or NotCertified (no proof)."""
    prec = _int_opt(prec, "prec")
    prec_max = _int_opt(prec_max, "prec_max")
    if prec_max and prec and prec_max < prec:
        raise InputError("prec_max %d is below prec %d (retries raise the precision)" % (prec_max, prec))
    _text_opt(method, "method")
    _text_opt(scale, "scale")
    if trajectory is not None and (not isinstance(trajectory, (tuple, list)) or len(trajectory) != 2):
        raise InputError("trajectory must be a pair (t, x) of arrays, got %r" % (type(trajectory).__name__,))
    lib = _L()
    tmpdir = None
    replace = []
    try:
        if isinstance(problem, dict):
            text = problem_json(problem)
            d = os.path.abspath(base_dir if base_dir is not None else os.getcwd())
            fd, ppath = tempfile.mkstemp(prefix=".dvicert-problem-", suffix=".json", dir=d)
            with os.fdopen(fd, "w") as f:
                f.write(text)
            replace.append((ppath, "problem"))
            tmpdir = [ppath]
        else:
            ppath = os.fspath(problem)
            tmpdir = []
        fpath = None
        if trajectory is not None:
            t, x = _traj_arrays(*trajectory)
            fd, fpath = tempfile.mkstemp(prefix="dvicert-traj-", suffix=".csv")
            os.close(fd)
            tmpdir.append(fpath)
            _write_csv(fpath, t, x)
            replace.append((fpath, "trajectory"))
        st = lib.dvc_flat_enclose_scale(_enc(ppath), _enc(path), _enc(method), _enc(fpath),
                                        int(prec), int(prec_max), 1 if sharpen else 0,
                                        1 if allow_outside_tables else 0, _enc(scale))
        if st != _OK:
            _raise(st, replace)
    finally:
        for p in tmpdir or []:
            try:
                os.unlink(p)
            except OSError:
                pass
    return Certificate(path)
