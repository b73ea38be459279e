"""The half-precision global average pool before a Linear (issue 34, `WidenRunBeforeExtf`).

torch-mlir writes an f16 (or bf16) global average pool as a narrow sum into a narrow
init and a narrow divide, and the Linear after it as `extf` of its input and weights
with an f32 matmul. The cast broke the linear chain pool -> Linear, so f16 ResNets,
ShuffleNet and MobileNetV3 kept one linear op more than their f32 twins. These tests pin:
the f16/bf16 head fuses to the f32 twin's linear-op count and depth for several grids and
both of torch's spellings (`AdaptiveAvgPool2d(1)` + flatten, `x.mean([2, 3])`); the
rewritten head is closer to the exact result than the input (only roundings go); the
rule leaves f32 IR alone and does not widen past a nonlinear step, a shared value or a
runtime init.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, f32
from xdsl.dialects.func import FuncOp

from heirpy.analysis.depth import analyze_function
from heirpy.api import clone_module, parse, print_module, run_pipeline
from heirpy.interp import load_module, run_function
from heirpy.ir.constants import bfloat16_dtype
from heirpy.transforms.linear.mixed_precision import _affine_in, populate_mixed_precision_patterns
from heirpy.transforms.rewrite import apply_pattern_sets

ID4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
COL = "affine_map<(d0, d1) -> (d1)>"
V1 = "affine_map<(d0) -> (d0)>"
PAR2 = '["parallel", "parallel"]'
PAR4 = '["parallel", "parallel", "parallel", "parallel"]'
RED = '["parallel", "parallel", "reduction", "reduction"]'
PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"


def _dense(values: np.ndarray) -> str:
    return np.array2string(values.astype(np.float64), separator=", ", threshold=10**6).replace("\n", "")


def _cast(value: str, src: str, dst: str, shape: str, rank: int, op: str) -> tuple[str, str]:
    """An identity generic casting `value` (torch-mlir's form of extf/truncf)."""
    ident = ID4 if rank == 4 else ID2 if rank == 2 else V1
    iters = PAR4 if rank == 4 else PAR2 if rank == 2 else '["parallel"]'
    name = f"%{op}_{value[1:]}"
    text = f"""
  %e_{name[1:]} = tensor.empty() : tensor<{shape}x{dst}>
  {name} = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = {iters}}} ins({value} : tensor<{shape}x{src}>) outs(%e_{name[1:]} : tensor<{shape}x{dst}>) {{
  ^bb0(%in: {src}, %out: {dst}):
    %c = arith.{op} %in : {src} to {dst}
    linalg.yield %c : {dst}
  }} -> tensor<{shape}x{dst}>"""
    return text, name


def pool_head(
    dtype: str, c: int, h: int, w: int, n_out: int, keepdim: bool, seed: int = 0, reused: bool = False
) -> str:
    """A relu, a global average pool and a Linear as torch-mlir exports them in `dtype`
    (f16/bf16: narrow sum and divide, Linear widened by `extf`, result `truncf`'d;
    f32: the same without casts). `keepdim`: AdaptiveAvgPool2d(1) (a (d0, d1, 0, 0)
    output, then flatten); else `x.mean([2, 3])` (a (d0, d1) output). `reused`: the
    pooled value is returned as well."""
    rng = np.random.default_rng(seed)
    weights = rng.normal(0, 0.5, (c, n_out)).astype(np.float16)
    bias = rng.normal(0, 0.2, (n_out,)).astype(np.float16)
    narrow = dtype != "f32"
    pooled = f"1x{c}x1x1" if keepdim else f"1x{c}"
    out_map = "affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>" if keepdim else "affine_map<(d0, d1, d2, d3) -> (d0, d1)>"
    pool_map = ID4 if keepdim else ID2
    pool_iters = PAR4 if keepdim else PAR2
    results = [f"tensor<1x{n_out}x{dtype}>"] + ([f"tensor<{pooled}x{dtype}>"] if reused else [])
    text = f"""
func.func @main(%x: tensor<1x{c}x{h}x{w}x{dtype}>) -> ({", ".join(results)}) {{
  %zero = arith.constant 0.0 : {dtype}
  %zero32 = arith.constant 0.0 : f32
  %n = arith.constant {float(h * w)} : {dtype}
  %w = arith.constant dense<{_dense(weights)}> : tensor<{c}x{n_out}x{dtype}>
  %b = arith.constant dense<{_dense(bias)}> : tensor<{n_out}x{dtype}>
  %e0 = tensor.empty() : tensor<1x{c}x{h}x{w}x{dtype}>
  %relu = linalg.generic {{indexing_maps = [{ID4}, {ID4}], iterator_types = {PAR4}}} ins(%x : tensor<1x{c}x{h}x{w}x{dtype}>) outs(%e0 : tensor<1x{c}x{h}x{w}x{dtype}>) {{
  ^bb0(%in: {dtype}, %out: {dtype}):
    %p = arith.cmpf ugt, %in, %zero : {dtype}
    %s = arith.select %p, %in, %zero : {dtype}
    linalg.yield %s : {dtype}
  }} -> tensor<1x{c}x{h}x{w}x{dtype}>
  %e1 = tensor.empty() : tensor<{pooled}x{dtype}>
  %z1 = linalg.fill ins(%zero : {dtype}) outs(%e1 : tensor<{pooled}x{dtype}>) -> tensor<{pooled}x{dtype}>
  %sum = linalg.generic {{indexing_maps = [{ID4}, {out_map}], iterator_types = {RED}}} ins(%relu : tensor<1x{c}x{h}x{w}x{dtype}>) outs(%z1 : tensor<{pooled}x{dtype}>) {{
  ^bb0(%in: {dtype}, %acc: {dtype}):
    %a = arith.addf %in, %acc : {dtype}
    linalg.yield %a : {dtype}
  }} -> tensor<{pooled}x{dtype}>
  %mean = linalg.generic {{indexing_maps = [{pool_map}, {pool_map}], iterator_types = {pool_iters}}} ins(%sum : tensor<{pooled}x{dtype}>) outs(%e1 : tensor<{pooled}x{dtype}>) {{
  ^bb0(%in: {dtype}, %out: {dtype}):
    %q = arith.divf %in, %n : {dtype}
    linalg.yield %q : {dtype}
  }} -> tensor<{pooled}x{dtype}>"""
    flat = "%mean"
    if keepdim:
        text += f"\n  %flat = tensor.collapse_shape %mean [[0], [1, 2, 3]] : tensor<{pooled}x{dtype}> into tensor<1x{c}x{dtype}>"
        flat = "%flat"
    wt, bt = "%w", "%b"
    if narrow:
        more, flat = _cast(flat, dtype, "f32", f"1x{c}", 2, "extf")
        text += more
        more, wt = _cast("%w", dtype, "f32", f"{c}x{n_out}", 2, "extf")
        text += more
        more, bt = _cast("%b", dtype, "f32", f"{n_out}", 1, "extf")
        text += more
    text += f"""
  %e3 = tensor.empty() : tensor<1x{n_out}xf32>
  %z3 = linalg.fill ins(%zero32 : f32) outs(%e3 : tensor<1x{n_out}xf32>) -> tensor<1x{n_out}xf32>
  %mm = linalg.matmul ins({flat}, {wt} : tensor<1x{c}xf32>, tensor<{c}x{n_out}xf32>) outs(%z3 : tensor<1x{n_out}xf32>) -> tensor<1x{n_out}xf32>
  %r = linalg.generic {{indexing_maps = [{ID2}, {COL}, {ID2}], iterator_types = {PAR2}}} ins(%mm, {bt} : tensor<1x{n_out}xf32>, tensor<{n_out}xf32>) outs(%e3 : tensor<1x{n_out}xf32>) {{
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  }} -> tensor<1x{n_out}xf32>"""
    result = "%r"
    if narrow:
        more, result = _cast("%r", "f32", dtype, f"1x{n_out}", 2, "truncf")
        text += more
    returned = [result] + (["%mean"] if reused else [])
    text += f"\n  return {', '.join(returned)} : {', '.join(results)}\n}}\n"
    return text


def _main(ir: str) -> FuncOp:
    module = parse(ir)
    (func,) = [op for op in module.ops if isinstance(op, FuncOp)]
    return func


def _figures(ir: str) -> tuple[int, int, int, int]:
    """Linear ops and depth of `ir` before and after the main pipeline."""
    module = parse(ir)
    before = analyze_function(next(op for op in module.ops if isinstance(op, FuncOp)))
    run_pipeline(module, PIPELINE)
    after = analyze_function(next(op for op in module.ops if isinstance(op, FuncOp)))
    return before.linear_ops, before.depth, after.linear_ops, after.depth


# ------------------------------------------------------------------ the legality helper
@pytest.mark.parametrize(
    ("op", "reads", "expected"),
    [
        (arith.MulfOp, [True, False], True),  # x * K
        (arith.MulfOp, [True, True], None),  # x * x: not affine
        (arith.DivfOp, [True, False], True),  # x / K
        (arith.DivfOp, [False, True], None),  # K / x: not affine
        (arith.AddfOp, [True, True], True),  # x + x (= 2x)
        (arith.SubfOp, [False, False], False),  # constants only
        (arith.NegfOp, [True], True),
    ],
)
def test_affine_in_at_each_limit(op: type, reads: list[bool], expected: bool | None) -> None:
    """`_affine_in`: is the op affine in x, given which of its operands depend on x?"""
    operands = [arith.ConstantOp(FloatAttr(1.0, f32)).result for _ in reads]
    assert _affine_in(reads, op(*operands)) is expected


# ------------------------------------------------------------------ the f32 twin's figures
@pytest.mark.parametrize(
    ("dtype", "c", "h", "w", "keepdim"),
    [("f16", 3, 2, 2, True), ("f16", 4, 3, 5, False), ("bf16", 3, 5, 5, True), ("f16", 2, 1, 1, True)],
)
def test_narrow_pool_head_reaches_its_f32_twin(dtype: str, c: int, h: int, w: int, keepdim: bool) -> None:
    """Before: two linear ops (pool, Linear; a 1x1 pool is none) in both; after the main
    pipeline the f32 head is one matmul, and so is the narrow one (before the fix: still
    two)."""
    narrow = _figures(pool_head(dtype, c, h, w, 3, keepdim))
    wide = _figures(pool_head("f32", c, h, w, 3, keepdim))
    assert wide[0] == (2 if h * w > 1 else 1) and wide[2] == 1  # the f32 reference
    assert narrow == wide


def test_shared_pooled_value_is_left_as_in_f32() -> None:
    """The pooled value also returned: f32 keeps the pool apart (its result has two
    users), and so does f16, with the pool still summed in f16."""
    narrow = pool_head("f16", 3, 2, 2, 3, True, reused=True)
    wide = pool_head("f32", 3, 2, 2, 3, True, reused=True)
    assert _figures(narrow) == _figures(wide)
    assert _figures(wide)[2] == 2
    module = parse(narrow)
    apply_pattern_sets(module, populate_mixed_precision_patterns())
    text = print_module(module)
    assert re.search(r"arith\.addf %\w+, %acc : f16", text)  # the pool sums in f16
    assert re.search(r"arith\.divf %\w+, %n : f16", text)  # and divides in f16


# ------------------------------------------------------------------ numerics
def _run(ir: str, x: np.ndarray) -> np.ndarray:
    loaded = load_module(ir)
    (out,) = run_function(loaded.module, "main", [x], resources=loaded.resources)
    return out


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_rewritten_head_is_closer_to_the_exact_result(dtype: str) -> None:
    """Evaluated by heirpy's evaluator on the same input: the input IR sums 49 values and
    divides in the narrow type (each step rounds); the rewritten one computes the whole
    head in f32 and rounds once. Its error against the float64 result is at most half a
    narrow ulp of each output plus f32 noise, and strictly below the input's."""
    storage = np.float16 if dtype == "f16" else bfloat16_dtype()
    c, h, w, n_out = 8, 7, 7, 5
    ir = pool_head(dtype, c, h, w, n_out, True, seed=3)
    module = parse(ir)
    run_pipeline(module, PIPELINE)
    after_ir = print_module(module)
    assert "reduction" not in after_ir
    x = np.random.default_rng(11).normal(0.5, 1.0, (1, c, h, w)).astype(storage)
    before, after = _run(ir, x), _run(after_ir, x)
    assert before.dtype == after.dtype == storage
    rng = np.random.default_rng(3)  # the weights pool_head drew
    weights = rng.normal(0, 0.5, (c, n_out)).astype(np.float16).astype(storage).astype(np.float64)
    bias = rng.normal(0, 0.2, (n_out,)).astype(np.float16).astype(storage).astype(np.float64)
    exact = np.maximum(x.astype(np.float64), 0).mean(axis=(2, 3)).reshape(1, c) @ weights + bias
    err_before = np.abs(before.astype(np.float64) - exact)
    err_after = np.abs(after.astype(np.float64) - exact)
    half_ulp = np.spacing(np.abs(exact).astype(storage)).astype(np.float64) / 2
    assert np.all(err_after <= half_ulp + 1e-5 * np.abs(exact))
    assert err_after.max() < err_before.max()


def test_f32_ir_is_left_unchanged() -> None:
    """The mixed-precision normalisation is a no-op on f32 IR (no extf to move)."""
    module = parse(pool_head("f32", 3, 2, 2, 3, True))
    before = print_module(clone_module(module))
    apply_pattern_sets(module, populate_mixed_precision_patterns())
    assert print_module(module) == before


def test_the_cast_stops_at_a_nonlinear_step() -> None:
    """Only the pool, the divide and the flatten are widened: the relu before them stays
    f16 and reads the f16 input (the extf is moved to the relu's result)."""
    module = parse(pool_head("f16", 3, 2, 2, 3, True))
    apply_pattern_sets(module, populate_mixed_precision_patterns())
    text = print_module(module)
    assert "arith.select %p, %in, %zero : f16" in text
    assert not re.search(r"arith\.divf %\w+, %n : f16", text)
    assert "arith.constant 4.000000e+00 : f32" in text  # the divisor, widened
    assert text.count("arith.extf") == 3  # the relu's result, and the Linear's w and b
