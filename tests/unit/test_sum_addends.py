"""`sum_operands.sum_addends` on each side: a tensor add, the pointwise fusion's n-ary
sum (YOLO11's C2PSA `b + proj(u) + ffn2(g)`), its f16 form rounding f32 addends in the
body; and the bodies that are no sum of all inputs once each (an input twice, one left
out, a product, a scaled addend, an output read)."""

from __future__ import annotations

from heirpy.api import parse
from heirpy.transforms.linear.sum_operands import sum_addends

ID = "affine_map<(d0) -> (d0)>"


def _generic(name: str, inputs: list[tuple[str, str]], out: str, body: list[str], result: str) -> str:
    maps = ", ".join([ID] * (len(inputs) + 1))
    types = ", ".join(f"tensor<4x{t}>" for _, t in inputs)
    args = ", ".join(f"%a{i}: {t}" for i, (_, t) in enumerate(inputs))
    lines = "".join(f"    {line}\n" for line in body)
    return (f"  %{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [\"parallel\"]}} "
            f"ins({', '.join(v for v, _ in inputs)} : {types}) outs(%e_{out} : tensor<4x{out}>) {{\n"
            f"  ^bb0({args}, %o: {out}):\n{lines}    linalg.yield {result} : {out}\n  }} -> tensor<4x{out}>\n")


F32 = [("%x", "f32"), ("%y", "f32"), ("%z", "f32")]
MIXED = [("%h", "f16"), ("%y", "f32"), ("%z", "f32")]
TEXT = f"""
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>, %h: tensor<4xf16>, %c: f32) -> tensor<4xf32> {{
  %e_f32 = tensor.empty() : tensor<4xf32>
  %e_f16 = tensor.empty() : tensor<4xf16>
  %add = arith.addf %x, %y : tensor<4xf32>
{_generic("three", F32, "f32", ["%s = arith.addf %a0, %a1 : f32", "%t = arith.addf %a2, %s : f32"], "%t")}
{_generic("half", MIXED, "f16", ["%r1 = arith.truncf %a1 : f32 to f16", "%s = arith.addf %a0, %r1 : f16",
                                  "%r2 = arith.truncf %a2 : f32 to f16", "%t = arith.addf %s, %r2 : f16"], "%t")}
{_generic("twice", F32, "f32", ["%s = arith.addf %a0, %a1 : f32", "%t = arith.addf %a0, %s : f32"], "%t")}
{_generic("left", F32, "f32", ["%s = arith.addf %a0, %a1 : f32"], "%s")}
{_generic("prod", F32, "f32", ["%s = arith.mulf %a0, %a1 : f32", "%t = arith.addf %a2, %s : f32"], "%t")}
{_generic("scaled", F32, "f32", ["%m = arith.mulf %a2, %c : f32", "%s = arith.addf %a0, %a1 : f32",
                                  "%t = arith.addf %m, %s : f32"], "%t")}
{_generic("acc", F32, "f32", ["%s = arith.addf %a0, %a1 : f32", "%t = arith.addf %s, %o : f32",
                               "%u = arith.addf %t, %a2 : f32"], "%u")}
  return %add : tensor<4xf32>
}}"""


def test_sum_addends() -> None:
    module = parse(TEXT)
    ops = {op.results[0].name_hint: op for op in module.walk() if op.results and op.results[0].name_hint}
    func = next(op for op in module.walk() if op.name == "func.func")
    x, y, z, h = func.body.block.args[:4]  # type: ignore[attr-defined]
    assert sum_addends(ops["add"]) == [(x, False), (y, False)]
    assert sum_addends(ops["three"]) == [(x, False), (y, False), (z, False)]
    assert sum_addends(ops["half"]) == [(h, False), (y, True), (z, True)]
    for name in ("twice", "left", "prod", "scaled", "acc", "e_f32"):
        assert sum_addends(ops[name]) is None, name
