"""A run of folds into an f16/bf16 weight rounds it once (issue 34: "folding done in f32
and rounded to the storage type once").

Batch norm after a conv is four elementwise ops; `linalg-fuse-linear-ops` folds them one
at a time. Each fold computes in float64, but writing each intermediate weight back in
f16 would round it once per scale (1/sqrt(var+eps), then gamma). The constant reader
keeps the float64 value of a narrow weight a fold wrote (`remember_unrounded`), so the
next fold into the same op starts from it: the weight is `round(W * inv * gamma)`.
The conv forms are torch-mlir's mixed half form (f16 operands, f32 accumulator, truncf;
batch norm in f32 with its f16 gamma/beta widened in the bodies): a named conv and a
grouped conv (expand_shape / conv_2d_ngchw_gfchw / collapse_shape, RegNet's 3x3).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith

from heirpy.api import parse, run_pipeline
from heirpy.interp.evaluator import run_function
from heirpy.ir.dialects.linalg_structured import Conv2DNgchwGfchwOp
from heirpy.transforms.linear.constant_folding import ConstantFolder

BF16_MASK = np.uint32(0xFFFF0000)
ID4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
CH = "affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>"
PARALLEL4 = 'iterator_types = ["parallel", "parallel", "parallel", "parallel"]'


def to_storage(values: np.ndarray, storage: str) -> np.ndarray:
    """float64 values rounded to nearest even in `storage` (f16 or bf16), as float64."""
    if storage == "f16":
        return np.asarray(values, np.float64).astype(np.float16).astype(np.float64)
    bits = np.asarray(values, np.float64).astype(np.float32).view(np.uint32)  # exact here: few bits
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))) & BF16_MASK
    return rounded.view(np.float32).astype(np.float64)


def literal(values: np.ndarray) -> str:
    return repr(np.asarray(values, np.float64).tolist())


def bn_generics(source: str, storage: str, mean: np.ndarray, inv: np.ndarray, gamma: np.ndarray,
                beta: np.ndarray, shape: str, channels: int) -> str:
    """torch-mlir's batch norm of the f32 `source` after its truncf to `storage`."""
    t = f"tensor<{shape}x"
    k = f"tensor<{channels}x1x1x"
    def step(name: str, lhs: str, lhs_type: str, rhs: str, rhs_type: str, body: str) -> str:
        return (f"  %{name} = linalg.generic {{indexing_maps = [{ID4}, {CH}, {ID4}], {PARALLEL4}}} "
                f"ins({lhs}, {rhs} : {t}{lhs_type}>, {k}{rhs_type}>) outs(%e32 : {t}f32>) {{\n"
                f"  ^bb0(%a: {lhs_type}, %b: {rhs_type}, %o: f32):\n{body}  }} -> {t}f32>\n")
    return (
        f"  %mean = arith.constant dense<{literal(mean.reshape(-1, 1, 1))}> : {k}f32>\n"
        f"  %inv = arith.constant dense<{literal(inv.reshape(-1, 1, 1))}> : {k}f32>\n"
        f"  %gamma = arith.constant dense<{literal(gamma.reshape(-1, 1, 1))}> : {k}{storage}>\n"
        f"  %beta = arith.constant dense<{literal(beta.reshape(-1, 1, 1))}> : {k}{storage}>\n"
        f"  %e32 = tensor.empty() : {t}f32>\n  %en = tensor.empty() : {t}{storage}>\n"
        f"  %t = linalg.generic {{indexing_maps = [{ID4}, {ID4}], {PARALLEL4}}} ins({source} : {t}f32>) "
        f"outs(%en : {t}{storage}>) {{\n  ^bb0(%a: f32, %o: {storage}):\n"
        f"    %r = arith.truncf %a : f32 to {storage}\n    linalg.yield %r : {storage}\n  }} -> {t}{storage}>\n"
        + step("s", "%t", storage, "%mean", "f32",
               f"    %wide = arith.extf %a : {storage} to f32\n    %r = arith.subf %wide, %b : f32\n"
               "    linalg.yield %r : f32\n")
        + step("n", "%s", "f32", "%inv", "f32", "    %r = arith.mulf %a, %b : f32\n    linalg.yield %r : f32\n")
        + step("g", "%n", "f32", "%gamma", storage,
               f"    %wide = arith.extf %b : {storage} to f32\n    %r = arith.mulf %a, %wide : f32\n"
               "    linalg.yield %r : f32\n")
        + step("h", "%g", "f32", "%beta", storage,
               f"    %wide = arith.extf %b : {storage} to f32\n    %r = arith.addf %a, %wide : f32\n"
               "    linalg.yield %r : f32\n")
        + f"  %out = linalg.generic {{indexing_maps = [{ID4}, {ID4}], {PARALLEL4}}} ins(%h : {t}f32>) "
        f"outs(%en : {t}{storage}>) {{\n  ^bb0(%a: f32, %o: {storage}):\n"
        f"    %r = arith.truncf %a : f32 to {storage}\n    linalg.yield %r : {storage}\n  }} -> {t}{storage}>\n"
        f"  return %out : {t}{storage}>\n}}\n"
    )


def conv_bn(storage: str, grouped: bool, w: np.ndarray, bn: tuple[np.ndarray, ...]) -> str:
    """A 1x4x6x6 input, a 3x3 conv of 4 output channels (2 groups of 2 when `grouped`), bn."""
    head = (f"func.func @main(%x: tensor<1x4x6x6x{storage}>) -> tensor<1x4x4x4x{storage}> {{\n"
            "  %zero = arith.constant 0.0 : f32\n")
    if grouped:
        conv = (f"  %w = arith.constant dense<{literal(w)}> : tensor<2x2x2x3x3x{storage}>\n"
                f"  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 6, 6] "
                f": tensor<1x4x6x6x{storage}> into tensor<1x2x2x6x6x{storage}>\n"
                "  %ez = tensor.empty() : tensor<1x2x2x4x4xf32>\n"
                "  %z = linalg.fill ins(%zero : f32) outs(%ez : tensor<1x2x2x4x4xf32>) -> tensor<1x2x2x4x4xf32>\n"
                "  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> "
                f": vector<2xi64>}} ins(%xg, %w : tensor<1x2x2x6x6x{storage}>, tensor<2x2x2x3x3x{storage}>) "
                "outs(%z : tensor<1x2x2x4x4xf32>) -> tensor<1x2x2x4x4xf32>\n"
                "  %acc = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x2x2x4x4xf32> "
                "into tensor<1x4x4x4xf32>\n")
    else:
        conv = (f"  %w = arith.constant dense<{literal(w)}> : tensor<4x4x3x3x{storage}>\n"
                "  %ez = tensor.empty() : tensor<1x4x4x4xf32>\n"
                "  %z = linalg.fill ins(%zero : f32) outs(%ez : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>\n"
                "  %acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> "
                f": vector<2xi64>}} ins(%x, %w : tensor<1x4x6x6x{storage}>, tensor<4x4x3x3x{storage}>) "
                "outs(%z : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>\n")
    return head + conv + bn_generics("%acc", storage, *bn, shape="1x4x4x4", channels=4)


def case(storage: str, grouped: bool, seed: int) -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    """The IR, its weight, inv and gamma (values exact in `storage`, inv in f32)."""
    rng = np.random.default_rng(seed)
    w = to_storage(rng.normal(0, 0.5, (2, 2, 2, 3, 3) if grouped else (4, 4, 3, 3)), storage)
    mean = to_storage(rng.normal(0, 1, 4), "f16")
    inv = rng.uniform(0.6, 1.6, 4).astype(np.float32).astype(np.float64)
    gamma = to_storage(rng.uniform(0.5, 1.5, 4), storage)
    beta = to_storage(rng.normal(0, 1, 4), storage)
    return conv_bn(storage, grouped, w, (mean, inv, gamma, beta)), w, inv, gamma


def fused_weight(ir: str) -> tuple[np.ndarray, str]:
    """The weight of the one conv left after `linalg-fuse-linear-ops`, as float64, and
    the conv's accumulator element type."""
    module = parse(ir, "fold_rounding.mlir")
    run_pipeline(module, "linalg-fuse-linear-ops")
    convs = [op for op in module.walk() if op.name.startswith("linalg.conv_2d")]
    assert len(convs) == 1
    top = [op.name for op in module.walk() if op.parent_op() is convs[0].parent_op()]
    assert top.count("linalg.generic") == 1  # the batch norm folded: only the final truncf is left
    weight = ConstantFolder().fold(convs[0].operands[1])
    assert weight is not None
    return weight.astype(np.float64), str(convs[0].results[0].type)


@pytest.mark.parametrize("storage", ["f16", "bf16"])
@pytest.mark.parametrize("grouped", [False, True], ids=["conv", "grouped"])
def test_batch_norm_rounds_the_weight_once(storage: str, grouped: bool) -> None:
    ir, w, inv, gamma = case(storage, grouped, seed=3)
    got, accumulator = fused_weight(ir)
    out_channel = (slice(None),) + (None,) * (w.ndim - 1)
    scale = (inv * gamma).reshape(2, 2) if grouped else inv * gamma
    scale = scale[(slice(None), slice(None)) + (None,) * 3] if grouped else scale[out_channel]
    once = to_storage(w * scale, storage)
    twice = to_storage(to_storage(w * (inv.reshape(scale.shape)), storage) * gamma.reshape(scale.shape), storage)
    assert np.count_nonzero(once != twice) > 0  # the inputs tell the two apart
    np.testing.assert_array_equal(got, once)
    assert accumulator.endswith("xf32>")  # the exporter's accumulator is kept


def test_the_fused_f16_conv_computes_what_the_exported_one_does() -> None:
    """The heirpy evaluator before/after: the fused grouped conv's f16 output stays
    within a few f16 ulps of the output's scale of the exported form's."""
    ir, w, inv, gamma = case("f16", True, seed=5)
    module = parse(ir, "fold_rounding.mlir")
    fused = parse(ir, "fold_rounding.mlir")
    run_pipeline(fused, "linalg-fuse-linear-ops")
    rng = np.random.default_rng(0)
    errors = []
    for _ in range(20):
        x = rng.normal(0, 1, (1, 4, 6, 6)).astype(np.float16)
        before = np.asarray(run_function(module, "main", [x])[0], np.float64)
        after = np.asarray(run_function(fused, "main", [x])[0], np.float64)
        errors.append(np.abs(after - before))
    # Both round the output to f16; the fused weight adds at most half an f16 ulp of
    # each weight, so the two stay within a few ulps of the output's scale.
    worst = float(np.max(errors))
    scale = float(np.max(np.abs(before)))
    assert worst <= 4 * float(np.finfo(np.float16).eps) * scale


TWO_USES = """
func.func @main(%x: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>) {
  %w = arith.constant dense<[0.5, 1.0, 1.5, 2.0]> : tensor<4xf16>
  %a = arith.mulf %x, %w : tensor<4xf16>
  %b = arith.addf %x, %w : tensor<4xf16>
  return %a, %b : tensor<4xf16>, tensor<4xf16>
}
"""
ONE_USE = TWO_USES.replace("%b = arith.addf %x, %w", "%b = arith.addf %x, %x")
LITERAL = [0.5, 1.0, 1.5, 2.0]


@pytest.mark.parametrize(("ir", "expect_exact"), [(ONE_USE, True), (TWO_USES, False),
                                                   (ONE_USE.replace("f16", "f32"), False)],
                         ids=["one-use", "two-uses", "f32"])
def test_the_unrounded_value_is_read_only_by_the_one_op_it_was_written_for(ir: str, expect_exact: bool) -> None:
    """`fold_unrounded` gives the remembered float64 value only while one op reads the
    constant; a second reader computes with the IR's rounded value (a fold must not
    change what another op sees). f32 constants are not remembered: their per-fold
    rounding stays."""
    module = parse(ir, "uses.mlir")
    constant = next(op for op in module.walk() if isinstance(op, arith.ConstantOp))
    reader = ConstantFolder()
    exact = np.array(LITERAL) + 1e-4  # what a fold computed; the literal is its rounding
    reader.remember_unrounded(constant.result, exact)
    got = reader.fold_unrounded(constant.result)
    assert got is not None
    np.testing.assert_array_equal(got, exact if expect_exact else LITERAL)


def test_grouped_conv_pattern_is_the_one_folding() -> None:
    """The grouped case goes through `FuseElementwiseIntoGroupedConv` (the conv stays a
    grouped conv, its accumulator f32)."""
    ir, *_ = case("f16", True, seed=3)
    module = parse(ir, "fold_rounding.mlir")
    run_pipeline(module, "linalg-fuse-linear-ops")
    (conv,) = [op for op in module.walk() if isinstance(op, Conv2DNgchwGfchwOp)]
    assert str(conv.results[0].type) == "tensor<1x2x2x4x4xf32>"
