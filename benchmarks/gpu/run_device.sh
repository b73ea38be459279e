#!/bin/bash
# The one command for a lent GPU machine (benchmarks/gpu/README.md). From the repository root:
#
#   bash benchmarks/gpu/run_device.sh build/gpu.tar.xz [BUDGET_SECONDS]
#
# build/gpu.tar.xz is what `python benchmarks/bench_iree.py --target cuda --prepare build/gpu` wrote
# (the modules, IREE's runtime tools, the bug reproducer's modules). Unpacks it under /tmp, times and
# checks every case with the machine's own python3 (numpy, torch), and leaves results.json,
# diagnosis.txt and log.txt in $OUT (the device tool brings those back).
set -u
archive=${1:-build/gpu.tar.xz}
budget=${2:-360}
out=${OUT:-/tmp/heirpy-gpu-out}
here=/tmp/heirpy-gpu
mkdir -p "$here/bin" "$out"
tar -xJf "$archive" -C "$here" || exit 1
tar -xJf "$here/gpu/iree-tools.tar.xz" -C "$here/bin" || exit 1
export PYTHONUNBUFFERED=1
python3 benchmarks/gpu/device.py "$here/gpu" --tools "$here/bin" --out "$out" --budget "$budget" \
    --device "${DEVICE:-cuda}" 2>&1 | tee "$out/log.txt"
