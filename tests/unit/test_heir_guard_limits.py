"""legalize-for-heir's guards at their limits, on inputs built here: `ExpandInPieces`
at exactly MAX_PIECES pieces and one each side (values kept; the expand HEIR rejects
gone at the limit, kept past it); `LayoutToMatvec` at MAX_LAYOUT_OPS layout ops and
`AffineRunPerLinearReader` (linalg-canonicalizations) at MAX_RUN affine ops, each side. heir-opt compiles the 64-piece form of 4x4x4x8 at
3 levels (measured 2026-12-06, 2 minutes on a loaded machine: too slow for a unit test)."""

from __future__ import annotations

from math import prod

import numpy as np
import pytest
from xdsl.dialects import tensor

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.canonicalize.affine_readers import MAX_RUN
from heirpy.transforms.heir.heir_forms import adds_only_unit_dims
from heirpy.transforms.heir.heir_layout_matvecs import MAX_LAYOUT_OPS
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


def _layout_run(slices: int) -> str:
    """x (32 long) -> matvec -> x² -> expand to 1x2x4x4 -> `slices` whole-tensor slices ->
    a channel pad -> x² -> flat: a run of `slices` + 2 layout ops for `LayoutToMatvec`."""
    rng = np.random.default_rng(slices)
    matrix = np.round(rng.uniform(-1, 1, (32, 32)), 2).tolist()
    square = """linalg.generic {{indexing_maps = [{m}, {m}], iterator_types = [{it}]}} ins({src} : {ty}) outs({dst} : {ty}) {{
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  }} -> {ty}"""
    flat = square.format(m="affine_map<(d0) -> (d0)>", it='"parallel"', src="%h", dst="%e", ty="tensor<32xf32>")
    lines = [
        "func.func @main(%x: tensor<32xf32>) -> tensor<64xf32> {",
        "  %zero = arith.constant 0.0 : f32",
        f"  %a = arith.constant dense<{matrix}> : tensor<32x32xf32>",
        "  %b = arith.constant dense<0.5> : tensor<32xf32>",
        "  %h = linalg.matvec ins(%a, %x : tensor<32x32xf32>, tensor<32xf32>) outs(%b : tensor<32xf32>) -> tensor<32xf32>",
        "  %e = tensor.empty() : tensor<32xf32>",
        f"  %s = {flat}",
        "  %t0 = tensor.expand_shape %s [[0, 1, 2, 3]] output_shape [1, 2, 4, 4] : tensor<32xf32> into tensor<1x2x4x4xf32>",
    ]
    for i in range(slices):
        lines.append(f"  %t{i + 1} = tensor.extract_slice %t{i}[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : "
                     "tensor<1x2x4x4xf32> to tensor<1x2x4x4xf32>")
    four = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    lines += [
        f"  %p = tensor.pad %t{slices} low[0, 1, 0, 0] high[0, 1, 0, 0] {{",
        "  ^bb0(%i: index, %j: index, %k: index, %l: index):",
        "    tensor.yield %zero : f32",
        "  } : tensor<1x2x4x4xf32> to tensor<1x4x4x4xf32>",
        "  %e4 = tensor.empty() : tensor<1x4x4x4xf32>",
        "  %q = " + square.format(m=four, it=", ".join(['"parallel"'] * 4), src="%p", dst="%e4",
                                  ty="tensor<1x4x4x4xf32>"),
        "  %f = tensor.collapse_shape %q [[0, 1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<64xf32>",
        "  return %f : tensor<64xf32>",
        "}",
    ]
    return "\n".join(lines)


@pytest.mark.parametrize("slices", [MAX_LAYOUT_OPS - 3, MAX_LAYOUT_OPS - 2, MAX_LAYOUT_OPS - 1],
                         ids=["below", "at", "above"])
def test_layout_to_matvec_at_max_layout_ops(slices: int) -> None:
    """The run (the expand, the slices, the pad) is one selection matvec up to
    MAX_LAYOUT_OPS ops; past it the run is left (with the expand HEIR rejects)."""
    text = _layout_run(slices)
    before, after = parse(text), parse(text)
    run_pipeline(after, "legalize-for-heir")
    left = [op for op in after.walk() if isinstance(op, (tensor.ExtractSliceOp, tensor.PadOp))]
    if slices + 2 <= MAX_LAYOUT_OPS:
        assert not left
    else:
        assert len(left) == slices + 1
    report = check_equivalence(before, parse(print_module(after)), function="main", seeds=(0,))
    assert report.ok, report.summary()


def _affine_run(ops: int) -> str:
    """x² -> `ops` alternating scales and shifts (per channel) -> read by a 1x1 conv and an add."""
    lines = [
        "func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {",
        "  %zero = arith.constant 0.0 : f32",
        "  %w = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[1.0]], [[0.75]]]]> : tensor<2x2x1x1xf32>",
        "  %k = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>",
        "  %v0 = arith.mulf %x, %x : tensor<1x2x4x4xf32>",
        "  %e = tensor.empty() : tensor<1x2x4x4xf32>",
    ]
    for i in range(ops):
        kind = "mulf" if i % 2 == 0 else "addf"
        lines += [
            f"  %v{i + 1} = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, "
            "affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], "
            'iterator_types = ["parallel", "parallel", "parallel", "parallel"]} '
            f"ins(%v{i}, %k : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {{",
            "  ^bb0(%in: f32, %c: f32, %o: f32):",
            f"    %r = arith.{kind} %in, %c : f32",
            "    linalg.yield %r : f32",
            "  } -> tensor<1x2x4x4xf32>",
        ]
    lines += [
        "  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>",
        f"  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} "
        f"ins(%v{ops}, %w : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>",
        f"  %y = arith.addf %c, %v{ops} : tensor<1x2x4x4xf32>",
        "  return %y : tensor<1x2x4x4xf32>",
        "}",
    ]
    return "\n".join(lines)


@pytest.mark.parametrize("ops", [MAX_RUN - 1, MAX_RUN, MAX_RUN + 1], ids=["below", "at", "above"])
def test_affine_run_per_linear_reader_at_max_run(ops: int) -> None:
    """The conv gets a copy of the whole run up to MAX_RUN ops; past it, of the last
    MAX_RUN (the op before them stays shared: still exact)."""
    text = _affine_run(ops)
    before, after = parse(text), parse(text)
    run_pipeline(after, "linalg-canonicalizations")
    generics = [op for op in after.walk() if op.name == "linalg.generic"]
    assert len(generics) == ops + min(ops, MAX_RUN)
    report = check_equivalence(before, parse(print_module(after)), function="main", seeds=(0,))
    assert report.ok, report.summary()
