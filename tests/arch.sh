#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The architecture rules of docs/architecture.md, checked on the sources:
#  size    no file in src/ above 1,000 lines, no function above 150 lines
#          (signature line to closing brace), except the entries of the
#          table under "Justified exceptions" in docs/architecture.md; an
#          entry that no longer matches an oversized file or function is
#          reported too, so the doc and the check cannot drift;
#  io      no file of src/ outside src/io/ and src/cli/ includes a header of
#          src/io/ or uses a function declared only in src/io/*.h;
#  tube    include/dvicert/tube.h reaches no engine header (dlvi.h,
#          hybrid.h, lognorm.h, lcs.h), directly or through other headers;
#  cycle   no include cycle among the modules cert, io, dlvi and hybrid, and
#          no engine file (src/dlvi/, src/hybrid/) includes a cert header.
# Every violation is printed as file:line, then the count per rule.
# Usage: arch.sh [--report] [SOURCE_ROOT]
#   default   exit 1 when any rule is violated
#   --report  print the same, exit 0
# SOURCE_ROOT defaults to the tree this script is in.
set -u
mode=enforce
if [ "${1:-}" = --report ]; then mode=report; shift; fi
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
command -v python3 >/dev/null || { echo "python3 not found"; exit 77; }
exec python3 - "$mode" "$root" <<'PYEOF'
import os, re, sys

mode, root = sys.argv[1], sys.argv[2]
FILE_MAX, FUNC_MAX = 1000, 150

# Modules of the cycle rule: path patterns (relative to root), first match
# wins; a file matching none belongs to no checked module.
MODULES = [
    ('io',     re.compile(r'^src/io/|^include/dvicert/(certio|problem)\.h$')),
    ('cert',   re.compile(r'^src/cert[^/]*$|^src/[^/]*_cert\.[ch]$|^src/cert/|'
                          r'^include/dvicert/(cert|hybrid_cert)\.h$')),
    ('dlvi',   re.compile(r'^src/dlvi/|^include/dvicert/(dlvi|lognorm)\.h$')),
    ('hybrid', re.compile(r'^src/hybrid/|^include/dvicert/(hybrid|lcs)\.h$')),
]
ENGINES = ('dlvi', 'hybrid')
ENGINE_HEADERS = ('dlvi.h', 'hybrid.h', 'lognorm.h', 'lcs.h')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else',
            '__attribute__', 'defined', '_Alignof', '_Generic', 'alignof'}

def rel(p):
    return os.path.relpath(p, root)

def module(r):
    for name, pat in MODULES:
        if pat.search(r):
            return name
    return None

def read(p):
    with open(p, encoding='utf-8', errors='replace') as f:
        return f.read()

def strip(text):
    """Comments, string and character literals and preprocessor lines
    blanked (newlines kept, so offsets map to the same lines)."""
    out = []
    i, n = 0, len(text)
    bol = True      # only blanks since the start of the line
    while i < n:
        c = text[i]
        if bol and c == '#':
            # A directive, with its continuation lines.
            j = i
            while j < n and text[j] != '\n':
                if text[j] == '\\' and j + 1 < n and text[j + 1] == '\n':
                    j += 2
                    continue
                if text.startswith('/*', j):
                    k = text.find('*/', j + 2)
                    j = n if k < 0 else k + 2
                    continue
                j += 1
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j - 1]) + c)
            i = j
            bol = False
            continue
        out.append(c)
        if c == '\n':
            bol = True
        elif not c.isspace():
            bol = False
        i += 1
    return ''.join(out)

def line_of(text, pos):
    return text.count('\n', 0, pos) + 1

def top_chunks(s):
    """Top-level declarations of stripped text s: (start, end, kind) with
    kind ';' for a declaration and '{' for a braced definition, end the
    offset of the ';' or of the matching '}'."""
    chunks = []
    depth = 0
    start = None
    brace_at = None
    for i, c in enumerate(s):
        if depth == 0:
            if start is None and not c.isspace() and c not in ';}':
                start = i
            if c == ';':
                if start is not None:
                    chunks.append((start, i, ';', None))
                start = None
            elif c == '{':
                if start is not None and re.match(r'\s*extern\s*"\s*"\s*$', s[start:i]):
                    start = None    # extern "C" { ... }: its body is top level
                    continue
                brace_at = i
                depth = 1
        else:
            if c == '{':
                depth += 1
            elif c == '}':
                depth -= 1
                if depth == 0:
                    # A struct/enum body is followed by its declarator and
                    # ';': keep the chunk open; a function body ends here.
                    head = s[start:brace_at] if start is not None else ''
                    if is_function_head(head):
                        chunks.append((start, i, '{', brace_at))
                        start = None
    return chunks

def is_function_head(head):
    h = head.rstrip()
    if not h.endswith(')') or '(' not in h:
        return False
    if re.match(r'\s*(typedef|struct|union|enum)\b[^(]*$', h):
        return False
    # An initializer "x = {" is not a function; "=" inside parentheses
    # (attributes) does not count.
    depth = 0
    for c in h:
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
        elif c == '=' and depth == 0:
            return False
    return True

def func_name(head):
    depth = 0
    for m in re.finditer(r'[()]', head):
        if m.group() == '(':
            if depth == 0:
                ident = re.search(r'([A-Za-z_]\w*)\s*$', head[:m.start()])
                if ident and ident.group(1) not in KEYWORDS:
                    return ident.group(1)
            depth += 1
        else:
            depth -= 1
    return '?'

def sources(under, exts=('.c', '.h')):
    base = os.path.join(root, under)
    found = []
    for d, dirs, files in os.walk(base):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(exts):
                found.append(os.path.join(d, f))
    return found

violations = {}
def bad(rule, where, what):
    violations.setdefault(rule, []).append('%s: %s' % (where, what))

# ---- size ---------------------------------------------------------------
def exceptions():
    """Entries of the table under a heading "Justified exceptions" in
    docs/architecture.md: first cell `file` or `file:function`."""
    doc = os.path.join(root, 'docs', 'architecture.md')
    entries = {}
    if not os.path.exists(doc):
        return entries
    inside = False
    for no, ln in enumerate(read(doc).split('\n'), 1):
        if re.match(r'#+\s', ln):
            inside = bool(re.match(r'#+\s+Justified exceptions\s*$', ln))
            continue
        if not inside or not ln.lstrip().startswith('|'):
            continue
        cell = ln.strip().strip('|').split('|')[0].strip().strip('`').strip()
        if not cell or set(cell) <= set('-: ') or cell.lower() in ('file:function', 'file', 'where'):
            continue
        entries[cell] = 'docs/architecture.md:%d' % no
    return entries

allowed = exceptions()
used = set()
src_files = sources('src')
for p in src_files:
    r = rel(p)
    text = read(p)
    nlines = text.count('\n')
    if nlines > FILE_MAX:
        if r in allowed:
            used.add(r)
        else:
            bad('size', '%s:%d' % (r, nlines), 'file has %d lines (limit %d)' % (nlines, FILE_MAX))
    if not p.endswith('.c') and not p.endswith('.h'):
        continue
    s = strip(text)
    for start, end, kind, brace in top_chunks(s):
        if kind != '{':
            continue
        l0, l1 = line_of(s, start), line_of(s, end)
        name = func_name(s[start:brace])
        if l1 - l0 + 1 > FUNC_MAX:
            key = '%s:%s' % (r, name)
            if key in allowed:
                used.add(key)
            else:
                bad('size', '%s:%d' % (r, l0), 'function %s has %d lines (limit %d)'
                    % (name, l1 - l0 + 1, FUNC_MAX))
for key, where in sorted(allowed.items()):
    if key not in used:
        bad('size', where, 'exception %s matches no file or function above the limits '
            '(remove it from "Justified exceptions")' % key)

# ---- includes -----------------------------------------------------------
INC = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)

def includes(p):
    """(line, written name, resolved path or None) of each #include."""
    text = read(p)
    res = []
    for m in INC.finditer(text):
        name = m.group(2)
        cands = [os.path.join(root, 'src', name), os.path.join(root, 'include', name)]
        if m.group(1) == '"':
            cands.insert(0, os.path.join(os.path.dirname(p), name))
        path = next((os.path.normpath(c) for c in cands if os.path.isfile(c)), None)
        res.append((line_of(text, m.start()), name, path))
    return res

inc_cache = {}
def incs(p):
    if p not in inc_cache:
        inc_cache[p] = includes(p)
    return inc_cache[p]

io_dir = os.path.join(root, 'src', 'io') + os.sep
cli_dir = os.path.join(root, 'src', 'cli') + os.sep
outside = [p for p in src_files if not p.startswith(io_dir) and not p.startswith(cli_dir)]

for p in outside:
    for ln, name, path in incs(p):
        if path and path.startswith(io_dir):
            bad('io', '%s:%d' % (rel(p), ln), 'includes %s (a header of src/io/)' % name)

def declared(paths):
    """Functions (and function-like macros) declared or defined in headers."""
    names = set()
    for p in paths:
        text = read(p)
        names.update(re.findall(r'^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(', text, re.M))
        s = strip(text)
        for start, end, kind, brace in top_chunks(s):
            head = s[start:brace if kind == '{' else end]
            if re.match(r'\s*typedef\b', head) or '(' not in head:
                continue
            if re.match(r'[^(]*\(\s*\*', head):
                continue    # a function pointer, not a function
            name = func_name(head)
            if name != '?':
                names.add(name)
    return names

io_headers = [p for p in sources('src/io', ('.h',))]
other_headers = [p for p in sources('src', ('.h',)) if not p.startswith(io_dir)] + \
                sources('include', ('.h',))
io_only = declared(io_headers) - declared(other_headers)
if io_only:
    use = re.compile(r'\b(%s)\s*\(' % '|'.join(sorted(io_only, key=len, reverse=True)))
    for p in outside:
        s = strip(read(p))
        # a static function of the file's own is not io's namesake
        own = {func_name(s[a:b]) for a, _, kind, b in top_chunks(s)
               if kind == '{' and re.match(r'\s*(static\b|\w+\s+static\b)', s[a:b])}
        lines = {}      # one violation per function and file, all its lines
        for m in use.finditer(s):
            if m.group(1) not in own:
                lines.setdefault(m.group(1), []).append(line_of(s, m.start()))
        for name, ls in sorted(lines.items(), key=lambda kv: kv[1][0]):
            bad('io', '%s:%d' % (rel(p), ls[0]), 'uses %s, declared only in src/io/%s' % (
                name, '' if len(ls) == 1 else ' (also lines %s)' % ', '.join(map(str, ls[1:]))))

# ---- tube.h reaches no engine header ------------------------------------
tube = os.path.join(root, 'include', 'dvicert', 'tube.h')
if os.path.exists(tube):
    seen = {tube}
    todo = [(tube, [])]
    while todo:
        p, chain = todo.pop()
        for ln, name, path in incs(p):
            step = chain + ['%s:%d' % (rel(p), ln)]
            if os.path.basename(name) in ENGINE_HEADERS:
                bad('tube', step[0], 'tube.h reaches engine header %s%s' % (
                    name, '' if len(step) == 1 else ' (through %s)' % ' -> '.join(step[1:])))
            if path and path not in seen and path.endswith('.h'):
                seen.add(path)
                todo.append((path, step))

# ---- module cycles and engines including cert headers --------------------
edges = {}      # (a, b) -> ["file:line includes name", ...]
for p in sources('src') + sources('include', ('.h',)):
    a = module(rel(p))
    if a is None:
        continue
    for ln, name, path in incs(p):
        b = module(rel(path)) if path else None
        if b is None or b == a:
            continue
        edges.setdefault((a, b), []).append('%s:%d includes %s' % (rel(p), ln, name))
        if a in ENGINES and b == 'cert':
            bad('cycle', '%s:%d' % (rel(p), ln), 'engine %s includes cert header %s' % (a, name))

mods = [m for m, _ in MODULES]
reach = {m: {b for (a, b) in edges if a == m} for m in mods}
changed = True
while changed:
    changed = False
    for m in mods:
        more = set().union(*[reach[x] for x in reach[m]]) if reach[m] else set()
        if not more <= reach[m]:
            reach[m] |= more
            changed = True
# Each include between two modules that reach each other lies on a cycle;
# printed with the cycle's modules (one of its edges has to go).
for (a, b), wits in sorted(edges.items()):
    if a in reach[b]:
        ring = sorted(m for m in mods if m in reach[a] and a in reach[m])
        for w in wits:
            where, what = w.split(' ', 1)
            bad('cycle', where, '%s -> %s, on the cycle among {%s}: %s'
                % (a, b, ', '.join(ring), what))

# ---- report -------------------------------------------------------------
total = 0
for rule in ('size', 'io', 'tube', 'cycle'):
    for v in violations.get(rule, []):
        print('%s: %s' % (rule, v))
for rule in ('size', 'io', 'tube', 'cycle'):
    k = len(violations.get(rule, []))
    total += k
    print('%-5s %d violation(s)' % (rule, k))
print('total %d violation(s)%s' % (total, ' (report only)' if mode == 'report' and total else ''))
sys.exit(1 if total and mode != 'report' else 0)
PYEOF
