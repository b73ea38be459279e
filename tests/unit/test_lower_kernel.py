"""lower-tensor-ext's kernel lowering and read expansion: legality helpers and numerics.

Every FileCheck case of tests/filecheck/transforms/lower-tensor-ext/kernel.mlir, a
standalone generic with a mixed-radix read, and both real YOLO heads are run through
the evaluator before and after the lowering on several seeds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp
from xdsl.dialects.func import ReturnOp
from xdsl.ir.affine import AffineExpr, AffineMap

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_module
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.ir.dialects.tensor_ext import KernelOp
from heirpy.transforms.lowering.expand_reads import plan_read_expansion
from heirpy.transforms.lowering.lower_kernel import (
    accumulates_by_addition,
    folds_transpose_into_root,
)

ROOT = Path(__file__).resolve().parents[2]
KERNEL_CASES = ROOT / "tests" / "filecheck" / "transforms" / "lower-tensor-ext" / "kernel.mlir"
EXAMPLES = ROOT / "examples"
SEEDS = (0, 1, 2)

d = [AffineExpr.dimension(i) for i in range(5)]


def amap(num_dims: int, *results: AffineExpr | int) -> AffineMap:
    exprs = tuple(AffineExpr.constant(r) if isinstance(r, int) else r for r in results)
    return AffineMap(num_dims, 0, exprs)


# ------------------------------------------------------------------ plan_read_expansion


def test_a_mixed_radix_read_becomes_one_dim_per_loop() -> None:
    plan = plan_read_expansion(amap(5, d[0], d[1] * 85 + d[4], d[2], d[3]), [1, 3, 80, 80, 85], [1, 255, 80, 80])
    assert plan is not None and plan.reshapes
    assert plan.groups == ((0,), (1, 2), (3,), (4,))
    assert plan.shape == (1, 3, 85, 80, 80)
    assert plan.amap == amap(5, d[0], d[1], d[4], d[2], d[3])


def test_a_bias_read_through_the_same_number_expands_too() -> None:
    plan = plan_read_expansion(amap(5, d[1] * 85 + d[4]), [1, 3, 80, 80, 85], [255])
    assert plan is not None and plan.groups == ((0, 1),) and plan.amap == amap(5, d[1], d[4])


def test_a_unit_loop_in_a_number_is_dropped_without_a_reshape() -> None:
    plan = plan_read_expansion(amap(2, d[0] * 4 + d[1]), [1, 4], [4])
    assert plan is not None and not plan.reshapes and plan.amap == amap(2, d[1])


def test_plain_reads_and_constants_need_nothing() -> None:
    assert plan_read_expansion(amap(3, d[2], d[0], d[1]), [2, 3, 4], [4, 2, 3]) is None
    assert plan_read_expansion(amap(2, 0, d[1]), [2, 3], [1, 3]) is None


def test_a_read_that_does_not_cover_the_dim_exactly_is_refused() -> None:
    # 2 * 4 = 8 values of a dim of 10: an expand_shape cannot say that
    assert plan_read_expansion(amap(2, d[0] * 4 + d[1]), [2, 4], [10]) is None
    # a wrong stride, an offset, a dynamic size
    assert plan_read_expansion(amap(2, d[0] * 3 + d[1]), [2, 4], [8]) is None
    assert plan_read_expansion(amap(2, d[0] * 4 + d[1] + 1), [2, 4], [8]) is None
    assert plan_read_expansion(amap(2, d[0] * 4 + d[1]), [-1, 4], [8]) is None


# ------------------------------------------------------------------ accumulates_by_addition


def _first(text: str, name: str):  # noqa: ANN202 (an xDSL op)
    module = parse(text)
    return next(op for op in module.walk() if op.name == name)


CONV = """
func.func @f(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>, %i: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%i : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %c : tensor<1x3x4x4xf32>
}"""
MATMUL = """
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %i: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%i : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}"""
POOL = """
func.func @f(%x: tensor<1x2x4x4xf32>, %i: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_KIND {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%i : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}"""
PRODUCT = """
func.func @f(%x: tensor<4xf32>, %i: tensor<f32>) -> tensor<f32> {
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<4xf32>) outs(%i : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %p : tensor<f32>
}"""
SQUARED_ACC = PRODUCT.replace(
    "%m = arith.mulf %out, %in : f32", "%s = arith.mulf %out, %out : f32\n    %m = arith.addf %s, %in : f32"
)
# out + out * in: an add of the accumulator, which it also reads elsewhere (init * prod(1 + in))
ACC_READ_TWICE = PRODUCT.replace(
    "%m = arith.mulf %out, %in : f32", "%s = arith.mulf %out, %in : f32\n    %m = arith.addf %out, %s : f32"
)


def test_convs_matmuls_and_sum_pools_accumulate_by_addition() -> None:
    assert accumulates_by_addition(_first(CONV, "linalg.conv_2d_nchw_fchw"))
    assert accumulates_by_addition(_first(MATMUL, "linalg.matmul"))
    assert accumulates_by_addition(_first(POOL.replace("KIND", "sum"), "linalg.pooling_nchw_sum"))


def test_max_pools_products_and_reused_accumulators_do_not() -> None:
    assert not accumulates_by_addition(_first(POOL.replace("KIND", "max"), "linalg.pooling_nchw_max"))
    assert not accumulates_by_addition(_first(PRODUCT, "linalg.generic"))
    assert not accumulates_by_addition(_first(SQUARED_ACC, "linalg.generic"))
    assert not accumulates_by_addition(_first(ACC_READ_TWICE, "linalg.generic"))


def test_only_a_1x1_unit_stride_conv_takes_a_folded_transpose() -> None:
    assert folds_transpose_into_root(_first(CONV, "linalg.conv_2d_nchw_fchw"))
    strided = CONV.replace("linalg.conv_2d_nchw_fchw ins", "linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>} ins").replace("tensor<1x3x4x4xf32>", "tensor<1x3x2x2xf32>")
    assert not folds_transpose_into_root(_first(strided, "linalg.conv_2d_nchw_fchw"))
    three = CONV.replace("tensor<1x2x4x4xf32>", "tensor<1x2x6x6xf32>").replace("tensor<3x2x1x1xf32>", "tensor<3x2x3x3xf32>")
    assert not folds_transpose_into_root(_first(three, "linalg.conv_2d_nchw_fchw"))
    assert not folds_transpose_into_root(_first(MATMUL, "linalg.matmul"))
    assert not folds_transpose_into_root(_first(POOL.replace("KIND", "sum"), "linalg.pooling_nchw_sum"))


# ------------------------------------------------------------------ numerics


def _functions(module: ModuleOp) -> list[str]:
    return [op.sym_name.data for op in module.ops if op.name == "func.func"]  # type: ignore[attr-defined]


def _assert_same_values(text: str, pipeline: str, seeds: tuple[int, ...] = SEEDS) -> str:
    before, after = load_module(text), load_module(text)
    run_pipeline(after.module, pipeline)
    for name in _functions(before.module):
        report = check_equivalence(
            before.module, after.module, name, seeds,
            resources_a=before.resources, resources_b=after.resources,
        )
        assert report.ok, report
    return print_module(after.module)


def _chunks() -> list[str]:
    return [c for c in KERNEL_CASES.read_text().split("// -----") if "func.func" in c]


@pytest.mark.parametrize("layout_ops", ["true", "false"])
@pytest.mark.parametrize("index", range(6))
def test_every_filecheck_case_keeps_its_values(index: int, layout_ops: str) -> None:
    chunks = _chunks()
    assert len(chunks) == 6
    out = _assert_same_values(chunks[index], f"lower-tensor-ext{{layout-ops={layout_ops}}}")
    assert "tensor_ext." not in out


CHAIN = """
func.func @main(%x: tensor<4x30xf32>, %y: tensor<4x6x5xf32>) -> tensor<4x6x5xf32> {
  %e = tensor.empty() : tensor<4x6x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2 * 6 + d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %y : tensor<4x30xf32>, tensor<4x6x5xf32>) outs(%e : tensor<4x6x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = math.tanh %a : f32
    %s = arith.addf %t, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x6x5xf32>
  return %r : tensor<4x6x5xf32>
}"""


def test_a_standalone_mixed_radix_read_becomes_an_expand_shape_view() -> None:
    out = _assert_same_values(CHAIN, "lower-tensor-ext")
    assert "tensor.expand_shape %x" in out and "into tensor<4x5x6xf32>" in out
    assert "(d0, d1, d2) -> (d0, d2, d1)" in out and "* 6" not in out
    kept = _assert_same_values(CHAIN, "lower-tensor-ext{layout-ops=false}")
    assert "tensor.expand_shape" not in kept and "* 6" in kept


@pytest.mark.parametrize("head", ["yolo_head_k1", "yolo_head_k3"])
def test_the_yolo_heads_keep_their_values(head: str) -> None:
    text = (EXAMPLES / f"{head}.mlir").read_text()
    out = _assert_same_values(text, "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext")
    assert "tensor_ext." not in out and "* 85" not in out
    # only the 1x1 conv gets its transpose as an op (IREE folds it into the conv)
    assert ("linalg.transpose" in out) == (head == "yolo_head_k1")


def test_the_epilogue_is_updated_in_place_with_matching_segment_sizes() -> None:
    # In place, not rebuilt: a rebuilt epilogue would replace its result in func.return,
    # whose N operands xDSL copies on every replacement (quadratic in N heads).
    module = parse((EXAMPLES / "yolo_head_k1.mlir").read_text())
    run_pipeline(module, "linalg-canonicalizations,linalg-fuse-ops")
    (kernel,) = [op for op in module.walk() if isinstance(op, KernelOp)]
    epilogue = kernel.epilogue()
    assert isinstance(epilogue, GenericOp)
    run_pipeline(module, "lower-tensor-ext")
    (ret,) = [op for op in module.walk() if isinstance(op, ReturnOp)]
    assert ret.operands[0].owner is epilogue
    sizes = epilogue.properties["operandSegmentSizes"]
    assert isinstance(sizes, DenseArrayBase)
    assert sizes.get_values() == (len(epilogue.inputs), len(epilogue.outputs)) == (2, 1)
    epilogue.verify()
    printed = print_module(module)
    assert print_module(parse(printed)) == printed
