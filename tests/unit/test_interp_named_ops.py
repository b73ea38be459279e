"""Property tests: each named op family evaluated by heirpy.interp against a plain-loop
reference written here, independently of the evaluator (no sliding windows, no einsum).

Every test builds the IR text for one op with random small shapes, strides, dilations,
channels and batch, parses it with heirpy's context and runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)
from heirpy.interp import OP_HANDLERS, load_module, run_function
from heirpy.interp.linalg_named import contract

SETTINGS = settings(max_examples=budget(25))
FLOAT_TOL = {"rtol": 1e-5, "atol": 1e-5}
NP_TYPES = {"f32": np.float32, "f64": np.float64, "i8": np.int8, "i32": np.int32}

seeds = st.integers(0, 2**32 - 1)
small = st.integers(1, 3)
elements = st.sampled_from(["f32", "i8", "i32"])


# ----------------------------------------------------------------------------- helpers
def ttype(shape: Sequence[int], element: str = "f32") -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{element}>"


def func(args: Sequence[tuple[str, str]], body: str, result: str, result_type: str) -> str:
    params = ", ".join(f"%{name}: {type_}" for name, type_ in args)
    return f"func.func @main({params}) -> {result_type} {{\n{body}\n  return {result} : {result_type}\n}}\n"


def run(ir: str, *inputs: np.ndarray) -> np.ndarray:
    loaded = load_module(ir)
    (result,) = run_function(loaded.module, "main", list(inputs), resources=loaded.resources)
    return result


def data(rng: np.random.Generator, shape: Sequence[int], element: str = "f32") -> np.ndarray:
    if element.startswith("f"):
        return rng.standard_normal(shape).astype(NP_TYPES[element])
    return rng.integers(-100, 100, shape).astype(NP_TYPES[element])


def assert_matches(got: np.ndarray, expected: np.ndarray, element: str = "f32") -> None:
    """Floats within tolerance; integers exactly, after wrapping the reference to the
    element width (MLIR accumulates in the element type, i.e. modulo 2^width)."""
    dtype = NP_TYPES[element]
    assert got.dtype == dtype and got.shape == expected.shape
    if element.startswith("f"):
        np.testing.assert_allclose(got, expected, **FLOAT_TOL)
    else:
        np.testing.assert_array_equal(got, expected.astype(np.int64).astype(dtype))


def window_attrs(strides: Sequence[int], dilations: Sequence[int]) -> str:
    vec = f"vector<{len(strides)}xi64>"
    return (
        f"{{dilations = dense<[{', '.join(map(str, dilations))}]> : {vec}, "
        f"strides = dense<[{', '.join(map(str, strides))}]> : {vec}}}"
    )


def input_size(out: int, kernel: int, stride: int, dilation: int, extra: int) -> int:
    """An input length that `out` windows fit, plus `extra` trailing elements MLIR ignores."""
    return (out - 1) * stride + dilation * (kernel - 1) + 1 + extra


@st.composite
def windows2d(draw: st.DrawFn) -> dict[str, tuple[int, int]]:
    return {
        "kernel": (draw(small), draw(small)),
        "stride": (draw(small), draw(small)),
        "dilation": (draw(st.integers(1, 2)), draw(st.integers(1, 2))),
        "out": (draw(st.integers(1, 4)), draw(st.integers(1, 4))),
        "extra": (draw(st.integers(0, 2)), draw(st.integers(0, 2))),
    }


def spatial(w: dict[str, tuple[int, int]]) -> tuple[int, int]:
    return tuple(  # type: ignore[return-value]
        input_size(o, k, s, d, e)
        for o, k, s, d, e in zip(w["out"], w["kernel"], w["stride"], w["dilation"], w["extra"])
    )


# ----------------------------------------------------------------------------- references
def ref_conv2d_nchw_fchw(x: np.ndarray, w: np.ndarray, init: np.ndarray, s: Sequence[int], d: Sequence[int]) -> np.ndarray:
    out = init.astype(np.int64 if init.dtype.kind == "i" else np.float64)
    _, _, oh_n, ow_n = init.shape
    for oh in range(oh_n):
        for ow in range(ow_n):
            for kh in range(w.shape[2]):
                for kw in range(w.shape[3]):
                    patch = x[:, :, oh * s[0] + kh * d[0], ow * s[1] + kw * d[1]].astype(out.dtype)
                    out[:, :, oh, ow] += patch @ w[:, :, kh, kw].astype(out.dtype).T
    return out


def ref_depthwise_nchw_chw(x: np.ndarray, w: np.ndarray, init: np.ndarray, s: Sequence[int], d: Sequence[int]) -> np.ndarray:
    out = init.astype(np.float64)
    for oh in range(init.shape[2]):
        for ow in range(init.shape[3]):
            for kh in range(w.shape[1]):
                for kw in range(w.shape[2]):
                    out[:, :, oh, ow] += x[:, :, oh * s[0] + kh * d[0], ow * s[1] + kw * d[1]] * w[None, :, kh, kw]
    return out


def ref_conv1d_ncw_fcw(x: np.ndarray, w: np.ndarray, init: np.ndarray, s: int, d: int) -> np.ndarray:
    out = init.astype(np.float64)
    for ow in range(init.shape[2]):
        for kw in range(w.shape[2]):
            out[:, :, ow] += x[:, :, ow * s + kw * d].astype(np.float64) @ w[:, :, kw].astype(np.float64).T
    return out


def ref_pool(
    x: np.ndarray, init: np.ndarray, window: Sequence[int], s: Sequence[int], d: Sequence[int],
    layout: str, kind: str,
) -> np.ndarray:
    """Pooling over the axes of `layout` marked H/W (or W alone for 1-D)."""
    out = init.astype(np.float64)
    spatial_axes = [layout.index(c) for c in layout if c in "HW"]
    out_sizes = [init.shape[a] for a in spatial_axes]
    for position in np.ndindex(*out_sizes):
        for tap in np.ndindex(*window):
            src: list[slice | int] = [slice(None)] * x.ndim
            dst: list[slice | int] = [slice(None)] * x.ndim
            for axis, p, t, stride, dil in zip(spatial_axes, position, tap, s, d):
                src[axis] = p * stride + t * dil
                dst[axis] = p
            value = x[tuple(src)].astype(np.float64)
            if kind == "sum":
                out[tuple(dst)] += value
            else:
                out[tuple(dst)] = np.maximum(out[tuple(dst)], value)
    return out


# ----------------------------------------------------------------------------- convolutions
@SETTINGS
@given(seed=seeds, w=windows2d(), n=st.integers(1, 2), c=small, f=small, element=elements)
def test_conv_2d_nchw_fchw(seed: int, w: dict, n: int, c: int, f: int, element: str) -> None:
    rng = np.random.default_rng(seed)
    h, wd = spatial(w)
    x_t, w_t = ttype([n, c, h, wd], element), ttype([f, c, *w["kernel"]], element)
    o_t = ttype([n, f, *w["out"]], element)
    ir = func(
        [("x", x_t), ("w", w_t), ("init", o_t)],
        f"  %r = linalg.conv_2d_nchw_fchw {window_attrs(w['stride'], w['dilation'])} "
        f"ins(%x, %w : {x_t}, {w_t}) outs(%init : {o_t}) -> {o_t}",
        "%r", o_t,
    )
    x, k, init = data(rng, [n, c, h, wd], element), data(rng, [f, c, *w["kernel"]], element), data(rng, [n, f, *w["out"]], element)
    expected = ref_conv2d_nchw_fchw(x, k, init, w["stride"], w["dilation"])
    assert_matches(run(ir, x, k, init), expected, element)


@SETTINGS
@given(seed=seeds, w=windows2d(), n=st.integers(1, 2), c=small)
def test_depthwise_conv_2d_nchw_chw(seed: int, w: dict, n: int, c: int) -> None:
    rng = np.random.default_rng(seed)
    h, wd = spatial(w)
    x_t, w_t, o_t = ttype([n, c, h, wd]), ttype([c, *w["kernel"]]), ttype([n, c, *w["out"]])
    ir = func(
        [("x", x_t), ("w", w_t), ("init", o_t)],
        f"  %r = linalg.depthwise_conv_2d_nchw_chw {window_attrs(w['stride'], w['dilation'])} "
        f"ins(%x, %w : {x_t}, {w_t}) outs(%init : {o_t}) -> {o_t}",
        "%r", o_t,
    )
    x, k, init = data(rng, [n, c, h, wd]), data(rng, [c, *w["kernel"]]), data(rng, [n, c, *w["out"]])
    assert_matches(run(ir, x, k, init), ref_depthwise_nchw_chw(x, k, init, w["stride"], w["dilation"]))


@SETTINGS
@given(seed=seeds, n=st.integers(1, 2), c=small, f=small, k=small, s=small, d=st.integers(1, 2),
       out=st.integers(1, 5), extra=st.integers(0, 2))
def test_conv_1d_ncw_fcw(seed: int, n: int, c: int, f: int, k: int, s: int, d: int, out: int, extra: int) -> None:
    rng = np.random.default_rng(seed)
    width = input_size(out, k, s, d, extra)
    x_t, w_t, o_t = ttype([n, c, width]), ttype([f, c, k]), ttype([n, f, out])
    ir = func(
        [("x", x_t), ("w", w_t), ("init", o_t)],
        f"  %r = linalg.conv_1d_ncw_fcw {window_attrs([s], [d])} "
        f"ins(%x, %w : {x_t}, {w_t}) outs(%init : {o_t}) -> {o_t}",
        "%r", o_t,
    )
    x, kern, init = data(rng, [n, c, width]), data(rng, [f, c, k]), data(rng, [n, f, out])
    assert_matches(run(ir, x, kern, init), ref_conv1d_ncw_fcw(x, kern, init, s, d))


# ----------------------------------------------------------------------------- pooling
POOLS = [
    ("linalg.pooling_nchw_sum", "NCHW", "sum"),
    ("linalg.pooling_nchw_max", "NCHW", "max"),
    ("linalg.pooling_nhwc_sum", "NHWC", "sum"),
    ("linalg.pooling_nhwc_max", "NHWC", "max"),
]


@pytest.mark.parametrize(("op_name", "layout", "kind"), POOLS)
@SETTINGS
@given(seed=seeds, w=windows2d(), n=st.integers(1, 2), c=small, element=st.sampled_from(["f32", "i32"]))
def test_pooling_2d(op_name: str, layout: str, kind: str, seed: int, w: dict, n: int, c: int, element: str) -> None:
    rng = np.random.default_rng(seed)
    h, wd = spatial(w)
    sizes = {"N": n, "C": c, "H": h, "W": wd}
    out_sizes = {"N": n, "C": c, "H": w["out"][0], "W": w["out"][1]}
    in_shape = [sizes[a] for a in layout]
    out_shape = [out_sizes[a] for a in layout]
    x_t, win_t, o_t = ttype(in_shape, element), ttype(w["kernel"], element), ttype(out_shape, element)
    ir = func(
        [("x", x_t), ("init", o_t)],
        f"  %win = tensor.empty() : {win_t}\n"
        f"  %r = {op_name} {window_attrs(w['stride'], w['dilation'])} "
        f"ins(%x, %win : {x_t}, {win_t}) outs(%init : {o_t}) -> {o_t}",
        "%r", o_t,
    )
    x, init = data(rng, in_shape, element), data(rng, out_shape, element)
    expected = ref_pool(x, init, w["kernel"], w["stride"], w["dilation"], layout, kind)
    assert_matches(run(ir, x, init), expected, element)


@pytest.mark.parametrize("kind", ["sum", "max"])
@SETTINGS
@given(seed=seeds, n=st.integers(1, 2), c=small, k=small, s=small, d=st.integers(1, 2),
       out=st.integers(1, 5), extra=st.integers(0, 2))
def test_pooling_ncw(kind: str, seed: int, n: int, c: int, k: int, s: int, d: int, out: int, extra: int) -> None:
    rng = np.random.default_rng(seed)
    width = input_size(out, k, s, d, extra)
    x_t, win_t, o_t = ttype([n, c, width]), ttype([k]), ttype([n, c, out])
    ir = func(
        [("x", x_t), ("init", o_t)],
        f"  %win = tensor.empty() : {win_t}\n"
        f"  %r = linalg.pooling_ncw_{kind} {window_attrs([s], [d])} "
        f"ins(%x, %win : {x_t}, {win_t}) outs(%init : {o_t}) -> {o_t}",
        "%r", o_t,
    )
    x, init = data(rng, [n, c, width]), data(rng, [n, c, out])
    assert_matches(run(ir, x, init), ref_pool(x, init, [k], [s], [d], "NCW", kind))


# ----------------------------------------------------------------------------- contractions
@SETTINGS
@given(seed=seeds, m=st.integers(1, 4), k=st.integers(1, 4), n=st.integers(1, 4), element=elements)
def test_matmul(seed: int, m: int, k: int, n: int, element: str) -> None:
    rng = np.random.default_rng(seed)
    a_t, b_t, c_t = ttype([m, k], element), ttype([k, n], element), ttype([m, n], element)
    ir = func(
        [("a", a_t), ("b", b_t), ("c", c_t)],
        f"  %r = linalg.matmul ins(%a, %b : {a_t}, {b_t}) outs(%c : {c_t}) -> {c_t}",
        "%r", c_t,
    )
    a, b, c = data(rng, [m, k], element), data(rng, [k, n], element), data(rng, [m, n], element)
    wide = np.int64 if element.startswith("i") else np.float64
    expected = c.astype(wide)
    for kk in range(k):  # a sum of outer products
        expected = expected + np.outer(a[:, kk].astype(wide), b[kk, :].astype(wide))
    assert_matches(run(ir, a, b, c), expected, element)


@SETTINGS
@given(seed=seeds, m=st.integers(1, 5), n=st.integers(1, 5))
def test_matvec_and_vecmat(seed: int, m: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    a, x, y = data(rng, [m, n]), data(rng, [n]), data(rng, [m])
    ir = func(
        [("a", ttype([m, n])), ("x", ttype([n])), ("y", ttype([m]))],
        f"  %r = linalg.matvec ins(%a, %x : {ttype([m, n])}, {ttype([n])}) outs(%y : {ttype([m])}) -> {ttype([m])}",
        "%r", ttype([m]),
    )
    expected = y.astype(np.float64)
    for j in range(n):
        expected = expected + a[:, j].astype(np.float64) * float(x[j])
    assert_matches(run(ir, a, x, y), expected)

    v, z = data(rng, [m]), data(rng, [n])
    ir = func(
        [("v", ttype([m])), ("a", ttype([m, n])), ("z", ttype([n]))],
        f"  %r = linalg.vecmat ins(%v, %a : {ttype([m])}, {ttype([m, n])}) outs(%z : {ttype([n])}) -> {ttype([n])}",
        "%r", ttype([n]),
    )
    expected = z.astype(np.float64)
    for i in range(m):
        expected = expected + float(v[i]) * a[i, :].astype(np.float64)
    assert_matches(run(ir, v, a, z), expected)


@SETTINGS
@given(seed=seeds, b=st.integers(1, 3), m=st.integers(1, 4), k=st.integers(1, 4), n=st.integers(1, 4))
def test_batch_matmul(seed: int, b: int, m: int, k: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    x, y, c = data(rng, [b, m, k]), data(rng, [b, k, n]), data(rng, [b, m, n])
    ir = func(
        [("x", ttype([b, m, k])), ("y", ttype([b, k, n])), ("c", ttype([b, m, n]))],
        f"  %r = linalg.batch_matmul ins(%x, %y : {ttype([b, m, k])}, {ttype([b, k, n])}) "
        f"outs(%c : {ttype([b, m, n])}) -> {ttype([b, m, n])}",
        "%r", ttype([b, m, n]),
    )
    expected = c.astype(np.float64)
    for batch in range(b):
        for i in range(m):
            for j in range(n):
                expected[batch, i, j] += sum(float(x[batch, i, t]) * float(y[batch, t, j]) for t in range(k))
    assert_matches(run(ir, x, y, c), expected)


# ----------------------------------------------------------------------------- data movement
@SETTINGS
@given(seed=seeds, shape=st.lists(st.integers(1, 3), min_size=1, max_size=4), data_st=st.data())
def test_broadcast(seed: int, shape: list[int], data_st: st.DataObject) -> None:
    rng = np.random.default_rng(seed)
    added = sorted(data_st.draw(st.sets(st.integers(0, len(shape) - 1), max_size=len(shape) - 1)))
    kept = [d for d in range(len(shape)) if d not in added]
    in_shape = [shape[d] for d in kept]
    x, init = data(rng, in_shape), data(rng, shape)
    ir = func(
        [("x", ttype(in_shape)), ("init", ttype(shape))],
        f"  %r = linalg.broadcast ins(%x : {ttype(in_shape)}) outs(%init : {ttype(shape)}) "
        f"dimensions = [{', '.join(map(str, added))}]",
        "%r", ttype(shape),
    )
    expected = np.empty(shape, dtype=np.float32)
    for index in np.ndindex(*shape):
        expected[index] = x[tuple(index[d] for d in kept)]
    assert_matches(run(ir, x, init), expected)


@SETTINGS
@given(seed=seeds, shape=st.lists(st.integers(1, 4), min_size=1, max_size=4), data_st=st.data())
def test_transpose(seed: int, shape: list[int], data_st: st.DataObject) -> None:
    rng = np.random.default_rng(seed)
    perm = data_st.draw(st.permutations(range(len(shape))))
    out_shape = [shape[p] for p in perm]
    x, init = data(rng, shape), data(rng, out_shape)
    ir = func(
        [("x", ttype(shape)), ("init", ttype(out_shape))],
        f"  %r = linalg.transpose ins(%x : {ttype(shape)}) outs(%init : {ttype(out_shape)}) "
        f"permutation = [{', '.join(map(str, perm))}]",
        "%r", ttype(out_shape),
    )
    expected = np.empty(out_shape, dtype=np.float32)
    for index in np.ndindex(*out_shape):
        source = [0] * len(shape)
        for k, p in enumerate(perm):  # output dim k is input dim perm[k]
            source[p] = index[k]
        expected[index] = x[tuple(source)]
    assert_matches(run(ir, x, init), expected)


@SETTINGS
@given(shape=st.lists(st.integers(1, 4), max_size=3), value=st.integers(-128, 127), element=elements)
def test_fill(shape: list[int], value: int, element: str) -> None:
    scalar = "f32" if element.startswith("f") else element
    literal = f"{float(value)}" if element.startswith("f") else str(value)
    ir = func(
        [("init", ttype(shape, element))],
        f"  %v = arith.constant {literal} : {scalar}\n"
        f"  %r = linalg.fill ins(%v : {scalar}) outs(%init : {ttype(shape, element)}) -> {ttype(shape, element)}",
        "%r", ttype(shape, element),
    )
    init = np.zeros(shape, dtype=NP_TYPES[element])
    assert_matches(run(ir, init), np.full(shape, value, dtype=np.int64 if element != "f32" else np.float64), element)


# ----------------------------------------------------------------------------- reduce / generic
REDUCE_BODIES = {
    "add": ("arith.addf %in, %acc : f32", lambda acc, v: acc + v),
    "max": ("arith.maximumf %acc, %in : f32", np.maximum),
    # Not a plain combiner: evaluated in MLIR's loop order.
    "decay": ("arith.mulf %acc, %half : f32\n      %s2 = arith.addf %s, %in : f32", lambda acc, v: acc * 0.5 + v),
}


@pytest.mark.parametrize("body", sorted(REDUCE_BODIES))
@SETTINGS
@given(seed=seeds, shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), data_st=st.data())
def test_reduce(body: str, seed: int, shape: list[int], data_st: st.DataObject) -> None:
    rng = np.random.default_rng(seed)
    dims = sorted(data_st.draw(st.sets(st.integers(0, len(shape) - 1), min_size=1)))
    out_shape = [s for d, s in enumerate(shape) if d not in dims]
    text, combine = REDUCE_BODIES[body]
    result = "%s2" if body == "decay" else "%s"
    ir = func(
        [("x", ttype(shape)), ("init", ttype(out_shape))],
        f"  %half = arith.constant 0.5 : f32\n"
        f"  %r = linalg.reduce ins(%x : {ttype(shape)}) outs(%init : {ttype(out_shape)}) "
        f"dimensions = [{', '.join(map(str, dims))}]\n"
        f"    (%in: f32, %acc: f32) {{\n      %s = {text}\n      linalg.yield {result} : f32\n    }}",
        "%r", ttype(out_shape),
    )
    x, init = data(rng, shape), data(rng, out_shape)
    expected = init.astype(np.float64)
    for index in np.ndindex(*shape):  # row-major = MLIR's loop order
        out_index = tuple(i for d, i in enumerate(index) if d not in dims)
        expected[out_index] = combine(expected[out_index], float(x[index]))
    assert_matches(run(ir, x, init), expected)


@SETTINGS
@given(seed=seeds, rows=st.integers(1, 4), cols=st.integers(1, 5))
def test_reduce_value_and_index(seed: int, rows: int, cols: int) -> None:
    """Two inputs and two inits reduce together: a row's maximum and where it is (the
    first one, as torch's argmax lowers), against numpy's."""
    rng = np.random.default_rng(seed)
    x = data(rng, [rows, cols])
    positions = np.broadcast_to(np.arange(cols, dtype=np.int64), (rows, cols)).copy()
    ir = (
        f"func.func @main(%x: {ttype([rows, cols])}, %j: {ttype([rows, cols], 'i64')}, "
        f"%m: {ttype([rows])}, %k: {ttype([rows], 'i64')}) -> ({ttype([rows])}, {ttype([rows], 'i64')}) {{\n"
        f"  %r:2 = linalg.reduce ins(%x, %j : {ttype([rows, cols])}, {ttype([rows, cols], 'i64')}) "
        f"outs(%m, %k : {ttype([rows])}, {ttype([rows], 'i64')}) dimensions = [1]\n"
        "    (%in: f32, %in_j: i64, %acc: f32, %acc_k: i64) {\n"
        "      %gt = arith.cmpf ogt, %in, %acc : f32\n"
        "      %v = arith.select %gt, %in, %acc : f32\n"
        "      %i = arith.select %gt, %in_j, %acc_k : i64\n"
        "      linalg.yield %v, %i : f32, i64\n"
        "    }\n"
        f"  return %r#0, %r#1 : {ttype([rows])}, {ttype([rows], 'i64')}\n}}\n"
    )
    loaded = load_module(ir)
    init_m = np.full([rows], -np.inf, dtype=np.float32)
    init_k = np.full([rows], -1, dtype=np.int64)
    best, where = run_function(loaded.module, "main", [x, positions, init_m, init_k], resources=loaded.resources)
    np.testing.assert_array_equal(best, x.max(axis=1))
    np.testing.assert_array_equal(where, x.argmax(axis=1))


@SETTINGS
@given(seed=seeds, rows=st.integers(1, 4), cols=st.integers(1, 3), taps=st.integers(1, 3), stride=st.integers(1, 3))
def test_generic_strided_window_map(seed: int, rows: int, cols: int, taps: int, stride: int) -> None:
    """out[i, j] += a[i * stride + t, j] * w[t] * scale[j]: a non-projection map, a
    reduction, a broadcast operand and a body with more than one op."""
    rng = np.random.default_rng(seed)
    a_rows = (rows - 1) * stride + taps
    a, w, scale, init = data(rng, [a_rows, cols]), data(rng, [taps]), data(rng, [cols]), data(rng, [rows, cols])
    ir = (
        f"#a = affine_map<(d0, d1, d2) -> (d0 * {stride} + d2, d1)>\n"
        "#w = affine_map<(d0, d1, d2) -> (d2)>\n"
        "#s = affine_map<(d0, d1, d2) -> (d1)>\n"
        "#o = affine_map<(d0, d1, d2) -> (d0, d1)>\n"
        + func(
            [("a", ttype([a_rows, cols])), ("w", ttype([taps])), ("s", ttype([cols])), ("init", ttype([rows, cols]))],
            f"  %r = linalg.generic {{indexing_maps = [#a, #w, #s, #o], iterator_types = "
            f'["parallel", "parallel", "reduction"]}} ins(%a, %w, %s : {ttype([a_rows, cols])}, '
            f"{ttype([taps])}, {ttype([cols])}) outs(%init : {ttype([rows, cols])}) {{\n"
            "  ^bb0(%x: f32, %y: f32, %z: f32, %acc: f32):\n"
            "    %p = arith.mulf %x, %y : f32\n"
            "    %q = arith.mulf %p, %z : f32\n"
            "    %sum = arith.addf %acc, %q : f32\n"
            "    linalg.yield %sum : f32\n"
            f"  }} -> {ttype([rows, cols])}",
            "%r", ttype([rows, cols]),
        )
    )
    expected = init.astype(np.float64)
    for i in range(rows):
        for j in range(cols):
            for t in range(taps):
                expected[i, j] += float(a[i * stride + t, j]) * float(w[t]) * float(scale[j])
    assert_matches(run(ir, a, w, scale, init), expected)


@SETTINGS
@given(seed=seeds, n=st.integers(1, 4), m=st.integers(1, 4))
def test_generic_constant_and_transposed_maps_with_index(seed: int, n: int, m: int) -> None:
    """out[i, j] = b[0, i] * x[j, i] + i - j: a constant map result, a transposed read
    and linalg.index, all parallel."""
    rng = np.random.default_rng(seed)
    b, x, init = data(rng, [1, n]), data(rng, [m, n]), data(rng, [n, m])
    ir = (
        "#b = affine_map<(d0, d1) -> (0, d0)>\n"
        "#x = affine_map<(d0, d1) -> (d1, d0)>\n"
        "#o = affine_map<(d0, d1) -> (d0, d1)>\n"
        + func(
            [("b", ttype([1, n])), ("x", ttype([m, n])), ("init", ttype([n, m]))],
            f'  %r = linalg.generic {{indexing_maps = [#b, #x, #o], iterator_types = ["parallel", "parallel"]}} '
            f"ins(%b, %x : {ttype([1, n])}, {ttype([m, n])}) outs(%init : {ttype([n, m])}) {{\n"
            "  ^bb0(%p: f32, %q: f32, %out: f32):\n"
            "    %i = linalg.index 0 : index\n"
            "    %j = linalg.index 1 : index\n"
            "    %d = arith.subi %i, %j : index\n"
            "    %di = arith.index_cast %d : index to i32\n"
            "    %df = arith.sitofp %di : i32 to f32\n"
            "    %prod = arith.mulf %p, %q : f32\n"
            "    %sum = arith.addf %prod, %df : f32\n"
            "    linalg.yield %sum : f32\n"
            f"  }} -> {ttype([n, m])}",
            "%r", ttype([n, m]),
        )
    )
    expected = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            expected[i, j] = float(b[0, i]) * float(x[j, i]) + i - j
    assert_matches(run(ir, b, x, init), expected)


# ----------------------------------------------------------------------------- tensor_ext
def out_size(size: int, window: int, stride: int, dilation: int) -> int:
    return (size - dilation * (window - 1) - 1) // stride + 1


@SETTINGS
@given(
    seed=seeds, n=st.integers(1, 2), c=small, f=small, k=st.tuples(small, small),
    cs=st.tuples(st.integers(1, 2), st.integers(1, 2)), cd=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    p=st.tuples(st.integers(1, 3), st.integers(1, 3)), ps=st.tuples(small, small),
    pd=st.tuples(st.integers(1, 2), st.integers(1, 2)), hw=st.tuples(st.integers(6, 10), st.integers(6, 10)),
    divisor=st.one_of(st.none(), st.sampled_from([4.0, 9.0, 2.5])),
)
def test_fused_conv_pool(seed: int, n: int, c: int, f: int, k: tuple, cs: tuple, cd: tuple, p: tuple,
                         ps: tuple, pd: tuple, hw: tuple, divisor: float | None) -> None:
    conv_out = [out_size(hw[i], k[i], cs[i], cd[i]) for i in range(2)]
    pool_out = [out_size(conv_out[i], p[i], ps[i], pd[i]) for i in range(2)]
    assume(min(*conv_out, *pool_out) >= 1)
    rng = np.random.default_rng(seed)
    x, w = data(rng, [n, c, *hw]), data(rng, [f, c, *k])
    conv_init, pool_init = data(rng, [n, f, *conv_out]), data(rng, [n, f, *pool_out])
    types = [ttype([n, c, *hw]), ttype([f, c, *k]), ttype([n, f, *conv_out]), ttype([n, f, *pool_out])]

    def arr(values: Sequence[int]) -> str:
        return f"array<i64: {', '.join(map(str, values))}>"

    attrs = (
        f"conv_strides = {arr(cs)}, conv_dilations = {arr(cd)}, pool_window = {arr(p)}, "
        f"pool_strides = {arr(ps)}, pool_dilations = {arr(pd)}"
        + (f", divisor = {divisor} : f64" if divisor is not None else "")
    )
    ir = func(
        [("x", types[0]), ("w", types[1]), ("ci", types[2]), ("pi", types[3])],
        f"  %r = tensor_ext.fused_conv_pool {{{attrs}}} ins(%x, %w, %ci : {types[0]}, {types[1]}, "
        f"{types[2]}) outs(%pi : {types[3]}) -> {types[3]}",
        "%r", types[3],
    )
    conv = ref_conv2d_nchw_fchw(x, w, conv_init, cs, cd)
    expected = ref_pool(conv, pool_init, p, ps, pd, "NCHW", "sum")
    if divisor is not None:
        expected = expected / divisor
    assert_matches(run(ir, x, w, conv_init, pool_init), expected)


# ----------------------------------------------------------------------------- dialect maps
@contextmanager
def without_handler(name: str) -> Iterator[None]:
    """Evaluate `name` through the generic path (its own indexing maps and body)."""
    handler = OP_HANDLERS.pop(name)
    try:
        yield
    finally:
        OP_HANDLERS[name] = handler


CONV_OPS: dict[str, tuple[Callable[..., list[list[int]]], int]] = {
    # name -> (shapes of input, filter, output from (n, c, f, g, kh, kw, h, w, oh, ow)), rank
    "linalg.conv_2d_nchw_fchw": (lambda n, c, f, g, kh, kw, h, w, oh, ow: [[n, c, h, w], [f, c, kh, kw], [n, f, oh, ow]], 2),
    "linalg.conv_2d_nhwc_hwcf": (lambda n, c, f, g, kh, kw, h, w, oh, ow: [[n, h, w, c], [kh, kw, c, f], [n, oh, ow, f]], 2),
    "linalg.conv_2d_nhwc_fhwc": (lambda n, c, f, g, kh, kw, h, w, oh, ow: [[n, h, w, c], [f, kh, kw, c], [n, oh, ow, f]], 2),
    "linalg.conv_2d_ngchw_fgchw": (lambda n, c, f, g, kh, kw, h, w, oh, ow: [[n, g, c, h, w], [f, g, c, kh, kw], [n, g, f, oh, ow]], 2),
    "linalg.conv_2d_ngchw_gfchw": (lambda n, c, f, g, kh, kw, h, w, oh, ow: [[n, g, c, h, w], [g, f, c, kh, kw], [n, g, f, oh, ow]], 2),
    "linalg.conv_2d_nhwgc_gfhwc": (lambda n, c, f, g, kh, kw, h, w, oh, ow: [[n, h, w, g, c], [g, f, kh, kw, c], [n, oh, ow, g, f]], 2),
    "linalg.depthwise_conv_2d_nchw_chw": (lambda n, c, f, g, kh, kw, h, w, oh, ow: [[n, c, h, w], [c, kh, kw], [n, c, oh, ow]], 2),
    "linalg.conv_1d_ncw_fcw": (lambda n, c, f, g, kh, kw, h, w, oh, ow: [[n, c, w], [f, c, kw], [n, f, ow]], 1),
}


@pytest.mark.parametrize("op_name", sorted(CONV_OPS))
@settings(max_examples=budget(8))
@given(seed=seeds, w=windows2d(), n=st.integers(1, 2), c=small, f=small, g=st.integers(1, 2))
def test_named_conv_matches_its_indexing_maps(op_name: str, seed: int, w: dict, n: int, c: int, f: int, g: int) -> None:
    """The fast path (windows + einsum, per layout) agrees with evaluating the op's own
    indexing maps and body, which checks the dialect's maps and the layout table together."""
    rng = np.random.default_rng(seed)
    h, wd = spatial(w)
    shapes_of, rank = CONV_OPS[op_name]
    shapes = shapes_of(n, c, f, g, *w["kernel"], h, wd, *w["out"])
    types = [ttype(s) for s in shapes]
    strides, dilations = (w["stride"], w["dilation"]) if rank == 2 else (w["stride"][1:], w["dilation"][1:])
    ir = func(
        [("x", types[0]), ("w", types[1]), ("init", types[2])],
        f"  %r = {op_name} {window_attrs(strides, dilations)} "
        f"ins(%x, %w : {types[0]}, {types[1]}) outs(%init : {types[2]}) -> {types[2]}",
        "%r", types[2],
    )
    args = [data(rng, s) for s in shapes]
    fast = run(ir, *args)
    with without_handler(op_name):
        by_maps = run(ir, *args)
    np.testing.assert_allclose(fast, by_maps, **FLOAT_TOL)


POOL_OPS: dict[str, Callable[..., list[list[int]]]] = {
    # name -> shapes of input, window, output from (n, c, kh, kw, h, w, oh, ow)
    "linalg.pooling_nchw_sum": lambda n, c, kh, kw, h, w, oh, ow: [[n, c, h, w], [kh, kw], [n, c, oh, ow]],
    "linalg.pooling_nchw_max": lambda n, c, kh, kw, h, w, oh, ow: [[n, c, h, w], [kh, kw], [n, c, oh, ow]],
    "linalg.pooling_nhwc_sum": lambda n, c, kh, kw, h, w, oh, ow: [[n, h, w, c], [kh, kw], [n, oh, ow, c]],
    "linalg.pooling_nhwc_max": lambda n, c, kh, kw, h, w, oh, ow: [[n, h, w, c], [kh, kw], [n, oh, ow, c]],
    "linalg.pooling_ncw_sum": lambda n, c, kh, kw, h, w, oh, ow: [[n, c, w], [kw], [n, c, ow]],
    "linalg.pooling_ncw_max": lambda n, c, kh, kw, h, w, oh, ow: [[n, c, w], [kw], [n, c, ow]],
}


@pytest.mark.parametrize("op_name", sorted(POOL_OPS))
@settings(max_examples=budget(8))
@given(seed=seeds, w=windows2d(), n=st.integers(1, 2), c=small)
def test_named_pooling_matches_its_indexing_maps(op_name: str, seed: int, w: dict, n: int, c: int) -> None:
    rng = np.random.default_rng(seed)
    h, wd = spatial(w)
    shapes = POOL_OPS[op_name](n, c, *w["kernel"], h, wd, *w["out"])
    x_t, win_t, o_t = (ttype(s) for s in shapes)
    one_d = len(shapes[1]) == 1
    strides, dilations = (w["stride"][1:], w["dilation"][1:]) if one_d else (w["stride"], w["dilation"])
    ir = func(
        [("x", x_t), ("init", o_t)],
        f"  %win = tensor.empty() : {win_t}\n"
        f"  %r = {op_name} {window_attrs(strides, dilations)} ins(%x, %win : {x_t}, {win_t}) "
        f"outs(%init : {o_t}) -> {o_t}",
        "%r", o_t,
    )
    x, init = data(rng, shapes[0]), data(rng, shapes[2])
    fast = run(ir, x, init)
    with without_handler(op_name):
        by_maps = run(ir, x, init)
    np.testing.assert_allclose(fast, by_maps, **FLOAT_TOL)


CONTRACTIONS = {
    "linalg.matmul": ([[3, 4], [4, 5]], [3, 5]),
    "linalg.matvec": ([[3, 4], [4]], [3]),
    "linalg.vecmat": ([[3], [3, 4]], [4]),
    "linalg.batch_matmul": ([[2, 3, 4], [2, 4, 5]], [2, 3, 5]),
}


@pytest.mark.parametrize("op_name", sorted(CONTRACTIONS))
def test_named_contraction_matches_its_indexing_maps(op_name: str) -> None:
    rng = np.random.default_rng(0)
    (lhs_shape, rhs_shape), out_shape = CONTRACTIONS[op_name]
    lhs_t, rhs_t, out_t = ttype(lhs_shape), ttype(rhs_shape), ttype(out_shape)
    ir = func(
        [("a", lhs_t), ("b", rhs_t), ("c", out_t)],
        f"  %r = {op_name} ins(%a, %b : {lhs_t}, {rhs_t}) outs(%c : {out_t}) -> {out_t}",
        "%r", out_t,
    )
    args = [data(rng, s) for s in (lhs_shape, rhs_shape, out_shape)]
    fast = run(ir, *args)
    with without_handler(op_name):
        by_maps = run(ir, *args)
    np.testing.assert_allclose(fast, by_maps, **FLOAT_TOL)


@pytest.mark.parametrize("spec", ["ab,bc->c", "ab,cb->ac", "abd,bc->ac", "ab,bcd->c"])
def test_contract_sums_axes_only_one_operand_has(spec: str) -> None:
    """`contract` equals numpy's einsum when an operand has axes that appear nowhere
    else (summed away first: a pool's window taps, a conv input's unread dims)."""
    operands, out_axes = spec.split("->")
    lhs_axes, rhs_axes = operands.split(",")
    sizes = {"a": 2, "b": 3, "c": 4, "d": 5}
    rng = np.random.default_rng(0)
    lhs = rng.standard_normal([sizes[a] for a in lhs_axes])
    rhs = rng.standard_normal([sizes[a] for a in rhs_axes])
    got = contract(lhs, lhs_axes, rhs, rhs_axes, out_axes)
    np.testing.assert_allclose(got, np.einsum(spec, lhs, rhs), rtol=1e-12, atol=1e-12)
