"""Hypothesis strategies for random but valid linalg-on-tensors functions, written the way
torch-mlir prints them (compare examples/*.mlir): convs with a broadcast bias or a zero fill
as init and an optional `tensor.pad` before, sum pools (fill 0 + `pooling_nchw_sum`) with an
optional average divide generic, max pools with a -inf fill (and -inf pad), x*x / relu /
sigmoid as `linalg.generic`, `tensor.expand_shape` / `collapse_shape`, `linalg.transpose`,
`linalg.broadcast` + add, and flatten + linear (transpose the weight, fill, matmul, bias
generic). Weights are `dense<...>` constants, `dense_resource<...>` blobs or function
arguments.

    from strategies import programs        # after putting tests/ on sys.path
    @given(programs())
    def test_something(program: Program) -> None:
        module = heirpy.parse(program.text)

Shapes stay small (batch <= 2, images <= 12x12, channels <= 4 on entry) so the numpy
evaluator runs a program in milliseconds. This module must stay importable without pytest:
`benchmarks/fuzz_generated.py` uses it too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import prod
from typing import Any

import numpy as np
from hypothesis import strategies as st

Shape = tuple[int, ...]
Draw = Callable[[st.SearchStrategy[Any]], Any]

NEG_INF = "0xFF800000"  # how torch-mlir spells -inf for a max-pool init
WEIGHT_KINDS = ("dense", "resource", "arg")
ACTIVATIONS = ("square", "relu", "sigmoid")


def tensor_type(shape: Shape) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def _identity_map(rank: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def _parallel(rank: int) -> str:
    return "[" + ", ".join(['"parallel"'] * rank) + "]"


def _i64_pair(pair: tuple[int, int]) -> str:
    # torch-mlir prints a splat when both dims agree.
    if pair[0] == pair[1]:
        return f"dense<{pair[0]}> : vector<2xi64>"
    return f"dense<[{pair[0]}, {pair[1]}]> : vector<2xi64>"


def _dense_literal(values: np.ndarray) -> str:
    """`dense<...>` text. Values are multiples of 1/64, so the short repr is exact."""

    def nested(a: np.ndarray) -> str:
        if a.ndim == 0:
            return repr(float(a))
        return "[" + ", ".join(nested(x) for x in a) + "]"

    return f"dense<{nested(values)}>"


@dataclass
class _Builder:
    """Accumulates one function's lines, arguments and resource blobs."""

    rng: np.random.Generator
    args: list[tuple[str, Shape]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    blobs: dict[str, str] = field(default_factory=dict)
    constants: dict[str, str] = field(default_factory=dict)  # scalar text -> SSA name
    counter: int = 0
    layers: list[str] = field(default_factory=list)

    def fresh(self, stem: str = "v") -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append(line)

    def scalar(self, text: str) -> str:
        """An f32 scalar constant, emitted once (torch-mlir hoists them to the top)."""
        if text not in self.constants:
            name = self.fresh("cst")
            self.constants[text] = name
            self.lines.insert(0, f"{name} = arith.constant {text} : f32")
        return self.constants[text]

    def weight(self, shape: Shape, kind: str, scale: float) -> str:
        """A weight tensor: a dense constant, a dense_resource blob or a new argument."""
        values = np.round(self.rng.standard_normal(shape) * scale * 64.0) / 64.0
        values = values.astype(np.float32)
        if kind == "arg":
            name = f"%arg{len(self.args)}"
            self.args.append((name, shape))
            return name
        name = self.fresh("cst")
        if kind == "resource":
            handle = f"blob_{self.counter}_{'_'.join(map(str, shape))}.float32"
            # A printed blob starts with its alignment as a little-endian u32.
            self.blobs[handle] = "0x04000000" + values.astype("<f4").tobytes().hex().upper()
            literal = f"dense_resource<{handle}>"
        else:
            literal = _dense_literal(values)
        self.emit(f"{name} = arith.constant {literal} : {tensor_type(shape)}")
        return name

    def empty(self, shape: Shape) -> str:
        name = self.fresh()
        self.emit(f"{name} = tensor.empty() : {tensor_type(shape)}")
        return name

    def fill(self, value: str, shape: Shape) -> str:
        out = self.empty(shape)
        name = self.fresh()
        t = tensor_type(shape)
        self.emit(f"{name} = linalg.fill ins({value} : f32) outs({out} : {t}) -> {t}")
        return name

    def pad(self, x: str, shape: Shape, low: Shape, high: Shape, value: str) -> tuple[str, Shape]:
        out_shape = tuple(d + lo + hi for d, lo, hi in zip(shape, low, high))
        name = self.fresh("padded")
        idx = ", ".join(f"{self.fresh('i')}: index" for _ in shape)
        self.emit(
            f"{name} = tensor.pad {x} low[{', '.join(map(str, low))}] high[{', '.join(map(str, high))}] {{\n"
            f"^bb0({idx}):\n  tensor.yield {value} : f32\n"
            f"}} : {tensor_type(shape)} to {tensor_type(out_shape)}"
        )
        return name, out_shape

    def generic(
        self, inputs: Sequence[tuple[str, Shape, str]], shape: Shape, body: Callable[[list[str]], list[str]]
    ) -> str:
        """A parallel generic over `shape`; inputs are (value, shape, indexing map).
        `body` gets the block argument names and returns lines ending in linalg.yield."""
        rank = len(shape)
        out = self.empty(shape)
        name = self.fresh()
        maps = ", ".join([m for _, _, m in inputs] + [_identity_map(rank)])
        ins = ", ".join(v for v, _, _ in inputs)
        ins_types = ", ".join(tensor_type(s) for _, s, _ in inputs)
        block_args = [self.fresh("in") for _ in inputs]
        out_arg = self.fresh("out")
        header = ", ".join([f"{a}: f32" for a in block_args] + [f"{out_arg}: f32"])
        t = tensor_type(shape)
        lines = "\n".join("  " + line for line in body(block_args))
        self.emit(
            f"{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = {_parallel(rank)}}} "
            f"ins({ins} : {ins_types}) outs({out} : {t}) {{\n^bb0({header}):\n{lines}\n}} -> {t}"
        )
        return name

    def text(self, results: Sequence[tuple[str, Shape]]) -> str:
        signature = ", ".join(f"{n}: {tensor_type(s)}" for n, s in self.args)
        result_types = ", ".join(tensor_type(s) for _, s in results)
        if len(results) > 1:
            result_types = f"({result_types})"
        body = "\n".join(self.lines)
        ret = f"return {', '.join(n for n, _ in results)} : {', '.join(tensor_type(s) for _, s in results)}"
        out = f"module {{\n  func.func @main({signature}) -> {result_types} {{\n{_indent(body)}\n    {ret}\n  }}\n}}\n"
        if self.blobs:
            entries = ",\n".join(f"      {h}: \"{b}\"" for h, b in self.blobs.items())
            out += f"\n{{-#\n  dialect_resources: {{\n    builtin: {{\n{entries}\n    }}\n  }}\n#-}}\n"
        return out


def _indent(body: str) -> str:
    return "\n".join("    " + line for line in body.splitlines())


@dataclass(frozen=True)
class Program:
    """A generated function `@main`: its MLIR text and the layers it was built from."""

    text: str
    layers: tuple[str, ...]
    arg_shapes: tuple[Shape, ...]
    result_shapes: tuple[Shape, ...]

    def __repr__(self) -> str:  # what hypothesis prints for a falsifying example
        return f"Program(layers={list(self.layers)})\n{self.text}"


# ------------------------------------------------------------------------ layers
def _activation(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    kind = draw(st.sampled_from(ACTIVATIONS))
    ident = _identity_map(len(shape))
    b.layers.append(kind)
    if kind == "square":
        # torch-mlir's x * x reads the same tensor twice.
        def square(a: list[str]) -> list[str]:
            r = b.fresh()
            return [f"{r} = arith.mulf {a[0]}, {a[1]} : f32", f"linalg.yield {r} : f32"]

        return b.generic([(x, shape, ident), (x, shape, ident)], shape, square), shape
    if kind == "relu":
        zero = b.scalar("0.000000e+00")

        def relu(a: list[str]) -> list[str]:
            c, r = b.fresh(), b.fresh()
            return [
                f"{c} = arith.cmpf ugt, {a[0]}, {zero} : f32",
                f"{r} = arith.select {c}, {a[0]}, {zero} : f32",
                f"linalg.yield {r} : f32",
            ]

        return b.generic([(x, shape, ident)], shape, relu), shape
    one = b.scalar("1.000000e+00")

    def sigmoid(a: list[str]) -> list[str]:
        n, e, s, r = b.fresh(), b.fresh(), b.fresh(), b.fresh()
        return [
            f"{n} = arith.negf {a[0]} : f32",
            f"{e} = math.exp {n} : f32",
            f"{s} = arith.addf {e}, {one} : f32",
            f"{r} = arith.divf {one}, {s} : f32",
            f"linalg.yield {r} : f32",
        ]

    return b.generic([(x, shape, ident)], shape, sigmoid), shape


def _permuted_activation(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """An activation that reads its input through a permutation map: a transpose fused
    into the generic, as MLIR's elementwise fusion and heirpy's own fusions emit it."""
    perm = draw(st.permutations(range(len(shape))).filter(lambda p: list(p) != sorted(p)))
    out = tuple(shape[p] for p in perm)
    dims = ", ".join(f"d{i}" for i in range(len(shape)))
    reads = ", ".join(f"d{perm.index(j)}" for j in range(len(shape)))
    square = draw(st.booleans())
    zero = b.scalar("0.000000e+00")

    def body(a: list[str]) -> list[str]:
        if square:
            r = b.fresh()
            return [f"{r} = arith.mulf {a[0]}, {a[0]} : f32", f"linalg.yield {r} : f32"]
        c, r = b.fresh(), b.fresh()
        return [f"{c} = arith.cmpf ugt, {a[0]}, {zero} : f32",
                f"{r} = arith.select {c}, {a[0]}, {zero} : f32", f"linalg.yield {r} : f32"]

    b.layers.append(f"permuted_{'square' if square else 'relu'}{list(perm)}")
    return b.generic([(x, shape, f"affine_map<({dims}) -> ({reads})>")], out, body), out


def _window(draw: Draw, size: int, max_kernel: int, max_dilation: int) -> tuple[int, int, int]:
    """(kernel, stride, dilation) along one dim of an input of `size`, always valid."""
    kernel = draw(st.integers(1, max_kernel))
    dilation = draw(st.integers(1, max_dilation))
    stride = draw(st.integers(1, 2))
    if (kernel - 1) * dilation + 1 > size:
        dilation = 1
        kernel = min(kernel, size)
    return kernel, stride, dilation


def _out_size(size: int, kernel: int, stride: int, dilation: int) -> int:
    return (size - (kernel - 1) * dilation - 1) // stride + 1


def _conv(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    n, c, h, w = shape
    if draw(st.booleans()):
        low = (0, 0, draw(st.integers(0, 1)), draw(st.integers(0, 1)))
        high = (0, 0, draw(st.integers(0, 1)), draw(st.integers(0, 1)))
        if any(low) or any(high):
            x, shape = b.pad(x, shape, low, high, b.scalar("0.000000e+00"))
            b.layers.append(f"pad{low[2:]}{high[2:]}")
    _, _, h, w = shape
    f = draw(st.integers(1, 4))
    kh, sh, dh = _window(draw, h, 3, 2)
    kw, sw, dw = _window(draw, w, 3, 2)
    out = (n, f, _out_size(h, kh, sh, dh), _out_size(w, kw, sw, dw))
    kind = draw(st.sampled_from(WEIGHT_KINDS))
    weight = b.weight((f, c, kh, kw), kind, 1.0 / np.sqrt(c * kh * kw))
    t_out = tensor_type(out)
    if draw(st.booleans()):
        bias = b.weight((f,), draw(st.sampled_from(WEIGHT_KINDS)), 0.5)
        e = b.empty(out)
        init = b.fresh("broadcasted")
        b.emit(f"{init} = linalg.broadcast ins({bias} : tensor<{f}xf32>) outs({e} : {t_out}) dimensions = [0, 2, 3]")
    else:
        init = b.fill(b.scalar("0.000000e+00"), out)
    name = b.fresh()
    b.emit(
        f"{name} = linalg.conv_2d_nchw_fchw {{dilations = {_i64_pair((dh, dw))}, strides = {_i64_pair((sh, sw))}}} "
        f"ins({x}, {weight} : {tensor_type(shape)}, {tensor_type((f, c, kh, kw))}) outs({init} : {t_out}) -> {t_out}"
    )
    b.layers.append(f"conv{f}x{c}x{kh}x{kw}/s{sh},{sw}/d{dh},{dw}/{kind}")
    return name, out


def _pool(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    kind = draw(st.sampled_from(("sum", "avg", "max")))
    pad_value = NEG_INF if kind == "max" else "0.000000e+00"
    kh, sh, _ = _window(draw, shape[2], 3, 1)
    kw, sw, _ = _window(draw, shape[3], 3, 1)
    # PyTorch pads a pool by at most half its window: no window lies wholly in the pad
    # (a max over -inf padding alone is -inf, and x*x or a conv of it NaN).
    if min(kh, kw) >= 2 and draw(st.integers(0, 3)) == 0:
        x, shape = b.pad(x, shape, (0, 0, 1, 1), (0, 0, 1, 1), b.scalar(pad_value))
        b.layers.append("pad1")
    n, c, h, w = shape
    out = (n, c, _out_size(h, kh, sh, 1), _out_size(w, kw, sw, 1))
    init = b.fill(b.scalar(pad_value), out)
    window = b.empty((kh, kw))
    name = b.fresh()
    t_out = tensor_type(out)
    op = "linalg.pooling_nchw_max" if kind == "max" else "linalg.pooling_nchw_sum"
    b.emit(
        f"{name} = {op} {{dilations = dense<1> : vector<2xi64>, strides = {_i64_pair((sh, sw))}}} "
        f"ins({x}, {window} : {tensor_type(shape)}, {tensor_type((kh, kw))}) outs({init} : {t_out}) -> {t_out}"
    )
    b.layers.append(f"{kind}pool{kh}x{kw}/s{sh},{sw}")
    if kind == "avg":
        count = b.scalar(f"{float(kh * kw):e}")

        def divide(a: list[str]) -> list[str]:
            r = b.fresh()
            return [f"{r} = arith.divf {a[0]}, {count} : f32", f"linalg.yield {r} : f32"]

        name = b.generic([(name, out, _identity_map(4))], out, divide)
    return name, out


def _transpose(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    perm = draw(st.permutations(range(len(shape))).filter(lambda p: list(p) != sorted(p)))
    out = tuple(shape[p] for p in perm)
    e = b.empty(out)
    name = b.fresh("transposed")
    b.emit(
        f"{name} = linalg.transpose ins({x} : {tensor_type(shape)}) outs({e} : {tensor_type(out)}) "
        f"permutation = [{', '.join(map(str, perm))}]"
    )
    b.layers.append(f"transpose{list(perm)}")
    return name, out


def _broadcast_add(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """x + broadcast(b), the broadcast operand keeping a non-empty subset of the dims:
    through linalg.broadcast, or through an indexing map reading size-1 dims at 0."""
    rank = len(shape)
    kept = draw(st.sets(st.integers(0, rank - 1), min_size=1, max_size=rank - 1))
    added = [d for d in range(rank) if d not in kept]
    ident = _identity_map(rank)

    def add(a: list[str]) -> list[str]:
        r = b.fresh()
        return [f"{r} = arith.addf {a[0]}, {a[1]} : f32", f"linalg.yield {r} : f32"]

    if draw(st.booleans()):
        # torch-mlir's form for x + b.view(1, C, 1, 1): size-1 dims read at index 0.
        ones = tuple(shape[d] if d in kept else 1 for d in range(rank))
        bias = b.weight(ones, draw(st.sampled_from(WEIGHT_KINDS)), 0.5)
        dims = ", ".join(f"d{i}" for i in range(rank))
        results = ", ".join(f"d{d}" if d in kept else "0" for d in range(rank))
        b.layers.append(f"map_add{sorted(kept)}")
        return b.generic([(x, shape, ident), (bias, ones, f"affine_map<({dims}) -> ({results})>")], shape, add), shape
    small = tuple(shape[d] for d in sorted(kept))
    bias = b.weight(small, draw(st.sampled_from(WEIGHT_KINDS)), 0.5)
    e = b.empty(shape)
    wide = b.fresh("broadcasted")
    b.emit(
        f"{wide} = linalg.broadcast ins({bias} : {tensor_type(small)}) outs({e} : {tensor_type(shape)}) "
        f"dimensions = [{', '.join(map(str, added))}]"
    )
    b.layers.append(f"broadcast_add{sorted(kept)}")
    return b.generic([(x, shape, ident), (wide, shape, ident)], shape, add), shape


def _factor_pairs(size: int) -> list[tuple[int, int]]:
    return [(a, size // a) for a in range(2, size) if size % a == 0]


def _reshape(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """Split one composite dim (expand_shape) or merge two adjacent dims (collapse_shape)."""
    rank = len(shape)
    splittable = [d for d in range(rank) if _factor_pairs(shape[d])] if rank < 5 else []
    can_merge = rank > 2
    if splittable and (not can_merge or draw(st.booleans())):
        dim = draw(st.sampled_from(splittable))
        a, c = draw(st.sampled_from(_factor_pairs(shape[dim])))
        out = shape[:dim] + (a, c) + shape[dim + 1 :]
        groups, j = [], 0
        for d in range(rank):
            groups.append([j, j + 1] if d == dim else [j])
            j += len(groups[-1])
        name = b.fresh("expanded")
        b.emit(
            f"{name} = tensor.expand_shape {x} {groups} output_shape [{', '.join(map(str, out))}] "
            f": {tensor_type(shape)} into {tensor_type(out)}"
        )
        b.layers.append(f"expand{dim}->{a}x{c}")
        return name, out
    dim = draw(st.integers(0, rank - 2))
    out = shape[:dim] + (shape[dim] * shape[dim + 1],) + shape[dim + 2 :]
    groups = [[d] for d in range(dim)] + [[dim, dim + 1]] + [[d] for d in range(dim + 2, rank)]
    name = b.fresh("collapsed")
    b.emit(f"{name} = tensor.collapse_shape {x} {groups} : {tensor_type(shape)} into {tensor_type(out)}")
    b.layers.append(f"collapse{dim},{dim + 1}")
    return name, out


def _linear(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """torch-mlir's nn.Linear, after a flatten when the input has rank > 2."""
    if len(shape) > 2:
        flat = (shape[0], prod(shape[1:]))
        groups = [[0], list(range(1, len(shape)))]
        name = b.fresh("collapsed")
        b.emit(f"{name} = tensor.collapse_shape {x} {groups} : {tensor_type(shape)} into {tensor_type(flat)}")
        b.layers.append("flatten")
        x, shape = name, flat
    n, k = shape
    m = draw(st.integers(1, 6))
    kind = draw(st.sampled_from(WEIGHT_KINDS))
    weight = b.weight((m, k), kind, 1.0 / np.sqrt(k))
    e = b.empty((k, m))
    wt = b.fresh("transposed")
    b.emit(
        f"{wt} = linalg.transpose ins({weight} : {tensor_type((m, k))}) outs({e} : {tensor_type((k, m))}) "
        "permutation = [1, 0]"
    )
    init = b.fill(b.scalar("0.000000e+00"), (n, m))
    mm = b.fresh()
    t_out = tensor_type((n, m))
    b.emit(
        f"{mm} = linalg.matmul ins({x}, {wt} : {tensor_type(shape)}, {tensor_type((k, m))}) "
        f"outs({init} : {t_out}) -> {t_out}"
    )
    b.layers.append(f"linear{k}->{m}/{kind}")
    if not draw(st.booleans()):
        return mm, (n, m)
    bias = b.weight((m,), draw(st.sampled_from(WEIGHT_KINDS)), 0.5)

    def add(a: list[str]) -> list[str]:
        r = b.fresh()
        return [f"{r} = arith.addf {a[0]}, {a[1]} : f32", f"linalg.yield {r} : f32"]

    b.layers.append("bias")
    row = "affine_map<(d0, d1) -> (d1)>"
    return b.generic([(mm, (n, m), _identity_map(2)), (bias, (m,), row)], (n, m), add), (n, m)


LAYERS: dict[str, Callable[[Draw, _Builder, str, Shape], tuple[str, Shape]]] = {
    "conv": _conv,
    "pool": _pool,
    "activation": _activation,
    "permuted_activation": _permuted_activation,
    "transpose": _transpose,
    "broadcast_add": _broadcast_add,
    "reshape": _reshape,
    "linear": _linear,
}


def _allowed(shape: Shape) -> list[str]:
    rank = len(shape)
    allowed = ["activation", "activation", "transpose", "broadcast_add", "reshape", "permuted_activation"]
    if rank == 4:
        allowed += ["conv"] * 4 + ["pool"] * 4  # the common case in front-end IR
    if prod(shape[1:]) <= 600:
        allowed.append("linear")
    if rank == 2 and not any(_factor_pairs(d) for d in shape):
        allowed.remove("reshape")
    return allowed


@st.composite
def programs(draw: Draw, min_layers: int = 1, max_layers: int = 5) -> Program:
    """A random `@main(%arg0: tensor<NxCxHxWxf32>, weights...)` of 1..max_layers layers.

    With a small probability the function also returns an intermediate value, so that
    fusions meet values with a second user.
    """
    seed = draw(st.integers(0, 2**16))
    b = _Builder(np.random.default_rng(seed))
    shape: Shape = (
        draw(st.integers(1, 2)),
        draw(st.integers(1, 4)),
        draw(st.integers(1, 12)),
        draw(st.integers(1, 12)),
    )
    b.args.append(("%arg0", shape))
    x = "%arg0"
    values: list[tuple[str, Shape]] = []
    for _ in range(draw(st.integers(min_layers, max_layers))):
        kind = draw(st.sampled_from(_allowed(shape)))
        x, shape = LAYERS[kind](draw, b, x, shape)
        values.append((x, shape))
    results = [(x, shape)]
    if len(values) > 1 and draw(st.integers(0, 4)) == 0:
        results.append(values[draw(st.integers(0, len(values) - 2))])
    return Program(
        b.text(results),
        tuple(b.layers),
        tuple(s for _, s in b.args),
        tuple(s for _, s in results),
    )
