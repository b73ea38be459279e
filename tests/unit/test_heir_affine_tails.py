"""`FoldAffineTailIntoMatvec` (legalize-for-heir) on each kind of tail op: affine-tail.mlir
has `u * s + t`, `t` alone and `s / u`; here `u * s - t`, `t - u * s`, `u / s + t`,
`s * u` and a scalar constant fold (values equal, the tail gone from the activation),
and a division by a zero constant and `t - u` alone (no scale) stay. Found by issue
35's mutation habit: the sub and div branches of the tail's arithmetic ran in no test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence

SOURCE = (Path(__file__).resolve().parents[1] / "filecheck/transforms/legalize-for-heir/affine-tail.mlir").read_text()
MAPS = "\n".join(line for line in SOURCE.splitlines() if line.startswith("#"))
MAIN = re.search(r"^func\.func @main\(.*?^}$", SOURCE, re.S | re.M).group(0)  # type: ignore[union-attr]
TAIL = "    %r = arith.mulf %q, %s : f32\n    %u = arith.addf %r, %t : f32\n"
assert TAIL in MAIN

FOLDED = {
    "mul-sub": "    %r = arith.mulf %q, %s : f32\n    %u = arith.subf %r, %t : f32\n",
    "sub-from-constant": "    %r = arith.mulf %q, %s : f32\n    %u = arith.subf %t, %r : f32\n",
    "div-add": "    %r = arith.divf %q, %s : f32\n    %u = arith.addf %r, %t : f32\n",
    "constant-times": "    %r = arith.mulf %s, %q : f32\n    %u = arith.addf %t, %r : f32\n",
    "scalar": "    %r = arith.mulf %q, %three : f32\n    %u = arith.subf %r, %t : f32\n",
}
KEPT = {
    "divide-by-zero": "    %r = arith.divf %q, %zs : f32\n    %u = arith.addf %r, %t : f32\n",
    "no-scale": "    %r = arith.subf %t, %q : f32\n    %u = arith.addf %r, %t : f32\n",
}


def _program(tail: str) -> str:
    body = MAIN.replace(TAIL, tail.replace("%zs", "%s"))
    body = body.replace("  %zero = arith.constant 0.0 : f32\n",
                        "  %zero = arith.constant 0.0 : f32\n  %three = arith.constant 3.0 : f32\n")
    if "%zs" in tail:  # a scale with a zero channel
        body = body.replace("dense<[[[2.0]], [[0.25]]]>", "dense<[[[2.0]], [[0.0]]]>")
    return f"{MAPS}\n{body}\n"


def _activation_ops(text: str) -> list[str]:
    """The arith ops of the generic that the matvec reads, in order."""
    module = run_pipeline(parse(text), "legalize-for-heir")
    matvec = [op for op in module.walk() if op.name == "linalg.matvec"][-1]  # the Linear's
    producer = matvec.operands[1].owner
    while producer.name != "linalg.generic":
        producer = producer.operands[0].owner
    return [op.name for op in producer.body.block.ops if op.name.startswith("arith.")]


@pytest.mark.parametrize("name", sorted(FOLDED))
def test_a_tail_of_each_kind_moves_into_the_matvec(name: str) -> None:
    text = _program(FOLDED[name])
    assert _activation_ops(text) == ["arith.mulf"]  # x² alone
    after = print_module(run_pipeline(parse(text), "legalize-for-heir"))
    report = check_equivalence(parse(text), parse(after), function="main", seeds=(0, 1))
    assert report.ok, report.summary()


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # 1 / 0 is what the guard refuses
@pytest.mark.parametrize("name", sorted(KEPT))
def test_a_tail_that_cannot_move_stays(name: str) -> None:
    text = _program(KEPT[name])
    assert len(_activation_ops(text)) == 3
