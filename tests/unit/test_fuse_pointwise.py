"""Tests for linalg-fuse-pointwise: its pure legality/map helpers, and numerics.

Both real YOLO heads (batch 1 and 2) and random layout chains (hypothesis) run through
the evaluator before and after the pass and after lowering the kernels; the pass's
FileCheck cases do so in tests/unit/test_filecheck_numerics.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.api import print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.evaluator import run_function
from heirpy.interp.reference import load_npz
from heirpy.interp.resources import load_module
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.ir.utils import axis_loops, loop_sizes
from heirpy.transforms.pointwise.axis_map import ExpandShape, Transpose, trace
from heirpy.transforms.pointwise.elementwise_to_generic import ElementwiseToGeneric
from heirpy.transforms.pointwise.form_kernel import kernel_read_is_whole
from heirpy.transforms.pointwise.linalg_fuse_pointwise import (
    AbsorbLayoutChain,
    plan_absorb,
    producer_fusion_maps,
)
from heirpy.transforms.pointwise.pointwise_maps import (
    bare_dims,
    inverse_of_permutation,
    loops_inferable,
    no_recompute,
    read_splits,
    recompute_only_along_reductions,
    refine_loops,
    source_map,
    split_keeps_reductions_whole,
)
from heirpy.transforms.rewrite import PatternSet, apply_pattern_sets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)
from filecheck_numerics import numeric_problems  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SEEDS = (0, 1, 2)


def amap(text: str) -> AffineMap:
    """`"(d0, d1) -> (d1, d0 * 4 + d1)"` as an AffineMap (tiny parser for tests)."""
    dims_text, results_text = text.split("->")
    dims = [d.strip() for d in dims_text.strip()[1:-1].split(",") if d.strip()]
    env = {name: AffineExpr.dimension(i) for i, name in enumerate(dims)}
    body = results_text.strip()[1:-1]
    results = [
        eval(r, {}, env) if not r.strip().isdigit() else AffineExpr.constant(int(r))  # noqa: S307
        for r in body.split(",")
        if r.strip()
    ]
    return AffineMap(len(dims), 0, tuple(results))


YOLO = trace([1, 255, 80, 80], [ExpandShape([[0], [1, 2], [3], [4]], [1, 3, 85, 80, 80]),
                                Transpose([0, 1, 3, 4, 2])])


# ------------------------------------------------------------------ pure helpers


def test_loop_sizes_read_bare_dims() -> None:
    maps = [amap("(d0, d1) -> (d1, d0)"), amap("(d0, d1) -> (d0 * 4 + d1)")]
    assert loop_sizes(maps, [(4, 6), (24,)]) == [6, 4]
    assert loop_sizes([amap("(d0, d1) -> (d0 * 4 + d1)")], [(24,)]) is None


def test_loops_inferable_needs_every_loop_bare() -> None:
    assert loops_inferable([amap("(d0, d1) -> (d0, d1)"), amap("(d0, d1) -> (d0 * 4 + d1)")], 2)
    assert not loops_inferable([amap("(d0, d1) -> (d0 * 4 + d1)")], 2)


def test_bare_dims() -> None:
    assert bare_dims(amap("(d0, d1) -> (d1, 0, d0)")) == [1, None, 0]
    assert bare_dims(amap("(d0, d1) -> (d0, d0)")) is None
    assert bare_dims(amap("(d0, d1) -> (d0 + d1)")) is None


def test_yolo_read_needs_no_split_and_reads_the_conv_through_d1_85_d4() -> None:
    assert YOLO is not None
    identity = AffineMap.identity(5)
    read = read_splits(identity, YOLO, [1, 3, 80, 80, 85])
    assert read is not None
    assert read.splits == {0: [1], 1: [3], 2: [80], 3: [80], 4: [85]}
    refined = refine_loops([1, 3, 80, 80, 85], read.splits)
    assert refined is not None
    sizes, _, runs = refined
    assert sizes == [1, 3, 80, 80, 85]
    assert str(source_map(read, YOLO, runs, 5)) == "(d0, d1, d2, d3, d4) -> (d0, ((d1 * 85) + d4), d2, d3)"


def test_axis_loops_reads_mixed_radix_numbers() -> None:
    assert axis_loops(amap("(d0, d1, d2) -> (d0 * 12 + d1, d2)"), [2, 12, 5]) == [(0, 1), (2,)]
    assert axis_loops(amap("(d0, d1) -> (d0 * 5 + d1)"), [2, 12]) is None  # not a number
    assert axis_loops(amap("(d0, d1) -> (d0 + 1)"), [2, 12]) is None  # an offset
    assert axis_loops(amap("(d0, d1) -> (d0, d0)"), [2, 12]) is None


def test_read_splits_refines_an_earlier_linear_read() -> None:
    from heirpy.transforms.pointwise.axis_map import CollapseShape

    collapse = trace([6, 4], [CollapseShape([[0, 1]])])
    assert collapse is not None
    read = read_splits(amap("(d0, d1) -> (d0 * 12 + d1)"), collapse, [2, 12])
    assert read is not None and read.splits == {0: [2], 1: [3, 4]}
    refined = refine_loops([2, 12], read.splits)
    assert refined is not None
    _, _, runs = refined
    assert str(source_map(read, collapse, runs, 3)) == "(d0, d1, d2) -> (((d0 * 3) + d1), d2)"
    # [6, 4] cuts 24 at 6, a [4, 6] read cuts it at 4: no common refinement.
    assert read_splits(amap("(d0, d1) -> (d0 * 6 + d1)"), collapse, [4, 6]) is None


def test_refine_loops_splits_and_rejects_bad_factors() -> None:
    refined = refine_loops([24, 5], {0: [6, 4]})
    assert refined is not None
    sizes, exprs, runs = refined
    assert sizes == [6, 4, 5] and runs == [[0, 1], [2]]
    assert str(exprs[0]) == "((d0 * 4) + d1)" and str(exprs[1]) == "d2"
    assert refine_loops([24], {0: [5, 5]}) is None
    assert refine_loops([-1], {0: [2, 3]}) is None  # a dynamic loop never splits


def test_reductions_stay_whole() -> None:
    assert split_keeps_reductions_whole({0: [6, 4], 1: [3]}, ["parallel", "reduction"])
    assert not split_keeps_reductions_whole({0: [6, 4]}, ["reduction"])


def test_plan_absorb_refuses_to_split_a_reduction() -> None:
    from heirpy.transforms.pointwise.axis_map import CollapseShape

    collapse = trace([6, 4], [CollapseShape([[0, 1]])])
    assert collapse is not None
    maps = [amap("(d0) -> (d0)"), amap("(d0) -> ()")]
    assert plan_absorb(maps, ["reduction"], [(24,), ()], 0, collapse) is None
    plan = plan_absorb([amap("(d0) -> (d0)"), amap("(d0) -> (d0)")], ["parallel"], [(24,), (24,)], 0, collapse)
    assert plan is not None and plan.out_groups is None
    assert [str(m) for m in plan.maps] == ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (((d0 * 4) + d1))"]
    assert plan.kinds == ("parallel", "parallel")


def test_plan_absorb_expands_the_output_when_no_map_reads_a_loop_bare() -> None:
    # A [4] value broadcast to [6, 4] and collapsed to [24]: the source reads only d1,
    # so the [24] output is written as a [6, 4] view, where d0 and d1 are bare.
    from heirpy.transforms.pointwise.axis_map import Broadcast, CollapseShape

    chain = trace([4], [Broadcast([0], [6, 4]), CollapseShape([[0, 1]])])
    assert chain is not None
    maps = [amap("(d0) -> (d0)"), amap("(d0) -> (d0)")]
    plan = plan_absorb(maps, ["parallel"], [(24,), (24,)], 0, chain)
    assert plan is not None
    assert [str(m) for m in plan.maps] == ["(d0, d1) -> (d1)", "(d0, d1) -> (d0, d1)"]
    assert plan.out_groups == ((0, 1),) and plan.out_shape == (6, 4)


def test_no_recompute_and_producer_fusion_maps() -> None:
    assert no_recompute(amap("(d0, d1) -> (d1, d0)"), [4, 6])
    assert not no_recompute(amap("(d0, d1) -> (d1)"), [4, 6])
    assert no_recompute(amap("(d0, d1) -> (d1)"), [1, 6])
    consumer = [amap("(d0, d1) -> (d1, d0)"), amap("(d0, d1) -> (d0, d1)")]
    producer = [amap("(d0, d1) -> (d0, d1)"), amap("(d0, d1) -> (d0, d1)")]
    fused = producer_fusion_maps(consumer, [6, 4], 0, producer)
    assert fused is not None and [str(m) for m in fused] == ["(d0, d1) -> (d1, d0)"]
    broadcast = [amap("(d0, d1) -> (d1)"), amap("(d0, d1) -> (d0, d1)")]
    assert producer_fusion_maps(broadcast, [4, 6], 0, [amap("(d0) -> (d0)")] * 2) is None


def test_inverse_of_permutation() -> None:
    assert inverse_of_permutation(amap("(d0, d1, d2) -> (d2, d0, d1)")) == [1, 2, 0]
    assert inverse_of_permutation(amap("(d0, d1) -> (d0)")) is None


def test_kernel_read_is_whole() -> None:
    read = amap("(d0, d1, d2, d3, d4) -> (d0, d1 * 85 + d4, d2, d3)")
    assert kernel_read_is_whole(read, [1, 3, 80, 80, 85], [1, 255, 80, 80])
    assert not kernel_read_is_whole(amap("(d0, d1) -> (d1)"), [4, 6], [6])


# ------------------------------------------------------------------ numerics


def _functions(module: ModuleOp) -> list[FuncOp]:
    return [op for op in module.ops if isinstance(op, FuncOp)]


def _check(text: str, pipeline: str, seeds: tuple[int, ...] = SEEDS) -> None:
    assert numeric_problems(text, pipeline, seeds) == []


def _batched(text: str, batch: int) -> str:
    return text.replace("tensor<1x", f"tensor<{batch}x").replace("output_shape [1,", f"output_shape [{batch},")


@pytest.mark.parametrize("head", ["yolo_head_k1", "yolo_head_k3"])
@pytest.mark.parametrize("batch", [1, 2])
def test_yolo_heads_fuse_to_one_kernel_with_equal_values(head: str, batch: int) -> None:
    text = _batched((EXAMPLES / f"{head}.mlir").read_text(), batch)
    fused = load_module(text)
    run_pipeline(fused.module, "linalg-fuse-pointwise")
    body = _functions(fused.module)[0].body.block
    top = [op.name for op in body.ops]
    assert top.count("tensor_ext.kernel") == 1
    assert not any(n.startswith("linalg.") or n.startswith("tensor.") for n in top), top
    seeds = SEEDS if batch == 1 else (0,)
    _check(text, "linalg-fuse-pointwise", seeds)
    _check(text, "linalg-fuse-pointwise,lower-tensor-ext", seeds[:1])


def test_yolo_head_matches_pytorch_after_fusion() -> None:
    loaded = load_module((EXAMPLES / "yolo_head_k3.mlir").read_text())
    run_pipeline(loaded.module, "linalg-fuse-pointwise")
    data = load_npz(EXAMPLES / "yolo_head_k3.npz")
    (out,) = run_function(loaded.module, "main", [data["arg0"]], resources=loaded.resources)
    np.testing.assert_allclose(out, data["result0"], rtol=1e-4, atol=1e-5)


def test_pass_is_idempotent_on_the_yolo_head() -> None:
    loaded = load_module((EXAMPLES / "yolo_head_k3.mlir").read_text())
    run_pipeline(loaded.module, "linalg-fuse-pointwise")
    once = print_module(loaded.module)
    run_pipeline(loaded.module, "linalg-fuse-pointwise")
    assert print_module(loaded.module) == once


# ------------------------------------------------------------------ random chains

_CHAIN = """
func.func @f(%x: tensor<{a}x{bc}xf32>, %y: tensor<{a}x{c}x{b}xf32>) -> tensor<{a}x{c}x{b}xf32> {{
  %e0 = tensor.empty() : tensor<{a}x{bc}xf32>
  %p = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%x : tensor<{a}x{bc}xf32>) outs(%e0 : tensor<{a}x{bc}xf32>) {{
  ^bb0(%u: f32, %o: f32):
    %s = math.tanh %u : f32
    linalg.yield %s : f32
  }} -> tensor<{a}x{bc}xf32>
  %r = tensor.expand_shape %p [[0], [1, 2]] output_shape [{a}, {b}, {c}] : tensor<{a}x{bc}xf32> into tensor<{a}x{b}x{c}xf32>
  %e1 = tensor.empty() : tensor<{a}x{c}x{b}xf32>
  %t = linalg.transpose ins(%r : tensor<{a}x{b}x{c}xf32>) outs(%e1 : tensor<{a}x{c}x{b}xf32>) permutation = [0, 2, 1]
  %q = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%t, %y : tensor<{a}x{c}x{b}xf32>, tensor<{a}x{c}x{b}xf32>) outs(%e1 : tensor<{a}x{c}x{b}xf32>) {{
  ^bb0(%u: f32, %v: f32, %o: f32):
    %s = arith.mulf %u, %v : f32
    linalg.yield %s : f32
  }} -> tensor<{a}x{c}x{b}xf32>
  return %q : tensor<{a}x{c}x{b}xf32>
}}
"""


@settings(max_examples=budget(20))
@given(st.integers(1, 3), st.integers(1, 5), st.integers(1, 5))
def test_random_expand_transpose_chains_fuse_to_one_generic(a: int, b: int, c: int) -> None:
    text = _CHAIN.format(a=a, b=b, c=c, bc=b * c)
    fused = load_module(text)
    run_pipeline(fused.module, "linalg-fuse-pointwise")
    names = [op.name for op in _functions(fused.module)[0].body.block.ops]
    assert names.count("linalg.generic") == 1 and "linalg.transpose" not in names, names
    _check(text, "linalg-fuse-pointwise", (0,))


# ------------------------------------------------------------------ random layout chains


def _tensor(shape: list[int]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>" if shape else "tensor<f32>"


def _identity(rank: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def _pointwise(name: str, inputs: list[str], shape: list[int], body: str) -> str:
    rank = len(shape)
    maps = ", ".join([_identity(rank)] * (len(inputs) + 1))
    iters = ", ".join(['"parallel"'] * rank)
    args = ", ".join(f"%a{i}: f32" for i in range(len(inputs)))
    t = _tensor(shape)
    return (
        f"  %e_{name} = tensor.empty() : {t}\n"
        f"  %{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}} "
        f"ins({', '.join(inputs)} : {', '.join([t] * len(inputs))}) outs(%e_{name} : {t}) {{\n"
        f"  ^bb0({args}, %o: f32):\n    %r = {body}\n    linalg.yield %r : f32\n  }} -> {t}\n"
    )


@st.composite
def layout_chains(
    draw: st.DrawFn, rank: int | None = None
) -> tuple[list[int], list[tuple[str, object]], list[int]]:
    """A producer shape and 1-3 layout steps as (kind, argument), with the final shape."""
    sizes = st.sampled_from([1, 2, 3, 4, 6])
    shape = draw(st.lists(sizes, min_size=rank or 1, max_size=rank or 3))
    start = list(shape)
    steps: list[tuple[str, object]] = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["transpose", "collapse", "expand", "broadcast"]))
        if kind == "transpose":
            perm = draw(st.permutations(range(len(shape))))
            steps.append(("transpose", list(perm)))
            shape = [shape[p] for p in perm]
        elif kind == "collapse" and len(shape) >= 2:
            at = draw(st.integers(0, len(shape) - 2))
            steps.append(("collapse", at))
            shape = shape[:at] + [shape[at] * shape[at + 1]] + shape[at + 2 :]
        elif kind == "expand":
            at = draw(st.integers(0, len(shape) - 1))
            divisors = [d for d in range(1, shape[at] + 1) if shape[at] % d == 0]
            d = draw(st.sampled_from(divisors))
            steps.append(("expand", (at, d)))
            shape = shape[:at] + [d, shape[at] // d] + shape[at + 1 :]
        elif kind == "broadcast" and len(shape) < 4:
            at = draw(st.integers(0, len(shape)))
            steps.append(("broadcast", at))
            shape = shape[:at] + [2] + shape[at:]
    return start, steps, shape


def _chain_module(
    start: list[int], steps: list[tuple[str, object]], final: list[int], root: bool = False
) -> str:
    """tanh (or, with `root`, a [M, 3] x [3, N] matmul) -> the chain -> multiply by %y."""
    if root:
        m, n = start
        text = (
            f"func.func @main(%x: tensor<{m}x3xf32>, %w: tensor<3x{n}xf32>, %z: {_tensor(start)}, "
            f"%y: {_tensor(final)}) -> {_tensor(final)} {{\n"
            f"  %p = linalg.matmul ins(%x, %w : tensor<{m}x3xf32>, tensor<3x{n}xf32>) "
            f"outs(%z : {_tensor(start)}) -> {_tensor(start)}\n"
        )
    else:
        text = f"func.func @main(%x: {_tensor(start)}, %y: {_tensor(final)}) -> {_tensor(final)} {{\n"
        text += _pointwise("p", ["%x"], start, "math.tanh %a0 : f32")
    value, shape = "%p", list(start)
    for k, (kind, arg) in enumerate(steps):
        name = f"%s{k}"
        if kind == "transpose":
            perm = list(arg)  # type: ignore[call-overload]
            new = [shape[p] for p in perm]
            text += f"  %i{k} = tensor.empty() : {_tensor(new)}\n"
            text += f"  {name} = linalg.transpose ins({value} : {_tensor(shape)}) outs(%i{k} : {_tensor(new)}) permutation = {perm}\n"
        elif kind == "collapse":
            at = int(arg)  # type: ignore[arg-type]
            groups = [[i] for i in range(at)] + [[at, at + 1]] + [[i] for i in range(at + 2, len(shape))]
            new = shape[:at] + [shape[at] * shape[at + 1]] + shape[at + 2 :]
            text += f"  {name} = tensor.collapse_shape {value} {groups} : {_tensor(shape)} into {_tensor(new)}\n"
        elif kind == "expand":
            at, d = arg  # type: ignore[misc]
            new = shape[:at] + [d, shape[at] // d] + shape[at + 1 :]
            groups = [[i] for i in range(at)] + [[at, at + 1]] + [[i + 1] for i in range(at + 1, len(shape))]
            text += f"  {name} = tensor.expand_shape {value} {groups} output_shape {new} : {_tensor(shape)} into {_tensor(new)}\n"
        else:
            at = int(arg)  # type: ignore[arg-type]
            new = shape[:at] + [2] + shape[at:]
            text += f"  %i{k} = tensor.empty() : {_tensor(new)}\n"
            text += f"  {name} = linalg.broadcast ins({value} : {_tensor(shape)}) outs(%i{k} : {_tensor(new)}) dimensions = [{at}]\n"
        value, shape = name, new
    text += _pointwise("q", [value, "%y"], final, "arith.mulf %a0, %a1 : f32")
    return text + f"  return %q : {_tensor(final)}\n}}\n"


@settings(max_examples=budget(40))
@given(layout_chains())
def test_random_layout_chains_keep_their_values(chain: tuple[list[int], list[tuple[str, object]], list[int]]) -> None:
    start, steps, final = chain
    text = _chain_module(start, steps, final)
    _check(text, "linalg-fuse-pointwise", (0,))
    _check(text, "linalg-fuse-pointwise,lower-tensor-ext", (0,))
    fused = load_module(text)
    run_pipeline(fused.module, "linalg-fuse-pointwise")
    once = print_module(fused.module)
    run_pipeline(fused.module, "linalg-fuse-pointwise")
    assert print_module(fused.module) == once  # idempotent
    names = [op.name for op in _functions(fused.module)[0].body.block.ops if op.name.startswith("linalg.")]
    if any(kind == "broadcast" for kind, _ in steps):
        assert len(names) <= 2, names  # the tanh stays small, read through a map
    else:
        assert names == ["linalg.generic"], names


def test_producer_fusion_keeps_every_loop_bare() -> None:
    # A copy generic of [2, 2] reading a [2] value through (d1), read by a consumer over
    # (d0, d1) whose other maps are (d0 * 2 + d1): inlining the copy leaves d0 nowhere bare.
    consumer = [amap("(d0, d1) -> (d0, d1)"), amap("(d0, d1) -> (d0 * 2 + d1)"), amap("(d0, d1) -> (d0 * 2 + d1)")]
    copy = [amap("(d0, d1) -> (d1)"), amap("(d0, d1) -> (d0, d1)")]
    assert producer_fusion_maps(consumer, [2, 2], 0, copy) is None


@settings(max_examples=budget(25))
@given(layout_chains(rank=2))
def test_random_chains_after_a_matmul_keep_their_values(
    chain: tuple[list[int], list[tuple[str, object]], list[int]],
) -> None:
    start, steps, final = chain
    text = _chain_module(start, steps, final, root=True)
    _check(text, "linalg-fuse-pointwise", (0,))
    _check(text, "linalg-fuse-pointwise,lower-tensor-ext", (0,))
    fused = load_module(text)
    run_pipeline(fused.module, "linalg-fuse-pointwise")
    names = [op.name for op in _functions(fused.module)[0].body.block.ops]
    if not any(kind == "broadcast" for kind, _ in steps) and _axis_steps(start, steps) is not None:
        assert [n for n in names if n.startswith(("linalg.", "tensor_ext."))] == ["tensor_ext.kernel"], names


def _axis_steps(start: list[int], steps: list[tuple[str, object]]) -> object:
    """The axis-map trace of a generated chain (None: no common refinement)."""
    from heirpy.transforms.pointwise.axis_map import CollapseShape, LayoutStep

    shape, out = list(start), []  # type: ignore[var-annotated]
    for kind, arg in steps:
        step: LayoutStep
        if kind == "transpose":
            step = Transpose(list(arg))  # type: ignore[call-overload]
            shape = [shape[p] for p in arg]  # type: ignore[attr-defined]
        elif kind == "collapse":
            at = int(arg)  # type: ignore[call-overload]
            step = CollapseShape([[i] for i in range(at)] + [[at, at + 1]] + [[i] for i in range(at + 2, len(shape))])
            shape = shape[:at] + [shape[at] * shape[at + 1]] + shape[at + 2 :]
        else:
            at, d = arg  # type: ignore[misc]
            new = shape[:at] + [d, shape[at] // d] + shape[at + 1 :]
            step = ExpandShape([[i] for i in range(at)] + [[at, at + 1]] + [[i + 1] for i in range(at + 1, len(shape))], new)
            shape = new
        out.append(step)
    return trace(start, out)


# ------------------------------------------------------------------ elementwise trees

_SIGMOID = """
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %n = arith.negf %x : tensor<2x3xf32>
  %e = math.exp %n : tensor<2x3xf32>
  %one = arith.constant dense<1.000000e+00> : tensor<2x3xf32>
  %d = arith.addf %e, %one : tensor<2x3xf32>
  %s = arith.divf %one, %d : tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
"""

_SHARED = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.negf %x : tensor<4xf32>
  %b = math.exp %a : tensor<4xf32>
  %c = arith.addf %a, %b : tensor<4xf32>
  return %c : tensor<4xf32>
}
"""


class _CountingElementwiseToGeneric(ElementwiseToGeneric):
    """ElementwiseToGeneric that counts the rewrites it makes."""

    def __init__(self) -> None:
        self.rewrites = 0

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        before = rewriter.has_done_action
        super().match_and_rewrite(op, rewriter)
        self.rewrites += int(rewriter.has_done_action and not before)


def _elementwise_to_generic_alone(text: str) -> tuple[ModuleOp, int]:
    module = load_module(text).module
    pattern = _CountingElementwiseToGeneric()
    apply_pattern_sets(module, [PatternSet.of(pattern, walk_reverse=True)])
    return module, pattern.rewrites


def _equivalent(text: str, after: ModuleOp) -> bool:
    return check_equivalence(load_module(text).module, after, seeds=(0, 1)).ok


def test_a_sigmoid_tree_becomes_one_generic_in_one_rewrite() -> None:
    module, rewrites = _elementwise_to_generic_alone(_SIGMOID)
    assert rewrites == 1
    ops = list(_functions(module)[0].body.block.ops)
    assert [op.name for op in ops] == ["tensor.empty", "linalg.generic", "func.return"]
    generic = ops[1]
    assert isinstance(generic, GenericOp) and list(generic.inputs) == [_functions(module)[0].args[0]]
    assert [op.name for op in generic.body.block.ops] == [
        "arith.negf", "math.exp", "arith.constant", "arith.addf", "arith.constant", "arith.divf", "linalg.yield",
    ]
    assert _equivalent(_SIGMOID, module)


def test_a_value_read_by_two_ops_of_a_tree_stays_a_tensor() -> None:
    # %a feeds both exp and addf: inlining it would leave the exp reading an outside
    # tensor that no longer exists, so %a becomes its own generic and is read twice.
    module, rewrites = _elementwise_to_generic_alone(_SHARED)
    assert rewrites == 2
    generics = [op for op in _functions(module)[0].body.block.ops if isinstance(op, GenericOp)]
    assert [[o.name for o in g.body.block.ops] for g in generics] == [
        ["arith.negf", "linalg.yield"], ["math.exp", "arith.addf", "linalg.yield"],
    ]
    assert list(generics[1].inputs) == [generics[0].res[0], generics[0].res[0]]
    assert _equivalent(_SHARED, module)


def test_a_long_elementwise_chain_is_one_generic_without_deep_recursion() -> None:
    # The tree is walked with an explicit stack: 3000 ops deep is fine under Python's
    # default recursion limit.
    ops = "\n".join(
        f"  %v{i + 1} = {'arith.negf' if i % 2 else 'math.absf'} %v{i} : tensor<4xf32>" for i in range(3000)
    )
    text = f"func.func @main(%v0: tensor<4xf32>) -> tensor<4xf32> {{\n{ops}\n  return %v3000 : tensor<4xf32>\n}}\n"
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        module, rewrites = _elementwise_to_generic_alone(text)
    finally:
        sys.setrecursionlimit(limit)
    assert rewrites == 1
    (generic,) = [op for op in _functions(module)[0].body.block.ops if isinstance(op, GenericOp)]
    assert len(generic.body.block.ops) == 3001
    assert _equivalent(text, module)


_BINARY = ("arith.addf", "arith.subf", "arith.mulf", "arith.maximumf")
_UNARY = ("arith.negf", "math.tanh", "math.absf")


@st.composite
def elementwise_programs(draw: st.DrawFn) -> str:
    """A random DAG of elementwise tensor ops over two arguments and a splat constant,
    with values read by several ops and a second result, so trees meet shared values."""
    values = ["%x", "%y", "%c"]
    lines = ["  %c = arith.constant dense<5.000000e-01> : tensor<2x3xf32>"]
    for i in range(draw(st.integers(1, 9))):
        if draw(st.booleans()):
            name = draw(st.sampled_from(_UNARY))
            operands = draw(st.sampled_from(values))
        else:
            name = draw(st.sampled_from(_BINARY))
            operands = f"{draw(st.sampled_from(values))}, {draw(st.sampled_from(values))}"
        lines.append(f"  %v{i} = {name} {operands} : tensor<2x3xf32>")
        values.append(f"%v{i}")
    extra = draw(st.sampled_from(values[3:]))
    return (
        "func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {\n"
        + "\n".join(lines)
        + f"\n  return {values[-1]}, {extra} : tensor<2x3xf32>, tensor<2x3xf32>\n}}\n"
    )


@settings(max_examples=budget(30))
@given(elementwise_programs())
def test_random_elementwise_trees_keep_their_values(text: str) -> None:
    _check(text, "linalg-fuse-pointwise", (0,))
    module, _ = _elementwise_to_generic_alone(text)
    assert _equivalent(text, module)


_TRANSPOSED_RELU = """
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  %i = tensor.empty() : tensor<2x4x3xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%i : tensor<2x4x3xf32>) permutation = [0, 2, 1]
  %o = tensor.empty() : tensor<2x4x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t : tensor<2x4x3xf32>) outs(%o : tensor<2x4x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<2x4x3xf32>
  return %r : tensor<2x4x3xf32>
}
"""


def test_absorbing_a_layout_chain_updates_the_generic_in_place() -> None:
    """The generic is kept (its result is not replaced in func.return's operands: an
    O(N) operand-list rebuild per head in xDSL) and reads %x through the transpose's map."""
    module = load_module(_TRANSPOSED_RELU).module
    generic = next(op for op in module.walk() if isinstance(op, GenericOp))
    apply_pattern_sets(module, [PatternSet.of(AbsorbLayoutChain(), walk_reverse=True)])
    ops = list(_functions(module)[0].body.block.ops)
    assert [op.name for op in ops] == ["tensor.empty", "linalg.generic", "func.return"]
    assert ops[1] is generic and ops[2].operands[0] is generic.res[0]
    assert list(generic.inputs) == [_functions(module)[0].args[0]]
    assert str(generic.indexing_maps.data[0].data) == "(d0, d1, d2) -> (d0, d2, d1)"
    assert _equivalent(_TRANSPOSED_RELU, module)


def test_map_helpers_refuse_what_is_not_a_bare_dim() -> None:
    """A constant other than 0 is no bare dim; a permutation holds no constant."""
    assert bare_dims(amap("(d0, d1) -> (d1, 1)")) is None
    assert inverse_of_permutation(amap("(d0, d1) -> (d1, 0, d0)")) is None
    assert inverse_of_permutation(amap("(d0, d1) -> (d1, d0)")) == [1, 0]
    assert loops_inferable([amap("(d0, d1) -> (d1)"), amap("(d0, d1) -> (d0, 0)")], 2)
    assert not loops_inferable([amap("(d0, d1) -> (d1)")], 2)


def test_recompute_only_along_reductions() -> None:
    """A producer read by every parallel loop and no reduction loop is recomputed only
    along the reductions; a broadcast over a parallel loop, or a read that varies along a
    reduction, is not that; unit loops do not count."""
    kinds = ["parallel", "reduction"]
    assert recompute_only_along_reductions(amap("(d0, d1) -> (d0)"), [4, 6], kinds)
    assert not recompute_only_along_reductions(amap("(d0, d1) -> (d0, d1)"), [4, 6], kinds)
    assert not recompute_only_along_reductions(amap("(d0, d1) -> (0)"), [4, 6], kinds)
    assert recompute_only_along_reductions(amap("(d0, d1) -> (0)"), [1, 6], kinds)
    assert recompute_only_along_reductions(amap("(d0, d1) -> (d0, d1)"), [4, 1], kinds)


def test_refine_loops_never_gives_a_dynamic_loop_a_static_size() -> None:
    """A dynamic loop kept whole stays dynamic; one factor that names a static size (0
    or 4) would change the loop's size, and is refused like a split of it."""
    assert refine_loops([-1, 3], {}) is not None
    for factor in (0, 4):
        assert refine_loops([-1, 3], {0: [factor]}) is None
    assert refine_loops([-1, 3], {0: [-1, 2]}) is None
