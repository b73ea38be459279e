"""`iree-prepare` gives IREE an attention block in the forms IREE compiles the raw IR to
(issue 37: DeiT-tiny, the one model heirpy's IREE route ran slower than raw, 1.02-1.03x
with the best CPU flags, with as many dispatches per call).

The reproducer is timm's `Attention` (`F.scaled_dot_product_attention`, which torch
decomposes into a scale of q and of k^T, a five-op softmax and a guard for rows of
`-inf`) at dim 8, 2 heads, 6 tokens (tests/filecheck/Inputs/f32_attention.mlir), compiled
by the real iree-compile (`--compile-to=flow`, llvm-cpu; a missing tool fails the test,
it never skips). Under IREE's defaults the raw IR and `iree-prepare`'s output run the
same 9 dispatches either way; what differed is what is in them:

* `detach-contraction-transpose`: heirpy's pointwise fusion read k's transpose inside the
  scaling generic, which IREE ran as an `elementwise_transpose` dispatch storing k^T,
  where it folds a `linalg.transpose` into the batch matmul (DeiT: 36.6 against 3.6 us
  per block, best flags);
* `drop-softmax-unit-dims`: heirpy's `linalg.softmax` over the 1xHxTxT scores kept its
  unit axis, which IREE drops from generics only, so the guard's `select` left the
  softmax's dispatch (`softmax_1x2x6x6xf32_dispatch_tensor_store` against raw's
  `softmax_2x6x6xf32_generic`) for the row-mask reduction's, which then read the whole
  softmax back (DeiT: 139.5 + 1172.5 against 58.1 + 1172.7 us per block).

With both, the executables are raw's, kind for kind; without either, they are not; the
values are kept (heirpy's evaluator, raw against prepared).
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile
from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.iree.iree_prepare import iree_prepare_pipeline

RAW = (Path(__file__).resolve().parents[1] / "filecheck" / "Inputs" / "f32_attention.mlir").read_text()
_EXECUTABLE = re.compile(r"flow\.executable\.export\s+public\s+@main_dispatch_\d+_(\w+)")
_DISPATCH = re.compile(r"flow\.dispatch @")


@cache
def _flow(text: str) -> tuple[Counter[str], int]:
    """(the executables' kinds, e.g. `softmax_2x6x6xf32_generic`, dispatches run by @main)
    under IREE's defaults."""
    found = find_iree_compile()
    if found is None:
        pytest.fail("iree-compile not found: install the test extras (pip install -e '.[test]')")
    result = subprocess.run([found, *COMPILE_FLAGS, "--compile-to=flow", "-", "-o", "-"],
                            input=text, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[:2000]
    main = result.stdout[result.stdout.find("util.func public @main"):]
    return Counter(_EXECUTABLE.findall(result.stdout)), len(_DISPATCH.findall(main))


@cache
def _prepared(pipeline: str) -> str:
    return print_module(run_pipeline(parse(RAW), pipeline))


def _without(step: str) -> str:
    full = iree_prepare_pipeline("cpu")
    without = full.replace(f",{step}", "")
    assert without != full
    return without


def test_iree_prepare_compiles_to_raws_executables() -> None:
    raw, ours = _flow(RAW), _flow(_prepared("iree-prepare"))
    assert ours == raw
    assert raw[1] == 9 and sum(raw[0].values()) == 9


def test_without_detach_contraction_transpose_k_is_a_transpose_dispatch() -> None:
    raw, without = _flow(RAW), _flow(_prepared(_without("detach-contraction-transpose")))
    assert without[1] == raw[1]  # the same dispatches per call: only their contents differ
    added = without[0] - raw[0]
    assert list(added) == ["elementwise_transpose_2x6x4_f32"], without[0]


def test_without_drop_softmax_unit_dims_the_select_leaves_the_softmax() -> None:
    raw, without = _flow(RAW), _flow(_prepared(_without("drop-softmax-unit-dims")))
    assert without[1] == raw[1]
    assert raw[0]["softmax_2x6x6xf32_generic"] == 1  # IREE's softmax with the select fused
    assert not any(name.startswith("softmax") and name.endswith("_generic") for name in without[0]), without[0]


def test_iree_prepare_keeps_the_values() -> None:
    report = check_equivalence(parse(RAW), parse(_prepared("iree-prepare")), function="main", seeds=(0, 1))
    assert report.ok, report.summary()
