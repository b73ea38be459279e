#!/usr/bin/env bash
# The main job: run heirpy's pipeline on every bundled example model and report.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
heirpy-report examples/*.mlir --out-dir build/examples --plot build/report.png "$@"
