"""Generics with several results, as torch-mlir emits them for max, argmax and softmax.

They parse, print and re-parse (FileCheck covers the text: tests/filecheck/dialects/linalg/
generic_multi_result.mlir); here the evaluator is checked against numpy on them, and every
registered pass must leave such a function equal to itself under the evaluator.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heirpy
from heirpy.interp import load_module, run_function
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms import HEIRPY_PASSES


def _type(shape: tuple[int, ...], element: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{element}>"


def _max_argmax_generic(
    name: str, x: str, x_type: str, vals: str, idxs: str, full: str, reduced: str, iterators: str, axis: int
) -> str:
    """`name:2 = ` the two-result generic torch-mlir prints for max/argmax over `axis`,
    into the inits %m (values, from -inf) and %i (indices, from 0)."""
    return f"""{name}:2 = linalg.generic {{indexing_maps = [{full}, {reduced}, {reduced}], iterator_types = {iterators}}}
      ins({x} : {x_type}) outs(%m, %i : {vals}, {idxs}) {{
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %idx = linalg.index {axis} : index
    %ii = arith.index_cast %idx : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ii, %out_0 : i64
    linalg.yield %mx, %sel : f32, i64
  }} -> ({vals}, {idxs})"""


def max_argmax_program(shape: tuple[int, ...], axis: int) -> str:
    """torch.max(x, dim=axis): the two-result generic torch-mlir prints (values, first index)."""
    rank = len(shape)
    dims = [f"d{i}" for i in range(rank)]
    kept = [d for i, d in enumerate(dims) if i != axis]
    out_shape = tuple(n for i, n in enumerate(shape) if i != axis)
    full = f"affine_map<({', '.join(dims)}) -> ({', '.join(dims)})>"
    reduced = f"affine_map<({', '.join(dims)}) -> ({', '.join(kept)})>"
    iterators = ", ".join('"reduction"' if i == axis else '"parallel"' for i in range(rank))
    vals, idxs = _type(out_shape), _type(out_shape, "i64")
    return f"""
func.func @main(%x: {_type(shape)}) -> ({vals}, {idxs}) {{
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : {vals}
  %e1 = tensor.empty() : {idxs}
  %m = linalg.fill ins(%ninf : f32) outs(%e0 : {vals}) -> {vals}
  %i = linalg.fill ins(%c0 : i64) outs(%e1 : {idxs}) -> {idxs}
  {_max_argmax_generic("%r", "%x", _type(shape), vals, idxs, full, reduced, f"[{iterators}]", axis)}
  return %r#0, %r#1 : {vals}, {idxs}
}}
"""


def _pointwise(name: str, ins: str, types: str, maps: str, iterators: str, expr: str, out: str) -> str:
    """`name = ` an elementwise generic over `%e` whose body yields `expr` of `%in` (`%in_0`)."""
    args = ", ".join(f"%in{suffix}: f32" for suffix in ("", "_0")[: ins.count(",") + 1])
    return f"""{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = {iterators}}}
      ins({ins} : {types}) outs(%e : {out}) {{
  ^bb0({args}, %out: f32):
    %v = {expr} : f32
    linalg.yield %v : f32
  }} -> {out}"""


def softmax_program(b: int, n: int) -> str:
    """softmax over the last axis of a BxNxN tensor, op for op as torch-mlir lowers it: a
    max/argmax generic, x - max (read through a unit-dim map), exp, a sum into (d0, d1, 0),
    and a divide."""
    t, r, r1, ri = _type((b, n, n)), _type((b, n)), _type((b, n, 1)), _type((b, n), "i64")
    full = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
    row = "affine_map<(d0, d1, d2) -> (d0, d1)>"
    unit = "affine_map<(d0, d1, d2) -> (d0, d1, 0)>"
    par = '["parallel", "parallel", "parallel"]'
    red = '["parallel", "parallel", "reduction"]'
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %c0 = arith.constant 0 : i64
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ei = tensor.empty() : {ri}
  %i = linalg.fill ins(%c0 : i64) outs(%ei : {ri}) -> {ri}
  %em = tensor.empty() : {r}
  %m = linalg.fill ins(%ninf : f32) outs(%em : {r}) -> {r}
  {_max_argmax_generic("%mx", "%x", t, r, ri, full, row, red, 2)}
  %mx1 = tensor.expand_shape %mx#0 [[0], [1, 2]] output_shape [{b}, {n}, 1] : {r} into {r1}
  %e = tensor.empty() : {t}
  {_pointwise("%sub", "%x, %mx1", f"{t}, {r1}", f"{full}, {unit}, {full}", par, "arith.subf %in, %in_0", t)}
  {_pointwise("%exp", "%sub", t, f"{full}, {full}", par, "math.exp %in", t)}
  %es = tensor.empty() : {r1}
  %z = linalg.fill ins(%zero : f32) outs(%es : {r1}) -> {r1}
  %sum = linalg.generic {{indexing_maps = [{full}, {unit}], iterator_types = {red}}}
      ins(%exp : {t}) outs(%z : {r1}) {{
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  }} -> {r1}
  {_pointwise("%div", "%exp, %sum", f"{t}, {r1}", f"{full}, {unit}, {full}", par, "arith.divf %in, %in_0", t)}
  return %div : {t}
}}
"""


def _run(text: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    loaded = load_module(text)
    return run_function(loaded.module, "main", inputs, resources=loaded.resources)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    shape=st.lists(st.integers(1, 5), min_size=1, max_size=3).map(tuple),
    data=st.data(),
)
def test_max_argmax_matches_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    axis = data.draw(st.integers(0, len(shape) - 1))
    # Few distinct values, so ties are common: argmax must keep the FIRST maximum (cmpf ogt).
    values = data.draw(st.lists(st.integers(-2, 2), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    x = np.array(values, dtype=np.float32).reshape(shape)
    got_max, got_arg = _run(max_argmax_program(shape, axis), [x])
    np.testing.assert_array_equal(got_max, x.max(axis=axis))
    assert got_arg.dtype == np.int64
    np.testing.assert_array_equal(got_arg, x.argmax(axis=axis))


def test_softmax_matches_numpy() -> None:
    x = np.random.default_rng(0).standard_normal((3, 17, 17)).astype(np.float32) * 4
    (got,) = _run(softmax_program(3, 17), [x])
    shifted = np.exp(x.astype(np.float64) - x.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(got, shifted / shifted.sum(axis=-1, keepdims=True), rtol=1e-5, atol=1e-7)


PROGRAMS = {"max_argmax": max_argmax_program((2, 3, 6), 2), "softmax": softmax_program(2, 5)}
PIPELINES = sorted(HEIRPY_PASSES) + ["linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext"]


@pytest.mark.parametrize("program", sorted(PROGRAMS))
@pytest.mark.parametrize("pipeline", PIPELINES)
def test_passes_keep_multi_result_generics_equal(program: str, pipeline: str) -> None:
    """A pass either rewrites what it understands, equal under the evaluator, or leaves it."""
    before = heirpy.parse(PROGRAMS[program])
    after = heirpy.parse(PROGRAMS[program])
    heirpy.run_pipeline(after, pipeline)
    reparsed = heirpy.parse(heirpy.print_module(after))
    for candidate in (after, reparsed):
        report = check_equivalence(before, candidate, function="main", seeds=(0, 1))
        assert report.ok, f"{pipeline} on {program}:\n{heirpy.print_module(after)}"
    printed = heirpy.print_module(after)
    if program == "softmax" and ("linalg-canonicalizations" in pipeline or pipeline in ("heir-prepare", "iree-prepare")):
        # The one rewrite that consumes it: torch's whole softmax (its max/argmax generic
        # included, the argmax being unused) becomes one linalg.softmax (heir-prepare and
        # iree-prepare run linalg-canonicalizations first).
        assert "linalg.softmax dimension(2)" in printed and "} -> (" not in printed, printed
        return
    # No other pass understands a reduction with two results (max and argmax at once), so
    # each must print it exactly as it was.
    assert _max_argmax_op(heirpy.print_module(before)) in printed, pipeline


def _max_argmax_op(text: str) -> str:
    """The printed max/argmax generic of `text` (without the names of its results, which a
    pipeline may renumber)."""
    match = re.search(r"= linalg\.generic .*?\n *\} -> \(.*?\)\n", text, re.S)
    assert match is not None, text
    return match.group(0)
