"""`linalg.pack` / `linalg.unpack`: the evaluator against an element-by-element reference,
unpack(pack(x)) == x, and MLIR's verifier decisions on the layouts."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heirpy
from heirpy.interp.evaluator import Evaluator
from heirpy.ir.diagnostics import HeirpyError
from heirpy.ir.dialects.linalg_relayout import packed_shape


def ttype(shape: Sequence[int], element: str = "f32") -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{element}>"


def reference_pack(
    x: np.ndarray, dims_pos: Sequence[int], tiles: Sequence[int], perm: Sequence[int], pad: float
) -> np.ndarray:
    """Element by element: packed[J..., T...] = x[o[d] * tile + t] (or `pad` past the end),
    where outer index o is J read through `perm`."""
    rank = x.ndim
    shape = packed_shape(x.shape, tiles, dims_pos, perm)
    out = np.empty(shape, dtype=x.dtype)
    order = list(perm) or list(range(rank))
    for index in itertools.product(*(range(s) for s in shape)):
        outer = [0] * rank
        for j, d in enumerate(order):
            outer[d] = index[j]
        source = list(outer)
        for i, d in enumerate(dims_pos):
            source[d] = outer[d] * tiles[i] + index[rank + i]
        inside = all(s < n for s, n in zip(source, x.shape))
        out[index] = x[tuple(source)] if inside else pad
    return out


@st.composite
def layouts(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], list[int]]:
    """(source shape, inner_dims_pos, tiles, outer_dims_perm) of a valid pack."""
    rank = draw(st.integers(1, 3))
    shape = draw(st.lists(st.integers(1, 7), min_size=rank, max_size=rank))
    dims_pos = draw(st.permutations(range(rank)).map(lambda p: list(p)))[: draw(st.integers(0, rank))]
    tiles = draw(st.lists(st.integers(1, 4), min_size=len(dims_pos), max_size=len(dims_pos)))
    perm = draw(st.one_of(st.just([]), st.permutations(range(rank)).map(list)))
    return shape, dims_pos, tiles, perm


def _pack_program(shape: list[int], dims_pos: list[int], tiles: list[int], perm: list[int]) -> str:
    packed = packed_shape(shape, tiles, dims_pos, perm)
    perm_text = f" outer_dims_perm = [{', '.join(map(str, perm))}]" if perm else ""
    layout = f"{perm_text} inner_dims_pos = [{', '.join(map(str, dims_pos))}] inner_tiles = [{', '.join(map(str, tiles))}]"
    return f"""func.func @f(%x: {ttype(shape)}, %pad: f32) -> ({ttype(packed)}, {ttype(shape)}) {{
  %d = tensor.empty() : {ttype(packed)}
  %p = linalg.pack %x padding_value(%pad : f32){layout} into %d : {ttype(shape)} -> {ttype(packed)}
  %e = tensor.empty() : {ttype(shape)}
  %u = linalg.unpack %p{layout} into %e : {ttype(packed)} -> {ttype(shape)}
  return %p, %u : {ttype(packed)}, {ttype(shape)}
}}"""


@settings(max_examples=40, deadline=None)
@given(layout=layouts(), seed=st.integers(0, 2**16))
def test_pack_matches_reference_and_unpack_inverts_it(
    layout: tuple[list[int], list[int], list[int], list[int]], seed: int
) -> None:
    shape, dims_pos, tiles, perm = layout
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    pad = np.asarray(-7.5, dtype=np.float32)
    packed, unpacked = Evaluator(heirpy.parse(_pack_program(shape, dims_pos, tiles, perm))).call("f", [x, pad])
    np.testing.assert_array_equal(packed, reference_pack(x, dims_pos, tiles, perm, -7.5))
    np.testing.assert_array_equal(unpacked, x)


def test_dynamic_tiles_come_from_their_operands() -> None:
    text = """func.func @f(%x: tensor<6x4xf32>, %t: index) -> tensor<?x2x?x2xf32> {
  %c = arith.constant 0.0 : f32
  %n = arith.constant 2 : index
  %d = tensor.empty(%n, %t) : tensor<?x2x?x2xf32>
  %p = linalg.pack %x padding_value(%c : f32) inner_dims_pos = [0, 1] inner_tiles = [%t, 2] into %d
         : tensor<6x4xf32> -> tensor<?x2x?x2xf32>
  return %p : tensor<?x2x?x2xf32>
}"""
    x = np.arange(24, dtype=np.float32).reshape(6, 4)
    (got,) = Evaluator(heirpy.parse(text)).call("f", [x, np.asarray(3, dtype=np.int64)])
    np.testing.assert_array_equal(got, reference_pack(x, [0, 1], [3, 2], [], 0.0))


@pytest.mark.parametrize(
    ("layout", "types", "message"),
    [
        ("inner_dims_pos = [1, 0] inner_tiles = [16, 33]", "tensor<256x128xf32> -> tensor<8x8x16x33xf32>",
         "Only full tiles are supported when padding_value is not set"),
        ("inner_dims_pos = [2, 0] inner_tiles = [2, 2]", "tensor<8x8xf32> -> tensor<4x4x2x2xf32>",
         "invalid inner_dims_pos vector"),
        ("outer_dims_perm = [1, 1] inner_dims_pos = [0] inner_tiles = [2]", "tensor<8x8xf32> -> tensor<4x8x2xf32>",
         "invalid outer_dims_perm vector"),
        ("inner_dims_pos = [0] inner_tiles = [0]", "tensor<8x8xf32> -> tensor<4x8x2xf32>",
         "invalid zero tile factor"),
        ("inner_dims_pos = [0, 1] inner_tiles = [2, 2]", "tensor<8x8xf32> -> tensor<4x4x2xf32>",
         "packed rank != (unpacked rank + num tiling factors), got 3 != 4"),
        ("inner_dims_pos = [0, 1] inner_tiles = [2, 4]", "tensor<8x8xf32> -> tensor<4x2x2x8xf32>",
         "mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type at index 1: "
         "got 8 != 4"),
        ("inner_dims_pos = [0] inner_tiles = [2]", "tensor<8x8xf32> -> tensor<3x8x2xf32>",
         "expected 'tensor<4x8x2xf32>' for the packed domain value, got 'tensor<3x8x2xf32>'"),
    ],
)
def test_pack_verifier_rejects_what_mlir_rejects(layout: str, types: str, message: str) -> None:
    source, dest = types.split(" -> ")
    text = f"""func.func @f(%x: {source}, %d: {dest}) -> {dest} {{
  %p = linalg.pack %x {layout} into %d : {types}
  return %p : {dest}
}}"""
    with pytest.raises(HeirpyError) as info:
        heirpy.parse(text)
    assert message in str(info.value)


@settings(max_examples=20, deadline=None)
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=3), seed=st.integers(0, 2**16), data=st.data())
def test_softmax_matches_torch_definition(shape: list[int], seed: int, data: st.DataObject) -> None:
    """Along its dimension each slice is exp(x) / sum(exp(x)), computed here in float64."""
    dim = data.draw(st.integers(0, len(shape) - 1))
    x = (np.random.default_rng(seed).standard_normal(shape) * 4).astype(np.float32)
    text = f"""func.func @f(%x: {ttype(shape)}) -> {ttype(shape)} {{
  %e = tensor.empty() : {ttype(shape)}
  %s = linalg.softmax dimension({dim}) ins(%x : {ttype(shape)}) outs(%e : {ttype(shape)}) -> {ttype(shape)}
  return %s : {ttype(shape)}
}}"""
    (got,) = Evaluator(heirpy.parse(text)).call("f", [x])
    wide = np.exp(x.astype(np.float64))
    np.testing.assert_allclose(got, wide / wide.sum(axis=dim, keepdims=True), rtol=1e-5, atol=1e-7)
    assert got.dtype == np.float32


@pytest.mark.parametrize(
    ("dimension", "out", "message"),
    [(3, "tensor<2x16xf32>", "incorrect dimension specified"), (1, "tensor<2x15xf32>", "incompatible output shape")],
)
def test_softmax_verifier(dimension: int, out: str, message: str) -> None:
    text = f"""func.func @f(%x: tensor<2x16xf32>, %o: {out}) -> {out} {{
  %s = linalg.softmax dimension({dimension}) ins(%x : tensor<2x16xf32>) outs(%o : {out}) -> {out}
  return %s : {out}
}}"""
    with pytest.raises(HeirpyError, match=message):
        heirpy.parse(text)
