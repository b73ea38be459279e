"""linalg-fuse-conv-pool and lower-tensor-ext, checked by numerics with the evaluator:
the function before, after fusion, and after fusion + lowering agree on random inputs
(several seeds), for constant and argument filters, batch > 1, strides, dilations,
pool strides != windows, biases, non-zero pool inits and the divide forms."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, VectorType, i64

from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)
from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp
from heirpy.ir.utils import i64_elements_like
from heirpy.transforms.linear.filter_compose import ConvPoolGeometry
from heirpy.transforms.linear.fusion_cost import CostRule
from heirpy.transforms.linear.linalg_fuse_conv_pool import (
    ConvPoolSpelling,
    conv_pool_cost,
    conv_pool_fusable,
    conv_pool_patterns,
)

ID4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
PAR4 = '["parallel", "parallel", "parallel", "parallel"]'


def _t(shape: tuple[int, ...]) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _dense(values: np.ndarray) -> str:
    return f"dense<{np.array2string(values, separator=', ', threshold=10**6, floatmode='unique').replace(chr(10), '')}>"


def _vec(pair: tuple[int, int]) -> str:
    return f"dense<[{pair[0]}, {pair[1]}]> : vector<2xi64>"


@dataclass(frozen=True)
class Case:
    n: int = 1
    c: int = 1
    f: int = 2
    hw: tuple[int, int] = (8, 8)
    geometry: ConvPoolGeometry = ConvPoolGeometry((3, 3), pool_window=(2, 2), pool_strides=(2, 2))
    const_weights: bool = True
    bias: bool = True
    pool_init: float = 0.0
    divide: str | None = "generic"  # "generic" | "mul" | "tensor" | None

    def text(self, seed: int = 0) -> str:
        g = self.geometry
        x_shape = (self.n, self.c, *self.hw)
        w_shape = (self.f, self.c, *g.filter_size)
        conv_shape = (self.n, self.f, *g.conv_out_shape(self.hw))
        pool_shape = (self.n, self.f, *g.pool_out_shape(self.hw))
        rng = np.random.default_rng(seed)
        args = [f"%x: {_t(x_shape)}"]
        lines = ["%zero = arith.constant 0.0 : f32", f"%pinit = arith.constant {self.pool_init!r} : f32"]
        if self.const_weights:
            weights = rng.standard_normal(w_shape).astype(np.float32)
            lines.append(f"%w = arith.constant {_dense(weights)} : {_t(w_shape)}")
        else:
            args.append(f"%w: {_t(w_shape)}")
        lines.append(f"%e0 = tensor.empty() : {_t(conv_shape)}")
        if self.bias:
            bias = rng.standard_normal(self.f).astype(np.float32)
            lines.append(f"%b = arith.constant {_dense(bias)} : tensor<{self.f}xf32>")
            lines.append(
                f"%ci = linalg.broadcast ins(%b : tensor<{self.f}xf32>) outs(%e0 : {_t(conv_shape)}) dimensions = [0, 2, 3]"
            )
        else:
            lines.append(f"%ci = linalg.fill ins(%zero : f32) outs(%e0 : {_t(conv_shape)}) -> {_t(conv_shape)}")
        lines += [
            f"%c = linalg.conv_2d_nchw_fchw {{dilations = {_vec(g.conv_dilations)}, strides = {_vec(g.conv_strides)}}} "
            f"ins(%x, %w : {_t(x_shape)}, {_t(w_shape)}) outs(%ci : {_t(conv_shape)}) -> {_t(conv_shape)}",
            f"%e1 = tensor.empty() : {_t(pool_shape)}",
            f"%pi = linalg.fill ins(%pinit : f32) outs(%e1 : {_t(pool_shape)}) -> {_t(pool_shape)}",
            f"%win = tensor.empty() : tensor<{g.pool_window[0]}x{g.pool_window[1]}xf32>",
            f"%p = linalg.pooling_nchw_sum {{dilations = {_vec(g.pool_dilations)}, strides = {_vec(g.pool_strides)}}} "
            f"ins(%c, %win : {_t(conv_shape)}, tensor<{g.pool_window[0]}x{g.pool_window[1]}xf32>) "
            f"outs(%pi : {_t(pool_shape)}) -> {_t(pool_shape)}",
        ]
        count = float(g.window_count())
        result = "%p"
        if self.divide == "generic":
            lines += [
                f"%cnt = arith.constant {count!r} : f32",
                f"%r = linalg.generic {{indexing_maps = [{ID4}, {ID4}], iterator_types = {PAR4}}} "
                f"ins(%p : {_t(pool_shape)}) outs(%e1 : {_t(pool_shape)}) {{",
                "^bb0(%in: f32, %out: f32):",
                "  %q = arith.divf %in, %cnt : f32",
                "  linalg.yield %q : f32",
                f"}} -> {_t(pool_shape)}",
            ]
            result = "%r"
        elif self.divide == "mul":
            lines += [
                f"%r = linalg.generic {{indexing_maps = [{ID4}, {ID4}], iterator_types = {PAR4}}} "
                f"ins(%p : {_t(pool_shape)}) outs(%e1 : {_t(pool_shape)}) {{",
                "^bb0(%in: f32, %out: f32):",
                f"  %inv = arith.constant {1.0 / count!r} : f32",
                "  %q = arith.mulf %in, %inv : f32",
                "  linalg.yield %q : f32",
                f"}} -> {_t(pool_shape)}",
            ]
            result = "%r"
        elif self.divide == "tensor":
            lines += [
                f"%cnt = arith.constant dense<{count!r}> : {_t(pool_shape)}",
                f"%r = arith.divf %p, %cnt : {_t(pool_shape)}",
            ]
            result = "%r"
        body = "\n    ".join(lines)
        return (
            f"func.func @main({', '.join(args)}) -> {_t(pool_shape)} {{\n    {body}\n"
            f"    func.return {result} : {_t(pool_shape)}\n}}\n"
        )


CASES = {
    "torch_avg": Case(),
    "batch_channels_arg_weights": Case(n=2, c=3, f=4, hw=(9, 9), const_weights=False),
    "strided_conv_overlapping_pool": Case(
        n=2, c=2, f=3, hw=(17, 15),
        geometry=ConvPoolGeometry((3, 3), (2, 2), (1, 1), (3, 3), (2, 2), (1, 1)),
        divide="mul",
    ),
    "dilated_conv_avg2": Case(
        n=1, c=2, f=2, hw=(12, 12),
        geometry=ConvPoolGeometry((3, 3), (1, 1), (2, 2), (2, 2), (2, 2), (1, 1)),
        const_weights=False, divide="tensor",
    ),
    "everything_asymmetric": Case(
        n=2, c=2, f=3, hw=(19, 17),
        geometry=ConvPoolGeometry((3, 2), (2, 1), (1, 2), (2, 3), (1, 2), (2, 1)),
        pool_init=0.5, divide=None,
    ),
    "pool_init_arg_weights_avg": Case(
        n=3, c=1, f=2, hw=(10, 10),
        geometry=ConvPoolGeometry((2, 2), (1, 1), (1, 1), (3, 3), (1, 1), (1, 1)),
        const_weights=False, pool_init=-1.25, bias=True, divide="generic",
    ),
}


# The mechanics and legality tests fuse every legal pair (policy=depth), so that a case
# is never left apart by the cost rule instead of the guard under test; the cost rule
# has its own tests below and in linalg-fuse-conv-pool/cost_rule.mlir.
FUSE_ALL = "linalg-fuse-conv-pool{policy=depth}"


def _fused_ops(text: str) -> list[FusedConvPoolOp]:
    module = parse(text)
    run_pipeline(module, FUSE_ALL)
    return [op for op in module.walk() if isinstance(op, FusedConvPoolOp)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_fusion_and_lowering_are_numerically_equal(name: str) -> None:
    case = CASES[name]
    text = case.text(seed=7)
    before = parse(text)
    fused = parse(text)
    run_pipeline(fused, FUSE_ALL)
    ops = [op.name for op in fused.walk()]
    assert ops.count("tensor_ext.fused_conv_pool") == 1
    assert "linalg.conv_2d_nchw_fchw" not in ops and "linalg.pooling_nchw_sum" not in ops
    if case.divide is not None:
        assert "linalg.generic" not in ops and "arith.divf" not in ops
    lowered = parse(print_module(fused))
    run_pipeline(lowered, "lower-tensor-ext")
    lowered_ops = [op.name for op in lowered.walk()]
    assert "tensor_ext.fused_conv_pool" not in lowered_ops
    # Only the composed conv reads the input: one conv (constant filters fold).
    assert lowered_ops.count("linalg.conv_2d_nchw_fchw") == 1
    if case.const_weights:
        assert "linalg.pooling_nchw_sum" not in lowered_ops or not case.bias
    seeds = (0, 1, 2, 3)
    for after in (fused, lowered):
        report = check_equivalence(before, after, function="main", seeds=seeds)
        assert report.ok, report.summary()


def test_lowered_composed_conv_has_composed_stride() -> None:
    case = CASES["strided_conv_overlapping_pool"]
    module = parse(case.text())
    run_pipeline(module, f"{FUSE_ALL},lower-tensor-ext")
    text = print_module(module)
    assert "strides = dense<4> : vector<2xi64>" in text  # conv stride 2 x pool stride 2
    assert "tensor<3x2x7x7xf32>" in text  # 3 + 2*(3-1) = 7


def test_legality_valid_shapes() -> None:
    g = ConvPoolGeometry((3, 3), pool_window=(2, 2), pool_strides=(2, 2))
    assert conv_pool_fusable((1, 1, 8, 8), (2, 1, 3, 3), (1, 2, 6, 6), (1, 2, 3, 3), g) is None
    assert conv_pool_fusable((1, 1, 8, 8), (2, 1, 3, 3), (1, 2, 6, 6), (1, 2, 2, 3), g) is not None
    assert conv_pool_fusable((1, 1, 8, 8), (2, 1, 3, 3), (1, 2, 5, 6), (1, 2, 2, 3), g) is not None
    assert conv_pool_fusable((1, 2, 8, 8), (2, 1, 3, 3), (1, 2, 6, 6), (1, 2, 3, 3), g) is not None


def test_pattern_group_is_exported() -> None:
    names = [type(p).__name__ for p in conv_pool_patterns()]
    assert names == ["FuseConvIntoSumPool", "FoldScaleIntoFusedConvPool"]


def test_conv_with_second_user_is_left_alone() -> None:
    text = CASES["torch_avg"].text().replace(
        "func.return %r : tensor<1x2x3x3xf32>", "func.return %r : tensor<1x2x3x3xf32>"
    )
    # Make the conv result a second function result.
    text = text.replace("-> tensor<1x2x3x3xf32> {\n", "-> (tensor<1x2x3x3xf32>, tensor<1x2x6x6xf32>) {\n", 1)
    text = text.replace(
        "func.return %r : tensor<1x2x3x3xf32>",
        "func.return %r, %c : tensor<1x2x3x3xf32>, tensor<1x2x6x6xf32>",
    )
    assert _fused_ops(text) == []


_pair = st.tuples(st.integers(1, 3), st.integers(1, 3))


@settings(max_examples=budget(20))
@given(
    kernel=_pair, s=_pair, d=_pair, p=_pair, t=_pair, e=_pair, extra=_pair,
    n=st.integers(1, 2), c=st.integers(1, 2), f=st.integers(1, 3),
    const_weights=st.booleans(), bias=st.booleans(),
    divide=st.sampled_from([None, "generic", "mul", "tensor"]),
    pool_init=st.sampled_from([0.0, 0.75]),
)
def test_random_geometries(kernel, s, d, p, t, e, extra, n, c, f, const_weights, bias, divide, pool_init) -> None:
    g = ConvPoolGeometry(kernel, s, d, p, t, e)
    hw = tuple(
        (k - 1) * dd + 1 + ((pp - 1) * ee + tt * x) * ss
        for k, dd, pp, ee, tt, x, ss in zip(kernel, d, p, e, t, extra, s)
    )
    case = Case(n=n, c=c, f=f, hw=hw, geometry=g, const_weights=const_weights, bias=bias,
                pool_init=pool_init, divide=divide)
    text = case.text(seed=sum(hw))
    before, fused = parse(text), parse(text)
    run_pipeline(fused, FUSE_ALL)
    assert [op.name for op in fused.walk()].count("tensor_ext.fused_conv_pool") == 1
    lowered = parse(print_module(fused))
    run_pipeline(lowered, "lower-tensor-ext")
    for after in (fused, lowered):
        report = check_equivalence(before, after, function="main", seeds=(0, 1))
        assert report.ok, report.summary()


def test_conv_pool_cost_counts_weights_and_macs() -> None:
    """The figures the cost rule weighs, counted by hand: a 3x3 conv (2 -> 4 channels,
    batch 2) on 10x10 and a 2x2 pool of stride 2 compose to a 4x4 filter of stride 2."""
    g = ConvPoolGeometry((3, 3), pool_window=(2, 2), pool_strides=(2, 2))
    cost = conv_pool_cost((4, 2, 3, 3), (2, 4, 8, 8), (2, 4, 4, 4), g)
    assert cost.levels_saved == 1
    assert (cost.weights_before, cost.weights_after) == (4 * 2 * 9, 4 * 2 * 16)
    conv_macs = 2 * 4 * 8 * 8 * 2 * 9
    pool_macs = 2 * 4 * 4 * 4 * 4
    assert (cost.macs_before, cost.macs_after) == (conv_macs + pool_macs, 2 * 4 * 4 * 4 * 2 * 16)
    assert CostRule().allows(cost) and not CostRule("size").allows(cost)
    assert not CostRule(max_weight_growth=1.7).allows(cost) and CostRule(max_weight_growth=1.8).allows(cost)


def test_default_rule_keeps_a_conv_and_a_global_pool_apart() -> None:
    """A 3x3 conv and a pool over its whole 8x8 output compose to a 10x10 filter (11x
    the weights): the default rule refuses it, policy=depth fuses it."""
    g = ConvPoolGeometry((3, 3), pool_window=(8, 8), pool_strides=(1, 1))
    text = Case(hw=(10, 10), geometry=g, divide=None).text(seed=3)
    default, everything = parse(text), parse(text)
    run_pipeline(default, "linalg-fuse-conv-pool")
    run_pipeline(everything, FUSE_ALL)
    assert [op.name for op in default.walk()].count("tensor_ext.fused_conv_pool") == 0
    assert [op.name for op in everything.walk()].count("tensor_ext.fused_conv_pool") == 1


def test_spelling_keeps_each_ops_attribute_type() -> None:
    """New strides / dilations take the type of the op's own attribute (the other one's
    when it was left out), else vector<2xi64>; values are the new ones."""
    as_tensor = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), [1, 1])
    as_vector = DenseIntOrFPElementsAttr.from_list(VectorType(i64, [2]), [2, 2])
    strides, dilations = ConvPoolSpelling(conv_strides=as_tensor).conv_attrs((4, 2), (1, 1))
    assert strides.type == dilations.type == TensorType(i64, [2])
    assert [int(v) for v in strides.get_values()] == [4, 2]
    strides, dilations = ConvPoolSpelling(as_tensor, as_vector, as_vector, None).pool_attrs((2, 2), (3, 3))
    assert strides.type == dilations.type == VectorType(i64, [2])
    assert [int(v) for v in dilations.get_values()] == [3, 3]
    strides, _ = ConvPoolSpelling().conv_attrs((2, 2), (1, 1))
    assert strides.type == VectorType(i64, [2])
    # A type of another length or element type is no spelling for a 2-D window.
    assert i64_elements_like((1, 1, 1), as_tensor).type == VectorType(i64, [3])
