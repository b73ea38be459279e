"""The global pool + Linear contraction generic (`chains.emit_contraction_generic`) on
its way to the back ends: iree-prepare never writes it, legalize-for-heir's dense matrix
of it (written from the maps, `generic_forms.contraction_matrix`) is the one running its
body on every unit vector gives, and heir-opt's CKKS pipeline compiles it at one level."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_depth_bound_invariance import _pool_then_linear  # noqa: E402
from test_heir_ckks import heir_levels, requires_heir  # noqa: E402

import heirpy  # noqa: E402
from heirpy.ir.dialects.linalg import GenericOp  # noqa: E402
from heirpy.transforms.heir.generic_forms import contraction_matrix, generic_sample_map  # noqa: E402
from heirpy.transforms.linear.constant_folding import ConstantFolder  # noqa: E402
from heirpy.transforms.linear.linear_maps import affine_matrix  # noqa: E402

GENERIC = "linalg-fuse-linear-chains{contraction-form=generic}"


def _reductions(op: GenericOp) -> int:
    return sum("reduction" in str(kind) for kind in op.iterator_types)


def _heads(module: object) -> list[GenericOp]:
    return [op for op in module.walk() if isinstance(op, GenericOp) and _reductions(op) == 3]  # type: ignore[attr-defined]


def test_iree_prepare_never_writes_the_contraction_generic_past_the_cap() -> None:
    """Past the cap the main pipeline writes the generic (IREE's CUDA back end fails on
    its three reduction loops); iree-prepare's max-mac-growth=1 refuses the chain (its
    MACs grow ~outputs-fold), so IREE gets the pool and the matmul as exported."""
    text = _pool_then_linear(1024, 1025)
    main = heirpy.parse(text)
    heirpy.run_pipeline(main, "linalg-canonicalizations,linalg-fuse-ops")
    assert len(_heads(main)) == 1
    iree = heirpy.parse(text)
    heirpy.run_pipeline(iree, "iree-prepare")
    assert _heads(iree) == []
    assert [op.name for op in iree.walk() if op.name == "linalg.matmul"] == ["linalg.matmul"]


@pytest.mark.parametrize("element", ["f32", "f16"])
def test_the_matrix_from_the_maps_is_the_one_the_body_gives(element: str) -> None:
    """f32 and f16 throughout (the mixed form's extf is
    tests/filecheck/transforms/linalg-fuse-linear-chains/global_pool_generic.mlir's); the
    varying weights make a transposed or misplaced entry show."""
    text = _pool_then_linear(6, 5, element).replace(
        "arith.constant dense<0.5> : tensor<6x5x" + element + ">",
        "arith.constant dense<" + str(np.arange(30).reshape(6, 5).tolist()) + "> : tensor<6x5x" + element + ">",
    )
    module = heirpy.parse(text)
    heirpy.run_pipeline(module, GENERIC)
    (op,) = _heads(module)
    reader = ConstantFolder()
    values = {v: reader.fold(v) for v in (op.inputs[1], op.outputs[0])}
    assert all(v is not None for v in values.values())
    found = contraction_matrix(op, op.inputs[0], values)  # type: ignore[arg-type]
    assert found is not None
    shape = op.inputs[0].type.get_shape()  # type: ignore[attr-defined]
    matrix, bias = affine_matrix(generic_sample_map(op, op.inputs[0], values), tuple(shape))  # type: ignore[arg-type]
    np.testing.assert_allclose(found[0], matrix, rtol=1e-6)
    np.testing.assert_allclose(found[1], bias)
    # Row o, column (c, h, w): the Linear's weight [c, o] over the 4 pooled positions.
    expected = np.repeat(np.arange(30).reshape(6, 5).T / 4.0, 4, axis=1)
    np.testing.assert_allclose(found[0], expected, rtol=1e-3)


def test_contraction_matrix_declines_other_bodies() -> None:
    """A body that is not `acc + x * w` (here x * x, a square summed) is not read."""
    text = _pool_then_linear(6, 5)
    module = heirpy.parse(text)
    heirpy.run_pipeline(module, GENERIC)
    (op,) = _heads(module)
    mul = next(o for o in op.body.block.ops if o.name == "arith.mulf")
    x_arg = op.body.block.args[0]
    mul.operands = (x_arg, x_arg)  # type: ignore[assignment]
    reader = ConstantFolder()
    values = {v: reader.fold(v) for v in (op.inputs[1], op.outputs[0])}
    assert contraction_matrix(op, op.inputs[0], values) is None  # type: ignore[arg-type]


@requires_heir
def test_heir_compiles_the_contraction_generic_at_one_level() -> None:
    """The generic through heir-prepare (legalize-for-heir writes it as one matvec):
    heir-opt's CKKS pipeline accepts it at the depth bound, one level."""
    module = heirpy.parse(_pool_then_linear(8, 4))
    heirpy.run_pipeline(module, GENERIC)
    assert len(_heads(module)) == 1
    heirpy.run_pipeline(module, "heir-prepare")
    assert _heads(module) == []
    assert heir_levels(heirpy.print_module(module)) == 1


def _conv_then_head(stride: int) -> str:
    """A 1x1 conv (stride `stride`) before the global pool + Linear of `_pool_then_linear`."""
    size = 2 * stride
    head = _pool_then_linear(6, 5).replace("%x: tensor<1x6x2x2xf32>", f"%img: tensor<1x6x{size}x{size}xf32>")
    conv = f"""  %k = arith.constant dense<{np.arange(36).reshape(6, 6, 1, 1).tolist()}> : tensor<6x6x1x1xf32>
  %ce = tensor.empty() : tensor<1x6x2x2xf32>
  %cz = arith.constant 0.0 : f32
  %ci = linalg.fill ins(%cz : f32) outs(%ce : tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32>
  %x = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}} ins(%img, %k : tensor<1x6x{size}x{size}xf32>, tensor<6x6x1x1xf32>) outs(%ci : tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32>
"""
    first = head.index("  %w = ")
    return head[:first] + conv + head[first:]


@pytest.mark.parametrize(("stride", "fused"), [(1, True), (2, False)])
def test_a_conv_before_the_pool_folds_only_when_it_maps_every_position_alike(stride: int, fused: bool) -> None:
    """A 1x1 stride-1 conv commutes with the sum (its channel map folds into the weight);
    at stride 2 the pool sums only every other input position, which no weight read
    through a broadcast over h and w can say: no contraction (`chains.per_position`)."""
    from heirpy.interp.equivalence import check_equivalence

    text = _conv_then_head(stride)
    module = heirpy.parse(text)
    heirpy.run_pipeline(module, GENERIC)
    assert len(_heads(module)) == (1 if fused else 0)
    report = check_equivalence(heirpy.parse(text), module, "main", seeds=(0,))
    assert report.ok, report
