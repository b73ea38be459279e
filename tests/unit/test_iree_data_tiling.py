"""`iree-prepare` never gives IREE more dispatches than the raw IR under IREE's best CPU
flags either (issue 37, item 3): the conv-init case.

`--iree-opt-data-tiling --iree-global-opt-use-im2col-for-convs` (the zoo's "best flags")
rewrite a named conv into an im2col and a contraction before IREE's own
`DetachElementwiseFromNamedOps` runs, so a conv whose init is heirpy's folded batch-norm
shift (a `linalg.broadcast` of a vector) kept it; data tiling encodes that init and IREE
hoists the broadcast into a load-time global, one `elementwise_broadcast` executable and
dispatch per conv (ResNet-18 38 -> 50 executables). `detach-conv-init`, the last step of
`iree-prepare`, starts each conv from zero and adds the init after it, as the raw
torch-mlir IR does. The reproducer (tests/filecheck/Inputs/conv_bn_relu.mlir: a 3x3 and
a 1x1 conv, each with a batch norm and a ReLU) is compiled by the real iree-compile
(`--compile-to=flow`, about a second each; a missing tool fails the test, it never
skips). Dispatch counts only: times are for benchmarks/zoo/run_zoo.py.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile
from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.iree.iree_prepare import iree_prepare_pipeline

INPUT = Path(__file__).resolve().parents[1] / "filecheck" / "Inputs" / "conv_bn_relu.mlir"
# benchmarks/zoo/measure.py's BEST_FLAGS (tests do not import benchmarks/).
BEST_FLAGS = ("--iree-opt-data-tiling", "--iree-global-opt-use-im2col-for-convs")
FLAG_SETS = {"default": (), "best": BEST_FLAGS}
_EXECUTABLE = re.compile(r"flow\.executable\.export\s+public\s+@(\w+)")
_DISPATCH = re.compile(r"flow\.dispatch @")


@cache
def _counts(text: str, flags: tuple[str, ...]) -> tuple[int, int, list[str]]:
    """(executables, dispatches, executable names) iree-compile forms for `text`, llvm-cpu
    (cached: the raw counts serve several tests)."""
    found = find_iree_compile()
    if found is None:
        pytest.fail("iree-compile not found: install the test extras (pip install -e '.[test]')")
    result = subprocess.run(
        [found, *COMPILE_FLAGS, *flags, "--compile-to=flow", "-", "-o", "-"],
        input=text, capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr[:2000]
    names = _EXECUTABLE.findall(result.stdout)
    return len(names), len(_DISPATCH.findall(result.stdout)), names


def _prepared(pipeline: str) -> str:
    return print_module(run_pipeline(parse(INPUT.read_text()), pipeline))


@pytest.mark.parametrize("flags", FLAG_SETS, ids=list(FLAG_SETS))
def test_iree_prepare_forms_no_more_dispatches_than_raw(flags: str) -> None:
    raw = _counts(INPUT.read_text(), FLAG_SETS[flags])
    ours = _counts(_prepared("iree-prepare"), FLAG_SETS[flags])
    assert ours[0] <= raw[0] and ours[1] <= raw[1], (flags, raw[:2], ours[:2])
    assert not any("broadcast" in name for name in ours[2]), ours[2]


def test_without_detaching_the_best_flags_hoist_each_conv_init() -> None:
    """The reproducer is sharp: without `detach-conv-init` heirpy's output forms one more
    executable per conv under the best flags (an `elementwise_broadcast` initializer),
    and the same count as raw under IREE's defaults (IREE detaches the init itself)."""
    without = iree_prepare_pipeline("cpu").replace(",detach-conv-init", "")
    assert without != iree_prepare_pipeline("cpu")
    text = _prepared(without)
    raw_best, raw_default = _counts(INPUT.read_text(), BEST_FLAGS), _counts(INPUT.read_text(), ())
    best = _counts(text, BEST_FLAGS)
    assert best[0] == raw_best[0] + 2 and sum("elementwise_broadcast" in n for n in best[2]) == 2, best
    assert _counts(text, ())[:2] == raw_default[:2]


def test_iree_prepare_keeps_the_values_of_the_reproducer() -> None:
    report = check_equivalence(parse(INPUT.read_text()), parse(_prepared("iree-prepare")), function="main",
                               seeds=(0, 1))
    assert report.ok, report.summary()
