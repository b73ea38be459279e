"""linalg-fuse-linear-chains: the composition math and legality rules on their own, then
numerics through the evaluator (before vs after, several seeds) on torch-mlir exports
and on generated conv/pool/conv chains with strides, dilations and batch > 1."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from xdsl.dialects.func import FuncOp

from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)
from heirpy.analysis.slots import boundary_vectors
from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_file, load_module
from heirpy.transforms.linear.linalg_fuse_linear_chains import (
    SlotBudget,
    populate_linalg_fuse_linear_chains_patterns,
)
from heirpy.transforms.linear.linear_maps import (
    MAX_MATRIX_ELEMENTS,
    AffineConv,
    Form,
    affine_matrix,
    choose_form,
    compose_affine_convs,
    composed_conv_fits,
    composed_window,
    conv_nchw,
    keeps_batch_axis,
    matrix_form,
    pad_keeps_batch,
    pool_filter,
    sum_pool_nchw,
    window_out_size,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package
from filecheck_chunks import chunks  # noqa: E402

INPUTS = Path(__file__).parents[1] / "filecheck/transforms/linalg-fuse-linear-chains/Inputs"
SETTINGS = settings(max_examples=budget(25))


# ----------------------------------------------------------------------------- pure rules
def test_composed_window_examples() -> None:
    # 3x3 conv then 2x2 conv: 4x4, stride 1.
    assert composed_window((3, 1, 1), (2, 1, 1)) == (4, 1, 1)
    # conv stride 2 then pool 2 stride 2: 3 + (2-1)*2 = 5... on the grid of gcd(2, 1) = 1.
    assert composed_window((3, 2, 1), (2, 2, 1)) == (5, 4, 1)
    # Both taps on a grid of 2: dilation 2 survives.
    assert composed_window((2, 1, 2), (2, 1, 2)) == (3, 1, 2)
    # A 1x1 first step keeps the second's taps, spread by the first stride.
    assert composed_window((1, 3, 1), (2, 1, 1)) == (2, 3, 3)
    assert composed_window((1, 1, 1), (1, 1, 1)) == (1, 1, 1)


def test_legality_helpers() -> None:
    assert keeps_batch_axis([[0], [1, 2, 3]])
    assert not keeps_batch_axis([[0, 1], [2, 3]])
    assert pad_keeps_batch([0, 0, 1, 1], [0, 0, 1, 1])
    assert not pad_keeps_batch([1, 0, 1, 1], [0, 0, 1, 1])
    assert not pad_keeps_batch([0, 0, -1, 0], [0, 0, 0, 0])


def test_choose_form() -> None:
    conv = Form("conv", 100, 50)
    matrix = matrix_form(10, 20)  # 200 MACs, 200 weights
    assert choose_form([conv, None, matrix]) == conv  # 100 <= 200
    assert choose_form([Form("conv", 300, 50), None, matrix]) == matrix
    assert choose_form([None, None, matrix]) == matrix
    assert matrix_form(MAX_MATRIX_ELEMENTS, 2) is None
    assert choose_form([None, None, matrix_form(MAX_MATRIX_ELEMENTS, 2)]) is None
    assert choose_form([Form("conv", 10**9, 1), None, matrix_form(MAX_MATRIX_ELEMENTS, 2)]).kind == "conv"  # type: ignore[union-attr]
    # Equal MACs: the smaller weight wins (a global pool merged into a Linear keeps the
    # Linear's weights as a contraction instead of an H*W times larger matrix).
    contraction = Form("contraction", 200, 20)
    assert choose_form([None, contraction, matrix]) == contraction
    assert choose_form([Form("conv", 200, 20), contraction, matrix]).kind == "conv"  # type: ignore[union-attr]


def test_affine_matrix_recovers_a_known_map() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(3, 6)), rng.normal(size=3)
    matrix, bias = affine_matrix(lambda x: x.reshape(x.shape[0], -1) @ a.T + b, (2, 3), chunk=4)
    np.testing.assert_allclose(matrix, a)
    np.testing.assert_allclose(bias, b)


def test_pool_filter_is_a_sum_pool() -> None:
    x = np.random.default_rng(1).normal(size=(2, 3, 7, 7))
    np.testing.assert_allclose(
        conv_nchw(x, pool_filter(3, (2, 3)), (2, 1), (1, 2)),
        sum_pool_nchw(x, (2, 3), (2, 1), (1, 2)),
    )


window = st.tuples(st.integers(1, 3), st.integers(1, 2), st.integers(1, 2))


@SETTINGS
@given(
    first=st.tuples(window, window), second=st.tuples(window, window),
    channels=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)),
    hw=st.tuples(st.integers(6, 14), st.integers(6, 14)), seed=st.integers(0, 99),
)
def test_composition_equals_applying_both(first, second, channels, hw, seed) -> None:  # type: ignore[no-untyped-def]
    """compose_affine_convs == second(first(x)), constants included, for any geometry."""
    rng = np.random.default_rng(seed)
    c, f, g = channels
    k1, k2 = tuple(w[0] for w in first), tuple(w[0] for w in second)
    s1, d1 = tuple(w[1] for w in first), tuple(w[2] for w in first)
    s2, d2 = tuple(w[1] for w in second), tuple(w[2] for w in second)
    h1 = [window_out_size(n, k, s, d) for n, k, s, d in zip(hw, k1, s1, d1)]
    h2 = [window_out_size(n, k, s, d) for n, k, s, d in zip(h1, k2, s2, d2)]
    assume(min(h1 + h2) > 0)
    a = AffineConv(rng.normal(size=(f, c, *k1)), s1, d1, rng.normal(size=(f, *h1)))
    b = AffineConv(rng.normal(size=(g, f, *k2)), s2, d2, rng.normal(size=(g, *h2)))
    composed = compose_affine_convs(a, b)
    assert composed_conv_fits(hw, composed)
    x = rng.normal(size=(2, c, *hw))
    np.testing.assert_allclose(composed.apply(x), b.apply(a.apply(x)), atol=1e-9)


# ----------------------------------------------------------------------------- numerics
def _ops(module) -> list[str]:  # type: ignore[no-untyped-def]
    return [op.name for op in module.walk()]


LINEAR = ("linalg.conv_2d_nchw_fchw", "linalg.pooling_nchw_sum", "linalg.matmul", "linalg.matvec")


@pytest.mark.parametrize(
    "name,policy,expected",
    [
        ("cc", "balanced", 1), ("cpcp_nopad", "balanced", 1), ("cpcp_pad", "depth", 1),
        ("cpcp_pad", "balanced", 4), ("pool_linear", "balanced", 1), ("pool_linear", "size", 3),
        ("linlin", "size", 1), ("cc_relu", "depth", 2),
    ],
)
def test_torch_chains_fuse_and_stay_equal(name: str, policy: str, expected: int) -> None:
    before = load_file(INPUTS / f"{name}.mlir")
    module = parse((INPUTS / f"{name}.mlir").read_text())
    run_pipeline(module, f"linalg-fuse-linear-chains{{policy={policy}}}")
    after = load_module(print_module(module))
    assert sum(_ops(after.module).count(n) for n in LINEAR) == expected
    report = check_equivalence(
        before.module, after.module, "main", seeds=(0, 1, 2),
        resources_a=before.resources, resources_b=after.resources,
    )
    assert report.ok, report.summary()


def _conv(name: str, x: str, x_shape, w: np.ndarray, strides, dilations, bias: np.ndarray) -> tuple[str, tuple[int, ...]]:  # type: ignore[no-untyped-def]
    n, _, h, wd = x_shape
    out = (n, w.shape[0], window_out_size(h, w.shape[2], strides[0], dilations[0]),
           window_out_size(wd, w.shape[3], strides[1], dilations[1]))
    t = lambda s: "tensor<" + "x".join(map(str, s)) + "xf32>"  # noqa: E731
    text = (
        f"%{name}_w = arith.constant dense<{w.tolist()}> : {t(w.shape)}\n"
        f"%{name}_b = arith.constant dense<{bias.tolist()}> : tensor<{bias.size}xf32>\n"
        f"%{name}_e = tensor.empty() : {t(out)}\n"
        f"%{name}_i = linalg.broadcast ins(%{name}_b : tensor<{bias.size}xf32>) outs(%{name}_e : {t(out)}) dimensions = [0, 2, 3]\n"
        f"%{name} = linalg.conv_2d_nchw_fchw {{dilations = dense<{list(dilations)}> : vector<2xi64>, "
        f"strides = dense<{list(strides)}> : vector<2xi64>}} ins({x}, %{name}_w : {t(x_shape)}, {t(w.shape)}) "
        f"outs(%{name}_i : {t(out)}) -> {t(out)}\n"
    )
    return text, out


def _pool(name: str, x: str, x_shape, window, strides) -> tuple[str, tuple[int, ...]]:  # type: ignore[no-untyped-def]
    n, c, h, wd = x_shape
    out = (n, c, window_out_size(h, window[0], strides[0], 1), window_out_size(wd, window[1], strides[1], 1))
    t = lambda s: "tensor<" + "x".join(map(str, s)) + "xf32>"  # noqa: E731
    text = (
        f"%{name}_z = arith.constant dense<0.0> : {t(out)}\n"
        f"%{name}_win = tensor.empty() : tensor<{window[0]}x{window[1]}xf32>\n"
        f"%{name} = linalg.pooling_nchw_sum {{strides = dense<{list(strides)}> : vector<2xi64>}} "
        f"ins({x}, %{name}_win : {t(x_shape)}, tensor<{window[0]}x{window[1]}xf32>) outs(%{name}_z : {t(out)}) -> {t(out)}\n"
    )
    return text, out


@SETTINGS
@given(
    k=st.integers(1, 3), s=st.integers(1, 2), d=st.integers(1, 2), p=st.integers(1, 3),
    t=st.integers(1, 2), k2=st.integers(1, 3), batch=st.integers(1, 2), seed=st.integers(0, 9),
)
def test_generated_conv_pool_conv_chain(k, s, d, p, t, k2, batch, seed) -> None:  # type: ignore[no-untyped-def]
    """conv(k, stride s, dilation d) -> sum pool(p, stride t) -> conv(k2): one linear op,
    numerically equal through the evaluator."""
    rng = np.random.default_rng(seed)
    x_shape = (batch, 2, 12, 11)
    a, shape_a = _conv("a", "%x", x_shape, rng.normal(size=(3, 2, k, k)).astype(np.float32), (s, s), (d, d),
                       rng.normal(size=3).astype(np.float32))
    assume(min(shape_a[2:]) >= p)
    b, shape_b = _pool("b", "%a", shape_a, (p, p), (t, t))
    assume(min(shape_b[2:]) >= k2)
    c, shape_c = _conv("c", "%b", shape_b, rng.normal(size=(2, 3, k2, k2)).astype(np.float32), (1, 1), (1, 1),
                       rng.normal(size=2).astype(np.float32))
    tt = lambda sh: "tensor<" + "x".join(map(str, sh)) + "xf32>"  # noqa: E731
    text = f"func.func @main(%x: {tt(x_shape)}) -> {tt(shape_c)} {{\n{a}{b}{c}return %c : {tt(shape_c)}\n}}\n"
    before = parse(text)
    after = parse(text)
    run_pipeline(after, "linalg-fuse-linear-chains")
    assert sum(_ops(after).count(n) for n in LINEAR) == 1
    # f32 sums of ~100 products of magnitude ~10: rounding differs by ~1e-4 absolute.
    report = check_equivalence(before, after, "main", seeds=(0, 1), atol=1e-3)
    assert report.ok, report.summary()


def test_pattern_list_is_exported() -> None:
    """torch-mlir's f16 form normalised first (linear/mixed_precision.py), then a sum of
    a sum made one (before a chain takes the second as a matmul of the first), then chains,
    alone in their set (the step memo's assumption), then chains through skip adds and
    forks (a branch output or sum with other users; convs and, on rows, matmuls), a
    matmul on a conv's tokens or on a mean over a residual add's rows, and through
    channel concats, which read the fused chains
    as branches and share the set of convs kept for a skip, and a sum over a residual
    add's positions; then forks through a pad that does not move, with edge corrections
    (after the concats: they compose the conv after a concat through that pad first); then
    a per-position scale moved back into a 1x1 conv; last, the widenings no fold used are
    undone (a narrow read put back)."""
    *normalise, sums_of_sums, chains, through_adds, edges, positions, narrow = (
        populate_linalg_fuse_linear_chains_patterns())
    assert [type(p).__name__ for s in normalise for p in s.patterns] == [
        "WidenLinearOpInput", "WidenSumPool", "WidenElementwise", "WidenRunBeforeExtf"
    ]
    assert [type(p).__name__ for p in chains.patterns] == ["FuseLinearChain"]
    assert [type(p).__name__ for p in sums_of_sums.patterns] == ["FuseSumOfSum"]
    assert [type(p).__name__ for p in through_adds.patterns] == [
        "FuseChainThroughAdd", "FuseMatmulThroughAdd", "FuseChainThroughFork", "FuseMatmulThroughFork",
        "FuseMatmulOfConvTokens", "FuseMatmulThroughRowSum", "FuseConvOfConcat", "FuseSumThroughAdd",
    ]
    assert [type(p).__name__ for p in edges.patterns] == ["FuseChainThroughFork"]
    (edge_fork,) = edges.patterns
    assert edge_fork.edges and edge_fork.kept is through_adds.patterns[0].kept  # type: ignore[attr-defined]
    assert not through_adds.patterns[2].edges  # type: ignore[attr-defined]
    assert [type(p).__name__ for p in positions.patterns] == ["FoldPositionScaleIntoConv"]
    assert [type(p).__name__ for p in narrow.patterns] == ["NarrowUnusedWidening"]
    add, matmul_add, fork, matmul_fork, tokens, row_sum, concat, spatial_sum = through_adds.patterns
    assert fork.kept is add.kept and matmul_add.kept is add.kept  # type: ignore[attr-defined]
    assert matmul_fork.kept is add.kept and tokens.kept is add.kept  # type: ignore[attr-defined]
    assert row_sum.kept is add.kept  # type: ignore[attr-defined]
    assert concat.through_add is add and spatial_sum.through_add is add  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- global pools
GLOBAL_POOL = Path(__file__).parents[1] / "filecheck/transforms/linalg-fuse-linear-chains/global_pool.mlir"


def test_sum_reduction_axes() -> None:
    from xdsl.ir.affine import AffineMap

    from heirpy.transforms.linear.linear_match import sum_reduction_axes

    ident = AffineMap.identity(4)
    gap = AffineMap.from_callable(lambda n, c, h, w: (n, c, 0, 0))
    dropped = AffineMap.from_callable(lambda n, c, h, w: (n, c))
    kinds = ["parallel", "parallel", "reduction", "reduction"]
    assert sum_reduction_axes(ident, gap, kinds, (1, 4, 6, 6), (1, 4, 1, 1)) == (2, 3)
    assert sum_reduction_axes(ident, dropped, kinds, (1, 4, 6, 6), (1, 4)) == (2, 3)
    # a 0 on an output axis of size > 1, a permuted output, no reduction: not a sum pool
    assert sum_reduction_axes(ident, gap, kinds, (1, 4, 6, 6), (1, 4, 2, 1)) is None
    swapped = AffineMap.from_callable(lambda n, c, h, w: (c, n))
    assert sum_reduction_axes(ident, swapped, kinds, (1, 4, 6, 6), (4, 1)) is None
    assert sum_reduction_axes(ident, ident, ["parallel"] * 4, (1, 4, 6, 6), (1, 4, 6, 6)) is None


def test_global_pool_and_linear_become_one_matmul_with_the_same_values() -> None:
    """The pool's (d0, d1, 0, 0) form is checked against numpy itself: the result must
    be mean over H, W, then the Linear. The fused op is a flatten and one matmul whose
    144x3 matrix repeats the Linear's weights / 36 over H*W (the form IREE's GPU back end
    and HEIR compile), so its weight bytes are 36x the Linear's."""
    from heirpy.analysis.depth import analyze_module
    from heirpy.interp.evaluator import Evaluator

    chunk = chunks(GLOBAL_POOL)[0]
    module = parse(chunk)
    (before,) = analyze_module(module)
    run_pipeline(module, "linalg-fuse-linear-chains")
    (after,) = analyze_module(module)
    assert (before.depth, after.depth) == (2, 1)  # the pool was a level of its own
    assert before.weight_bytes == 3 * 4 * 4 and after.weight_bytes == 144 * 3 * 4
    func = next(iter(module.ops))
    names = [o.name for o in func.walk()]  # type: ignore[attr-defined]
    assert names.count("linalg.matmul") == 1 and "linalg.generic" not in names
    text = GLOBAL_POOL.read_text()
    w = np.array(ast.literal_eval(text.split("dense<", 3)[1].split(">")[0]))  # the Linear's
    b = np.array(ast.literal_eval(text.split("dense<", 3)[2].split(">")[0]))
    rng = np.random.default_rng(0)
    for _ in range(3):
        x = rng.normal(size=(1, 4, 6, 6)).astype(np.float32)
        (got,) = Evaluator(module).call("gap_linear", [x])
        np.testing.assert_allclose(got, x.mean(axis=(2, 3)) @ w.T + b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    ("pipeline", "depth"),
    [
        ("linalg-fuse-linear-chains{max-mac-growth=3}", 1),
        ("linalg-fuse-linear-chains{max-mac-growth=2}", 2),
        ("linalg-fuse-ops{max-mac-growth=3 pointwise=false}", 1),
        ("linalg-fuse-ops{max-mac-growth=2 pointwise=false}", 2),
    ],
)
def test_max_mac_growth_reaches_the_cost_rule(pipeline: str, depth: int) -> None:
    """@gap_linear's weights do not grow when it fuses, its MACs grow 2.77x (432 / 156):
    only the MAC bound can refuse it, so the option must reach the rule through both
    passes (a rule built without it fused under both bounds and no test noticed)."""
    from heirpy.analysis.depth import analyze_module

    chunk = chunks(GLOBAL_POOL)[0]
    before, after = parse(chunk), parse(chunk)
    run_pipeline(after, pipeline)
    (result,) = analyze_module(after)
    assert result.depth == depth
    report = check_equivalence(before, after, "gap_linear", seeds=(0, 1))
    assert report.ok, report.summary()


def _chunks(name: str) -> list[str]:
    return chunks(GLOBAL_POOL.parent / name)


@pytest.mark.parametrize("policy", ["depth", "balanced", "size"])
@pytest.mark.parametrize("name", ["cost_rule.mlir", "positive.mlir"])
def test_filecheck_chains_keep_their_values_under_every_policy(name: str, policy: str) -> None:
    for chunk in _chunks(name):
        before, after = parse(chunk), parse(chunk)
        run_pipeline(after, f"linalg-fuse-linear-chains{{policy={policy}}}")
        for func in before.ops:
            fname = func.sym_name.data  # type: ignore[attr-defined]
            report = check_equivalence(before, after, fname, seeds=(0, 1))
            assert report.ok, f"{name} @{fname}: {report.summary()}"


def test_slot_budget_rule() -> None:
    # Vectors within the budget always fit; beyond it, only up to what the function
    # already carries elsewhere (measured on whole tensors, the batch included).
    assert SlotBudget(1024, 0).allows(1024, 120, 1024, 120)
    assert not SlotBudget(1024, 0).allows(1600, 120, 1600, 120)
    assert SlotBudget(1024, 4704).allows(1600, 120, 1600, 120)
    assert not SlotBudget(1024, 1500).allows(1600, 120, 1600, 120)
    assert not SlotBudget(1024, 1600).allows(120, 1700, 120, 1700)
    assert not SlotBudget(64, 200).allows(128, 32, 256, 64)  # batch 2: 256 > 200
    # At each limit and one past it: the output vector as the input, the tensors against `carried`.
    assert SlotBudget(100, 0).allows(50, 100, 50, 100)
    assert not SlotBudget(100, 0).allows(50, 101, 50, 101)
    assert SlotBudget(1024, 1600).allows(1600, 120, 1600, 120)
    assert SlotBudget(1024, 1700).allows(120, 1700, 120, 1700)
    assert SlotBudget(64, 256).allows(128, 32, 256, 64) and SlotBudget(64, 256).allows(32, 128, 64, 256)
    assert not SlotBudget(64, 255).allows(32, 128, 64, 256)


@pytest.mark.parametrize("budget", [0, 64])
def test_slot_budget_chains_keep_their_values(budget: int) -> None:
    for chunk in _chunks("slot-budget.mlir"):
        before, after = parse(chunk), parse(chunk)
        run_pipeline(after, f"linalg-fuse-linear-chains{{slot-budget={budget} policy=depth}}")
        for func in before.ops:
            fname = func.sym_name.data  # type: ignore[attr-defined]
            report = check_equivalence(before, after, fname, seeds=(0, 1))
            assert report.ok, f"slot-budget.mlir @{fname}: {report.summary()}"


def test_the_policy_decides_the_weights() -> None:
    """Weight bytes (report-depth's column) after each policy on the 2x2-pool chain."""
    from heirpy.analysis.depth import analyze_module

    chunk = _chunks("cost_rule.mlir")[0]
    weights = {}
    for policy in ("depth", "balanced", "size"):
        module = parse(chunk)
        run_pipeline(module, f"linalg-fuse-linear-chains{{policy={policy}}}")
        (result,) = analyze_module(module)
        weights[policy] = (result.depth, result.weight_bytes)
    assert weights == {"depth": (1, 4 * 96), "balanced": (1, 4 * 96), "size": (2, 4 * 24)}


def test_boundary_vectors_count_arguments_and_secret_results() -> None:
    # The longest of the arguments (ciphertexts under --secretize) and the results
    # computed from them; a constant result is plaintext and does not count.
    module = parse("""
    func.func @f(%x: tensor<1x6400xf32>, %y: tensor<3xf32>) -> (tensor<2x10xf32>, tensor<7000xf32>) {
      %c = arith.constant dense<1.0> : tensor<7000xf32>
      %w = arith.constant dense<0.5> : tensor<6400x20xf32>
      %z = arith.constant dense<0.0> : tensor<1x20xf32>
      %m = linalg.matmul ins(%x, %w : tensor<1x6400xf32>, tensor<6400x20xf32>) outs(%z : tensor<1x20xf32>) -> tensor<1x20xf32>
      %r = tensor.expand_shape %m [[0], [1, 2]] output_shape [1, 2, 10] : tensor<1x20xf32> into tensor<1x2x10xf32>
      %s = tensor.collapse_shape %r [[0, 1], [2]] : tensor<1x2x10xf32> into tensor<2x10xf32>
      return %s, %c : tensor<2x10xf32>, tensor<7000xf32>
    }
    func.func @g(%x: tensor<4xf32>) -> tensor<4x4xf32> {
      %e = tensor.empty() : tensor<4x4xf32>
      %b = linalg.broadcast ins(%x : tensor<4xf32>) outs(%e : tensor<4x4xf32>) dimensions = [0]
      return %b : tensor<4x4xf32>
    }
    """)
    f, g = (op for op in module.ops if isinstance(op, FuncOp))
    assert boundary_vectors(f) == 6400
    assert boundary_vectors(g) == 16


def test_a_matmul_adding_a_run_time_init_ends_no_chain_by_crashing() -> None:
    """A matmul with constant weights whose init is an argument (not a constant) is no step
    of a chain (`_matmul_step` needs both constant): the chain after it fuses, values kept."""
    text = """
func.func @main(%x: tensor<2x4xf32>, %b: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w1 = arith.constant dense<[[0.5, -1.0, 0.25], [1.0, 0.75, -0.5], [-0.25, 0.5, 1.5], [2.0, -0.125, 0.5]]> : tensor<4x3xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%b : tensor<2x3xf32>) -> tensor<2x3xf32>
  %w2 = arith.constant dense<[[1.0, 0.5], [-0.5, 0.25], [0.75, -1.0]]> : tensor<3x2xf32>
  %z = arith.constant dense<0.5> : tensor<2x2xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<2x3xf32>, tensor<3x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
"""
    module = parse(text)
    run_pipeline(module, "linalg-fuse-linear-chains{policy=size}")
    report = check_equivalence(parse(text), parse(print_module(module)), "main", seeds=(0, 1))
    assert report.ok, report.summary()


def test_a_pad_of_ones_inside_a_chain_is_no_zero_pad() -> None:
    """conv, a pad of ones, conv: the pad is a step (np.pad with ones), not the zero pad a
    composed conv could read (`Step.zero_pad` stays None); values kept, whatever fuses."""
    text = """
func.func @main(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %one = arith.constant 1.0 : f32
  %w1 = arith.constant dense<[[[[0.5, -0.25], [0.75, 1.0]]]]> : tensor<1x1x2x2xf32>
  %b1 = arith.constant dense<0.25> : tensor<1x1x3x3xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) outs(%b1 : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %p = tensor.pad %c1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %one : f32
  } : tensor<1x1x3x3xf32> to tensor<1x1x5x5xf32>
  %w2 = arith.constant dense<[[[[1.0, -0.5], [0.25, 0.5]]]]> : tensor<1x1x2x2xf32>
  %b2 = arith.constant dense<0.5> : tensor<1x1x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x1x5x5xf32>, tensor<1x1x2x2xf32>) outs(%b2 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %c2 : tensor<1x1x4x4xf32>
}
"""
    for policy in ("size", "depth"):
        module = parse(text)
        run_pipeline(module, f"linalg-fuse-linear-chains{{policy={policy}}}")
        report = check_equivalence(parse(text), parse(print_module(module)), "main", seeds=(0, 1))
        assert report.ok, report.summary()
