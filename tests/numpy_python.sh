# SPDX-License-Identifier: LGPL-3.0-or-later
# Sourced by the tests that run the Python module: numpy_python sets py to
# the first of python3 (PATH) and /usr/bin/python3 that imports numpy, or
# to "" (a python3 on PATH, e.g. of pyenv, may lack numpy; Debian's has it
# with python3-numpy).
numpy_python() {
    py=
    for cand in python3 /usr/bin/python3; do
        if command -v "$cand" > /dev/null 2>&1 && "$cand" -c 'import numpy' > /dev/null 2>&1; then
            py=$cand
            return 0
        fi
    done
    return 1
}
