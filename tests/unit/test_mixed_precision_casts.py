"""mixed_precision's cast readers on each side (tests only: the module is being changed
beside this): `truncf_source` / `extf_source` read an arith cast on tensors and torch-mlir's
one-op cast generic, and refuse a scalar cast, a generic doing more than the cast, a
transposing generic, a cast of the wrong direction and an integer cast; `cast_generic`
builds the generic they read back, whose values are the cast's. Found by issue 35's
mutation habit."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import Float16Type, Float32Type
from xdsl.dialects.func import FuncOp, ReturnOp

from heirpy.api import parse
from heirpy.interp.evaluator import run_function
from heirpy.transforms.linear.mixed_precision import cast_generic, extf_source, truncf_source

ID = "affine_map<(d0, d1) -> (d0, d1)>"
TR = "affine_map<(d0, d1) -> (d1, d0)>"
PAR = '["parallel", "parallel"]'


def _cast_generic(name: str, src: str, dst: str, body: str, maps: tuple[str, str] = (ID, ID)) -> str:
    return (f"  %{name}_e = tensor.empty() : tensor<2x2x{dst}>\n"
            f"  %{name} = linalg.generic {{indexing_maps = [{maps[0]}, {maps[1]}], iterator_types = {PAR}}} "
            f"ins(%{src} : tensor<2x2x{'f16' if src == 'h' else 'f32'}>) outs(%{name}_e : tensor<2x2x{dst}>) {{\n"
            f"  ^bb0(%a: {'f16' if src == 'h' else 'f32'}, %o: {dst}):\n{body}\n  }} -> tensor<2x2x{dst}>\n")


BODIES = "".join([
    _cast_generic("g_ext", "h", "f32", "    %c = arith.extf %a : f16 to f32\n    linalg.yield %c : f32"),
    _cast_generic("g_trunc", "x", "f16", "    %c = arith.truncf %a : f32 to f16\n    linalg.yield %c : f16"),
    _cast_generic("g_more", "h", "f32", "    %c = arith.extf %a : f16 to f32\n    %m = arith.mulf %c, %c : f32\n"
                                        "    linalg.yield %m : f32"),
    _cast_generic("g_tr", "h", "f32", "    %c = arith.extf %a : f16 to f32\n    linalg.yield %c : f32", (TR, ID)),
])
TEXT = f"""
func.func @f(%x: tensor<2x2xf32>, %h: tensor<2x2xf16>, %s: f16, %i: tensor<2x2xi8>) -> tensor<2x2xf32> {{
  %ext = arith.extf %h : tensor<2x2xf16> to tensor<2x2xf32>
  %trunc = arith.truncf %x : tensor<2x2xf32> to tensor<2x2xf16>
  %scalar = arith.extf %s : f16 to f32
  %iext = arith.extsi %i : tensor<2x2xi8> to tensor<2x2xi32>
{BODIES}  return %x : tensor<2x2xf32>
}}"""


def test_cast_sources() -> None:
    module = parse(TEXT)
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    x, h = func.body.block.args[:2]
    values = {op.results[0].name_hint: op.results[0] for op in module.walk() if op.results and op.results[0].name_hint}
    assert extf_source(values["ext"]) is h and extf_source(values["g_ext"]) is h
    assert truncf_source(values["trunc"]) is x and truncf_source(values["g_trunc"]) is x
    assert truncf_source(values["ext"]) is None and extf_source(values["trunc"]) is None  # the other direction
    assert truncf_source(values["g_ext"]) is None and extf_source(values["g_trunc"]) is None
    for name in ("scalar", "iext", "g_more", "g_tr"):
        assert extf_source(values[name]) is None, name
    assert extf_source(x) is None


@pytest.mark.parametrize(("cast", "src", "dst"), [(arith.ExtFOp, Float16Type(), Float32Type()),
                                                  (arith.TruncFOp, Float32Type(), Float16Type())])
def test_cast_generic_is_read_back_and_casts(cast: type, src: object, dst: object) -> None:
    s, d = ("f16", "f32") if cast is arith.ExtFOp else ("f32", "f16")
    module = parse(f"func.func @f(%x: tensor<2x3x{s}>) -> tensor<2x3x{s}> {{\n  return %x : tensor<2x3x{s}>\n}}")
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    block = func.body.block
    ops = cast_generic(block.args[0], dst, cast)  # type: ignore[arg-type]
    ret = block.last_op
    assert isinstance(ret, ReturnOp)
    block.insert_ops_before(ops, ret)
    ret.operands = [ops[-1].results[0]]
    func.update_function_type()
    reader = extf_source if cast is arith.ExtFOp else truncf_source
    assert reader(ops[-1].results[0]) is block.args[0]
    x = np.array([[0.1, -2.5, 3.0], [65504.0, 1e-3, -0.0]], dtype=np.float16 if s == "f16" else np.float32)
    got = run_function(module, "f", [x])[0]
    assert got.dtype == (np.float32 if d == "f32" else np.float16)
    np.testing.assert_array_equal(got, x.astype(got.dtype))
