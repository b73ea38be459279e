#!/usr/bin/env bash
# Create (once) the project's virtualenv in .venv and install heirpy with its test
# extras into it. Sourced by run-examples.sh and run-tests.sh, so a fresh clone needs
# nothing but Python 3.11 and access to PyPI. PYTHON=python3.12 (or 3.13) with a
# separate HEIRPY_VENV runs everything on another supported Python.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${HEIRPY_VENV:-$root/.venv}"
python="${PYTHON:-python3.11}"
command -v "$python" >/dev/null 2>&1 || python=python3
stamp="$venv/.heirpy-installed"
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet -e "$root[test]"
  # Model code for the zoo (benchmarks/zoo, its CI sample) without the packages' own
  # dependency lists (pyproject.toml's test extra says why).
  "$venv/bin/python" -m pip install --quiet --no-deps timm==1.0.31 ultralytics==8.4.190
  touch "$stamp"
fi
export PATH="$venv/bin:$PATH"
export VIRTUAL_ENV="$venv"
