"""The pure legality helpers of `position_scales` (the stride multiply moved into the
1x1 conv): a scale read through a broadcast map, the axes it varies along, a reshape that
keeps each of them one dimension (and one that does not), and the decode body's
affinity (a product of two runtime values is not affine)."""

from __future__ import annotations

import numpy as np
from xdsl.ir.affine import AffineExpr, AffineMap

from heirpy.api import parse
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.transforms.linear.position_scales import (
    _reshape_axes,
    affine_body,
    broadcast_through_map,
    scale_axes,
)


def test_scale_through_broadcast_map() -> None:
    d0, _, d2 = (AffineExpr.dimension(i) for i in range(3))
    strides = np.array([[8.0, 16.0, 32.0]])
    full = broadcast_through_map(strides, AffineMap(3, 0, (d0, d2)), (1, 2, 3))
    assert full is not None and full.shape == (1, 2, 3)
    assert np.array_equal(full[0, 1], [8.0, 16.0, 32.0])
    assert scale_axes(full) == (2,)
    # A constant index reads one element; a map of another arity is not a broadcast.
    single = broadcast_through_map(strides, AffineMap(3, 0, (AffineExpr.constant(0), d2)), (1, 2, 3))
    assert single is not None and scale_axes(single) == (2,)
    assert broadcast_through_map(strides, AffineMap(2, 0, (d0,)), (1, 2, 3)) is None
    assert scale_axes(np.full((1, 2, 3), 8.0)) == ()  # uniform: no level to save


def test_reshape_keeps_scale_axis() -> None:
    # collapse [[0], [1, 2], [3]] of 1x1x4x2100: result axis 2 is source axis 3.
    assert _reshape_axes([[0], [1, 2], [3]], (1, 1, 4, 2100), (2,), collapse=True) == (3,)
    # result axis 1 groups source dims 1 (size 1) and 2 (size 4): source axis 2.
    assert _reshape_axes([[0], [1, 2], [3]], (1, 1, 4, 2100), (1,), collapse=True) == (2,)
    # A group of two non-unit dims mixes the scale's axis with another: refused.
    assert _reshape_axes([[0], [1, 2]], (1, 4, 6), (1,), collapse=True) is None
    # expand [[0], [1, 2], [3]] into 1x1x4x6: result axis 3 is source axis 2; result
    # axis 2 shares its group with a unit dim only: source axis 1.
    assert _reshape_axes([[0], [1, 2], [3]], (1, 1, 4, 6), (3,), collapse=False) == (2,)
    assert _reshape_axes([[0], [1, 2], [3]], (1, 1, 4, 6), (2,), collapse=False) == (1,)
    assert _reshape_axes([[0], [1, 2]], (1, 2, 3), (2,), collapse=False) is None


_BODIES = """
#id = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>, %a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %affine = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %k: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %s = arith.subf %k, %p : f32
    %t = arith.addf %s, %q : f32
    %u = arith.mulf %t, %k : f32
    %v = arith.divf %u, %two : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %square = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %k: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %reads_init = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %k: f32, %o: f32):
    %m = arith.addf %p, %o : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %affine, %square, %reads_init : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""


def test_decode_body_is_affine_in_runtime_inputs() -> None:
    affine, square, reads_init = [op for op in parse(_BODIES).walk() if isinstance(op, GenericOp)]
    # %x, %y runtime, %a plaintext: sub, add, a product and a quotient by plaintext.
    assert affine_body(affine, {0, 1})
    # The product by %a is by a runtime value once %a is runtime too.
    assert not affine_body(affine, {0, 1, 2})
    assert affine_body(square, {0})  # x * y with y plaintext: a per-element scale
    assert not affine_body(square, {0, 1})  # x * y, both runtime: a square, not affine
    assert not affine_body(reads_init, {0})  # the init is read: not elementwise
