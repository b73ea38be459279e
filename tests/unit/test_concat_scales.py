"""concat_scales.py: the guards of its helpers at their limits, and the half-form
rounding move's negatives (tests/filecheck/transforms/linalg-fuse-linear-ops/
concat_scale.mlir has the patterns' positives, negatives, depth and numerics)."""

from __future__ import annotations

from xdsl.dialects import func, tensor
from xdsl.ir import Operation

from heirpy.api import parse, print_module
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.linear.concat_scales import (
    MAX_AFFINE_PREFIX,
    FoldScaleIntoSharedLinearOp,
    WidenConcatOfRoundings,
    _ancestors,
    _scaled_source,
)
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.rewrite import PatternSet, apply_pattern_sets


def _scale_chain(length: int) -> str:
    lines = ["func.func @f(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {",
             "  %k = arith.constant dense<2.0> : tensor<1x2x2x2xf32>"]
    value = "%x"
    for i in range(length):
        lines.append(f"  %m{i} = arith.mulf {value}, %k : tensor<1x2x2x2xf32>")
        value = f"%m{i}"
    lines += [f"  return {value} : tensor<1x2x2x2xf32>", "}"]
    return "\n".join(lines)


def _returned(module: Operation) -> Operation:
    ret = next(op for op in module.walk() if isinstance(op, func.ReturnOp))
    return ret


def test_scaled_source_looks_through_exactly_max_affine_prefix_ops() -> None:
    for length, reaches_x in ((MAX_AFFINE_PREFIX - 1, True), (MAX_AFFINE_PREFIX, True),
                              (MAX_AFFINE_PREFIX + 1, False)):
        module = parse(_scale_chain(length))
        value = _returned(module).operands[0]
        source = _scaled_source(value, ConstantFolder())
        arg = next(op for op in module.walk() if isinstance(op, func.FuncOp)).body.block.args[0]
        assert (source is arg) == reaches_x, length


def test_ancestors_stop_at_the_limit() -> None:
    module = parse(_scale_chain(3))
    value = _returned(module).operands[0]
    arg = next(op for op in module.walk() if isinstance(op, func.FuncOp)).body.block.args[0]
    assert arg in _ancestors(value)
    # m2 <- (m1, k) <- (m0) <- (x): x is the fifth value found, past a limit of 4.
    assert arg not in _ancestors(value, limit=4)
    assert arg in _ancestors(value, limit=5)


HALF = """
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @f(%a: tensor<1x2x2x2xf32>, %p: tensor<1x1x2x2xf16>) -> tensor<1x3x2x2xf32> {
  %ta = arith.truncf %a : tensor<1x2x2x2xf32> to tensor<1x2x2x2xf16>
  %c = tensor.concat dim(1) %ta, %p : (tensor<1x2x2x2xf16>, tensor<1x1x2x2xf16>) -> tensor<1x3x2x2xf16>
  %m = arith.constant dense<[[[0.5]], [[0.25]], [[-1.0]]]> : tensor<3x1x1xf32>
  %e = tensor.empty() : tensor<1x3x2x2xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %m : tensor<1x3x2x2xf16>, tensor<3x1x1xf32>) outs(%e : tensor<1x3x2x2xf32>) {
  ^bb0(%in: f16, %k: f32, %out: f32):
    BODY
  } -> tensor<1x3x2x2xf32>
  return %s : tensor<1x3x2x2xf32>
}
"""
WIDENING = "%w = arith.extf %in : f16 to f32\n    %r = arith.subf %w, %k : f32\n    linalg.yield %r : f32"
NOT_WIDENING = ("%w = arith.truncf %k : f32 to f16\n    %r = arith.subf %in, %w : f16\n"
                "    %x = arith.extf %r : f16 to f32\n    linalg.yield %x : f32")


def _widened(text: str) -> tuple[str, str]:
    module = parse(text)
    before = print_module(module)
    apply_pattern_sets(module, [PatternSet.of(WidenConcatOfRoundings())])
    return before, print_module(module)


def test_widen_concat_of_roundings_moves_the_rounding_past_the_concat() -> None:
    text = HALF.replace("BODY", WIDENING)
    before, after = _widened(text)
    assert "tensor.concat dim(1) %a, " in after and "-> tensor<1x3x2x2xf32>" in after
    assert "arith.truncf %a" not in after  # the part's rounding went with the old concat
    assert check_equivalence(parse(before), parse(after), "f").ok


def test_widen_concat_of_roundings_negatives() -> None:
    # the reader computes in f16 on the concat (no extf of it): nothing to widen
    before, after = _widened(HALF.replace("BODY", NOT_WIDENING))
    assert after == before
    # no part is a rounding of a wider value
    text = HALF.replace("BODY", WIDENING).replace(
        "%ta = arith.truncf %a : tensor<1x2x2x2xf32> to tensor<1x2x2x2xf16>",
        "%ta = arith.negf %p2 : tensor<1x2x2x2xf16>").replace(
        "%p: tensor<1x1x2x2xf16>)", "%p: tensor<1x1x2x2xf16>, %p2: tensor<1x2x2x2xf16>)")
    before, after = _widened(text)
    assert after == before
    # the concat has a second reader
    text = HALF.replace("BODY", WIDENING).replace(
        "-> tensor<1x3x2x2xf32> {\n", "-> (tensor<1x3x2x2xf32>, tensor<1x3x2x2xf16>) {\n", 1).replace(
        "return %s : tensor<1x3x2x2xf32>", "return %s, %c : tensor<1x3x2x2xf32>, tensor<1x3x2x2xf16>")
    before, after = _widened(text)
    assert after == before
    assert sum(isinstance(op, tensor.ConcatOp) for op in parse(after).walk()) == 1


SHARED = """
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @f(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = arith.constant dense<[[[[0.875]], [[-0.625]]], [[[0.375]], [[-0.25]]]]> : tensor<2x2x1x1xf32>
  %z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = arith.constant dense<[[[0.5]], [[-1.5]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f, %s : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %t = arith.constant dense<[[[0.75]], [[SECOND]]]> : tensor<2x1x1xf32>
  %be = tensor.empty() : tensor<1x2x4x4xf32>
  %b = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f, %t : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%be : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.OPf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  return %a, %b : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
"""


def _shared_folded(text: str) -> tuple[str, str]:
    module = parse(text)
    before = print_module(module)
    apply_pattern_sets(module, [PatternSet.of(FoldScaleIntoSharedLinearOp(ConstantFolder()))])
    return before, print_module(module)


def _conv_readers(text: str) -> list[str]:
    conv = next(op for op in parse(text).walk() if op.name == "linalg.conv_2d_nchw_fchw")
    return [use.operation.name for use in conv.results[0].uses]


def test_fold_scale_into_shared_conv_with_two_readers_neither_into_a_concat() -> None:
    """Two readers, the first not into a concat: its scale goes into the conv (its
    result is the conv's), the second reader multiplies by its scale over the first's."""
    for op, second in (("mul", "2.0"), ("div", "4.0")):
        before, after = _shared_folded(SHARED.replace("OP", op).replace("SECOND", second))
        assert after != before, op
        assert "return %f, %b :" in after, op  # the first reader is the (rescaled) conv itself
        assert _conv_readers(after).count("linalg.generic") == 1, op  # only the second reader's scale
        assert check_equivalence(parse(before), parse(after), "f").ok, op


def test_fold_scale_into_shared_conv_negatives() -> None:
    # one reader that goes into no concat: `FuseElementwiseIntoLinearOp`'s, not this pattern's
    one = SHARED.replace("OP", "mul").replace("SECOND", "2.0").replace(
        "return %a, %b : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>", "return %a, %x : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>")
    one = one[:one.index("  %t = arith.constant")] + one[one.index("  return"):]
    before, after = _shared_folded(one)
    assert after == before
    # a reader divides by a channel vector with a zero: no scale of it to divide by
    before, after = _shared_folded(SHARED.replace("OP", "div").replace("SECOND", "0.0"))
    assert after == before
