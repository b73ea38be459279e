"""The depth analysis counts torch-mlir's half-precision export form as its f32 twin
(issue 34): a batch norm written as `extf` -> f32 arithmetic -> `truncf` generics (its
f16 gamma/beta widened inside the bodies or by an `extf` generic outside them), after a
conv accumulating f16 products in f32 then `truncf`, has the depth, the linear-op count
and the depth bound of the same layers in f32. The casts are value-preserving for depth
purposes: a widened per-channel gamma is a per-channel scale (one level), a widened
splat or one-channel gamma is one number (no level), as in f32.

heirpy once read the `extf` of a gamma inside a body as a scalar, i.e. one number: the
f16 form's "before" depth was a level short of its f32 twin's per batch norm.
"""

from __future__ import annotations

import itertools

import pytest
from xdsl.dialects.func import FuncOp

from heirpy.analysis.depth import FunctionDepth, analyze_function, depth_bound
from heirpy.api import parse

ID = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
CH = "affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>"
V1 = "affine_map<(d0) -> (d0)>"
V3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
PAR4 = '["parallel", "parallel", "parallel", "parallel"]'


def _values(channels: int, start: float, splat: bool) -> str:
    if splat:
        return f"{start}"
    inner = ", ".join(f"[[{start + 0.25 * i}]]" for i in range(channels))
    return f"[{inner}]"


class _Program:
    """A conv (optional) and a batch norm in f32, or in the f16 export form."""

    def __init__(self, channels: int, export: bool, conv: bool, gamma_outside: bool, splat: bool):
        self.c = channels
        self.export = export
        self.gamma_outside = gamma_outside
        self.lines: list[str] = []
        self.n = 0
        self.store = "f16" if export else "f32"
        self.conv = conv
        self.splat = splat

    def t(self, element: str, shape: str = "") -> str:
        return f"tensor<{shape or f'1x{self.c}x4x4'}x{element}>"

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def generic(self, ins: list[tuple[str, str, str]], out: str, body: list[str], maps: list[str],
                iterators: str = PAR4, shape: str = "") -> str:
        """`ins`: (value, type, block arg element); body lines use %a0.. and yield the last."""
        e, r = self.fresh(), self.fresh()
        self.lines.append(f"{e} = tensor.empty() : {self.t(out, shape)}")
        args = ", ".join(f"%a{i}: {el}" for i, (_, _, el) in enumerate(ins)) + f", %o: {out}"
        self.lines.append(
            f"{r} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = {iterators}}} "
            f"ins({', '.join(v for v, _, _ in ins)} : {', '.join(ty for _, ty, _ in ins)}) "
            f"outs({e} : {self.t(out, shape)}) {{\n^bb0({args}):\n"
            + "\n".join(f"  {line}" for line in body)
            + f"\n  linalg.yield %b{len(body) - 1} : {out}\n}} -> {self.t(out, shape)}"
        )
        return r

    def cast(self, x: str, source: str, target: str, shape: str = "", maps: str = ID, iterators: str = PAR4) -> str:
        op = "arith.extf" if source == "f16" else "arith.truncf"
        return self.generic([(x, self.t(source, shape), source)], target, [f"%b0 = {op} %a0 : {source} to {target}"],
                            [maps, maps], iterators, shape)

    def const(self, values: str, element: str, shape: str) -> str:
        name = self.fresh()
        self.lines.append(f"{name} = arith.constant dense<{values}> : {self.t(element, shape)}")
        return name

    def text(self) -> str:
        x = "%x"
        c, store = self.c, self.store
        if self.conv:
            w = self.const("0.5", store, f"{c}x{c}x1x1")
            bias = self.const("[" + ", ".join(str(0.125 * (i + 1)) for i in range(c)) + "]", store, f"{c}")
            acc = "f32"
            if self.export:
                bias = self.cast(bias, "f16", "f32", f"{c}", V1, '["parallel"]')
            e, init, y = self.fresh(), self.fresh(), self.fresh()
            self.lines.append(f"{e} = tensor.empty() : {self.t(acc)}")
            self.lines.append(f"{init} = linalg.broadcast ins({bias} : {self.t(acc, str(c))}) outs({e} : {self.t(acc)}) "
                              "dimensions = [0, 2, 3]")
            self.lines.append(
                f"{y} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : "
                f"vector<2xi64>}} ins({x}, {w} : {self.t(store)}, {self.t(store, f'{c}x{c}x1x1')}) "
                f"outs({init} : {self.t(acc)}) -> {self.t(acc)}"
            )
            x = self.cast(y, "f32", "f16") if self.export else y
        mean = self.const(_values(c, 0.25, False), "f32", f"{c}x1x1")
        inv = self.const(_values(c, 2.0, False), "f32", f"{c}x1x1")
        gamma = self.const(_values(c, 1.5, self.splat), store, f"{c}x1x1")
        beta = self.const(_values(c, -0.5, False), store, f"{c}x1x1")
        widen = ["%b0 = arith.extf %a0 : f16 to f32", "%b1 = arith.subf %b0, %a1 : f32"]
        s = self.generic([(x, self.t(store), store), (mean, self.t("f32", f"{c}x1x1"), "f32")], "f32",
                         widen if self.export else ["%b0 = arith.subf %a0, %a1 : f32"], [ID, CH, ID])
        n = self.generic([(s, self.t("f32"), "f32"), (inv, self.t("f32", f"{c}x1x1"), "f32")], "f32",
                         ["%b0 = arith.mulf %a0, %a1 : f32"], [ID, CH, ID])
        g = self._scale(n, gamma, "arith.mulf")
        a = self._scale(g, beta, "arith.addf")
        result = self.cast(a, "f32", "f16") if self.export else a
        head = f"func.func @main(%x: {self.t(store)}) -> {self.t(store)} {{"
        return "\n".join([head, *self.lines, f"return {result} : {self.t(store)}", "}"]) + "\n"

    def _scale(self, x: str, k: str, op: str) -> str:
        shape = f"{self.c}x1x1"
        if self.export and self.gamma_outside:
            k = self.cast(k, "f16", "f32", shape, V3, '["parallel", "parallel", "parallel"]')
        if self.export and not self.gamma_outside:
            body = ["%b0 = arith.extf %a1 : f16 to f32", f"%b1 = {op} %a0, %b0 : f32"]
            return self.generic([(x, self.t("f32"), "f32"), (k, self.t("f16", shape), "f16")], "f32", body,
                                [ID, CH, ID])
        return self.generic([(x, self.t("f32"), "f32"), (k, self.t("f32", shape), "f32")], "f32",
                            [f"%b0 = {op} %a0, %a1 : f32"], [ID, CH, ID])


def _depths(text: str) -> tuple[FunctionDepth, FunctionDepth]:
    (func,) = [op for op in parse(text).walk() if isinstance(op, FuncOp)]
    return analyze_function(func), depth_bound(func)


def _counts(row: FunctionDepth) -> tuple[int, int, int]:
    return row.depth, row.linear_ops, row.ct_ct_muls


CASES = list(itertools.product((1, 3), (False, True), (False, True), (False, True)))


@pytest.mark.parametrize(("channels", "conv", "gamma_outside", "splat"), CASES,
                         ids=lambda v: str(v))
def test_f16_export_form_counts_as_its_f32_twin(channels: int, conv: bool, gamma_outside: bool, splat: bool) -> None:
    f32 = _Program(channels, False, conv, gamma_outside, splat).text()
    f16 = _Program(channels, True, conv, gamma_outside, splat).text()
    assert "arith.extf" in f16 and "arith.truncf" in f16 and "f16" not in f32
    before32, bound32 = _depths(f32)
    before16, bound16 = _depths(f16)
    assert _counts(before16) == _counts(before32)
    assert _counts(bound16) == _counts(bound32)


def test_the_twins_count_what_the_layers_cost() -> None:
    # conv (1), then the per-channel inv and gamma scales (1 each); the bound: one chain
    before, bound = _depths(_Program(3, True, True, False, False).text())
    assert (before.depth, before.linear_ops, bound.depth) == (3, 3, 1)
    # a splat gamma is one number (no level), widened inside the body or outside it
    for outside in (False, True):
        before, bound = _depths(_Program(3, True, True, outside, True).text())
        assert (before.depth, before.linear_ops, bound.depth) == (2, 2, 1)
    # one channel: every scale is one number; only the conv costs a level, and under the
    # bound not even it (its 1x1x1x1 filter is one number too: a uniform scale)
    before, bound = _depths(_Program(1, True, True, False, False).text())
    assert (before.depth, before.linear_ops, bound.depth) == (1, 1, 0)


def test_a_widened_per_channel_gamma_is_not_one_number() -> None:
    # the regression: `extf %gamma` inside the body was read as a scalar (no level)
    before, _ = _depths(_Program(3, True, False, False, False).text())
    assert (before.depth, before.linear_ops) == (2, 2)
    assert before.weight_bytes == 3 * 4 + 3 * 2  # inv (f32) and gamma (f16): the weights read
