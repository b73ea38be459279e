"""A Linear on the mean over the rows of a residual add (`chains_through_row_sums`): the
sum's shape test and the affine step reading at their limits; the path read off
torch-mlir's f16 form computes what the IR computes."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import Float16Type, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from heirpy.api import parse
from heirpy.interp import load_module, run_function
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.transforms.linear.chains_through_row_sums import row_affine, step_affine, sums_rows, widens_into
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.linear_match import match_elementwise_affine

D = [AffineExpr.dimension(i) for i in range(3)]
IDENTITY = AffineMap(3, 0, tuple(D))


@pytest.mark.parametrize(("out", "kinds", "expected"), [
    ((D[0], D[2]), ["parallel", "reduction", "parallel"], True),  # tokens summed, features kept last
    ((D[2],), ["reduction", "reduction", "parallel"], True),  # every row summed
    ((D[0], D[1]), ["parallel", "parallel", "reduction"], False),  # features summed
    ((D[2], D[0]), ["parallel", "reduction", "parallel"], False),  # features not last
    ((D[0], AffineExpr.constant(0), D[2]), ["parallel", "reduction", "parallel"], False),  # a constant axis
])
def test_sums_rows_at_its_limits(out: tuple[AffineExpr, ...], kinds: list[str], expected: bool) -> None:
    assert sums_rows(IDENTITY, AffineMap(3, 0, out), kinds) is expected


def test_sums_rows_needs_rows() -> None:
    one = AffineMap(1, 0, (AffineExpr.dimension(0),))
    assert sums_rows(one, one, ["parallel"]) is False


@pytest.mark.parametrize(("kind", "lhs", "constant", "expected"), [
    ("add", True, [0.5, -1.0], (1.0, [0.5, -1.0])),  # u + c: a shift by any constant
    ("sub", True, [0.5, -1.0], (1.0, [-0.5, 1.0])),  # u - c
    ("sub", False, [0.5, -1.0], (-1.0, [0.5, -1.0])),  # c - u: negated
    ("mul", True, [4.0, 4.0], (4.0, [0.0, 0.0])),  # a scale by one number
    ("div", True, [4.0, 4.0], (0.25, [0.0, 0.0])),  # a mean's divide
    ("mul", True, [4.0, 2.0], None),  # a scale per element: not one number
    ("mul", True, [0.0, 0.0], None),  # a scale by zero
    ("div", False, [4.0, 4.0], None),  # c / u: not affine
])
def test_step_affine_at_its_limits(kind: str, lhs: bool, constant: list[float],
                                   expected: tuple[float, list[float]] | None) -> None:
    step = step_affine(kind, lhs, np.array(constant))
    if expected is None:
        assert step is None
    else:
        assert step is not None and step[0] == expected[0] and np.array_equal(step[1], expected[1])


# torch-mlir's f16 head: an f16 mean, a batch norm's mean subtraction widening in its
# body, a rounding round trip before the f32 Linear.
MIXED_HEAD = """
func.func @main(%m: tensor<1x3xf16>) -> tensor<1x3xf32> {
  %four = arith.constant dense<4.0> : tensor<1x3xf16>
  %d = arith.divf %m, %four : tensor<1x3xf16>
  %mu = arith.constant dense<[0.5, -0.25, 0.125]> : tensor<3xf32>
  %e0 = tensor.empty() : tensor<1x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d, %mu : tensor<1x3xf16>, tensor<3xf32>) outs(%e0 : tensor<1x3xf32>) {
  ^bb0(%in: f16, %c: f32, %out: f32):
    %w = arith.extf %in : f16 to f32
    %t = arith.subf %w, %c : f32
    linalg.yield %t : f32
  } -> tensor<1x3xf32>
  %bt = arith.truncf %b : tensor<1x3xf32> to tensor<1x3xf16>
  %be = arith.extf %bt : tensor<1x3xf16> to tensor<1x3xf32>
  return %be : tensor<1x3xf32>
}
"""


def _returned(ir: str) -> tuple[FuncOp, SSAValue]:
    func = next(op for op in parse(ir).walk() if isinstance(op, FuncOp))
    ret = func.body.blocks[0].last_op
    assert isinstance(ret, ReturnOp)
    return func, ret.operands[0]


def test_row_affine_is_what_the_ir_computes() -> None:
    """The affine map read off the f16 head (through its casts and the widening
    subtraction) gives, on an input, what the IR computes (up to its f16 roundings)."""
    func, value = _returned(MIXED_HEAD)
    traced = row_affine(value, ConstantFolder())
    assert traced is not None and traced.start is func.body.blocks[0].args[0]
    assert traced.factor == 0.25 and traced.offset.shape == (1, 3)
    m = np.array([[2.0, -6.0, 1.5]], dtype=np.float16)
    loaded = load_module(MIXED_HEAD)
    (out,) = run_function(loaded.module, "main", [m], resources=loaded.resources)
    assert np.allclose(np.asarray(out), traced.factor * m.astype(np.float64) + traced.offset, atol=1e-3)


def test_widening_body_matches_only_when_asked() -> None:
    """The subtraction that widens its input in its body is an elementwise affine step
    only for readers that follow the cast (`widening=True`): its operand is the narrow
    input, its result f32."""
    func, value = _returned(MIXED_HEAD)
    generic = next(op for op in func.walk() if isinstance(op, GenericOp))
    assert match_elementwise_affine(generic, ConstantFolder()) is None
    match = match_elementwise_affine(generic, ConstantFolder(), widening=True)
    assert match is not None and match.kind == "sub" and match.operand_is_lhs
    assert isinstance(match.operand.type, TensorType) and match.operand.type.get_element_type() == Float16Type()
    assert np.array_equal(match.constant, np.array([[0.5, -0.25, 0.125]]))


def test_widens_into_needs_no_wider_float() -> None:
    func, wide = _returned(MIXED_HEAD)  # the f32 read
    narrow = func.body.blocks[0].args[0]  # the f16 mean
    assert widens_into(wide, (wide, narrow))  # f16 and f32 into f32
    assert widens_into(narrow, (narrow,))  # one float throughout
    assert not widens_into(narrow, (wide,))  # f32 into f16
