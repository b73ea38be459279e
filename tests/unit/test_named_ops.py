"""MLIR's named convolutions, poolings and contractions against numpy loop references.

Each reference is written from the op's *name* (the layouts MLIR spells in it, e.g.
`conv_2d_nhwc_hwcf`: input n,h,w,c; filter h,w,c,f; output n,h,w,f), not from the
`LOOPS` / `OPERANDS` table the ops are defined by, and runs plain Python loops over
every output element and window tap. Hypothesis draws the sizes, strides, dilations
and values; the evaluator runs the op through heirpy's parser and verifier.
"""

from __future__ import annotations

import itertools
import re
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser

import heirpy
from heirpy.interp.evaluator import Evaluator
from heirpy.ir.context import make_context
from heirpy.ir.dialects.linalg_structured import NAMED_OPS, PoolingOp, WindowOp

SPATIAL = "dhw"  # MLIR's spatial letters, outer to inner


def _conv_layouts(name: str) -> tuple[str, str, str] | None:
    """(input, filter, output) letters of a conv named like `conv_2d_nhwc_hwcf`."""
    plain = re.fullmatch(r"conv_(\d)d", name)
    if plain:  # no batch or channels: every letter is spatial
        spatial = SPATIAL[-int(plain.group(1)) :]
        return spatial, spatial, spatial
    m = re.fullmatch(r"(depthwise_)?conv_\dd_([a-z]+)_([a-z]+?)(_q)?", name)
    if m is None:
        return None
    depthwise, inp, flt = m.group(1), m.group(2), m.group(3)
    if depthwise:  # the output keeps the input's channel c, and adds the multiplier m
        return inp, flt, inp + ("m" if "m" in flt else "")
    return inp, flt, inp.replace("c", "f")  # the filter's f replaces the input's c


def _spatial(layout: str) -> str:
    return "".join(ch for ch in layout if ch in SPATIAL)


def conv_reference(name, image, kernel, init, strides, dilations, zero_points=(0, 0)):
    """`out[o] += (in[o*stride + tap*dilation] - izp) * (k[tap] - kzp)`, one element at a time."""
    inp, flt, out = _conv_layouts(name)  # type: ignore[misc]
    spatial = _spatial(inp)
    size = {}
    for letters, array in ((inp, image), (flt, kernel), (out, init)):
        size.update((ch, n) for ch, n in zip(letters, array.shape) if ch not in SPATIAL)
    taps = [kernel.shape[flt.index(s)] for s in spatial]
    positions = [init.shape[out.index(s)] for s in spatial]
    channels = sorted(size)
    result = init.copy()
    izp, kzp = (result.dtype.type(z) for z in zero_points)
    for chan in itertools.product(*(range(size[ch]) for ch in channels)):
        at = dict(zip(channels, chan))
        for pos in itertools.product(*(range(n) for n in positions)):
            for tap in itertools.product(*(range(n) for n in taps)):
                where = [p * s + t * d for p, t, s, d in zip(pos, tap, strides, dilations)]
                i = tuple(where[spatial.index(ch)] if ch in SPATIAL else at[ch] for ch in inp)
                k = tuple(tap[spatial.index(ch)] if ch in SPATIAL else at[ch] for ch in flt)
                o = tuple(pos[spatial.index(ch)] if ch in SPATIAL else at[ch] for ch in out)
                a = result.dtype.type(image[i]) - izp
                b = result.dtype.type(kernel[k]) - kzp
                result[o] += a * b
    return result


def pool_reference(name, image, window_shape, init, strides, dilations):
    """`out[o] = combine(out[o], in[o*stride + tap*dilation])` over every tap."""
    m = re.fullmatch(r"pooling_([a-z]+)_(sum|max|min)(_unsigned)?", name)
    layout, kind, unsigned = m.group(1), m.group(2), bool(m.group(3))  # type: ignore[union-attr]
    spatial = _spatial(layout)
    if unsigned:  # compare the same bits as unsigned numbers
        image, init = image.view(np.uint8), init.view(np.uint8)
    result = init.copy()
    combine = {"sum": lambda a, b: a + b, "max": max, "min": min}[kind]
    for o in itertools.product(*(range(n) for n in init.shape)):
        for tap in itertools.product(*(range(n) for n in window_shape)):
            i = list(o)
            for k, s in enumerate(spatial):
                i[layout.index(s)] = o[layout.index(s)] * strides[k] + tap[k] * dilations[k]
            result[o] = combine(result[o], image[tuple(i)])
    return result


CONTRACTIONS = {
    # name: (einsum of the inputs into the output)
    "matmul": "mk,kn->mn",
    "matvec": "ij,j->i",
    "vecmat": "m,mn->n",
    "batch_matmul": "bmk,bkn->bmn",
    "batch_reduce_matmul": "bmk,bkn->mn",
    "batch_matvec": "bij,bj->bi",
    "batch_vecmat": "bm,bmn->bn",
    "dot": "k,k->",
    "mmt4d": "mkac,nkbc->mnab",
    "batch_mmt4d": "zmkac,znkbc->zmnab",
    "quantized_matmul": "mk,kn->mn",
    "quantized_batch_matmul": "bmk,bkn->bmn",
}

OPS = {op.name.removeprefix("linalg."): op for op in NAMED_OPS if op.name != "linalg.contract"}


def test_every_named_op_has_a_reference() -> None:
    """A new op in the table needs a reference here before it is trusted."""
    for name in OPS:
        assert name in CONTRACTIONS or _conv_layouts(name) or name.startswith("pooling_"), name


def _tensor(shape, dtype: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{dtype}>"


def _run(text: str, inputs: list[np.ndarray]) -> np.ndarray:
    module = heirpy.parse(text)
    (result,) = Evaluator(module).call("f", inputs)
    return result


def _window_text(name: str, rank: int, strides, dilations) -> str:
    fmt = lambda v: f"dense<{list(v)}> : tensor<{rank}xi64>"  # noqa: E731
    return f"{{dilations = {fmt(dilations)}, strides = {fmt(strides)}}}"


window_params = st.fixed_dictionaries(
    {
        "strides": st.lists(st.integers(1, 2), min_size=3, max_size=3),
        "dilations": st.lists(st.integers(1, 2), min_size=3, max_size=3),
        "sizes": st.lists(st.integers(1, 3), min_size=12, max_size=12),
        "seed": st.integers(0, 2**16),
        "float": st.booleans(),
    }
)

CONV_NAMES = sorted(n for n in OPS if _conv_layouts(n))
POOL_NAMES = sorted(n for n in OPS if n.startswith("pooling_"))


Case = tuple[str, list[np.ndarray], np.ndarray]
"""MLIR text of `@f`, its inputs, and the reference result."""


def conv_case(name: str, p: dict) -> Case:
    inp, flt, out = _conv_layouts(name)  # type: ignore[misc]
    quantized = name.endswith("_q")
    spatial = _spatial(inp)
    rank = len(spatial)
    sizes = iter(p["sizes"])
    extent = {ch: next(sizes) for ch in "ncfgm"}
    taps = {s: next(sizes) for s in spatial}
    outs = {s: next(sizes) for s in spatial}
    strides, dilations = p["strides"][:rank], p["dilations"][:rank]
    ins = {s: (outs[s] - 1) * st_ + (taps[s] - 1) * dl + 1 for s, st_, dl in zip(spatial, strides, dilations)}
    image_shape = [ins[ch] if ch in SPATIAL else extent[ch] for ch in inp]
    kernel_shape = [taps[ch] if ch in SPATIAL else extent[ch] for ch in flt]
    out_shape = [outs[ch] if ch in SPATIAL else extent[ch] for ch in out]
    rng = np.random.default_rng(p["seed"])
    if p["float"] and not quantized:
        in_t, out_t, np_in, np_out = "f32", "f32", np.float32, np.float32
        image, kernel = rng.standard_normal(image_shape).astype(np_in), rng.standard_normal(kernel_shape).astype(np_in)
        init = rng.standard_normal(out_shape).astype(np_out)
    else:
        in_t, out_t, np_in, np_out = "i8", "i32", np.int8, np.int32
        image = rng.integers(-5, 5, image_shape).astype(np_in)
        kernel = rng.integers(-5, 5, kernel_shape).astype(np_in)
        init = rng.integers(-5, 5, out_shape).astype(np_out)
    zps = (np.int32(rng.integers(-2, 3)), np.int32(rng.integers(-2, 3))) if quantized else (0, 0)
    window = _window_text(name, rank, strides, dilations) if issubclass(OPS[name], WindowOp) else ""
    if not issubclass(OPS[name], WindowOp):
        strides, dilations = [1] * rank, [1] * rank
    ins_types = [_tensor(image_shape, in_t), _tensor(kernel_shape, in_t)] + (["i32", "i32"] if quantized else [])
    args = ["%i", "%k"] + (["%a", "%b"] if quantized else [])
    text = (
        f"func.func @f({', '.join(f'{a}: {t}' for a, t in zip(args, ins_types))}, %o: {_tensor(out_shape, out_t)}) -> {_tensor(out_shape, out_t)} {{\n"
        f"  %r = linalg.{name} {window} ins({', '.join(args)} : {', '.join(ins_types)}) "
        f"outs(%o : {_tensor(out_shape, out_t)}) -> {_tensor(out_shape, out_t)}\n"
        f"  return %r : {_tensor(out_shape, out_t)}\n}}"
    )
    inputs = [image, kernel, *([np.asarray(z) for z in zps] if quantized else []), init]
    return text, inputs, conv_reference(name, image, kernel, init, strides, dilations, zps)


@pytest.mark.parametrize("name", CONV_NAMES)
@settings(max_examples=6, deadline=None)
@given(p=window_params)
def test_convolutions_match_loop_reference(name: str, p: dict) -> None:
    text, inputs, want = conv_case(name, p)
    np.testing.assert_allclose(_run(text, inputs), want, rtol=1e-5, atol=1e-5)


def pool_case(name: str, p: dict) -> Case:
    layout = re.fullmatch(r"pooling_([a-z]+)_.*", name).group(1)  # type: ignore[union-attr]
    spatial = _spatial(layout)
    rank = len(spatial)
    sizes = iter(p["sizes"])
    extent = {ch: next(sizes) for ch in "nc"}
    taps = [next(sizes) for _ in spatial]
    outs = {s: next(sizes) for s in spatial}
    strides, dilations = p["strides"][:rank], p["dilations"][:rank]
    ins = {s: (outs[s] - 1) * st_ + (t - 1) * dl + 1 for s, t, st_, dl in zip(spatial, taps, strides, dilations)}
    image_shape = [ins[ch] if ch in SPATIAL else extent[ch] for ch in layout]
    out_shape = [outs[ch] if ch in SPATIAL else extent[ch] for ch in layout]
    rng = np.random.default_rng(p["seed"])
    integer = "unsigned" in name or not p["float"]
    dtype, np_t = ("i8", np.int8) if integer else ("f32", np.float32)
    image = (rng.integers(-9, 10, image_shape) if integer else rng.standard_normal(image_shape)).astype(np_t)
    init = (rng.integers(-9, 10, out_shape) if integer else rng.standard_normal(out_shape)).astype(np_t)
    window = np.zeros(taps, dtype=np_t)
    text = (
        f"func.func @f(%i: {_tensor(image_shape, dtype)}, %w: {_tensor(taps, dtype)}, %o: {_tensor(out_shape, dtype)}) -> {_tensor(out_shape, dtype)} {{\n"
        f"  %r = linalg.{name} {_window_text(name, rank, strides, dilations)} ins(%i, %w : {_tensor(image_shape, dtype)}, {_tensor(taps, dtype)}) "
        f"outs(%o : {_tensor(out_shape, dtype)}) -> {_tensor(out_shape, dtype)}\n"
        f"  return %r : {_tensor(out_shape, dtype)}\n}}"
    )
    return text, [image, window, init], pool_reference(name, image, taps, init, strides, dilations)


@pytest.mark.parametrize("name", POOL_NAMES)
@settings(max_examples=6, deadline=None)
@given(p=window_params)
def test_poolings_match_loop_reference(name: str, p: dict) -> None:
    text, inputs, want = pool_case(name, p)
    got = _run(text, inputs)
    if "unsigned" in name:
        got = got.view(np.uint8)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert issubclass(OPS[name], PoolingOp)


def contraction_case(name: str, sizes: list[int], seed: int) -> Case:
    spec = CONTRACTIONS[name]
    quantized = name.startswith("quantized")
    letters = sorted(set(spec.replace(",", "").replace("->", "")))
    size = dict(zip(letters, sizes))
    (lhs, rhs), out = spec.split("->")[0].split(","), spec.split("->")[1]
    shapes = [[size[ch] for ch in part] for part in (lhs, rhs, out)]
    rng = np.random.default_rng(seed)
    a, b, c = (rng.integers(-5, 5, s).astype(np.int32 if i == 2 else np.int8) for i, s in enumerate(shapes))
    zps = [np.int32(rng.integers(-2, 3)), np.int32(rng.integers(-2, 3))] if quantized else []
    types = [_tensor(shapes[0], "i8"), _tensor(shapes[1], "i8")] + (["i32", "i32"] if quantized else [])
    args = ["%a", "%b"] + (["%za", "%zb"] if quantized else [])
    out_t = _tensor(shapes[2], "i32")
    text = (
        f"func.func @f({', '.join(f'{x}: {t}' for x, t in zip(args, types))}, %c: {out_t}) -> {out_t} {{\n"
        f"  %r = linalg.{name} ins({', '.join(args)} : {', '.join(types)}) outs(%c : {out_t}) -> {out_t}\n"
        f"  return %r : {out_t}\n}}"
    )
    za, zb = zps if quantized else (0, 0)
    want = c + np.einsum(spec, a.astype(np.int32) - za, b.astype(np.int32) - zb)
    return text, [a, b, *[np.asarray(z) for z in zps], c], want


@pytest.mark.parametrize("name", sorted(CONTRACTIONS))
@settings(max_examples=6, deadline=None)
@given(sizes=st.lists(st.integers(1, 4), min_size=7, max_size=7), seed=st.integers(0, 2**16))
def test_contractions_match_einsum(name: str, sizes: list[int], seed: int) -> None:
    text, inputs, want = contraction_case(name, sizes, seed)
    np.testing.assert_array_equal(_run(text, inputs), want)


FIXED = {"strides": [2, 1, 2], "dilations": [1, 2, 1], "sizes": [2, 3, 2, 2, 2, 2, 3, 2, 3, 2, 2, 2], "seed": 0, "float": False}


def _case(name: str) -> Case:
    if name in CONTRACTIONS:
        return contraction_case(name, [2, 3, 4, 2, 3, 2, 2], 0)
    return (pool_case if name.startswith("pooling_") else conv_case)(name, FIXED)


def _generic(text: str) -> str:
    done = subprocess.run(
        ["heir-opt", "--mlir-print-op-generic", "--mlir-print-local-scope"],
        input=text, capture_output=True, text=True, check=True,
    )
    return done.stdout


@pytest.mark.parametrize("name", sorted(OPS))
def test_maps_and_body_are_mlirs(name: str) -> None:
    """heir-opt's memoized indexing maps and its body equal heirpy's for each op."""
    text = _case(name)[0]
    theirs = _generic(text)
    module = heirpy.parse(text)
    (op,) = [o for o in module.walk() if o.name == f"linalg.{name}"]
    # MLIR keeps matmul's maps as a property, the other ops' in a memoized attribute.
    their_maps = re.search(r"indexing_maps = (\[affine_map.*?\])[,}]", theirs).group(1)  # type: ignore[union-attr]
    assert Parser(make_context(), their_maps).parse_attribute() == op.get_indexing_maps()
    their_body = re.findall(r'"((?:arith|linalg)\.\w+)"', theirs.split(f'"linalg.{name}"', 1)[1].split("}) {", 1)[0])
    ours = [o.name for o in op.body.block.ops]
    assert their_body == ours
    assert _run(text, _case(name)[1]).shape == _case(name)[2].shape


MATMUL_VARIANTS = [
    # (lhs map, rhs map, einsum of the inputs, lhs shape, rhs shape)
    ("(m, n, k) -> (m, k)", "(m, n, k) -> (k, n)", "mk,kn->mn", (3, 5), (5, 4)),
    ("(m, n, k) -> (k, m)", "(m, n, k) -> (k, n)", "km,kn->mn", (5, 3), (5, 4)),
    ("(m, n, k) -> (m, k)", "(m, n, k) -> (n, k)", "mk,nk->mn", (3, 5), (4, 5)),
    ("(m, n, k) -> (k)", "(m, n, k) -> (k, n)", "k,kn->mn", (5,), (5, 4)),
    ("(m, n, k) -> (m, k)", "(m, n, k) -> (k)", "mk,k->mn", (3, 5), (5,)),
]


@pytest.mark.parametrize("lhs_map, rhs_map, spec, lhs_shape, rhs_shape", MATMUL_VARIANTS)
@pytest.mark.parametrize("cast", ["", "{cast = #linalg.type_fn<cast_unsigned>}"])
def test_matmul_indexing_maps_and_cast(lhs_map, rhs_map, spec, lhs_shape, rhs_shape, cast) -> None:
    """Transposed and broadcast operands read as their maps say; cast_unsigned widens
    i8 as unsigned (extui), the default as signed (extsi)."""
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, lhs_shape).astype(np.int8)
    b = rng.integers(-128, 128, rhs_shape).astype(np.int8)
    c = rng.integers(-9, 9, (3, 4)).astype(np.int32)
    maps = f"indexing_maps = [affine_map<{lhs_map}>, affine_map<{rhs_map}>, affine_map<(m, n, k) -> (m, n)>]"
    ta, tb = _tensor(lhs_shape, "i8"), _tensor(rhs_shape, "i8")
    text = (
        f"func.func @f(%a: {ta}, %b: {tb}, %c: tensor<3x4xi32>) -> tensor<3x4xi32> {{\n"
        f"  %r = linalg.matmul {maps} {cast} ins(%a, %b : {ta}, {tb}) outs(%c : tensor<3x4xi32>) -> tensor<3x4xi32>\n"
        f"  return %r : tensor<3x4xi32>\n}}"
    )
    widen = (lambda x: x.view(np.uint8).astype(np.int64)) if cast else (lambda x: x.astype(np.int64))
    wa, wb = widen(a), widen(b)
    (lhs, rhs), want = spec.split("->")[0].split(","), c.astype(np.int64)
    for m, n, k in itertools.product(range(3), range(4), range(5)):
        at = {"m": m, "n": n, "k": k}
        want[m, n] += wa[tuple(at[x] for x in lhs)] * wb[tuple(at[x] for x in rhs)]
    want = want.astype(np.int32)
    np.testing.assert_array_equal(_run(text, [a, b, c]), want)


def test_contract_is_the_einsum_of_its_maps() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((2, 3, 5)).astype(np.float32), rng.standard_normal((5, 4, 2)).astype(np.float32)
    c = rng.standard_normal((4, 3)).astype(np.float32)
    text = """func.func @f(%a: tensor<2x3x5xf32>, %b: tensor<5x4x2xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = linalg.contract indexing_maps = [affine_map<(i, j, k, l) -> (k, i, l)>, affine_map<(i, j, k, l) -> (l, j, k)>, affine_map<(i, j, k, l) -> (j, i)>]
         ins(%a, %b : tensor<2x3x5xf32>, tensor<5x4x2xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}"""
    np.testing.assert_allclose(_run(text, [a, b, c]), c + np.einsum("kil,ljk->ji", a, b), rtol=1e-5)


def test_batch_reduce_matmul_sums_over_the_batch() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((2, 3, 5)).astype(np.float32), rng.standard_normal((2, 5, 4)).astype(np.float32)
    c = rng.standard_normal((3, 4)).astype(np.float32)
    text = """func.func @f(%a: tensor<2x3x5xf32>, %b: tensor<2x5x4xf32>, %c: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = linalg.batch_reduce_matmul ins(%a, %b : tensor<2x3x5xf32>, tensor<2x5x4xf32>) outs(%c : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}"""
    np.testing.assert_allclose(_run(text, [a, b, c]), c + np.einsum("bmk,bkn->mn", a, b), rtol=1e-5)
