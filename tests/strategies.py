"""Hypothesis strategies for random but valid linalg-on-tensors functions, written the way
torch-mlir prints them (compare examples/*.mlir): convs with a broadcast bias or a zero fill
as init and an optional `tensor.pad` before, sum pools (fill 0 + `pooling_nchw_sum`) with an
optional average divide generic, max pools with a -inf fill (and -inf pad), x*x / relu /
sigmoid as `linalg.generic`, `tensor.expand_shape` / `collapse_shape`, `linalg.transpose`,
`linalg.broadcast` + add, and flatten + linear (transpose the weight, fill, matmul, bias
generic); and the constructs of the standard nets (examples/): depthwise convs, eval-mode
batch-norm (per-channel generics on [C, 1, 1] constants, the reciprocal guarded by
`cf.assert`), global average pooling (a sum into `(d0, d1, 0, 0)`, then a divide), and
generics with two results (max/argmax inside softmax or torch.max, and a parallel pair).
Weights are `dense<...>` constants, `dense_resource<...>` blobs or function arguments.

    from strategies import programs        # after putting tests/ on sys.path
    @given(programs())
    def test_something(program: Program) -> None:
        module = heirpy.parse(program.text)

Shapes stay small (batch <= 2, images <= 12x12, channels <= 4 on entry) so the numpy
evaluator runs a program in milliseconds. This module must stay importable without pytest:
`benchmarks/fuzz_generated.py` uses it too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from math import prod
from typing import Any

import numpy as np
from hypothesis import strategies as st

Shape = tuple[int, ...]
Draw = Callable[[st.SearchStrategy[Any]], Any]

NEG_INF = "0xFF800000"  # how torch-mlir spells -inf for a max-pool init
NEG_INF_F16 = "0xFC00"
_F32 = re.compile(r"\bf32\b|(?<=x)f32\b")
WEIGHT_KINDS = ("dense", "resource", "arg")
ACTIVATIONS = ("square", "relu", "sigmoid")


def tensor_type(shape: Shape, element: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{element}>"


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
    # The element type the layers compute in: with "f16", every f32 the layers write
    # becomes f16 (`typed`). Layers written for mixed precision (`differential_programs`)
    # switch it back to "f32" and spell each type themselves.
    element: str = "f32"
    arg_elements: dict[str, str] = field(default_factory=dict)  # an argument's, if not the function's
    limits: list[str] = field(default_factory=list)  # guard limits the draws reached (tests/edge_strategies.py)

    def fresh(self, stem: str = "v") -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def typed(self, line: str) -> str:
        if self.element == "f32":
            return line
        return _F32.sub(self.element, line).replace(NEG_INF, NEG_INF_F16)

    def emit(self, line: str) -> None:
        self.lines.append(self.typed(line))

    def scalar(self, text: str) -> str:
        """A scalar constant of the layers' element type, emitted once (torch-mlir hoists
        them to the top)."""
        key = text if self.element == "f32" else f"{text} : {self.element}"
        if key not in self.constants:
            name = self.fresh("cst")
            self.constants[key] = name
            self.lines.insert(0, self.typed(f"{name} = arith.constant {text} : f32"))
        return self.constants[key]

    def weight(self, shape: Shape, kind: str, scale: float) -> str:
        """A weight tensor: a dense constant, a dense_resource blob or a new argument."""
        values = np.round(self.rng.standard_normal(shape) * scale * 64.0) / 64.0
        values = values.astype(np.float32)
        if kind == "arg":
            name = f"%arg{len(self.args)}"
            self.args.append((name, shape))
            self.arg_elements[name] = self.element
            return name
        name = self.fresh("cst")
        if kind == "resource" and self.element == "f16":
            handle = f"blob_{self.counter}_{'_'.join(map(str, shape))}.float16"
            self.blobs[handle] = "0x02000000" + values.astype("<f2").tobytes().hex().upper()
            literal = f"dense_resource<{handle}>"
        elif kind == "resource":
            handle = f"blob_{self.counter}_{'_'.join(map(str, shape))}.float32"
            # A printed blob starts with its alignment as a little-endian u32.
            self.blobs[handle] = "0x04000000" + values.astype("<f4").tobytes().hex().upper()
            literal = f"dense_resource<{handle}>"
        else:
            literal = _dense_literal(values)
        self.emit(f"{name} = arith.constant {literal} : {tensor_type(shape)}")
        return name

    def constant(self, values: np.ndarray) -> str:
        """A `dense<...>` constant holding exactly `values` (multiples of 1/64)."""
        name = self.fresh("cst")
        self.emit(f"{name} = arith.constant {_dense_literal(values.astype(np.float32))} : {tensor_type(values.shape)}")
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
        signature = ", ".join(f"{n}: {tensor_type(s, self.arg_elements.get(n, self.element))}" for n, s in self.args)
        result_types = self.typed(", ".join(tensor_type(s) for _, s in results))
        if len(results) > 1:
            result_types = f"({result_types})"
        body = "\n".join(self.lines)
        ret = self.typed(f"return {', '.join(n for n, _ in results)} : {', '.join(tensor_type(s) for _, s in results)}")
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
    limits: tuple[str, ...] = ()  # the guard limits its layers were drawn at (edge_strategies.LIMITS)

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
    name = _window_op(b, "linalg.conv_2d_nchw_fchw", (x, shape), (weight, (f, c, kh, kw)), (init, out), (sh, sw), (dh, dw))
    b.layers.append(f"conv{f}x{c}x{kh}x{kw}/s{sh},{sw}/d{dh},{dw}/{kind}")
    return name, out


def _window_op(
    b: _Builder, op: str, x: tuple[str, Shape], weight: tuple[str, Shape], init: tuple[str, Shape],
    strides: tuple[int, int], dilations: tuple[int, int],
) -> str:
    """A conv-like named op as torch-mlir prints it: dilations and strides, then ins, outs."""
    name = b.fresh()
    t_out = tensor_type(init[1])
    b.emit(
        f"{name} = {op} {{dilations = {_i64_pair(dilations)}, strides = {_i64_pair(strides)}}} "
        f"ins({x[0]}, {weight[0]} : {tensor_type(x[1])}, {tensor_type(weight[1])}) outs({init[0]} : {t_out}) -> {t_out}"
    )
    return name


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
    name, out = emit_pool(b, kind, (x, shape), (kh, kw), (sh, sw), pad_value)
    b.layers.append(f"{kind}pool{kh}x{kw}/s{sh},{sw}")
    return name, out


def emit_pool(
    b: _Builder, kind: str, x: tuple[str, Shape], window: tuple[int, int], strides: tuple[int, int], init_value: str
) -> tuple[str, Shape]:
    """A sum, average (the sum, then a divide) or max pool as torch-mlir writes it, into a
    fill of `init_value`; its name and shape (the caller records the layer)."""
    (kh, kw), (sh, sw) = window, strides
    n, c, h, w = x[1]
    out = (n, c, _out_size(h, kh, sh, 1), _out_size(w, kw, sw, 1))
    init = b.fill(b.scalar(init_value), out)
    window_value = b.empty((kh, kw))
    name = b.fresh()
    t_out = tensor_type(out)
    op = "linalg.pooling_nchw_max" if kind == "max" else "linalg.pooling_nchw_sum"
    b.emit(
        f"{name} = {op} {{dilations = dense<1> : vector<2xi64>, strides = {_i64_pair((sh, sw))}}} "
        f"ins({x[0]}, {window_value} : {tensor_type(x[1])}, {tensor_type((kh, kw))}) outs({init} : {t_out}) -> {t_out}"
    )
    if kind == "avg":
        count = b.scalar(f"{float(kh * kw):e}")

        def divide(a: list[str]) -> list[str]:
            r = b.fresh()
            return [f"{r} = arith.divf {a[0]}, {count} : f32", f"linalg.yield {r} : f32"]

        name = b.generic([(name, out, _identity_map(4))], out, divide)
    return name, out


def _depthwise_conv(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """torch's Conv2d(C, C, k, groups=C): `linalg.depthwise_conv_2d_nchw_chw` into a zero
    fill (MobileNet's depthwise convs carry no bias), after an optional zero pad."""
    if draw(st.booleans()):
        x, shape = b.pad(x, shape, (0, 0, 1, 1), (0, 0, 1, 1), b.scalar("0.000000e+00"))
        b.layers.append("pad1")
    _, _, h, w = shape
    kh, sh, dh = _window(draw, h, 3, 2)
    kw, sw, dw = _window(draw, w, 3, 2)
    return depthwise_layer(draw, b, x, shape, ((kh, sh, dh), (kw, sw, dw)))


def depthwise_layer(
    draw: Draw, b: _Builder, x: str, shape: Shape, window: tuple[tuple[int, int, int], tuple[int, int, int]]
) -> tuple[str, Shape]:
    """A depthwise conv of `x` into a zero fill, its (kernel, stride, dilation) per axis in
    `window` (H, then W), weights of a drawn kind (shared with tests/edge_strategies.py)."""
    (kh, sh, dh), (kw, sw, dw) = window
    n, c, h, w = shape
    out = (n, c, _out_size(h, kh, sh, dh), _out_size(w, kw, sw, dw))
    kind = draw(st.sampled_from(WEIGHT_KINDS))
    weight = b.weight((c, kh, kw), kind, 1.0 / np.sqrt(kh * kw))
    init = b.fill(b.scalar("0.000000e+00"), out)
    name = _window_op(b, "linalg.depthwise_conv_2d_nchw_chw", (x, shape), (weight, (c, kh, kw)), (init, out), (sh, sw), (dh, dw))
    b.layers.append(f"depthwise{c}x{kh}x{kw}/s{sh},{sw}/d{dh},{dw}/{kind}")
    return name, out


def _batch_norm(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """Eval-mode BatchNorm2d as torch-mlir lowers it: 1/sqrt(var (+ eps)) computed by
    generics on the [C] constant (the reciprocal guarded by `cf.assert`), expanded to
    [C, 1, 1]; then x - mean, * that, * weight, + bias, each a generic reading a [C, 1, 1]
    constant through `(d0, d1, d2, d3) -> (d1, 0, 0)`."""
    c = shape[1]
    rng = b.rng
    var = np.round(rng.uniform(0.5, 1.5, c) * 64.0) / 64.0
    per_channel = [np.round(rng.standard_normal((c, 1, 1)) * scale * 64.0) / 64.0 for scale in (0.25, 0.25, 0.25)]
    per_channel[1] += 1.0  # the affine weight, near 1
    mean, weight, bias = (b.constant(v) for v in per_channel)
    vec = (c,)
    ident1 = "affine_map<(d0) -> (d0)>"
    v = b.constant(var)
    if draw(st.booleans()):  # MobileNet's export keeps `var + eps` as a generic
        eps = b.scalar("9.765625e-04")
        v = b.generic([(v, vec, ident1)], vec, lambda a: _binary(b, "arith.addf", a[0], eps))
    root = b.generic([(v, vec, ident1)], vec, lambda a: _unary(b, "math.sqrt", a[0]))
    zero, one = b.scalar("0.000000e+00"), b.scalar("1.000000e+00")

    def reciprocal(a: list[str]) -> list[str]:
        ok = b.fresh()
        guard = [f"{ok} = arith.cmpf one, {a[0]}, {zero} : f32", f'cf.assert {ok}, "unimplemented: tensor with zero element"']
        return guard + _binary(b, "arith.divf", one, a[0])

    inv = b.generic([(root, vec, ident1)], vec, reciprocal)
    inv3 = b.fresh("expanded")
    b.emit(f"{inv3} = tensor.expand_shape {inv} [[0, 1, 2]] output_shape [{c}, 1, 1] : {tensor_type(vec)} into {tensor_type((c, 1, 1))}")
    channel = "affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>"
    ident = _identity_map(4)
    for op, operand in (("arith.subf", mean), ("arith.mulf", inv3), ("arith.mulf", weight), ("arith.addf", bias)):
        x = b.generic(
            [(x, shape, ident), (operand, (c, 1, 1), channel)], shape,
            lambda a, op=op: _binary(b, op, a[0], a[1]),
        )
    b.layers.append(f"batchnorm{c}")
    return x, shape


def _unary(b: _Builder, op: str, a: str) -> list[str]:
    r = b.fresh()
    return [f"{r} = {op} {a} : f32", f"linalg.yield {r} : f32"]


def _binary(b: _Builder, op: str, lhs: str, rhs: str) -> list[str]:
    r = b.fresh()
    return [f"{r} = {op} {lhs}, {rhs} : f32", f"linalg.yield {r} : f32"]


def _global_avg_pool(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """AdaptiveAvgPool2d(1) as torch-mlir lowers it: a generic summing H and W into the
    unit dims of a `(d0, d1, 0, 0)` output, then a divide by H * W."""
    n, c, h, w = shape
    out = (n, c, 1, 1)
    init = b.fill(b.scalar("0.000000e+00"), out)
    name, value, acc, total = b.fresh(), b.fresh("in"), b.fresh("out"), b.fresh()
    t_out = tensor_type(out)
    b.emit(
        f"{name} = linalg.generic {{indexing_maps = [{_identity_map(4)}, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], "
        f'iterator_types = ["parallel", "parallel", "reduction", "reduction"]}} ins({x} : {tensor_type(shape)}) '
        f"outs({init} : {t_out}) {{\n^bb0({value}: f32, {acc}: f32):\n"
        f"  {total} = arith.addf {value}, {acc} : f32\n  linalg.yield {total} : f32\n}} -> {t_out}"
    )
    count = b.scalar(f"{float(h * w):e}")
    b.layers.append(f"global_avg_pool{h}x{w}")
    return b.generic([(name, out, _identity_map(4))], out, lambda a: _binary(b, "arith.divf", a[0], count)), out


def _max_with_index(b: _Builder, x: str, shape: Shape) -> tuple[str, str]:
    """torch.max(x, dim=-1) as torch-mlir lowers it: ONE generic with two results, the
    running max (from -inf) and the index of its first occurrence (from 0). Returns both."""
    rank = len(shape)
    out = shape[:-1]
    values = b.fill(b.scalar(NEG_INF), out)
    t_idx = tensor_type(out, "i64")
    zero, e, indices = b.fresh("c"), b.fresh(), b.fresh()
    b.emit(f"{zero} = arith.constant 0 : i64")
    b.emit(f"{e} = tensor.empty() : {t_idx}")
    b.emit(f"{indices} = linalg.fill ins({zero} : i64) outs({e} : {t_idx}) -> {t_idx}")
    dims = ", ".join(f"d{i}" for i in range(rank))
    kept = ", ".join(f"d{i}" for i in range(rank - 1))
    row = f"affine_map<({dims}) -> ({kept})>"
    iterators = "[" + ", ".join(['"parallel"'] * (rank - 1) + ['"reduction"']) + "]"
    result, value, acc, acc_i = b.fresh("max"), b.fresh("in"), b.fresh("out"), b.fresh("out")
    i, ii, m, gt, sel = (b.fresh() for _ in range(5))
    t_out = tensor_type(out)
    b.emit(
        f"{result}:2 = linalg.generic {{indexing_maps = [{_identity_map(rank)}, {row}, {row}], iterator_types = {iterators}}} "
        f"ins({x} : {tensor_type(shape)}) outs({values}, {indices} : {t_out}, {t_idx}) {{\n"
        f"^bb0({value}: f32, {acc}: f32, {acc_i}: i64):\n"
        f"  {i} = linalg.index {rank - 1} : index\n"
        f"  {ii} = arith.index_cast {i} : index to i64\n"
        f"  {m} = arith.maximumf {value}, {acc} : f32\n"
        f"  {gt} = arith.cmpf ogt, {value}, {acc} : f32\n"
        f"  {sel} = arith.select {gt}, {ii}, {acc_i} : i64\n"
        f"  linalg.yield {m}, {sel} : f32, i64\n"
        f"}} -> ({t_out}, {t_idx})"
    )
    return f"{result}#0", f"{result}#1"


def _max_dim(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """torch.max(x, dim=-1).values: the two-result generic, its index result unused."""
    values, _ = _max_with_index(b, x, shape)
    b.layers.append("max_dim")
    return values, shape[:-1]


def _softmax(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """softmax over the last dim as torch-mlir lowers it: the max/argmax generic, x - max
    (the max expanded to a unit last dim, read through `(..., 0)`), exp, a sum into
    `(..., 0)` and a divide."""
    rank = len(shape)
    unit = shape[:-1] + (1,)
    values, _ = _max_with_index(b, x, shape)
    expanded = b.fresh("expanded")
    groups = [[d] for d in range(rank - 2)] + [[rank - 2, rank - 1]]
    b.emit(
        f"{expanded} = tensor.expand_shape {values} {groups} output_shape [{', '.join(map(str, unit))}] "
        f": {tensor_type(shape[:-1])} into {tensor_type(unit)}"
    )
    dims = ", ".join(f"d{i}" for i in range(rank))
    last0 = f"affine_map<({dims}) -> ({', '.join(f'd{i}' for i in range(rank - 1))}, 0)>"
    ident = _identity_map(rank)
    shifted = b.generic([(x, shape, ident), (expanded, unit, last0)], shape, lambda a: _binary(b, "arith.subf", a[0], a[1]))
    exp = b.generic([(shifted, shape, ident)], shape, lambda a: _unary(b, "math.exp", a[0]))
    init = b.fill(b.scalar("0.000000e+00"), unit)
    total, value, acc, s_ = b.fresh(), b.fresh("in"), b.fresh("out"), b.fresh()
    iterators = "[" + ", ".join(['"parallel"'] * (rank - 1) + ['"reduction"']) + "]"
    b.emit(
        f"{total} = linalg.generic {{indexing_maps = [{ident}, {last0}], iterator_types = {iterators}}} "
        f"ins({exp} : {tensor_type(shape)}) outs({init} : {tensor_type(unit)}) {{\n^bb0({value}: f32, {acc}: f32):\n"
        f"  {s_} = arith.addf {value}, {acc} : f32\n  linalg.yield {s_} : f32\n}} -> {tensor_type(unit)}"
    )
    b.layers.append("softmax_lastdim")
    return b.generic([(exp, shape, ident), (total, unit, last0)], shape, lambda a: _binary(b, "arith.divf", a[0], a[1])), shape


def _two_results(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """A parallel generic with two results (x * x and -x), then their sum: a multi-result
    producer that pointwise fusion must either fuse whole or leave alone."""
    rank = len(shape)
    ident = _identity_map(rank)
    t = tensor_type(shape)
    e = b.empty(shape)
    both, value, o0, o1, sq, neg = b.fresh("pair"), b.fresh("in"), b.fresh("out"), b.fresh("out"), b.fresh(), b.fresh()
    b.emit(
        f"{both}:2 = linalg.generic {{indexing_maps = [{ident}, {ident}, {ident}], iterator_types = {_parallel(rank)}}} "
        f"ins({x} : {t}) outs({e}, {e} : {t}, {t}) {{\n^bb0({value}: f32, {o0}: f32, {o1}: f32):\n"
        f"  {sq} = arith.mulf {value}, {value} : f32\n  {neg} = arith.negf {value} : f32\n"
        f"  linalg.yield {sq}, {neg} : f32, f32\n}} -> ({t}, {t})"
    )
    b.layers.append("two_results")
    return b.generic(
        [(f"{both}#0", shape, ident), (f"{both}#1", shape, ident)], shape, lambda a: _binary(b, "arith.addf", a[0], a[1])
    ), shape


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


def _arith_affine(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """HEIR's form of a per-channel scale then bias: `arith.mulf`/`divf` and
    `arith.addf`/`subf` on tensors, each [C] parameter (axis 1) through
    `linalg.broadcast`, the parameter on either side; parameters may be arguments, so
    linear-op fusion meets run-time plaintext."""
    rank = len(shape)
    channel = (shape[1],)
    added = ", ".join(str(d) for d in range(rank) if d != 1)
    result = x
    for ops in (("arith.mulf", "arith.divf"), ("arith.addf", "arith.subf")):
        op = draw(st.sampled_from(ops))
        kind = draw(st.sampled_from(WEIGHT_KINDS))
        if op == "arith.divf" and kind != "arg":  # a constant divisor away from zero
            param = b.constant(np.round(b.rng.uniform(0.5, 2.0, channel) * 64.0) / 64.0)
        else:
            param = b.weight(channel, kind, 0.5)
        e = b.empty(shape)
        wide = b.fresh("broadcasted")
        b.emit(
            f"{wide} = linalg.broadcast ins({param} : {tensor_type(channel)}) outs({e} : {tensor_type(shape)}) "
            f"dimensions = [{added}]"
        )
        lhs, rhs = (result, wide) if op == "arith.divf" or draw(st.booleans()) else (wide, result)
        name = b.fresh()
        b.emit(f"{name} = {op} {lhs}, {rhs} : {tensor_type(shape)}")
        b.layers.append(f"{op.split('.')[1]}/{kind}")
        result = name
    return result, shape


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
    "depthwise_conv": _depthwise_conv,
    "batch_norm": _batch_norm,
    "global_avg_pool": _global_avg_pool,
    "max_dim": _max_dim,
    "softmax": _softmax,
    "two_results": _two_results,
    "arith_affine": _arith_affine,
}


def _allowed(shape: Shape) -> list[str]:
    rank = len(shape)
    allowed = ["activation", "activation", "transpose", "broadcast_add", "reshape", "permuted_activation",
               "two_results"]
    if rank == 4:
        allowed += ["conv"] * 4 + ["pool"] * 4  # the common case in front-end IR
        allowed += ["depthwise_conv", "batch_norm", "batch_norm", "global_avg_pool"]
    if rank >= 2:
        allowed += ["softmax", "arith_affine"]
    if rank >= 3:
        allowed += ["max_dim"]
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


# ------------------------------------------------- differential testing through IREE (issue 25)
# `differential_programs` draws the layers `programs` draws plus the families the IREE
# differential test (tests/iree_differential.py) must reach and `programs` lacks: f16
# programs (every layer in f16, and torch-mlir's forms of a half-precision model: convs
# and linears accumulating in f32 before an `arith.truncf`, softmax computed in f32
# between `extf` and `truncf`), YOLO heads (conv -> expand_shape -> transpose ->
# sigmoid), their concat (YOLOv5's Detect) and a channel concat. `programs` is left as it
# is: tests pin its derandomized samples.
@contextmanager
def _computing_in(b: _Builder, element: str) -> Iterator[None]:
    saved = b.element
    b.element = element
    try:
        yield
    finally:
        b.element = saved


def _convert(b: _Builder, x: str, shape: Shape, source: str, target: str) -> str:
    """`arith.extf` or `arith.truncf` of a tensor, as torch-mlir writes it: a generic."""
    op = "arith.extf" if source == "f16" else "arith.truncf"
    rank = len(shape)
    e, out, value, acc, r = b.fresh(), b.fresh(), b.fresh("in"), b.fresh("out"), b.fresh()
    ident = _identity_map(rank)
    with _computing_in(b, "f32"):  # the types are spelled out
        b.emit(f"{e} = tensor.empty() : {tensor_type(shape, target)}")
        b.emit(
            f"{out} = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = {_parallel(rank)}}} "
            f"ins({x} : {tensor_type(shape, source)}) outs({e} : {tensor_type(shape, target)}) {{\n"
            f"^bb0({value}: {source}, {acc}: {target}):\n  {r} = {op} {value} : {source} to {target}\n"
            f"  linalg.yield {r} : {target}\n}} -> {tensor_type(shape, target)}"
        )
    return out


Layer = Callable[[Draw, _Builder, str, Shape], tuple[str, Shape]]


def _in_f32(layer: Layer) -> Layer:
    """`layer` as torch-mlir writes it in a half-precision model: its f16 input widened
    by `extf`, the layer computed in f32, its result narrowed by `truncf` (softmax, a
    linear's matmul and bias). In an f32 program, the layer itself."""

    def widened(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
        if b.element != "f16":
            return layer(draw, b, x, shape)
        wide = _convert(b, x, shape, "f16", "f32")
        b.layers.append("extf")
        with _computing_in(b, "f32"):
            y, out = layer(draw, b, wide, shape)
        b.layers.append("truncf")
        return _convert(b, y, out, "f32", "f16"), out

    return widened


def _biased_conv(
    draw: Draw, b: _Builder, x: str, shape: Shape, filters: int, kernel: int, stride: int
) -> tuple[str, Shape]:
    """A conv (zero padding kernel // 2) with a broadcast bias init, in the program's
    element type; in an f16 program, drawn either all in f16 or as torch-mlir writes a
    half-precision conv: the f16 bias widened and broadcast as an f32 init, the conv
    accumulating f16 products in f32, then `truncf`."""
    if kernel > 1:
        pad = kernel // 2
        x, shape = b.pad(x, shape, (0, 0, pad, pad), (0, 0, pad, pad), b.scalar("0.000000e+00"))
    n, c, h, w = shape
    out = (n, filters, _out_size(h, kernel, stride, 1), _out_size(w, kernel, stride, 1))
    weight = b.weight((filters, c, kernel, kernel), draw(st.sampled_from(WEIGHT_KINDS)), 1.0 / np.sqrt(c * kernel**2))
    bias = b.weight((filters,), draw(st.sampled_from(WEIGHT_KINDS)), 0.5)
    source = b.element
    accumulate = "f32" if source == "f16" and draw(st.booleans()) else source
    if accumulate != source:
        bias = _convert(b, bias, (filters,), source, accumulate)
    with _computing_in(b, "f32"):  # the types are spelled out
        e, init, name = b.fresh(), b.fresh("broadcasted"), b.fresh()
        t_out = tensor_type(out, accumulate)
        b.emit(f"{e} = tensor.empty() : {t_out}")
        b.emit(f"{init} = linalg.broadcast ins({bias} : {tensor_type((filters,), accumulate)}) outs({e} : {t_out}) dimensions = [0, 2, 3]")
        b.emit(
            f"{name} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = {_i64_pair((stride, stride))}}} "
            f"ins({x}, {weight} : {tensor_type(shape, source)}, {tensor_type((filters, c, kernel, kernel), source)}) "
            f"outs({init} : {t_out}) -> {t_out}"
        )
    b.layers.append(f"conv{filters}x{c}x{kernel}x{kernel}/s{stride}" + ("/f32acc" if accumulate != source else ""))
    if accumulate != source:
        return _convert(b, name, out, accumulate, source), out
    return name, out


def _conv_f32_accumulator(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """A biased conv (1x1 or 3x3, stride 1 or 2): in an f16 program, often torch-mlir's
    f32-accumulating form (`_biased_conv`)."""
    kernel = draw(st.sampled_from((1, 3)))
    return _biased_conv(draw, b, x, shape, draw(st.integers(1, 4)), kernel, draw(st.integers(1, 2)))


def _sigmoid(b: _Builder, x: str, shape: Shape) -> str:
    one = b.scalar("1.000000e+00")

    def body(a: list[str]) -> list[str]:
        n, e, s, r = b.fresh(), b.fresh(), b.fresh(), b.fresh()
        return [f"{n} = arith.negf {a[0]} : f32", f"{e} = math.exp {n} : f32",
                f"{s} = arith.addf {e}, {one} : f32", f"{r} = arith.divf {one}, {s} : f32", f"linalg.yield {r} : f32"]

    return b.generic([(x, shape, _identity_map(len(shape)))], shape, body)


def _head(draw: Draw, b: _Builder, x: str, shape: Shape, anchors: int, outputs: int, stride: int) -> tuple[str, Shape]:
    """One level of YOLOv5's Detect as torch-mlir writes it: a biased conv to
    anchors * outputs channels, expand_shape to N x A x K x H x W, transpose to
    N x A x H x W x K, sigmoid."""
    kernel = draw(st.sampled_from((1, 1, 3)))
    conv, (n, _, h, w) = _biased_conv(draw, b, x, shape, anchors * outputs, kernel, stride)
    split = (n, anchors, outputs, h, w)
    expanded = b.fresh("expanded")
    b.emit(
        f"{expanded} = tensor.expand_shape {conv} [[0], [1, 2], [3], [4]] output_shape [{', '.join(map(str, split))}] "
        f": {tensor_type((n, anchors * outputs, h, w))} into {tensor_type(split)}"
    )
    out = (n, anchors, h, w, outputs)
    e, transposed = b.empty(out), b.fresh("transposed")
    b.emit(
        f"{transposed} = linalg.transpose ins({expanded} : {tensor_type(split)}) outs({e} : {tensor_type(out)}) "
        "permutation = [0, 1, 3, 4, 2]"
    )
    b.layers.append(f"yolo_head{anchors}x{outputs}")
    return _sigmoid(b, transposed, out), out


def _yolo_head(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    return _head(draw, b, x, shape, draw(st.integers(1, 3)), draw(st.integers(2, 6)), draw(st.integers(1, 2)))


def _heads_concat(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """YOLOv5's Detect with its levels concatenated: 2 or 3 heads on the input (strides
    1, 2 or 4 give levels of different sizes), each flattened to N x (A*H*W) x K, then
    `tensor.concat dim(1)`."""
    outputs = draw(st.integers(2, 6))
    parts: list[tuple[str, Shape]] = []
    for _ in range(draw(st.integers(2, 3))):
        head, (n, a, h, w, k) = _head(draw, b, x, shape, draw(st.integers(1, 3)), outputs, draw(st.sampled_from((1, 2, 4))))
        flat = (n, a * h * w, k)
        name = b.fresh("collapsed")
        b.emit(f"{name} = tensor.collapse_shape {head} [[0], [1, 2, 3], [4]] : {tensor_type((n, a, h, w, k))} into {tensor_type(flat)}")
        parts.append((name, flat))
    return _concat(b, parts, 1), (shape[0], sum(s[1] for _, s in parts), outputs)


def _concat(b: _Builder, parts: Sequence[tuple[str, Shape]], dim: int) -> str:
    out = list(parts[0][1])
    out[dim] = sum(s[dim] for _, s in parts)
    name = b.fresh("concat")
    b.emit(
        f"{name} = tensor.concat dim({dim}) {', '.join(v for v, _ in parts)} : "
        f"({', '.join(tensor_type(s) for _, s in parts)}) -> {tensor_type(tuple(out))}"
    )
    b.layers.append(f"concat{len(parts)}/dim{dim}")
    return name


def _channel_concat(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """torch.cat([x, act(conv1x1(x))], dim=1), a DenseNet/CSP-style channel concat, the
    branch first or second."""
    branch, out = _biased_conv(draw, b, x, shape, draw(st.integers(1, 4)), 1, 1)
    branch, out = _activation(draw, b, branch, out)
    parts = [(x, shape), (branch, out)]
    if draw(st.booleans()):
        parts.reverse()
    return _concat(b, parts, 1), (shape[0], shape[1] + out[1], shape[2], shape[3])


DIFFERENTIAL_LAYERS: dict[str, Layer] = {
    **LAYERS,
    "yolo_head": _yolo_head,
    "heads_concat": _heads_concat,
    "channel_concat": _channel_concat,
    "conv_f32acc": _conv_f32_accumulator,
    "softmax_in_f32": _in_f32(_softmax),
    "linear_in_f32": _in_f32(_linear),
}


def _differential_allowed(shape: Shape, element: str) -> list[str]:
    allowed = _allowed(shape)
    if len(shape) == 4:
        allowed += ["yolo_head", "yolo_head", "heads_concat", "heads_concat", "channel_concat"]
    if element == "f16":  # torch-mlir's half-precision forms next to the all-f16 ones
        allowed += ["conv_f32acc"] * 4 * (len(shape) == 4)
        allowed += ["softmax_in_f32"] * ("softmax" in allowed) + ["linear_in_f32"] * ("linear" in allowed)
    return allowed


@st.composite
def differential_programs(
    draw: Draw, element: str = "f32", min_layers: int = 1, max_layers: int = 5, extra: dict[str, Layer] | None = None
) -> Program:
    """A random `@main` like `programs()` draws, computing in `element` ("f32" or "f16"),
    from its layers and the families above, and from `extra`'s layers on feature maps
    (tests/edge_strategies.py's, each axis drawn on its own; none: the draws tests pin)."""
    seed = draw(st.integers(0, 2**16))
    b = _Builder(np.random.default_rng(seed), element=element)
    shape: Shape = (draw(st.integers(1, 2)), draw(st.integers(1, 4)), draw(st.integers(1, 12)), draw(st.integers(1, 12)))
    b.args.append(("%arg0", shape))
    x = "%arg0"
    values: list[tuple[str, Shape]] = []
    for _ in range(draw(st.integers(min_layers, max_layers))):
        allowed = _differential_allowed(shape, element) + (list(extra) * 3 if extra and len(shape) == 4 else [])
        kind = draw(st.sampled_from(allowed))
        layer = extra[kind] if extra and kind in extra else DIFFERENTIAL_LAYERS[kind]
        x, shape = layer(draw, b, x, shape)
        values.append((x, shape))
    results = [(x, shape)]
    if len(values) > 1 and draw(st.integers(0, 4)) == 0:
        results.append(values[draw(st.integers(0, len(values) - 2))])
    return Program(
        b.text(results), tuple(b.layers), tuple(s for _, s in b.args), tuple(s for _, s in results), tuple(b.limits)
    )
