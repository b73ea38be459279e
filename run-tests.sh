#!/usr/bin/env bash
# The whole test suite: ruff and mypy, pytest unit/property tests, the lit/FileCheck tests, and a lint of
# the FileCheck files.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
status=0
# Lint (import order, complexity, pyflakes, bugbear) and type-check; both are configured
# in pyproject.toml.
ruff check . || status=$?
mypy || status=$?
python -m pytest tests/unit "$@" || status=$?
lit -sv tests/filecheck || status=$?
# FileCheck files must not hold checks that cannot fail (tests/lint_filecheck.py says which).
python tests/lint_filecheck.py tests/filecheck || status=$?
exit $status
