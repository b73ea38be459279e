"""constant_folding's reading and building, each branch on an input that takes it and
one that must not: slices through layout ops and bodies that read scalars from outside,
what stops a fold (an argument, a foreign op, the slice limit), a tensor.empty init read
as zeros, `apply` on given operands, and the smallest form `build_init` picks with the
element count `init_elements` promises for it."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import TensorType, f32

from heirpy.api import parse
from heirpy.transforms.linear.constant_folding import (
    MAX_SLICE_OPS,
    ConstantFolder,
    build_init,
    init_elements,
    is_compile_time_constant,
)

TEXT = """func.func @f(%x: tensor<2x3xf32>, %s: f32) -> () {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %two = arith.constant 2.0 : f32
  %e2 = tensor.empty() : tensor<2x3xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  } -> tensor<2x3xf32>
  %viaarg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<2x3xf32>
  %plus = arith.addf %x, %w : tensor<2x3xf32>
  %u = "test.op"() : () -> tensor<2x3xf32>
  %foreign = arith.addf %u, %w : tensor<2x3xf32>
  return
}"""


def values() -> dict[str, object]:
    module = _module()
    return {r.name_hint: r for op in module.walk() for r in op.results if r.name_hint}


def _module():  # noqa: ANN202
    from heirpy.ir.context import make_context

    return parse(TEXT, "c.mlir", ctx=make_context(allow_unregistered=True))


def test_folds_through_layout_ops_and_bodies_reading_constants() -> None:
    v = values()
    folder = ConstantFolder()
    assert folder.fold(v["t"]).tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    assert folder.fold(v["d"]).tolist() == [[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]
    assert is_compile_time_constant(v["t"]) and is_compile_time_constant(v["d"])


@pytest.mark.parametrize("name", ["viaarg", "plus", "foreign"])
def test_an_argument_or_a_foreign_op_stops_a_fold_and_is_remembered(name: str) -> None:
    v = values()
    folder = ConstantFolder()
    assert folder.fold(v[name]) is None and not is_compile_time_constant(v[name])
    assert v[name].owner in folder.known_not_constant
    assert folder.fold(v[name]) is None  # the memo's answer is the walk's
    assert folder.fold(v["t"]) is not None  # and stops nothing else


def test_the_slice_limit() -> None:
    def chain(length: int) -> str:
        ops = [f"  %v{i} = arith.addf %v{i - 1}, %v{i - 1} : tensor<2xf32>" for i in range(1, length)]
        return ("func.func @f() -> tensor<2xf32> {\n  %v0 = arith.constant dense<1.0> : tensor<2xf32>\n"
                + "\n".join(ops) + f"\n  return %v{length - 1} : tensor<2xf32>\n}}")

    for length, folds in [(MAX_SLICE_OPS, True), (MAX_SLICE_OPS + 1, False)]:
        module = parse(chain(length))
        last = [op for op in module.walk() if op.name == "arith.addf"][-1].results[0]
        assert (ConstantFolder().fold(last) is not None) is folds


def test_an_empty_init_reads_as_zeros_and_apply_evaluates_one_op() -> None:
    v = values()
    folder = ConstantFolder()
    assert folder.init_value(v["e"]).tolist() == [[0.0, 0.0]] * 3
    assert np.isnan(folder.fold(v["e"])).all()  # undefined contents
    assert folder.init_value(v["t"]).tolist() == folder.fold(v["t"]).tolist()
    plus = v["plus"].owner
    got = folder.apply(plus, [np.ones((2, 3), np.float32), np.full((2, 3), 2.0, np.float32)])
    assert got.tolist() == [[3.0] * 3] * 2
    assert folder.apply(plus, [np.ones((2, 3), np.float32)]) is None  # one operand short


@pytest.mark.parametrize(
    ("array", "form", "elements"),
    [
        (np.zeros((1, 3, 2, 2)), ["arith.constant", "tensor.empty", "linalg.fill"], 0),
        (np.full((1, 3, 2, 2), 1.5), ["arith.constant"], 1),
        (np.arange(3.0)[None, :, None, None] * np.ones((1, 3, 2, 2)), ["arith.constant", "tensor.empty", "linalg.broadcast"], 3),
        (np.arange(12.0).reshape(1, 3, 2, 2), ["arith.constant"], 12),
        (np.arange(3.0), ["arith.constant"], 3),  # one varying axis, but already 1-D
    ],
)
def test_build_init_picks_the_smallest_form(array: np.ndarray, form: list[str], elements: int) -> None:
    type_ = TensorType(f32, list(array.shape))
    ops, value = build_init(array.astype(np.float32), type_)
    assert [op.name for op in ops if op.name != "tensor.empty" or "tensor.empty" in form] == form
    assert value is ops[-1].results[0] and value.type == type_
    assert init_elements(array) == elements
    module = parse("func.func @f() {\n  return\n}")
    block = module.body.block.ops.first.body.block
    block.insert_ops_before(ops, block.last_op)
    np.testing.assert_array_equal(ConstantFolder().fold(value), array)
