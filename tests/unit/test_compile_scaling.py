"""Guards for compile-time scaling found by benchmarks/bench_scaling.py.

Folding one constant slice must cost the size of the slice, not of the block it sits in:
the slice walk (`ConstantFolder.slice_of`) used to number every op of the block on each fold, which made
linalg-fuse-ops quadratic in the number of layers (17 s at 1,000 conv blocks). These tests
check the order the evaluator needs (every op after the slice ops it reads) and that a
fold never enumerates the enclosing block.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.ir import Block

from heirpy.api import parse
from heirpy.transforms.linear.constant_folding import ConstantFolder, _operands_first

# A diamond: %t and %s both read %c, %r reads both; an unrelated op sits in between and
# the function argument's ops must not join the slice.
DIAMOND = """
func.func @main(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %c = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %unrelated = arith.addf %x, %x : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %s = arith.mulf %c, %c : tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<3x2xf32>
  %st = linalg.transpose ins(%s : tensor<2x3xf32>) outs(%e2 : tensor<3x2xf32>) permutation = [1, 0]
  %r = arith.addf %t, %st : tensor<3x2xf32>
  return %r, %unrelated : tensor<3x2xf32>, tensor<2x3xf32>
}
"""


def _main_and_result():  # type: ignore[no-untyped-def]
    module = parse(DIAMOND)
    func = next(iter(module.ops))
    ret = func.body.blocks[0].last_op
    return module, func, ret.operands[0]


def test_slice_is_ordered_operands_first() -> None:
    _, _, value = _main_and_result()
    ops = ConstantFolder().slice_of(value)
    assert ops is not None
    names = [op.name for op in ops]
    assert "arith.addf" in names and names.count("arith.addf") == 1  # not %unrelated
    position = {op: i for i, op in enumerate(ops)}
    for op in ops:
        for operand in op.operands:
            if operand.owner in position:
                assert position[operand.owner] < position[op], (operand.owner.name, op.name)
    assert ops[-1] is value.owner


def test_operands_first_visits_each_op_once() -> None:
    _, _, value = _main_and_result()
    ops = ConstantFolder().slice_of(value)
    assert ops is not None
    again = _operands_first(value.owner, set(ops))
    assert len(again) == len(set(again)) == len(ops)


def test_fold_value_and_no_walk_of_the_enclosing_block(monkeypatch: pytest.MonkeyPatch) -> None:
    module, func, value = _main_and_result()
    reader = ConstantFolder()
    c = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)
    expected = c.T + (c * c).T
    first = reader.fold(value)  # also snapshots the module's blobs (walks the module once)
    assert first is not None and np.array_equal(first, expected)

    body = func.body.blocks[0]
    real_ops = Block.ops

    def guarded(self: Block):  # type: ignore[no-untyped-def]
        if self is body:
            raise AssertionError("folding a slice enumerated the whole function block")
        return real_ops.fget(self)  # type: ignore[attr-defined]

    monkeypatch.setattr(Block, "ops", property(guarded))
    again = reader.fold(value)
    assert again is not None and np.array_equal(again, expected)


CHAIN = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %k = arith.addf %c, %c : tensor<4xf32>
  %v0 = arith.addf %x, %k : tensor<4xf32>
""" + "".join(
    f"  %v{i + 1} = arith.mulf %v{i}, %k : tensor<4xf32>\n" for i in range(40)
) + """  return %v40 : tensor<4xf32>
}
"""


def test_a_fold_stops_at_an_op_known_not_to_be_constant() -> None:
    """Queried layer by layer, each non-constant answer is remembered, so the next
    query stops one step up instead of walking back to the function's argument."""
    folder = ConstantFolder()
    module = parse(CHAIN)
    ops = list(next(iter(module.ops)).body.blocks[0].ops)
    chain = [op for op in ops if op.name == "arith.mulf"]
    constant = next(
        op for op in ops
        if op.name == "arith.addf"
        and all(getattr(v.owner, "name", "") == "arith.constant" for v in op.operands)
    )
    assert folder.slice_of(constant.results[0]) is not None  # %k folds
    for op in chain:
        assert folder.slice_of(op.results[0]) is None
        assert op in folder.known_not_constant
    # The short cut is what answers: mark the constant op as non-constant and a fold
    # through it stops there (a wrong mark can only block a fusion, never change a value).
    folder.known_not_constant.add(constant)
    assert folder.slice_of(constant.results[0]) is None
    # What one folder (one pass run) learnt is its own: a new folder walks again.
    assert ConstantFolder().slice_of(constant.results[0]) is not None
