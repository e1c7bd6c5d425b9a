#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-3.0-or-later
# Linker version script of libdvicert: exactly the dvc_ functions declared in
# the public headers are global, everything else (the internal dvc_*_
# helpers, src/io, src/dlvi) is local. Usage: gen_exports.py OUT HEADER...
import re
import sys

# A declaration starts at the beginning of a line (after its return type)
# and names the function before its '('. Function-pointer members look like
# "(*name)(" and are not matched.
DECL = re.compile(r'^(?:[A-Za-z_][\w \t\*]*?[ \t\*])?(dvc_\w+)\s*\(', re.M)

def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)

def main():
    out, headers = sys.argv[1], sys.argv[2:]
    names = set()
    for h in headers:
        with open(h, encoding='utf-8') as f:
            text = strip_comments(f.read())
        # preprocessor lines (macros taking arguments) are not functions
        # and static inline helpers are compiled into the caller
        text = '\n'.join(l for l in text.split('\n')
                         if not l.lstrip().startswith('#') and 'static' not in l)
        names.update(DECL.findall(text))
    with open(out, 'w', encoding='utf-8') as f:
        f.write('{\n  global:\n')
        for n in sorted(names):
            f.write('    %s;\n' % n)
        f.write('  local: *;\n};\n')

if __name__ == '__main__':
    main()
