"""torch-mlir's half-precision layers with every axis drawn on its own (issue 34): the
programs benchmarks/fuzz_dtypes.py sends through every pipeline in the mixed form.

`strategies.differential_programs(element="f16")` draws torch-mlir's f32-accumulating
conv only square (1x1 or 3x3, stride 1-2, padded k // 2) and no depthwise conv or batch
norm in the mixed form. torch-mlir writes those as (examples/yolov8_f16.mlir, the zoo's
f16 MnasNet):

  torch_conv       f16 input (its `tensor.pad` in f16) and f16 weight into an f32 init
                   (a zero fill, or the f16 bias widened by `extf` and broadcast), then
                   `truncf`; kernel, stride, dilation and the four pads drawn per axis as
                   tests/edge_strategies.py draws them
  torch_depthwise  the same for `linalg.depthwise_conv_2d_nchw_chw` into an f32 zero fill
  torch_batch_norm x - mean (the f16 input widened inside the generic, mean in f32),
                   * 1/sqrt(var) (f32), * weight and + bias (f16 constants widened inside
                   the generics), then `truncf`

`torch_half_programs` draws them beside differential_programs' own layers and the
all-f16 edge layers (edge_conv, edge_depthwise, edge_pool, grid_edge). In an f32
program each layer is its f32 twin. Importable without pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from hypothesis import strategies as st

from edge_strategies import EDGE_DIFFERENTIAL_LAYERS, _axis, _out, axis_limits, edge_conv, edge_depthwise
from strategies import (
    WEIGHT_KINDS,
    Draw,
    Layer,
    Program,
    Shape,
    _batch_norm,
    _binary,
    _Builder,
    _computing_in,
    _convert,
    _i64_pair,
    _identity_map,
    _parallel,
    _unary,
    differential_programs,
    tensor_type,
)


def _torch_window(draw: Draw, b: _Builder, x: str, shape: Shape, depthwise: bool) -> tuple[str, Shape]:
    """A conv or depthwise conv as torch-mlir writes it in an f16 model (module doc)."""
    n, c, h, w = shape
    kh, sh, dh, lh, hh = _axis(draw, h, 3 if depthwise else 4)
    kw, sw, dw, lw, hw = _axis(draw, w, 3 if depthwise else 4)
    b.limits += axis_limits((kh, sh, dh, lh, hh), (kw, sw, dw, lw, hw))
    if lh or hh or lw or hw:
        x, shape = b.pad(x, shape, (0, 0, lh, lw), (0, 0, hh, hw), b.scalar("0.000000e+00"))
        b.layers.append(f"pad{(lh, lw)}{(hh, hw)}")
    _, c, h, w = shape
    f = c if depthwise else draw(st.integers(1, 4))
    out = (n, f, _out(h, kh, sh, dh), _out(w, kw, sw, dw))
    kind = draw(st.sampled_from(WEIGHT_KINDS))
    filter_shape = (c, kh, kw) if depthwise else (f, c, kh, kw)
    weight = b.weight(filter_shape, kind, 1.0 / np.sqrt((1 if depthwise else c) * kh * kw))
    bias = None if depthwise or draw(st.booleans()) else b.weight((f,), draw(st.sampled_from(WEIGHT_KINDS)), 0.5)
    if bias is not None:
        bias = _convert(b, bias, (f,), "f16", "f32")
    op = "linalg.depthwise_conv_2d_nchw_chw" if depthwise else "linalg.conv_2d_nchw_fchw"
    with _computing_in(b, "f32"):  # the types are spelled out
        t_out = tensor_type(out, "f32")
        if bias is None:
            init = b.fill(b.scalar("0.000000e+00"), out)
        else:
            e, init = b.empty(out), b.fresh("broadcasted")
            b.emit(f"{init} = linalg.broadcast ins({bias} : {tensor_type((f,), 'f32')}) outs({e} : {t_out}) dimensions = [0, 2, 3]")
        name = b.fresh()
        b.emit(
            f"{name} = {op} {{dilations = {_i64_pair((dh, dw))}, strides = {_i64_pair((sh, sw))}}} "
            f"ins({x}, {weight} : {tensor_type(shape, 'f16')}, {tensor_type(filter_shape, 'f16')}) "
            f"outs({init} : {t_out}) -> {t_out}"
        )
    b.layers.append(f"{'depthwise' if depthwise else 'conv'}{f}x{c}x{kh}x{kw}/s{sh},{sw}/d{dh},{dw}/{kind}/f32acc")
    return _convert(b, name, out, "f32", "f16"), out


def torch_conv(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    if b.element != "f16":
        return edge_conv(draw, b, x, shape)
    return _torch_window(draw, b, x, shape, depthwise=False)


def torch_depthwise(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    if b.element != "f16":
        return edge_depthwise(draw, b, x, shape)
    return _torch_window(draw, b, x, shape, depthwise=True)


def _mixed_generic(
    b: _Builder, inputs: Sequence[tuple[str, Shape, str, str]], shape: Shape, body: Callable[[list[str]], list[str]]
) -> str:
    """A parallel generic into an f32 tensor of `shape`; inputs are (value, shape,
    indexing map, element type): `body` gets the block arguments, each widened to f32."""
    rank = len(shape)
    with _computing_in(b, "f32"):
        out = b.empty(shape)
    name, out_arg = b.fresh(), b.fresh("out")
    args = [b.fresh("in") for _ in inputs]
    lines, wide = [], []
    for arg, (_, _, _, element) in zip(args, inputs):
        if element == "f32":
            wide.append(arg)
            continue
        widened = b.fresh()
        lines.append(f"{widened} = arith.extf {arg} : {element} to f32")
        wide.append(widened)
    lines += body(wide)
    maps = ", ".join([m for _, _, m, _ in inputs] + [_identity_map(rank)])
    header = ", ".join([f"{a}: {e}" for a, (_, _, _, e) in zip(args, inputs)] + [f"{out_arg}: f32"])
    t = tensor_type(shape, "f32")
    text = "\n".join("  " + line for line in lines)
    b.lines.append(  # not `emit`: the types are spelled out
        f"{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = {_parallel(rank)}}} "
        f"ins({', '.join(v for v, _, _, _ in inputs)} : {', '.join(tensor_type(s, e) for _, s, _, e in inputs)}) "
        f"outs({out} : {t}) {{\n^bb0({header}):\n{text}\n}} -> {t}"
    )
    return name


def torch_batch_norm(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """Eval-mode BatchNorm2d in an f16 model as torch-mlir writes it (module doc)."""
    if b.element != "f16":
        return _batch_norm(draw, b, x, shape)
    c = shape[1]
    rng = b.rng
    var = np.round(rng.uniform(0.5, 1.5, c) * 64.0) / 64.0
    mean, weight, bias = (np.round(rng.standard_normal((c, 1, 1)) * 0.25 * 64.0) / 64.0 for _ in range(3))
    weight += 1.0
    vec, ident1, channel = (c,), "affine_map<(d0) -> (d0)>", "affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>"
    with _computing_in(b, "f32"):
        v = b.constant(var)
        if draw(st.booleans()):
            eps = b.scalar("9.765625e-04")
            v = b.generic([(v, vec, ident1)], vec, lambda a: _binary(b, "arith.addf", a[0], eps))
        root = b.generic([(v, vec, ident1)], vec, lambda a: _unary(b, "math.sqrt", a[0]))
        one = b.scalar("1.000000e+00")
        inv = b.generic([(root, vec, ident1)], vec, lambda a: _binary(b, "arith.divf", one, a[0]))
        inv3 = b.fresh("expanded")
        b.emit(f"{inv3} = tensor.expand_shape {inv} [[0, 1, 2]] output_shape [{c}, 1, 1] : "
               f"{tensor_type(vec)} into {tensor_type((c, 1, 1))}")
        mean32 = b.constant(mean)
    weight16, bias16 = b.constant(weight), b.constant(bias)  # f16: the program's element
    ident = _identity_map(4)
    y = _mixed_generic(b, [(x, shape, ident, "f16"), (mean32, (c, 1, 1), channel, "f32")], shape,
                       lambda a: _binary(b, "arith.subf", a[0], a[1]))
    for op, operand, element in (("arith.mulf", inv3, "f32"), ("arith.mulf", weight16, "f16"), ("arith.addf", bias16, "f16")):
        y = _mixed_generic(b, [(y, shape, ident, "f32"), (operand, (c, 1, 1), channel, element)], shape,
                           lambda a, op=op: _binary(b, op, a[0], a[1]))
    b.layers.append(f"batchnorm{c}/f32")
    return _convert(b, y, shape, "f32", "f16"), shape


TORCH_HALF_LAYERS: dict[str, Layer] = {
    "torch_conv": torch_conv,
    "torch_depthwise": torch_depthwise,
    "torch_batch_norm": torch_batch_norm,
    **EDGE_DIFFERENTIAL_LAYERS,
}


def torch_half_programs(element: str = "f16") -> st.SearchStrategy[Program]:
    """`strategies.differential_programs` in `element` with `TORCH_HALF_LAYERS` drawn
    beside its own on feature maps."""
    return differential_programs(element, extra=TORCH_HALF_LAYERS)
