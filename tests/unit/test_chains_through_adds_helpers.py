"""chains_through_adds' IR helpers on each side: `tensor_add_operands` (an arith add of
tensors, a generic add, and the generics that are not one: a sub, three inputs, a
broadcast map, an add of an input with itself, a scalar add) and `linear_ops_on_path`
(the most linear ops on any path, -1 when the target is not computed from the source
or the search limit is reached). Found by issue 35's mutation habit."""

from __future__ import annotations

from heirpy.api import parse
from heirpy.transforms.linear.chains_through_adds import linear_ops_on_path
from heirpy.transforms.linear.sum_operands import tensor_add_operands

ID = "affine_map<(d0) -> (d0)>"
T = "tensor<4xf32>"


def _generic(name: str, inputs: list[str], body: str, maps: list[str] | None = None) -> str:
    maps = maps or [ID] * (len(inputs) + 1)
    args = ", ".join(f"%a{i}: f32" for i in range(len(inputs)))
    return (f"  %{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [\"parallel\"]}} "
            f"ins({', '.join(inputs)} : {', '.join([T] * len(inputs))}) outs(%e : {T}) {{\n"
            f"  ^bb0({args}, %o: f32):\n    %v = {body}\n    linalg.yield %v : f32\n  }} -> {T}\n")


TEXT = f"""
func.func @f(%x: {T}, %y: {T}, %z: {T}, %s: f32, %t: f32) -> {T} {{
  %e = tensor.empty() : {T}
  %add = arith.addf %x, %y : {T}
  %scalar = arith.addf %s, %t : f32
{_generic("gadd", ["%x", "%y"], "arith.addf %a1, %a0 : f32")}
{_generic("gsub", ["%x", "%y"], "arith.subf %a0, %a1 : f32")}
{_generic("gself", ["%x", "%y"], "arith.addf %a0, %a0 : f32")}
{_generic("gthree", ["%x", "%y", "%z"], "arith.addf %a0, %a1 : f32")}
{_generic("gbcast", ["%x", "%y"], "arith.addf %a0, %a1 : f32", [ID, "affine_map<(d0) -> (0)>", ID])}
  return %add : {T}
}}"""


def test_tensor_add_operands() -> None:
    module = parse(TEXT)
    ops = {op.results[0].name_hint: op for op in module.walk() if op.results and op.results[0].name_hint}
    x, y = (a for a in next(op for op in module.walk() if op.name == "func.func").body.block.args[:2])  # type: ignore[attr-defined]
    assert tensor_add_operands(ops["add"]) == (x, y)
    assert tensor_add_operands(ops["gadd"]) == (x, y)
    for name in ("scalar", "gsub", "gself", "gthree", "gbcast", "e"):
        assert tensor_add_operands(ops[name]) is None, name


PATH = """
func.func @f(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<2x2x1x1xf32>
  %b = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%b : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c1, %w : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%b : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %sq = arith.mulf %x, %x : tensor<1x2x4x4xf32>
  %sum = arith.addf %c2, %sq : tensor<1x2x4x4xf32>
  return %sum : tensor<1x2x4x4xf32>
}"""


def test_linear_ops_on_path() -> None:
    module = parse(PATH)
    func = next(op for op in module.walk() if op.name == "func.func")
    x, y = func.body.block.args  # type: ignore[attr-defined]
    values = {op.results[0].name_hint: op.results[0] for op in module.walk() if op.results and op.results[0].name_hint}
    assert linear_ops_on_path(x, values["sum"]) == 2  # through both convs, not the square
    assert linear_ops_on_path(x, values["sq"]) == 0
    assert linear_ops_on_path(values["c1"], values["sum"]) == 1
    assert linear_ops_on_path(x, x) == 0
    assert linear_ops_on_path(y, values["sum"]) == -1  # not computed from y
    assert linear_ops_on_path(x, values["sum"], limit=1) == -1  # the search gives up
