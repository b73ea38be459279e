"""The evaluator's run-time checks that verified IR can still reach (dynamic indices,
offsets and sizes), each at its limit and one past it, and the integer divisions for
every sign of their operands: a value at the edge reads, one past it is a located error."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

import heirpy
from heirpy.interp.errors import EvaluationError
from heirpy.interp.evaluator import Evaluator
from heirpy.interp.linalg_generic import eval_affine, index_grids, loop_ranges

I = np.int64  # noqa: E741


def run(text: str, *inputs: object) -> list[np.ndarray]:
    return Evaluator(heirpy.parse(text, "b.mlir")).call("f", [np.asarray(x) for x in inputs])


EXTRACT = """func.func @f(%t: tensor<3x4xf32>, %i: index, %j: index) -> f32 {
  %v = tensor.extract %t[%i, %j] : tensor<3x4xf32>
  return %v : f32
}"""
INSERT = """func.func @f(%t: tensor<3x4xf32>, %i: index, %j: index) -> tensor<3x4xf32> {
  %c = arith.constant 9.0 : f32
  %v = tensor.insert %c into %t[%i, %j] : tensor<3x4xf32>
  return %v : tensor<3x4xf32>
}"""


@pytest.mark.parametrize("text", [EXTRACT, INSERT])
def test_element_indices_at_each_edge(text: str) -> None:
    t = np.arange(12, dtype=np.float32).reshape(3, 4)
    for i, j in [(0, 0), (2, 3)]:
        (got,) = run(text, t, I(i), I(j))
        assert (float(got) == t[i, j]) if got.ndim == 0 else got[i, j] == 9.0
    for i, j in [(3, 0), (0, 4), (-1, 0), (0, -1)]:
        with pytest.raises(EvaluationError) as err:
            run(text, t, I(i), I(j))
        where, name = ("2:8", "extract") if text is EXTRACT else ("3:8", "insert")
        assert str(err.value) == f"b.mlir:{where}: error: 'tensor.{name}' index [{i}, {j}] is out of bounds for shape [3, 4]"


SLICE = """func.func @f(%t: tensor<8xf32>, %o: index, %n: index, %s: index) -> tensor<?xf32> {
  %v = tensor.extract_slice %t[%o] [%n] [%s] : tensor<8xf32> to tensor<?xf32>
  return %v : tensor<?xf32>
}"""


def test_a_slice_ending_on_the_last_element_reads_and_one_past_it_does_not() -> None:
    t = np.arange(8, dtype=np.float32)
    (got,) = run(SLICE, t, I(1), I(4), I(2))  # 1, 3, 5, 7
    assert got.tolist() == [1.0, 3.0, 5.0, 7.0]
    (empty,) = run(SLICE, t, I(9), I(0), I(1))  # no element: no bound to check
    assert empty.shape == (0,)
    for o, n, s in [(2, 4, 2), (-1, 1, 1), (0, 1, 0), (0, 9, 1)]:
        with pytest.raises(EvaluationError) as err:
            run(SLICE, t, I(o), I(n), I(s))
        assert str(err.value) == (
            f"b.mlir:2:8: error: 'tensor.extract_slice' slice of axis 0 (offset {o}, size {n}, stride {s}) "
            "is out of bounds for size 8"
        )


def test_a_rank_reduced_slice_drops_only_unit_dims_where_the_type_does() -> None:
    text = """func.func @f(%t: tensor<2x3x4xf32>, %n: index) -> tensor<?x4xf32> {
  %v = tensor.extract_slice %t[1, 0, 0] [1, %n, 4] [1, 1, 1] : tensor<2x3x4xf32> to tensor<?x4xf32>
  return %v : tensor<?x4xf32>
}"""
    t = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    (two,) = run(text, t, I(2))
    assert two.tolist() == t[1, :2].tolist()
    (one,) = run(text, t, I(1))  # the dynamic dim is 1 too: the leading unit dim is the one dropped
    assert one.shape == (1, 4) and one.tolist() == t[1, :1].tolist()


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        ("arith.divsi", 7, 2, 3), ("arith.divsi", -7, -2, 3), ("arith.divsi", 7, -2, -3), ("arith.divsi", -8, 2, -4),
        ("arith.ceildivsi", -7, 2, -3), ("arith.ceildivsi", 7, -2, -3), ("arith.ceildivsi", 8, 2, 4),
        ("arith.ceildivsi", -7, -2, 4), ("arith.ceildivui", 7, 2, 4), ("arith.ceildivui", -2, 127, 2),
        ("arith.floordivsi", 7, -2, -4), ("arith.remsi", 7, -2, 1),
    ],
)
def test_integer_division_for_every_sign(op: str, a: int, b: int, expected: int) -> None:
    text = f"func.func @f(%a: i8, %b: i8) -> i8 {{\n  %r = {op} %a, %b : i8\n  return %r : i8\n}}"
    (got,) = run(text, np.int8(a), np.int8(b))
    assert int(got) == expected


def test_affine_ceildiv_and_mod_on_negative_numbers_follow_mlir() -> None:
    d0 = AffineDimExpr(0)
    grid = [np.array([-3, -1, 0, 1, 3])]
    assert eval_affine(d0.ceil_div(2), grid).tolist() == [-1, 0, 0, 1, 2]
    assert eval_affine(d0 // 2, grid).tolist() == [-2, -1, 0, 0, 1]
    assert eval_affine(d0 % 2, grid).tolist() == [1, 1, 0, 1, 1]
    assert eval_affine(AffineConstantExpr(5), grid) == 5
    assert [g.shape for g in index_grids([2, 3])] == [(2, 1), (1, 3)]


def test_loop_ranges_name_the_operand_that_disagrees() -> None:
    module = heirpy.parse("func.func @f() {\n  return\n}", "b.mlir")
    op = next(iter(module.walk()))
    ident = AffineMap(2, 0, (AffineDimExpr(0), AffineDimExpr(1)))
    assert loop_ranges(op, [ident, ident], [(2, 3), (2, 3)]) == (2, 3)
    with pytest.raises(EvaluationError, match=r"loop d1 has size 3 and 4 \(operand #1\)$"):
        loop_ranges(op, [ident, ident], [(2, 3), (2, 4)])
    with pytest.raises(EvaluationError, match=r"operand #0 has rank 1 but its map has 2 results$"):
        loop_ranges(op, [ident], [(2,)])
    first = AffineMap(2, 0, (AffineDimExpr(0),))
    with pytest.raises(EvaluationError, match=r"cannot infer the range of loop\(s\) d1 from operand shapes$"):
        loop_ranges(op, [first], [(2,)])
    assert loop_ranges(op, [], []) == ()


def test_predicate_zero_compares() -> None:
    """Predicate 0 is `eq` for cmpi and `false` for cmpf: the first of each enum."""
    text = """func.func @f(%a: i8, %b: i8, %x: f32) -> (i1, i1) {
  %e = arith.cmpi eq, %a, %b : i8
  %n = arith.cmpf false, %x, %x : f32
  return %e, %n : i1, i1
}"""
    equal, never = run(text, np.int8(3), np.int8(3), np.float32(1.0))
    assert bool(equal) is True and bool(never) is False
    (differ, _) = run(text, np.int8(3), np.int8(4), np.float32(1.0))
    assert bool(differ) is False


def test_a_product_with_a_value_computed_in_the_body_is_no_contraction() -> None:
    """sum(a * exp(b)): the product's second operand is an op result, not an input, so
    einsum must not take it for input #0 (the general path computes it)."""
    text = """func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %t = math.exp %y : f32
    %m = arith.mulf %x, %t : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %g : tensor<2xf32>
}"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    (got,) = run(text, a, b, np.array([0.5, -1.0], np.float32))
    np.testing.assert_allclose(got, (a * np.exp(b)).sum(axis=1) + [0.5, -1.0], rtol=1e-6)


def test_slice_offsets_of_another_rank_are_an_error() -> None:
    """The parser checks the count, a pass building IR in Python may not: the evaluator
    names it instead of slicing the wrong axes."""
    from heirpy.ir.utils import i64_array

    text = """func.func @f(%t: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %v = tensor.extract_slice %t[1, 0] [2, 4] [1, 1] : tensor<3x4xf32> to tensor<2x4xf32>
  return %v : tensor<2x4xf32>
}"""
    module = heirpy.parse(text, "b.mlir")
    t = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert Evaluator(module).call("f", [t])[0].tolist() == t[1:3].tolist()
    op = next(o for o in module.walk() if o.name == "tensor.extract_slice")
    op.properties["static_offsets"] = i64_array([1])
    with pytest.raises(EvaluationError) as err:
        Evaluator(module).call("f", [t])
    assert str(err.value) == "b.mlir:2:8: error: 'tensor.extract_slice' has 1 offsets for a rank-2 tensor"
