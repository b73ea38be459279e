"""heirpy.analysis.depth on hand-built IR with known depths under the documented model."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.func import FuncOp

from heirpy.analysis.depth import CostModel, FunctionDepth, analyze_module, depth_bound, format_depth_table
from heirpy.api import parse, run_pipeline

ID4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
PAR4 = '["parallel", "parallel", "parallel", "parallel"]'
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _t(*shape: int) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _square(name: str, src: str, shape: tuple[int, ...]) -> str:
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    idm = f"affine_map<({dims}) -> ({dims})>"
    par = ", ".join(['"parallel"'] * rank)
    return (
        f"%{name}_e = tensor.empty() : {_t(*shape)}\n"
        f"%{name} = linalg.generic {{indexing_maps = [{idm}, {idm}, {idm}], iterator_types = [{par}]}} "
        f"ins(%{src}, %{src} : {_t(*shape)}, {_t(*shape)}) outs(%{name}_e : {_t(*shape)}) {{\n"
        f"^bb0(%a: f32, %b: f32, %o: f32):\n  %m = arith.mulf %a, %b : f32\n  linalg.yield %m : f32\n"
        f"}} -> {_t(*shape)}\n"
    )


def _conv_pool(name: str, src: str, n: int, c: int, f: int, hw: int, avg: bool = True) -> str:
    """conv 3x3 (VALID) + 2x2/2 sum pool (+ divide by 4) of %src [n, c, hw, hw]."""
    ch = hw - 2
    ph = ch // 2
    text = (
        f"%{name}_w = arith.constant dense<0.1> : {_t(f, c, 3, 3)}\n"
        f"%{name}_ci = tensor.empty() : {_t(n, f, ch, ch)}\n"
        f"%{name}_c = linalg.conv_2d_nchw_fchw ins(%{src}, %{name}_w : {_t(n, c, hw, hw)}, {_t(f, c, 3, 3)}) "
        f"outs(%{name}_ci : {_t(n, f, ch, ch)}) -> {_t(n, f, ch, ch)}\n"
        f"%{name}_pi = tensor.empty() : {_t(n, f, ph, ph)}\n"
        f"%{name}_win = tensor.empty() : {_t(2, 2)}\n"
        f"%{name}_p = linalg.pooling_nchw_sum {{strides = dense<2> : vector<2xi64>}} ins(%{name}_c, %{name}_win : "
        f"{_t(n, f, ch, ch)}, {_t(2, 2)}) outs(%{name}_pi : {_t(n, f, ph, ph)}) -> {_t(n, f, ph, ph)}\n"
    )
    if avg:
        text += (
            f"%{name}_four = arith.constant 4.0 : f32\n"
            f"%{name} = linalg.generic {{indexing_maps = [{ID4}, {ID4}], iterator_types = {PAR4}}} "
            f"ins(%{name}_p : {_t(n, f, ph, ph)}) outs(%{name}_pi : {_t(n, f, ph, ph)}) {{\n"
            f"^bb0(%i: f32, %o: f32):\n  %q = arith.divf %i, %{name}_four : f32\n  linalg.yield %q : f32\n"
            f"}} -> {_t(n, f, ph, ph)}\n"
        )
    else:
        text += f"%{name} = tensor.cast %{name}_p : {_t(n, f, ph, ph)} to {_t(n, f, ph, ph)}\n"
    return text


def _fc(name: str, src: str, k: int, m: int) -> str:
    return (
        f"%{name}_w = arith.constant dense<0.1> : {_t(k, m)}\n"
        f"%{name}_o = tensor.empty() : {_t(1, m)}\n"
        f"%{name} = linalg.matmul ins(%{src}, %{name}_w : {_t(1, k)}, {_t(k, m)}) outs(%{name}_o : {_t(1, m)}) -> {_t(1, m)}\n"
    )


def alexnet_tiny_style() -> str:
    """conv, pool, x^2, conv, pool, x^2, fc, x^2, fc: the issue's AlexNet-Tiny-style net."""
    body = (
        _conv_pool("b1", "x", 1, 3, 4, 18)  # -> 1x4x8x8
        + _square("s1", "b1", (1, 4, 8, 8))
        + _conv_pool("b2", "s1", 1, 4, 8, 8)  # -> 1x8x3x3
        + _square("s2", "b2", (1, 8, 3, 3))
        + f"%flat = tensor.collapse_shape %s2 [[0], [1, 2, 3]] : {_t(1, 8, 3, 3)} into {_t(1, 72)}\n"
        + _fc("fc1", "flat", 72, 16)
        + _square("s3", "fc1", (1, 16))
        + _fc("fc2", "s3", 16, 10)
    )
    return f"func.func @main(%x: {_t(1, 3, 18, 18)}) -> {_t(1, 10)} {{\n{body}func.return %fc2 : {_t(1, 10)}\n}}\n"


def _one(text: str, model: CostModel | None = None) -> FunctionDepth:
    (result,) = analyze_module(parse(text), model)
    return result


def test_alexnet_tiny_style_before_and_after_conv_pool_fusion() -> None:
    text = alexnet_tiny_style()
    before = _one(text)
    # conv 1 + pool 1 + x^2 1, twice; fc 1 + x^2 1 + fc 1; the /4 is free.
    assert (before.depth, before.linear_ops, before.ct_ct_muls) == (9, 6, 3)
    assert before.exact
    module = parse(text)
    run_pipeline(module, "linalg-fuse-conv-pool")
    (after,) = analyze_module(module)
    assert (after.depth, after.linear_ops, after.ct_ct_muls) == (7, 4, 3)
    run_pipeline(module, "lower-tensor-ext")
    (lowered,) = analyze_module(module)
    assert (lowered.depth, lowered.linear_ops) == (7, 4)  # folded filters: no extra plaintext conv


def test_conv_pool_conv_pool_without_activation() -> None:
    body = _conv_pool("b1", "x", 2, 1, 2, 14, avg=False) + _conv_pool("b2", "b1", 2, 2, 3, 6, avg=False)
    text = f"func.func @main(%x: {_t(2, 1, 14, 14)}) -> {_t(2, 3, 2, 2)} {{\n{body}func.return %b2 : {_t(2, 3, 2, 2)}\n}}\n"
    assert (_one(text).depth, _one(text).linear_ops) == (4, 4)
    module = parse(text)
    run_pipeline(module, "linalg-fuse-conv-pool")
    (after,) = analyze_module(module)
    assert (after.depth, after.linear_ops) == (2, 2)


def _elementwise(body: str, ins: str, types: str, args: str, n_in: int) -> str:
    maps = ", ".join([ID2] * (n_in + 1))
    return (
        f"func.func @f({args}) -> {_t(2, 2)} {{\n%e = tensor.empty() : {_t(2, 2)}\n"
        f'%y = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}} '
        f"ins({ins} : {types}) outs(%e : {_t(2, 2)}) {{\n{body}\n}} -> {_t(2, 2)}\n"
        f"func.return %y : {_t(2, 2)}\n}}\n"
    )


@pytest.mark.parametrize(
    ("body", "depth", "ct_ct"),
    [
        ("^bb0(%a: f32, %o: f32):\n %m = arith.mulf %a, %a : f32\n %c = arith.mulf %m, %a : f32\n linalg.yield %c : f32", 2, 2),
        ("^bb0(%a: f32, %o: f32):\n %m = arith.mulf %a, %a : f32\n %c = arith.mulf %m, %m : f32\n linalg.yield %c : f32", 2, 2),
        ("^bb0(%a: f32, %o: f32):\n %m = arith.mulf %a, %a : f32\n %c = arith.mulf %m, %m : f32\n %d = arith.mulf %c, %a : f32\n linalg.yield %d : f32", 3, 3),
        ("^bb0(%a: f32, %o: f32):\n %k = arith.constant 3.0 : f32\n %m = arith.mulf %a, %k : f32\n %s = arith.addf %m, %a : f32\n linalg.yield %s : f32", 0, 0),
        # x ** 3 by a constant exponent: degree 3, two squarings' worth of ct x ct products
        ("^bb0(%a: f32, %o: f32):\n %k = arith.constant 3 : i32\n %p = math.fpowi %a, %k : f32, i32\n linalg.yield %p : f32", 2, 2),
        # fma with a plaintext factor multiplies no two ciphertexts; with two it does
        ("^bb0(%a: f32, %o: f32):\n %k = arith.constant 3.0 : f32\n %f = math.fma %a, %k, %a : f32\n linalg.yield %f : f32", 0, 0),
        ("^bb0(%a: f32, %o: f32):\n %f = math.fma %a, %a, %a : f32\n linalg.yield %f : f32", 1, 1),
    ],
)
def test_polynomial_bodies(body: str, depth: int, ct_ct: int) -> None:
    result = _one(_elementwise(body, "%x", _t(2, 2), f"%x: {_t(2, 2)}", 1))
    assert (result.depth, result.ct_ct_muls) == (depth, ct_ct)


def test_scalar_scale_is_free_unless_the_model_charges_it() -> None:
    body = "^bb0(%a: f32, %o: f32):\n %k = arith.constant 4.0 : f32\n %q = arith.divf %a, %k : f32\n linalg.yield %q : f32"
    text = _elementwise(body, "%x", _t(2, 2), f"%x: {_t(2, 2)}", 1)
    assert _one(text).depth == 0
    assert _one(text, CostModel(scalar_mul_levels=1)).depth == 1


def test_per_element_plaintext_multiply_is_a_linear_op() -> None:
    body = "^bb0(%a: f32, %sc: f32, %o: f32):\n %m = arith.mulf %a, %sc : f32\n linalg.yield %m : f32"
    text = _elementwise(body, "%x, %s", f"{_t(2, 2)}, {_t(2, 2)}", f"%x: {_t(2, 2)}", 2).replace(
        "%e = tensor.empty()", f"%s = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : {_t(2, 2)}\n%e = tensor.empty()"
    )
    result = _one(text)
    assert (result.depth, result.linear_ops, result.ct_ct_muls) == (1, 1, 0)


def test_softmax_op_costs_what_its_written_out_form_does() -> None:
    """linalg.softmax (what linalg-canonicalizations raises torch's five ops to): its sum of
    exps is one linear level, its exp and divide are outside the model."""
    torch_form = (EXAMPLES.parent / "tests/filecheck/transforms/linalg-canonicalizations/softmax.mlir").read_text()
    first_chunk = torch_form.split("// -----")[0]
    written_out = _one(first_chunk)
    module = parse(first_chunk)
    run_pipeline(module, "linalg-canonicalizations")
    assert [op.name for op in module.walk() if op.name == "linalg.softmax"] == ["linalg.softmax"]
    (raised,) = analyze_module(module)
    assert (written_out.depth_text(), written_out.linear_ops) == ("1+", 1)
    assert (raised.depth_text(), raised.linear_ops) == ("1+", 1)
    assert "linalg.softmax" in raised.approximated
    unit = first_chunk.replace("2x3x5", "2x3x1")
    unit_module = parse(unit)
    run_pipeline(unit_module, "linalg-canonicalizations")
    assert any(op.name == "linalg.softmax" for op in unit_module.walk())
    (unit_raised,) = analyze_module(unit_module)
    assert (_one(unit).depth_text(), unit_raised.depth_text(), unit_raised.linear_ops) == ("0+", "0+", 0)


def test_relu_is_not_modelled_and_marks_a_lower_bound() -> None:
    body = "^bb0(%a: f32, %o: f32):\n %z = arith.constant 0.0 : f32\n %r = arith.maximumf %a, %z : f32\n linalg.yield %r : f32"
    result = _one(_elementwise(body, "%x", _t(2, 2), f"%x: {_t(2, 2)}", 1))
    assert result.approximated == ("arith.maximumf",)
    assert result.depth_text() == "0+"


def test_plaintext_only_work_costs_nothing_and_plaintext_args() -> None:
    text = (
        f"func.func @f(%x: {_t(2, 2)}, %w: {_t(2, 2)}) -> ({_t(2, 2)}, {_t(2, 2)}) {{\n"
        f"%a = arith.constant dense<1.0> : {_t(2, 2)}\n%o = tensor.empty() : {_t(2, 2)}\n"
        f"%pt = linalg.matmul ins(%a, %a : {_t(2, 2)}, {_t(2, 2)}) outs(%o : {_t(2, 2)}) -> {_t(2, 2)}\n"
        f"%ct = linalg.matmul ins(%x, %w : {_t(2, 2)}, {_t(2, 2)}) outs(%o : {_t(2, 2)}) -> {_t(2, 2)}\n"
        f"func.return %pt, %ct : {_t(2, 2)}, {_t(2, 2)}\n}}\n"
    )
    both_ct = _one(text)
    assert both_ct.result_depths == (None, 1)
    assert (both_ct.linear_ops, both_ct.ct_ct_muls) == (0, 1)
    weights_pt = _one(text, CostModel(plaintext_args=frozenset({1})))
    assert (weights_pt.linear_ops, weights_pt.ct_ct_muls) == (1, 0)


def test_examples_alexnet_tiny() -> None:
    from heirpy.interp.resources import load_file

    module = load_file(EXAMPLES / "alexnet_tiny.mlir").module
    (before,) = analyze_module(module)
    assert (before.depth, before.linear_ops, before.ct_ct_muls) == (10, 7, 3)
    run_pipeline(module, "linalg-fuse-conv-pool")
    (after,) = analyze_module(module)
    assert (after.depth, after.linear_ops) == (7, 4)


def test_table_format() -> None:
    table = format_depth_table([FunctionDepth("main", (3, None), 2, 1, ("math.exp",), 640)])
    lines = table.splitlines()
    assert lines[0].split() == [
        "function", "depth", "result", "depths", "linear", "ops", "weight", "bytes", "ct", "x",
        "ct", "muls", "not", "modelled",
    ]
    assert lines[2].split() == ["@main", "3+", "3,", "pt", "2", "640", "1", "math.exp"]


# ------------------------------------------------------------------ weight bytes
def test_weight_bytes_are_the_plaintext_multiplicands_of_linear_ops() -> None:
    text = alexnet_tiny_style()
    before = _one(text)
    # conv filters 4x3x3x3 and 8x4x3x3, fc 72x16 and 16x10, float32; pool windows and
    # the /4 carry no weights.
    assert before.weight_bytes == 4 * (4 * 3 * 3 * 3 + 8 * 4 * 3 * 3 + 72 * 16 + 16 * 10)


def test_weight_bytes_of_a_per_channel_scale_is_its_operand() -> None:
    body = "^bb0(%a: f32, %sc: f32, %o: f32):\n %m = arith.mulf %a, %sc : f32\n %n = arith.mulf %m, %sc : f32\n linalg.yield %n : f32"
    text = _elementwise(body, "%x, %s", f"{_t(2, 2)}, {_t(2, 2)}", f"%x: {_t(2, 2)}", 2).replace(
        "%e = tensor.empty()", f"%s = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : {_t(2, 2)}\n%e = tensor.empty()"
    )
    # One operand, read by two multiplies of one op: counted once.
    assert _one(text).weight_bytes == 16


def test_weight_bytes_of_a_uniform_scale_and_of_plaintext_work_are_zero() -> None:
    body = "^bb0(%a: f32, %o: f32):\n %k = arith.constant 4.0 : f32\n %q = arith.mulf %a, %k : f32\n linalg.yield %q : f32"
    assert _one(_elementwise(body, "%x", _t(2, 2), f"%x: {_t(2, 2)}", 1)).weight_bytes == 0


# ------------------------------------------------------------------ sum reductions
_GAP = """
func.func @gap(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %e = tensor.empty() : tensor<1x4x1x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x8x8xf32>) outs(%z : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    BODY
  } -> tensor<1x4x1x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf32>) outs(%e : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x4x1x1xf32>
  return %m : tensor<1x4x1x1xf32>
}
"""


@pytest.mark.parametrize(
    ("body", "depth", "linear_ops", "ct_ct"),
    [
        # torch's global average pool: a sum, then a uniform divide: one linear op.
        ("%a = arith.addf %in, %acc : f32\n    linalg.yield %a : f32", 1, 1, 0),
        # x² summed (pointwise fusion put the square into the sum): x² 1 + sum 1.
        ("%q = arith.mulf %in, %in : f32\n    %a = arith.addf %q, %acc : f32\n    linalg.yield %a : f32", 2, 1, 1),
        # a sum of a plaintext-scaled input is one linear op, not two.
        ("%k = arith.constant dense<1.0> : tensor<1xf32>\n    %w = arith.constant 0.5 : f32\n"
         "    %q = arith.mulf %in, %w : f32\n    %a = arith.addf %q, %acc : f32\n    linalg.yield %a : f32", 1, 1, 0),
    ],
)
def test_a_sum_reduction_is_a_linear_op(body: str, depth: int, linear_ops: int, ct_ct: int) -> None:
    result = _one(_GAP.replace("BODY", body))
    assert (result.depth, result.linear_ops, result.ct_ct_muls) == (depth, linear_ops, ct_ct)


@pytest.mark.parametrize(
    ("body", "linear_ops"),
    [
        # relu summed (pointwise fusion puts squeezenet's last relu into its global average
        # pool): relu, not modelled, then the sum: one linear op, as the two ops were.
        ("%c = arith.cmpf ugt, %in, %zero : f32\n    %r = arith.select %c, %in, %zero : f32\n"
         "    %a = arith.addf %r, %acc : f32\n    linalg.yield %a : f32", 1),
        ("%r = arith.maximumf %in, %zero : f32\n    %a = arith.addf %acc, %r : f32\n    linalg.yield %a : f32", 1),
        # a running max reads the accumulator: outside the model, no sum.
        ("%a = arith.maximumf %in, %acc : f32\n    linalg.yield %a : f32", 0),
        ("%r = arith.maximumf %in, %acc : f32\n    %a = arith.addf %r, %acc : f32\n    linalg.yield %a : f32", 0),
    ],
)
def test_a_non_polynomial_summed_is_still_a_sum(body: str, linear_ops: int) -> None:
    result = _one(_GAP.replace("BODY", body))
    assert (result.depth, result.linear_ops, result.exact) == (linear_ops, linear_ops, False)


@pytest.mark.parametrize(("y_type", "y_map"), [
    ("tensor<1x4x8x8xf32>", "(d0, d1, d2, d3)"),
    ("tensor<4xf32>", "(d1)"),  # a per-channel ciphertext: another map, but no factor of x²
])
def test_a_square_summed_with_x_passed_twice_is_the_square_then_the_sum(y_type: str, y_map: str) -> None:
    """Fusion passes x to a summing generic twice (x² read through two operands) and a
    second ciphertext added: x², then a sum, 2 levels, not a ct x ct contraction's 1
    (generated programs' pipeline outputs read below their own bound that way)."""
    text = _GAP.replace("ins(%x : tensor<1x4x8x8xf32>)", f"ins(%x, %x, %y : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, {y_type})")
    text = text.replace("(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>",
                        "(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, "
                        f"affine_map<(d0, d1, d2, d3) -> {y_map}>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>", 1)
    text = text.replace("@gap(%x: tensor<1x4x8x8xf32>)", f"@gap(%x: tensor<1x4x8x8xf32>, %y: {y_type})")
    text = text.replace("^bb0(%in: f32, %acc: f32):\n    BODY", "^bb0(%in: f32, %in2: f32, %yin: f32, %acc: f32):\n"
                        "    %q = arith.mulf %in, %in2 : f32\n    %t = arith.addf %q, %yin : f32\n"
                        "    %a = arith.addf %t, %acc : f32\n    linalg.yield %a : f32")
    result = _one(text)
    assert (result.depth, result.linear_ops, result.ct_ct_muls) == (2, 1, 1)


def test_a_reduction_over_unit_loops_is_a_copy() -> None:
    text = _GAP.replace("8x8", "1x1").replace("BODY", "%a = arith.addf %in, %acc : f32\n    linalg.yield %a : f32")
    assert (_one(text).depth, _one(text).linear_ops) == (0, 0)


def test_a_contraction_generic_is_one_linear_op_with_its_weight() -> None:
    text = """
func.func @fc(%x: tensor<1x4x8x8xf32>) -> tensor<1x10xf32> {
  %w = arith.constant dense<[[0.0, 0.1, 0.2, 0.3], [0.4, 0.5, 0.6, 0.7], [0.8, 0.9, 1.0, 1.1], [1.2, 1.3, 1.4, 1.5], [1.6, 1.7, 1.8, 1.9], [2.0, 2.1, 2.2, 2.3], [2.4, 2.5, 2.6, 2.7], [2.8, 2.9, 3.0, 3.1], [3.2, 3.3, 3.4, 3.5], [3.6, 3.7, 3.8, 3.9]]> : tensor<10x4xf32>
  %z = arith.constant dense<0.0> : tensor<1x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x4x8x8xf32>, tensor<10x4xf32>) outs(%z : tensor<1x10xf32>) {
  ^bb0(%in: f32, %wt: f32, %acc: f32):
    %p = arith.mulf %in, %wt : f32
    %a = arith.addf %acc, %p : f32
    linalg.yield %a : f32
  } -> tensor<1x10xf32>
  return %r : tensor<1x10xf32>
}
"""
    result = _one(text)
    assert (result.depth, result.linear_ops, result.weight_bytes) == (1, 1, 160)


def test_a_ct_ct_contraction_generic_costs_what_its_product_costs() -> None:
    text = """
func.func @qk(%q: tensor<4x8xf32>, %k: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant dense<0.0> : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
"""
    result = _one(text)
    assert (result.depth, result.linear_ops, result.ct_ct_muls) == (1, 0, 1)


_KERNEL_READS_CONSTANT = """
func.func @main(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1x1x3x3xf32>
  %scale = arith.constant dense<[[[0.5]]]> : tensor<1x1x1xf32>
  %e = tensor.empty() : tensor<1x1x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) outs(%f : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %scale : tensor<1x1x2x2xf32>, tensor<1x1x1xf32>) outs(%e : tensor<1x1x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x1x2x2xf32>
  return %s : tensor<1x1x2x2xf32>
}
"""


def test_a_kernel_reads_a_uniform_constant_as_the_unfused_ops_did() -> None:
    """A one-channel batch-norm style scale (a 1-element constant) is a uniform scale:
    free before fusion, and still free once conv and scale form a tensor_ext.kernel,
    whose body reads the constant through a block argument."""
    before = _one(_KERNEL_READS_CONSTANT)
    module = parse(_KERNEL_READS_CONSTANT)
    run_pipeline(module, "linalg-fuse-pointwise")
    assert "tensor_ext.kernel" in str(module)
    (after,) = analyze_module(module)
    assert (before.depth, after.depth) == (1, 1)


def test_a_max_reduction_is_not_a_sum() -> None:
    result = _one(_GAP.replace("BODY", "%a = arith.maximumf %in, %acc : f32\n    linalg.yield %a : f32"))
    assert (result.depth, result.linear_ops, result.approximated) == (0, 0, ("arith.maximumf",))


def _bound(text: str) -> FunctionDepth:
    (func,) = [op for op in parse(text).walk() if isinstance(op, FuncOp)]
    return depth_bound(func)


def test_depth_bound_is_one_level_per_linear_chain_and_per_square() -> None:
    """conv+pool, x², conv+pool, x², fc, x², fc: chains conv-pool(-/4), conv-pool, fc, fc
    and three squares: 7, the depth conv+pool fusion reaches; the bound counts nothing
    else (linear ops and weights are the unfused model's)."""
    bound = _bound(alexnet_tiny_style())
    assert (bound.depth, bound.linear_ops) == (7, 6)
    chain = _conv_pool("b1", "x", 2, 1, 2, 14, avg=False) + _conv_pool("b2", "b1", 2, 2, 3, 6, avg=False)
    text = f"func.func @main(%x: {_t(2, 1, 14, 14)}) -> {_t(2, 3, 2, 2)} {{\n{chain}func.return %b2 : {_t(2, 3, 2, 2)}\n}}\n"
    assert (_one(text).depth, _bound(text).depth) == (4, 1)  # four linear ops, one chain


def test_depth_bound_chain_ends_at_a_nonlinearity() -> None:
    """A relu between two linear ops is no chain: 2+, not 1+ (the guard: a bound that
    fused across relu would be a level the net can never reach)."""
    relu = (
        f"%z = arith.constant 0.0 : f32\n"
        f"%r_e = tensor.empty() : {_t(1, 16)}\n"
        f"%r = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = [\"parallel\", \"parallel\"]}} "
        f"ins(%fc1 : {_t(1, 16)}) outs(%r_e : {_t(1, 16)}) {{\n"
        f"^bb0(%i: f32, %o: f32):\n  %m = arith.maximumf %i, %z : f32\n  linalg.yield %m : f32\n}} -> {_t(1, 16)}\n"
    )
    body = _fc("fc1", "x", 8, 16) + relu + _fc("fc2", "r", 16, 4)
    text = f"func.func @main(%x: {_t(1, 8)}) -> {_t(1, 4)} {{\n{body}func.return %fc2 : {_t(1, 4)}\n}}\n"
    assert _bound(text).depth_text() == "2+"
    direct = _fc("fc1", "x", 8, 16) + _fc("fc2", "fc1", 16, 4)
    text = f"func.func @main(%x: {_t(1, 8)}) -> {_t(1, 4)} {{\n{direct}func.return %fc2 : {_t(1, 4)}\n}}\n"
    assert (_one(text).depth, _bound(text).depth) == (2, 1)


_REDUCE = """
func.func @rows(%x: tensor<2xNxf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<2xNxf32>) outs(%z : tensor<2xf32>) dimensions = [1]
  return %s : tensor<2xf32>
}
"""


def test_a_linalg_reduce_sum_is_a_linear_op_unless_its_dims_are_unit() -> None:
    assert (_one(_REDUCE.replace("N", "3")).depth, _one(_REDUCE.replace("N", "3")).linear_ops) == (1, 1)
    assert (_one(_REDUCE.replace("N", "1")).depth, _one(_REDUCE.replace("N", "1")).linear_ops) == (0, 0)


_NAMED = """
func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<2x3xf32>
  %a = linalg.add ins(%x, %y : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = linalg.copy ins(%a : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e3 = tensor.empty() : tensor<2x3x4xf32>
  %b = linalg.broadcast ins(%c : tensor<2x3xf32>) outs(%e3 : tensor<2x3x4xf32>) dimensions = [2]
  %m = linalg.map { arith.negf } ins(%t : tensor<3x2xf32>) outs(%e : tensor<3x2xf32>)
  return %m : tensor<3x2xf32>
}
"""


def test_named_ops_without_iterators_sum_nothing() -> None:
    """transpose, add, copy, broadcast and map carry no iterator_types: none of them
    reduces, so none is a linear op (only a reduction over a loop > 1 sums ciphertext)."""
    result = _one(_NAMED)
    assert (result.depth, result.linear_ops, result.ct_ct_muls) == (0, 0, 0)


_SCALE = """
func.func @scale(%x: tensor<1xCx2x2xf32>) -> tensor<1xCx2x2xf32> {
  %c = arith.constant dense<1.5> : tensor<Cxf32>
  %e1 = tensor.empty() : tensor<Cxf32>
  %k = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<Cxf32>) outs(%e1 : tensor<Cxf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.sqrt %in : f32
    linalg.yield %r : f32
  } -> tensor<Cxf32>
  %e = tensor.empty() : tensor<1xCx2x2xf32>
  %kb = linalg.broadcast ins(%KSRC : tensor<Cxf32>) outs(%e : tensor<1xCx2x2xf32>) dimensions = [0, 2, 3]
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %kb : tensor<1xCx2x2xf32>, tensor<1xCx2x2xf32>) outs(%e : tensor<1xCx2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1xCx2x2xf32>
  return %y : tensor<1xCx2x2xf32>
}
"""


@pytest.mark.parametrize(("channels", "source", "depth"), [
    (1, "k", 0),  # one number computed at run time (a one-channel batch-norm's scale)
    (4, "c", 0),  # a splat broadcast: one number (canonicalization folds it to a splat)
    (4, "k", 1),  # four numbers, computed: a per-channel scale, a level
])
def test_a_scale_by_one_number_costs_no_level(channels: int, source: str, depth: int) -> None:
    text = _SCALE.replace("xCx", f"x{channels}x").replace("<Cx", f"<{channels}x").replace("KSRC", source)
    assert _one(text).depth == depth


_DEPTHWISE = """
func.func @main(%x: tensor<1xCx7x7xf32>) -> tensor<1xCxOHxOWxf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<WEIGHTS> : tensor<Cx3x3xf32>
  %e = tensor.empty() : tensor<1xCxOHxOWxf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1xCxOHxOWxf32>) -> tensor<1xCxOHxOWxf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<[SH, SW]> : vector<2xi64>} ins(%x, %w : tensor<1xCx7x7xf32>, tensor<Cx3x3xf32>) outs(%f : tensor<1xCxOHxOWxf32>) -> tensor<1xCxOHxOWxf32>
  return %d : tensor<1xCxOHxOWxf32>
}
"""


def _depthwise(channels: int, strides: tuple[int, int]) -> str:
    weights = [[[0.5 * c + 0.25 * i - 0.125 * j for j in range(3)] for i in range(3)] for c in range(channels)]
    out_h, out_w = ((7 - 3) // s + 1 for s in strides)
    return (
        _DEPTHWISE.replace("WEIGHTS", str(weights)).replace("xCx", f"x{channels}x").replace("<Cx", f"<{channels}x")
        .replace("OHxOW", f"{out_h}x{out_w}").replace("SH", str(strides[0])).replace("SW", str(strides[1]))
    )


@pytest.mark.parametrize("strides", [(1, 1), (2, 1), (1, 2), (2, 3)])
@pytest.mark.parametrize(("channels", "bound"), [(1, 0), (2, 1)])
def test_the_bound_prices_a_one_channel_depthwise_conv_as_uniform_scales(
    channels: int, bound: int, strides: tuple[int, int]
) -> None:
    """One channel: each tap's weight is one number, so the conv is a sum of shifted slices
    each scaled uniformly, no level (what `unroll-depthwise-conv` writes for a unit stride);
    two channels: a per-channel weight per tap, a level. The depth keeps the named op's
    level (HEIR packs it as a plaintext matrix product), whatever the strides."""
    text = _depthwise(channels, strides)
    assert (_one(text).depth, _bound(text).depth) == (1, bound)
    assert _bound(text).linear_ops == 1  # still counted as the unfused model's linear op
    if strides == (1, 1):  # the pass reaches the bound
        module = parse(text)
        run_pipeline(module, "unroll-depthwise-conv")
        assert "depthwise_conv" not in str(module)
        (after,) = analyze_module(module)
        assert after.depth == bound


def test_a_one_channel_depthwise_conv_continues_a_chain_under_the_bound() -> None:
    """conv, one-channel depthwise conv, matmul: one chain (the scales fold into the
    neighbouring weights); a two-channel depthwise conv in the middle is a linear op of the
    same chain too, so both bounds are 1, and the ciphertext filter (a ct x ct product) is
    no uniform scale: it ends the chain."""
    def net(channels: int, filter_arg: bool) -> str:
        conv = (
            f"%cw = arith.constant dense<0.5> : {_t(channels, 1, 1, 1)}\n"
            f"%ce = tensor.empty() : {_t(1, channels, 7, 7)}\n"
            f"%c = linalg.conv_2d_nchw_fchw ins(%x, %cw : {_t(1, 1, 7, 7)}, {_t(channels, 1, 1, 1)}) "
            f"outs(%ce : {_t(1, channels, 7, 7)}) -> {_t(1, channels, 7, 7)}\n"
        )
        filt = "%arg" if filter_arg else "%w"
        weights = "" if filter_arg else f"%w = arith.constant dense<0.25> : {_t(channels, 3, 3)}\n"
        depthwise = (
            weights + f"%de = tensor.empty() : {_t(1, channels, 5, 5)}\n"
            f"%d = linalg.depthwise_conv_2d_nchw_chw ins(%c, {filt} : {_t(1, channels, 7, 7)}, {_t(channels, 3, 3)}) "
            f"outs(%de : {_t(1, channels, 5, 5)}) -> {_t(1, channels, 5, 5)}\n"
            f"%flat = tensor.collapse_shape %d [[0], [1, 2, 3]] : {_t(1, channels, 5, 5)} into {_t(1, channels * 25)}\n"
        )
        args = f"%x: {_t(1, 1, 7, 7)}" + (f", %arg: {_t(channels, 3, 3)}" if filter_arg else "")
        body = conv + depthwise + _fc("fc", "flat", channels * 25, 4)
        return f"func.func @main({args}) -> {_t(1, 4)} {{\n{body}func.return %fc : {_t(1, 4)}\n}}\n"

    assert (_one(net(1, False)).depth, _bound(net(1, False)).depth) == (3, 1)
    assert (_one(net(2, False)).depth, _bound(net(2, False)).depth) == (3, 1)
    # conv (1), ct x ct depthwise (2), a new chain: the matmul (3); under the bound the
    # conv's filter is one number (a uniform scale, free): depthwise 1, matmul 2
    assert (_one(net(1, True)).depth, _bound(net(1, True)).depth) == (3, 2)


_MULTIPLIER = """
func.func @main(%x: tensor<1x6x6x1xf32>) -> tensor<1x4x4x1xMxf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<3x3x1xMxf32>
  %e = tensor.empty() : tensor<1x4x4x1xMxf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x1xMxf32>) -> tensor<1x4x4x1xMxf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwcm ins(%x, %w : tensor<1x6x6x1xf32>, tensor<3x3x1xMxf32>) outs(%f : tensor<1x4x4x1xMxf32>) -> tensor<1x4x4x1xMxf32>
  return %d : tensor<1x4x4x1xMxf32>
}
"""


@pytest.mark.parametrize(("multiplier", "bound"), [(1, 0), (2, 1)])
def test_a_channel_multiplier_gives_each_tap_several_weights(multiplier: int, bound: int) -> None:
    """One channel with a multiplier of 2 writes two outputs per tap, each its own weight:
    not one number, a level; a multiplier of 1 is the one-channel case."""
    text = _MULTIPLIER.replace("xMx", f"x{multiplier}x")
    assert (_one(text).depth, _bound(text).depth) == (1, bound)


_SUM_POOL = """
func.func @main(%x: tensor<1x2x8x8xf32>) -> tensor<1x2xOHxOWxf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2xOHxOWxf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2xOHxOWxf32>) -> tensor<1x2xOHxOWxf32>
  %win = tensor.empty() : tensor<KHxKWxf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<[SH, SW]> : vector<2xi64>} ins(%x, %win : tensor<1x2x8x8xf32>, tensor<KHxKWxf32>) outs(%f : tensor<1x2xOHxOWxf32>) -> tensor<1x2xOHxOWxf32>
  return %p : tensor<1x2xOHxOWxf32>
}
"""


def _sum_pool(window: tuple[int, int], strides: tuple[int, int]) -> str:
    out = [(8 - k) // s + 1 for k, s in zip(window, strides)]
    return (
        _SUM_POOL.replace("OHxOW", f"{out[0]}x{out[1]}").replace("KHxKW", f"{window[0]}x{window[1]}")
        .replace("SH", str(strides[0])).replace("SW", str(strides[1]))
    )


@pytest.mark.parametrize("strides", [(1, 1), (2, 2), (1, 2), (3, 1)])
@pytest.mark.parametrize(("window", "bound"), [((1, 1), 0), ((1, 2), 1), ((2, 1), 1), ((2, 2), 1)])
def test_the_bound_prices_a_one_element_sum_pool_as_a_copy(
    window: tuple[int, int], bound: int, strides: tuple[int, int]
) -> None:
    """A 1x1 sum pool, whatever its strides, is a strided copy: no level under the bound; a
    window wider on either axis sums, a level. The depth keeps the named op's level."""
    text = _sum_pool(window, strides)
    assert (_one(text).depth, _bound(text).depth) == (1, bound)


_CONV_THEN_POOL = """
func.func @main(%x: tensor<1x1x8x8xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x8x8xf32>, tensor<2x1x3x3xf32>) outs(%f : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pe = tensor.empty() : tensor<1x2x3x3xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %win = tensor.empty() : tensor<KxKxf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x6x6xf32>, tensor<KxKxf32>) outs(%pf : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %p : tensor<1x2x3x3xf32>
}
"""


@pytest.mark.parametrize(("window", "bound"), [(1, 1), (2, 2)])
def test_a_one_element_pool_after_a_ct_ct_product_is_a_copy_under_the_bound(window: int, bound: int) -> None:
    """A conv with a ciphertext filter (ct x ct: no chain for the pool to join), then a
    stride-2 sum pool: a 1x1 window is a copy, no level under the bound; 2x2 sums, a level."""
    text = _CONV_THEN_POOL.replace("KxK", f"{window}x{window}")
    assert (_one(text).depth, _bound(text).depth) == (2, bound)


# benchmarks/fuzz_generated.py --edges --seed 205, program 7 (docs/testing.md): a ct x ct depthwise conv, a ct x ct conv, a 1x1 sum pool of stride 2. heir-prepare
# and the default pipeline fold the pool into the conv as a strided conv: depth 3 -> 2, under
# the bound that priced the 1x1 pool as a level (3).
_FUZZ_205_7 = """
func.func @main(%arg0: tensor<2x1x5x8xf32>, %arg1: tensor<1x2x2xf32>, %arg2: tensor<2x1x1x4xf32>) -> tensor<2x2x2x1xf32> {
  %cst1 = arith.constant 0.000000e+00 : f32
  %padded2 = tensor.pad %arg0 low[0, 0, 1, 3] high[0, 0, 2, 1] {
  ^bb0(%i3: index, %i4: index, %i5: index, %i6: index):
    tensor.yield %cst1 : f32
  } : tensor<2x1x5x8xf32> to tensor<2x1x8x12xf32>
  %v7 = tensor.empty() : tensor<2x1x3x5xf32>
  %v8 = linalg.fill ins(%cst1 : f32) outs(%v7 : tensor<2x1x3x5xf32>) -> tensor<2x1x3x5xf32>
  %v9 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[2, 3]> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded2, %arg1 : tensor<2x1x8x12xf32>, tensor<1x2x2xf32>) outs(%v8 : tensor<2x1x3x5xf32>) -> tensor<2x1x3x5xf32>
  %padded10 = tensor.pad %v9 low[0, 0, 0, 0] high[0, 0, 1, 0] {
  ^bb0(%i11: index, %i12: index, %i13: index, %i14: index):
    tensor.yield %cst1 : f32
  } : tensor<2x1x3x5xf32> to tensor<2x1x4x5xf32>
  %v15 = tensor.empty() : tensor<2x2x4x2xf32>
  %v16 = linalg.fill ins(%cst1 : f32) outs(%v15 : tensor<2x2x4x2xf32>) -> tensor<2x2x4x2xf32>
  %v17 = linalg.conv_2d_nchw_fchw {dilations = dense<[3, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded10, %arg2 : tensor<2x1x4x5xf32>, tensor<2x1x1x4xf32>) outs(%v16 : tensor<2x2x4x2xf32>) -> tensor<2x2x4x2xf32>
  %v18 = tensor.empty() : tensor<2x2x2x1xf32>
  %v19 = linalg.fill ins(%cst1 : f32) outs(%v18 : tensor<2x2x2x1xf32>) -> tensor<2x2x2x1xf32>
  %v20 = tensor.empty() : tensor<1x1xf32>
  %v21 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%v17, %v20 : tensor<2x2x4x2xf32>, tensor<1x1xf32>) outs(%v19 : tensor<2x2x2x1xf32>) -> tensor<2x2x2x1xf32>
  return %v21 : tensor<2x2x2x1xf32>
}
"""


@pytest.mark.parametrize("spec", ["heir-prepare", "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext"])
def test_a_folded_one_element_pool_reaches_the_bound(spec: str) -> None:
    assert (_one(_FUZZ_205_7).depth, _bound(_FUZZ_205_7).depth) == (3, 2)
    module = parse(_FUZZ_205_7)
    run_pipeline(module, spec)
    assert "pooling" not in str(module)
    (after,) = analyze_module(module)
    assert after.depth == 2
