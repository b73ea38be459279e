#!/usr/bin/env bash
# The whole test suite: pytest unit/property tests, then the lit/FileCheck tests.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
status=0
python -m pytest tests/unit "$@" || status=$?
lit -sv tests/filecheck || status=$?
exit $status
