#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-3.0-or-later
# The bundled example of the quick start.
set -euo pipefail
exe=${1:-build/dvicert}
cd "$(dirname "$0")/.."
"$exe" --version
