"""legalize-for-heir's guards at their limits, on inputs built here: `ExpandInPieces`
at exactly MAX_PIECES pieces and one each side (values kept; the expand HEIR rejects
gone at the limit, kept past it). heir-opt compiles the 64-piece form of 4x4x4x8 at
3 levels (measured 2026-12-06, 2 minutes on a loaded machine: too slow for a unit test)."""

from __future__ import annotations

from math import prod

import numpy as np
import pytest
from xdsl.dialects import tensor

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.heir.heir_forms import adds_only_unit_dims
from heirpy.transforms.heir.heir_results import MAX_PIECES, piece_axis


def _returned_matvec(shape: tuple[int, ...]) -> str:
    """x (5 long: no conv can read it, ResultThroughConv declines) -> matvec -> x² ->
    expand to `shape` -> return."""
    rows = prod(shape)
    rng = np.random.default_rng(rows)
    matrix = np.round(rng.uniform(-1, 1, (rows, 5)), 2).tolist()
    out = "x".join(map(str, shape))
    return f"""func.func @main(%x: tensor<5xf32>) -> tensor<{out}xf32> {{
  %a = arith.constant dense<{matrix}> : tensor<{rows}x5xf32>
  %b = arith.constant dense<0.5> : tensor<{rows}xf32>
  %h = linalg.matvec ins(%a, %x : tensor<{rows}x5xf32>, tensor<5xf32>) outs(%b : tensor<{rows}xf32>) -> tensor<{rows}xf32>
  %e = tensor.empty() : tensor<{rows}xf32>
  %s = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%h : tensor<{rows}xf32>) outs(%e : tensor<{rows}xf32>) {{
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  }} -> tensor<{rows}xf32>
  %t = tensor.expand_shape %s [[{", ".join(map(str, range(len(shape))))}]] output_shape [{", ".join(map(str, shape))}] : tensor<{rows}xf32> into tensor<{out}xf32>
  return %t : tensor<{out}xf32>
}}"""


@pytest.mark.parametrize(
    ("shape", "pieces"),
    [((7, 9, 10), MAX_PIECES - 1), ((4, 4, 4, 8), MAX_PIECES), ((5, 13, 14), MAX_PIECES + 1)],
    ids=["below", "at", "above"],
)
def test_expand_in_pieces_at_max_pieces(shape: tuple[int, ...], pieces: int) -> None:
    assert prod(shape) // shape[piece_axis(shape)] == pieces
    text = _returned_matvec(shape)
    before, after = parse(text), parse(text)
    run_pipeline(after, "legalize-for-heir")
    expands = [op for op in after.walk() if isinstance(op, tensor.ExpandShapeOp)]
    illegal = [
        op for op in expands
        if not adds_only_unit_dims(op.operands[0].type.get_shape(), op.results[0].type.get_shape())  # type: ignore[attr-defined]
    ]
    inserts = [op for op in after.walk() if isinstance(op, tensor.InsertSliceOp)]
    if pieces <= MAX_PIECES:
        assert not illegal and len(inserts) == pieces
    else:
        assert len(illegal) == 1 and not inserts
    report = check_equivalence(before, parse(print_module(after)), function="main", seeds=(0,))
    assert report.ok, report.summary()
