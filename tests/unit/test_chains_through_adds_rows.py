"""Matmul chains through a residual add and through a fork, on rows
(`chains_through_adds_rows`): a LeViT-like residual stream of Linears (batch norms
folded) in f32 and torch-mlir's f16 form reaches the depth bound; the legality helpers at
their limits."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp

from heirpy.analysis.depth import analyze_function, depth_bound
from heirpy.api import clone_module, parse, print_module, run_pipeline
from heirpy.interp import load_module, run_function
from heirpy.transforms.linear.chains_through_adds_rows import keeps_rows

PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"


def _dense(values: np.ndarray, dtype: str) -> str:
    body = np.array2string(values, separator=", ", threshold=10**6, floatmode="unique").replace("\n", "")
    return f"dense<{body}> : tensor<{'x'.join(map(str, values.shape))}x{dtype}>"


def residual_stream(dtype: str, blocks: int, rows: int = 4, width: int = 3, seed: int = 0) -> str:
    """`@main(x[1, R, C])`: `blocks` times `x = x + W2 relu(W1 x)` (LeViT's MLP block,
    its batch norms already folded), then a last Linear; f16: f16 operands, f32
    accumulators and a truncf after each matmul, as torch-mlir writes `.half()`."""
    rng = np.random.default_rng(seed)
    lines: list[str] = []
    count = 0

    def name() -> str:
        nonlocal count
        count += 1
        return f"%v{count}"

    def t(shape: tuple[int, ...], d: str = dtype) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{d}>"

    def matmul(x: str, n_in: int, n_out: int) -> str:
        w, zero, empty, init, out = name(), name(), name(), name(), name()
        lines.extend([
            f"{w} = arith.constant {_dense((rng.normal(size=(n_in, n_out)) * 0.5).astype(np.float32), dtype)}",
            f"{zero} = arith.constant 0.000000e+00 : f32",
            f"{empty} = tensor.empty() : {t((rows, n_out), 'f32')}",
            f"{init} = linalg.fill ins({zero} : f32) outs({empty} : {t((rows, n_out), 'f32')}) -> {t((rows, n_out), 'f32')}",
            f"{out} = linalg.matmul ins({x}, {w} : {t((rows, n_in))}, {t((n_in, n_out))}) "
            f"outs({init} : {t((rows, n_out), 'f32')}) -> {t((rows, n_out), 'f32')}",
        ])
        if dtype == "f32":
            return out
        narrow = name()
        lines.append(f"{narrow} = arith.truncf {out} : {t((rows, n_out), 'f32')} to {t((rows, n_out))}")
        return narrow

    stream = "%x"
    for _ in range(blocks):
        flat = name()
        lines.append(f"{flat} = tensor.collapse_shape {stream} [[0, 1], [2]] : {t((1, rows, width))} into {t((rows, width))}")
        hidden = matmul(flat, width, 2 * width)
        zeros, act = name(), name()
        lines += [f"{zeros} = arith.constant dense<0.0> : {t((rows, 2 * width))}",
                  f"{act} = arith.maximumf {hidden}, {zeros} : {t((rows, 2 * width))}"]
        branch = matmul(act, 2 * width, width)
        expanded, total = name(), name()
        lines += [
            f"{expanded} = tensor.expand_shape {branch} [[0, 1], [2]] output_shape [1, {rows}, {width}] "
            f": {t((rows, width))} into {t((1, rows, width))}",
            f"{total} = arith.addf {stream}, {expanded} : {t((1, rows, width))}",
        ]
        stream = total
    flat = name()
    lines.append(f"{flat} = tensor.collapse_shape {stream} [[0, 1], [2]] : {t((1, rows, width))} into {t((rows, width))}")
    out = matmul(flat, width, 2)
    body = "\n  ".join(lines)
    return (f"func.func @main(%x: {t((1, rows, width))}) -> {t((rows, 2))} {{\n  {body}\n"
            f"  return {out} : {t((rows, 2))}\n}}\n")


def _main(module: object) -> FuncOp:
    return next(op for op in module.walk() if isinstance(op, FuncOp))  # type: ignore[attr-defined]


def _run(ir: str, x: np.ndarray) -> np.ndarray:
    loaded = load_module(ir)
    (out,) = run_function(loaded.module, "main", [x], resources=loaded.resources)
    return np.asarray(out, dtype=np.float64)


@pytest.mark.parametrize(("groups", "rank", "expected"), [
    ([[0, 1], [2]], 3, True),  # rows merged, features kept
    ([[0], [1], [2]], 3, True),
    ([[0], [1, 2]], 3, False),  # features regrouped with a row axis
    ([[0, 1, 2]], 3, False),
    ([], 0, False),
])
def test_keeps_rows_at_its_limits(groups: list[list[int]], rank: int, expected: bool) -> None:
    assert keeps_rows(groups, rank) is expected


@pytest.mark.parametrize("dtype", ["f32", "f16"])
@pytest.mark.parametrize("blocks", [1, 3])
def test_residual_stream_reaches_its_bound(dtype: str, blocks: int) -> None:
    """Raw: two levels a block and one for the last Linear; the bound: one a block (each
    block's W2 and the next Linear are one chain through the add) and one for the
    first. After the main pipeline the depth is the bound (before: the raw depth) and
    the output is the raw IR's (f16: within its roundings)."""
    ir = residual_stream(dtype, blocks)
    before = parse(ir)
    raw, bound = analyze_function(_main(before)).depth, depth_bound(_main(before)).depth
    assert (raw, bound) == (2 * blocks + 1, blocks + 1)
    after = clone_module(before)
    run_pipeline(after, PIPELINE)
    assert analyze_function(_main(after)).depth == bound
    x = np.random.default_rng(3).normal(size=(1, 4, 3)).astype(np.float16 if dtype == "f16" else np.float32)
    expected, got = _run(ir, x), _run(print_module(after), x)
    tolerance = 1e-5 if dtype == "f32" else 2e-2
    np.testing.assert_allclose(got, expected, atol=tolerance * float(np.abs(expected).max()), rtol=0)


def test_the_cost_rule_decides() -> None:
    """policy=size never grows weights: between blocks W2 (6x3) and the next W1 (3x6),
    36 weights, become the composed 6x6 and the kept W1, 54: refused; the last W2 and
    the 3x2 Linear, 24, become 6x2 and the kept 3x2, 18: fused. Depth 5 -> 4, not 3."""
    module = parse(residual_stream("f32", 2))
    run_pipeline(module, "linalg-canonicalizations,linalg-fuse-ops{policy=size}")
    assert analyze_function(_main(module)).depth == 4
