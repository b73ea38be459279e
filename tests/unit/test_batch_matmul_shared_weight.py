"""A batch_matmul whose weight is one constant matrix for every batch (torch-mlir's
nn.Linear on a non-contiguous 3-D input, LeViT's LinearNorm) is a matmul on the collapsed
batch (`canonicalize.batch_matmul`), so a batch norm after it folds and Linear -> BN ->
Linear is one linear chain, in f32 and in torch-mlir's f16 form; a weight that differs per
batch is left alone. Depth and numerics before/after under the main pipeline."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp

from heirpy.analysis.depth import analyze_function, depth_bound
from heirpy.api import clone_module, parse, print_module, run_pipeline
from heirpy.interp import load_module, run_function
from heirpy.transforms.canonicalize.batch_matmul import shared_matrix

PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"
ID3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
BKN = "affine_map<(d0, d1, d2) -> (d1, d2)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
ROW = "affine_map<(d0, d1) -> (d1)>"


def _dense(values: np.ndarray, dtype: str) -> str:
    body = np.array2string(values, separator=", ", threshold=10**6, floatmode="unique").replace("\n", "")
    return f"dense<{body}> : tensor<{'x'.join(map(str, values.shape))}x{dtype}>"


def _t(shape: tuple[int, ...], dtype: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


class _Writer:
    """Writes torch-mlir's form of LinearNorm layers, one value at a time."""

    def __init__(self, dtype: str, rng: np.random.Generator):
        self.dtype, self.rng, self.lines, self.count = dtype, rng, [], 0
        self.np_dtype = np.float16 if dtype == "f16" else np.float32

    def name(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def const(self, values: np.ndarray, dtype: str | None = None) -> str:
        name = self.name()
        dtype = dtype or self.dtype
        cast = np.float16 if dtype == "f16" else np.float32
        self.lines.append(f"{name} = arith.constant {_dense(values.astype(cast), dtype)}")
        return name

    def weight(self, batch: int, k: int, n: int, per_batch: bool) -> str:
        """The [B, K, N] right operand: torch-mlir's copying generic of one [K, N]
        matrix, or (`per_batch`) a literal whose batches differ."""
        if per_batch:
            return self.const(self.rng.normal(size=(batch, k, n)) * 0.5)
        matrix = self.const(self.rng.normal(size=(k, n)) * 0.5)
        empty, name = self.name(), self.name()
        self.lines += [
            f"{empty} = tensor.empty() : {_t((batch, k, n), self.dtype)}",
            f"{name} = linalg.generic {{indexing_maps = [{BKN}, {ID3}], iterator_types = "
            f'["parallel", "parallel", "parallel"]}} ins({matrix} : {_t((k, n), self.dtype)}) '
            f"outs({empty} : {_t((batch, k, n), self.dtype)}) {{",
            f"^bb0(%in: {self.dtype}, %out: {self.dtype}):",
            f"  linalg.yield %in : {self.dtype}",
            f"}} -> {_t((batch, k, n), self.dtype)}",
        ]
        return name

    def linear_norm(self, x: str, shape: tuple[int, int, int], n: int, per_batch: bool = False) -> str:
        """batch_matmul (f32 accumulator), [truncf], collapse to rows, batch norm
        (scale, shift; f32 arithmetic on widened f16 as torch-mlir writes it), [truncf],
        expand back: [B, M, K] -> [B, M, N]."""
        batch, rows, k = shape
        d, wide = self.dtype, "f32"
        weight = self.weight(batch, k, n, per_batch)
        zero, empty, init, product = self.name(), self.name(), self.name(), self.name()
        self.lines += [
            f"{zero} = arith.constant 0.000000e+00 : f32",
            f"{empty} = tensor.empty() : {_t((batch, rows, n), wide)}",
            f"{init} = linalg.fill ins({zero} : f32) outs({empty} : {_t((batch, rows, n), wide)}) "
            f"-> {_t((batch, rows, n), wide)}",
            f"{product} = linalg.batch_matmul ins({x}, {weight} : {_t(shape, d)}, {_t((batch, k, n), d)}) "
            f"outs({init} : {_t((batch, rows, n), wide)}) -> {_t((batch, rows, n), wide)}",
        ]
        value = self.cast(product, (batch, rows, n), ID3, 3) if d == "f16" else product
        flat = self.name()
        self.lines.append(
            f"{flat} = tensor.collapse_shape {value} [[0, 1], [2]] : {_t((batch, rows, n), d)} "
            f"into {_t((batch * rows, n), d)}"
        )
        value = flat
        for op, values in (("mulf", self.rng.uniform(0.5, 1.5, n)), ("addf", self.rng.normal(size=n))):
            vector = self.const(values, wide)
            empty, out = self.name(), self.name()
            widen = f"%w = arith.extf %a : {d} to f32" if d == "f16" else ""
            operand = "%w" if d == "f16" else "%a"
            self.lines += [
                f"{empty} = tensor.empty() : {_t((batch * rows, n), wide)}",
                f"{out} = linalg.generic {{indexing_maps = [{ID2}, {ROW}, {ID2}], iterator_types = "
                f'["parallel", "parallel"]}} ins({value}, {vector} : {_t((batch * rows, n), d)}, {_t((n,), wide)}) '
                f"outs({empty} : {_t((batch * rows, n), wide)}) {{",
                f"^bb0(%a: {d}, %b: f32, %o: f32):",
                *([f"  {widen}"] if widen else []),
                f"  %r = arith.{op} {operand}, %b : f32",
                "  linalg.yield %r : f32",
                f"}} -> {_t((batch * rows, n), wide)}",
            ]
            value = out
            d = wide  # the shift reads the scale's f32 result
        if self.dtype == "f16":
            value = self.cast(value, (batch * rows, n), ID2, 2)
        expanded = self.name()
        self.lines.append(
            f"{expanded} = tensor.expand_shape {value} [[0, 1], [2]] output_shape [{batch}, {rows}, {n}] "
            f": {_t((batch * rows, n), self.dtype)} into {_t((batch, rows, n), self.dtype)}"
        )
        return expanded

    def cast(self, value: str, shape: tuple[int, ...], identity: str, rank: int) -> str:
        empty, out = self.name(), self.name()
        kinds = ", ".join(['"parallel"'] * rank)
        self.lines += [
            f"{empty} = tensor.empty() : {_t(shape, 'f16')}",
            f"{out} = linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = "
            f"[{kinds}]}} ins({value} : {_t(shape, 'f32')}) outs({empty} : {_t(shape, 'f16')}) {{",
            "^bb0(%in: f32, %out: f16):",
            "  %c = arith.truncf %in : f32 to f16",
            "  linalg.yield %c : f16",
            f"}} -> {_t(shape, 'f16')}",
        ]
        return out


def linear_bn_linear_bn(dtype: str, batch: int, rows: int, dims: tuple[int, int, int], per_batch: bool = False,
                        seed: int = 0) -> str:
    """`@main(x[B, M, K0])`: LinearNorm, LinearNorm (LeViT's MLP without its hardswish,
    so that the two are one linear chain)."""
    writer = _Writer(dtype, np.random.default_rng(seed))
    k0, k1, k2 = dims
    hidden = writer.linear_norm("%x", (batch, rows, k0), k1, per_batch)
    out = writer.linear_norm(hidden, (batch, rows, k1), k2)
    body = "\n    ".join(writer.lines)
    result = _t((batch, rows, k2), dtype)
    return (f"func.func @main(%x: {_t((batch, rows, k0), dtype)}) -> {result} {{\n    {body}\n"
            f"    return {out} : {result}\n}}\n")


def _main(module: object) -> FuncOp:
    return next(op for op in module.walk() if isinstance(op, FuncOp))  # type: ignore[attr-defined]


def _run(ir: str, x: np.ndarray) -> np.ndarray:
    loaded = load_module(ir)
    (out,) = run_function(loaded.module, "main", [x], resources=loaded.resources)
    return np.asarray(out, dtype=np.float64)


# ------------------------------------------------------------------ the pure helper
def test_shared_matrix_at_its_limit() -> None:
    same = np.stack([np.arange(6.0).reshape(2, 3)] * 3)
    np.testing.assert_array_equal(shared_matrix(same), same[0])
    differs = same.copy()
    differs[2, 1, 2] += 1e-3  # one element of the last batch
    assert shared_matrix(differs) is None
    assert shared_matrix(same[:1]) is not None  # one batch: its own matrix
    assert shared_matrix(same[0]) is None  # not [B, K, N]


# ------------------------------------------------------------------ depth and numerics
@pytest.mark.parametrize(("dtype", "batch"), [("f32", 1), ("f16", 1), ("f32", 2), ("f16", 3)])
def test_linear_norm_pair_is_one_level(dtype: str, batch: int) -> None:
    """Raw: two batch_matmuls and two BN scales, depth 4, bound 1. After the main
    pipeline: no batch_matmul, one linear op, depth 1 (before this rewrite nothing
    folded: depth 4, four linear ops); the output equals the raw IR's (f16: within its rounding)."""
    ir = linear_bn_linear_bn(dtype, batch, 5, (4, 6, 3))
    before = parse(ir)
    raw, bound = analyze_function(_main(before)), depth_bound(_main(before))
    assert (raw.depth, bound.depth) == (4, 1)
    after = clone_module(before)
    run_pipeline(after, PIPELINE)
    text = print_module(after)
    assert "linalg.batch_matmul" not in text
    fused = analyze_function(_main(after))
    assert (fused.depth, fused.linear_ops) == (1, 1)
    x = np.random.default_rng(1).normal(size=(batch, 5, 4)).astype(np.float16 if dtype == "f16" else np.float32)
    expected, got = _run(ir, x), _run(text, x)
    scale = float(np.abs(expected).max())
    tolerance = 1e-5 if dtype == "f32" else 4e-3
    np.testing.assert_allclose(got, expected, atol=tolerance * scale, rtol=0)


@pytest.mark.parametrize("dtype", ["f32", "f16"])
def test_per_batch_weight_stays_a_batch_matmul(dtype: str) -> None:
    """The first weight differs per batch: it stays a batch_matmul and the two Linears
    stay two linear ops, depth 2 in f32 (its BN goes forward into the second Linear, a
    matmul; the shared-weight twin reaches 1); the output is unchanged."""
    ir = linear_bn_linear_bn(dtype, 2, 3, (4, 5, 2), per_batch=True)
    module = parse(ir)
    run_pipeline(module, PIPELINE)
    text = print_module(module)
    assert text.count("linalg.batch_matmul") == 1
    fused = analyze_function(_main(module))
    assert fused.depth >= 2 and fused.linear_ops >= 2  # f16 also keeps the first BN: 3
    x = np.random.default_rng(2).normal(size=(2, 3, 4)).astype(np.float16 if dtype == "f16" else np.float32)
    expected, got = _run(ir, x), _run(text, x)
    tolerance = 1e-5 if dtype == "f32" else 4e-3
    np.testing.assert_allclose(got, expected, atol=tolerance * float(np.abs(expected).max()), rtol=0)
