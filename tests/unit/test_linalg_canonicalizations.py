"""Numeric and legality tests for `linalg-canonicalizations`: the conv + pool ordering
rule and the pure legality helpers. The pass's FileCheck inputs, the example models
among them, run through the evaluator before and after it (and after lowering) in
tests/unit/test_filecheck_numerics.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.func import FuncOp
from xdsl.ir.affine import AffineMap

import heirpy
from heirpy.api import context_of
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.canonicalize.elementwise import (
    transpose_broadcast,
    unit_reassociation,
)
from heirpy.transforms.canonicalize.linear import pool_filter, undilated_filter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from filecheck_numerics import numeric_problems  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHECK_DIR = ROOT / "tests" / "filecheck" / "transforms" / "linalg-canonicalizations"
EXAMPLES = ROOT / "examples"


def test_resnet_block_keeps_its_values() -> None:
    """The one example model no RUN line of linalg-canonicalizations reads (the others
    are checked through tests/unit/test_filecheck_numerics.py)."""
    text = (EXAMPLES / "resnet_block.mlir").read_text()
    assert numeric_problems(text, "linalg-canonicalizations,lower-tensor-ext") == []


def test_batch_norm_constants_do_not_grow() -> None:
    """Batch-norm statistics stay per-channel vectors read through a broadcasting map
    (the ResNet block's [16, 1, 1] constants used to become 1x16x32x32 constants: its
    19 KB of constants grew to 412 KB). Convs with pools are not in this net: their
    composed filter is a real weight change, not a materialised broadcast."""
    from heirpy.analysis.kernels import constant_bytes

    module = heirpy.parse((EXAMPLES / "resnet_block.mlir").read_text())
    before = constant_bytes(module)
    heirpy.run_pipeline(module, "linalg-canonicalizations")
    # A few splat constants (a fill's zero as tensor<...>) may appear: 4 bytes each.
    assert constant_bytes(module) <= before + 64


CONV_POOL = """
func.func @f(%x: tensor<1x1x8x8xf32>) -> tensor<1x2x3x3xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<2x1x3x3xf32>
  %e = tensor.empty() : tensor<1x2x6x6xf32>
  %ci = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x1x8x8xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x3x3xf32>
  %pi = linalg.fill ins(%z : f32) outs(%pe : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%c, %win : tensor<1x2x6x6xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %p : tensor<1x2x3x3xf32>
}
"""


def test_conv_pool_is_fused_before_any_pool_to_conv() -> None:
    """The documented ordering: conv_pool_patterns() run first, so conv + pool becomes
    tensor_ext.fused_conv_pool and is never split into two convs. This test imports the
    fusion module directly: if it is missing, it fails rather than skips."""
    from heirpy.transforms.linear.linalg_fuse_conv_pool import conv_pool_patterns  # noqa: F401

    module = heirpy.parse(CONV_POOL)
    heirpy.run_pipeline(module, "linalg-canonicalizations{conv-pool=fused}")
    text = heirpy.print_module(module)
    assert "tensor_ext.fused_conv_pool" in text
    assert "linalg.pooling_nchw_sum" not in text
    assert "linalg.conv_2d_nchw_fchw" not in text
    heirpy.run_pipeline(module, "lower-tensor-ext")
    assert heirpy.print_module(module).count("linalg.conv_2d_nchw_fchw") == 1


def test_default_mode_gives_one_conv_of_the_input_and_same_numbers() -> None:
    """conv-pool=conv (the default): the pair becomes ONE standard conv of the input,
    numerically equal; its init is the pooled init written as HEIR writes it, a conv of
    constants (plaintext, no level), which linalg-fuse-linear-ops folds away."""
    before = heirpy.parse(CONV_POOL)
    after = heirpy.parse(CONV_POOL)
    heirpy.run_pipeline(after, "linalg-canonicalizations")
    text = heirpy.print_module(after)
    assert "tensor_ext" not in text and "linalg.pooling_nchw_sum" not in text
    function = next(op for op in after.ops if isinstance(op, FuncOp))
    convs = [op for op in function.walk() if op.name == "linalg.conv_2d_nchw_fchw"]
    on_input = [c for c in convs if c.operands[0] is function.args[0]]
    assert len(on_input) == 1
    (pooled_init,) = [c for c in convs if c not in on_input]
    assert on_input[0].operands[2] is pooled_init.results[0]
    assert all(isinstance(v.owner, arith.ConstantOp) for v in pooled_init.operands)
    assert check_equivalence(before, after, function=function.sym_name.data).ok
    heirpy.run_pipeline(after, "linalg-fuse-linear-ops")
    assert heirpy.print_module(after).count("linalg.conv_2d_nchw_fchw") == 1
    assert check_equivalence(before, after, function=function.sym_name.data).ok


def test_bad_conv_pool_option_is_a_clear_error() -> None:
    module = heirpy.parse(CONV_POOL)
    with pytest.raises(heirpy.HeirpyError, match="expected 'conv' or 'fused'"):
        heirpy.run_pipeline(module, "linalg-canonicalizations{conv-pool=both}")


def test_pool_to_conv_never_splits_a_conv_pool_pair() -> None:
    """Even without the fusion patterns, the pool -> conv rewrite leaves a pool that
    reads a conv alone (the second guard)."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

    from heirpy.transforms.canonicalize.linalg_canonicalizations import canonicalization_patterns

    module = heirpy.parse(CONV_POOL)
    patterns = canonicalization_patterns(context_of(module))
    PatternRewriteWalker(GreedyRewritePatternApplier(patterns)).rewrite_module(module)
    assert "linalg.pooling_nchw_sum" in heirpy.print_module(module)


SPLAT_BLOB_BROADCAST = """
func.func @f() -> tensor<4x2xf32> {
  %cst = arith.constant dense_resource<splat> : tensor<4xf32>
  %0 = tensor.empty() : tensor<4x2xf32>
  %1 = linalg.broadcast ins(%cst : tensor<4xf32>) outs(%0 : tensor<4x2xf32>) dimensions = [1]
  return %1 : tensor<4x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      splat: "0x04000000CDCC8C3FCDCC8C3FCDCC8C3FCDCC8C3F"
    }
  }
#-}
"""


@pytest.mark.parametrize("with_context", [True, False])
def test_patterns_without_a_context_read_no_blobs(with_context: bool) -> None:
    """canonicalization_patterns(ctx) reads a dense_resource through ctx's blobs (a
    splat blob's broadcast folds); without a context a blob is an unknown value, so the
    broadcast stays (building the patterns must not need one)."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

    from heirpy.transforms.canonicalize.linalg_canonicalizations import canonicalization_patterns

    module = heirpy.parse(SPLAT_BLOB_BROADCAST)
    patterns = canonicalization_patterns(context_of(module) if with_context else None)
    PatternRewriteWalker(GreedyRewritePatternApplier(patterns)).rewrite_module(module)
    text = heirpy.print_module(module)
    assert ("linalg.broadcast" in text) is not with_context
    assert ("dense<1.100000e+00> : tensor<4x2xf32>" in text) is with_context


# ------------------------------------------------------------------ legality helpers
def test_undilated_filter_interleaves_zeros() -> None:
    filt = np.arange(1, 7, dtype=np.float32).reshape(1, 1, 2, 3)
    out = undilated_filter(filt, (2, 3))
    assert out.shape == (1, 1, 3, 7)
    assert out[0, 0, 0].tolist() == [1, 0, 0, 2, 0, 0, 3]
    assert out[0, 0, 1].tolist() == [0] * 7
    assert out[0, 0, 2].tolist() == [4, 0, 0, 5, 0, 0, 6]
    assert undilated_filter(np.ones((2, 1, 3)), (1,)).shape == (2, 1, 3)


def test_pool_filter_is_per_channel() -> None:
    filt = pool_filter(3, (2, 2), 0.25, np.dtype(np.float32))
    assert filt.shape == (3, 3, 2, 2)
    assert np.all(filt[1, 1] == 0.25) and np.all(filt[0, 1] == 0) and filt.sum() == 3.0


@pytest.mark.parametrize(
    "results,permutation,added",
    [
        ((0, 1, 2), None, []),
        ((1, 0, 2), [1, 0, 2], []),
        ((0,), None, [1]),
        ((2, 3, 1), [2, 0, 1], [0, 4]),  # MLIR's example: (d2, d3, d1) of 5 loops
    ],
)
def test_transpose_broadcast_split(results: tuple[int, ...], permutation: list[int] | None, added: list[int]) -> None:
    from xdsl.ir.affine import AffineDimExpr

    num_dims = 5 if len(results) == 3 and max(results) == 3 else max(results) + 1 + (len(results) == 1)
    m = AffineMap(num_dims, 0, tuple(AffineDimExpr(r) for r in results))
    assert transpose_broadcast(m) == (permutation, added)


def test_transpose_broadcast_permutation_reorders_to_loop_order() -> None:
    # operand dims are loops (2, 3, 1); transposing by the permutation gives loops (1, 2, 3)
    x = np.zeros((7, 8, 9))
    permutation, _ = transpose_broadcast(AffineMap.from_callable(lambda a, b, c, d, e: (c, d, b)))
    assert permutation is not None and np.transpose(x, permutation).shape == (9, 7, 8)


@pytest.mark.parametrize(
    "rank,units,groups",
    [
        (4, [0, 3], [[0, 1], [2, 3]]),
        (2, [1], [[0, 1]]),
        (3, [0], [[0, 1], [2]]),
        (3, [], [[0], [1], [2]]),
    ],
)
def test_unit_reassociation(rank: int, units: list[int], groups: list[list[int]]) -> None:
    assert unit_reassociation(rank, units) == groups


def test_generic_attributes_go_onto_the_new_ops() -> None:
    """HEIR copies a generic's extra attributes onto each op it becomes (xDSL's generic
    parser drops them from text, so the attribute is set here)."""
    from xdsl.dialects.builtin import StringAttr

    module = heirpy.parse(
        """
#id = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 4.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %c : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    )
    generic = next(op for op in module.walk() if op.name == "linalg.generic")
    generic.attributes["some_attr"] = StringAttr("foo")
    heirpy.run_pipeline(module, "linalg-canonicalizations")
    divf = next(op for op in module.walk() if op.name == "arith.divf")
    assert divf.attributes["some_attr"] == StringAttr("foo")


def test_elementwise_option_keeps_generics() -> None:
    text = (CHECK_DIR / "docstring.mlir").read_text()
    module = heirpy.parse(text)
    heirpy.run_pipeline(module, "linalg-canonicalizations{elementwise=false}")
    assert "linalg.generic" in heirpy.print_module(module)
