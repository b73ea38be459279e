"""linalg_fuse_conv_pool's pure legality on each side: `elementwise_scale` (a divide or
multiply by one constant, written as tensor arith or as a generic with the constant
outside, inside or as a splat input; and the forms that are not one scale: `c / x`,
`x * x`, a non-uniform divisor, a zero, a generic reading its init or computing more)
and `element_types_fusable` (one storage type, one accumulator type, never narrower).
Found by issue 35's mutation habit."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, i32

from heirpy.api import parse
from heirpy.transforms.linear.linalg_fuse_conv_pool import element_types_fusable, elementwise_scale

T = "tensor<1x2x2x2xf32>"
ID = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
PAR = '["parallel", "parallel", "parallel", "parallel"]'


def _generic(name: str, inputs: str, types: str, body: str, nmaps: int = 2) -> str:
    args = ", ".join(f"%a{i}: f32" for i in range(nmaps - 1))
    return (f"  %{name} = linalg.generic {{indexing_maps = [{', '.join([ID] * nmaps)}], iterator_types = {PAR}}} "
            f"ins({inputs} : {types}) outs(%e : {T}) {{\n  ^bb0({args}, %o: f32):\n{body}\n  }} -> {T}\n")


GENERICS = "".join([
    _generic("g_outer", "%x", T, "    %d = arith.divf %a0, %four : f32\n    linalg.yield %d : f32"),
    _generic("g_inner", "%x", T, "    %c = arith.constant 0.5 : f32\n    %d = arith.mulf %a0, %c : f32\n"
                                 "    linalg.yield %d : f32"),
    _generic("g_input", "%x, %k", f"{T}, {T}", "    %d = arith.divf %a0, %a1 : f32\n    linalg.yield %d : f32", 3),
    _generic("g_init", "%x", T, "    %d = arith.divf %o, %four : f32\n    linalg.yield %d : f32"),
    _generic("g_more", "%x", T, "    %d = arith.divf %a0, %four : f32\n    %s = arith.addf %d, %d : f32\n"
                                "    linalg.yield %s : f32"),
    _generic("g_rdiv", "%x", T, "    %d = arith.divf %four, %a0 : f32\n    linalg.yield %d : f32"),
])
TEXT = f"""
func.func @f(%x: {T}) -> {T} {{
  %four = arith.constant 4.0 : f32
  %k = arith.constant dense<4.0> : {T}
  %zero = arith.constant dense<0.0> : {T}
  %counts = arith.constant dense<[[[[4.0, 6.0], [6.0, 9.0]], [[4.0, 6.0], [6.0, 9.0]]]]> : {T}
  %e = tensor.empty() : {T}
  %div = arith.divf %x, %k : {T}
  %mul = arith.mulf %k, %x : {T}
  %rdiv = arith.divf %k, %x : {T}
  %sq = arith.mulf %x, %x : {T}
  %uneven = arith.divf %x, %counts : {T}
  %byzero = arith.mulf %x, %zero : {T}
{GENERICS}  return %x : {T}
}}"""


@pytest.mark.parametrize(("name", "divisor"), [
    ("div", 4.0), ("mul", 0.25), ("g_outer", 4.0), ("g_inner", 2.0), ("g_input", 4.0),
    ("rdiv", None), ("sq", None), ("uneven", None), ("byzero", None), ("g_init", None), ("g_more", None),
    ("g_rdiv", None),
])
def test_elementwise_scale(name: str, divisor: float | None) -> None:
    module = parse(TEXT)
    func = next(op for op in module.walk() if op.name == "func.func")
    x = func.body.block.args[0]  # type: ignore[attr-defined]
    op = next(o for o in module.walk() if o.results and o.results[0].name_hint == name)
    assert elementwise_scale(op, x) == divisor


def test_element_types_fusable() -> None:
    f16, f32, f64 = Float16Type(), Float32Type(), Float64Type()
    assert element_types_fusable(f32, f32, f32, f32)
    assert element_types_fusable(f16, f16, f32, f32)  # torch-mlir's f16 conv
    assert element_types_fusable(f32, f32, f64, f64)
    assert not element_types_fusable(f32, f32, f16, f16)  # a narrower accumulator
    assert not element_types_fusable(f16, f16, BFloat16Type(), BFloat16Type())  # as wide, another type
    assert not element_types_fusable(f16, f32, f32, f32)
    assert not element_types_fusable(f16, f16, f32, f16)
    assert not element_types_fusable(i32, i32, f32, f32)
    assert element_types_fusable(i32, i32, i32, i32)
