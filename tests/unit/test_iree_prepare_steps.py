"""Two steps of `iree-prepare` without iree-compile (test_iree_attention_forms.py compiles
them): `drop-softmax-unit-dims`' reassociation at its limits, and both passes on forms
their FileCheck cases (tests/filecheck/transforms/{drop-softmax-unit-dims,
detach-contraction-transpose}/cases.mlir) do not have, values kept in f32 and f16."""

from __future__ import annotations

import pytest
from xdsl.pattern_rewriter import RewritePattern

from heirpy.api import parse, print_module
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.iree.detach_contraction_transpose import DetachContractionTranspose
from heirpy.transforms.iree.drop_softmax_unit_dims import DropSoftmaxUnitDims, unit_dim_groups
from heirpy.transforms.rewrite import PatternSet, apply_pattern_sets


@pytest.mark.parametrize(("shape", "keep", "expected"), [
    ((1, 3, 5, 5), 3, [[0, 1], [2], [3]]),  # attention's scores: a leading unit axis
    ((2, 3, 4, 1), 2, [[0], [1], [2, 3]]),  # a trailing one joins the last kept axis
    ((2, 1, 3, 1), 0, [[0], [1, 2, 3]]),  # an inner and a trailing one
    ((1, 3, 1, 5), 2, [[0, 1], [2], [3]]),  # the softmax's own unit axis stays
    ((2, 3), 1, None),  # no unit axis
    ((2, 1), 1, None),  # only the softmax's
])
def test_unit_dim_groups_at_its_limits(shape: tuple[int, ...], keep: int, expected: list[list[int]] | None) -> None:
    assert unit_dim_groups(shape, keep) == expected


def _rewritten(text: str, pattern: RewritePattern) -> tuple[str, str]:
    module = parse(text)
    before = print_module(module)
    apply_pattern_sets(module, [PatternSet.of(pattern)])
    return before, print_module(module)


SOFTMAX = """
func.func @f(%x: tensor<2x3x4x1xT>) -> tensor<2x3x4x1xT> {
  %e = tensor.empty() : tensor<2x3x4x1xT>
  %s = linalg.softmax dimension(2) ins(%x : tensor<2x3x4x1xT>) outs(%e : tensor<2x3x4x1xT>) -> tensor<2x3x4x1xT>
  return %s : tensor<2x3x4x1xT>
}
"""


@pytest.mark.parametrize("element", ["f32", "f16"])
def test_softmax_with_a_trailing_unit_axis_and_three_kept(element: str) -> None:
    before, after = _rewritten(SOFTMAX.replace("T", element), DropSoftmaxUnitDims())
    assert f"[[0], [1], [2, 3]] : tensor<2x3x4x1x{element}> into tensor<2x3x4x{element}>" in after
    assert f"linalg.softmax dimension(2) ins(%collapsed : tensor<2x3x4x{element}>)" in after
    assert check_equivalence(parse(before), parse(after), "f").ok


# A pointwise add whose FIRST input is read through the identity and the second through a
# permutation (cases.mlir's @matmul_weight_side has them the other way round).
IDENTITY_FIRST = """
func.func @f(%b: tensor<4x3xT>, %x: tensor<3x4xT>, %y: tensor<3x4xT>) -> tensor<3x3xT> {
  %e = tensor.empty() : tensor<4x3xT>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b, %x : tensor<4x3xT>, tensor<3x4xT>) outs(%e : tensor<4x3xT>) {
  ^bb0(%c: T, %a: T, %o: T):
    %m = arith.addf %c, %a : T
    linalg.yield %m : T
  } -> tensor<4x3xT>
  %zero = arith.constant 0.0 : T
  %me = tensor.empty() : tensor<3x3xT>
  %mf = linalg.fill ins(%zero : T) outs(%me : tensor<3x3xT>) -> tensor<3x3xT>
  %r = linalg.matmul ins(%y, %s : tensor<3x4xT>, tensor<4x3xT>) outs(%mf : tensor<3x3xT>) -> tensor<3x3xT>
  return %r : tensor<3x3xT>
}
"""


@pytest.mark.parametrize("element", ["f32", "f16"])
def test_detach_a_permuted_second_input(element: str) -> None:
    before, after = _rewritten(IDENTITY_FIRST.replace("T", element), DetachContractionTranspose())
    assert f"%transposed = linalg.transpose ins(%x : tensor<3x4x{element}>)" in after
    assert f"ins(%b, %transposed : tensor<4x3x{element}>, tensor<4x3x{element}>)" in after
    assert "(d1, d0)" not in after
    assert check_equivalence(parse(before), parse(after), "f").ok
