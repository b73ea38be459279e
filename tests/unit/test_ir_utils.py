"""heirpy.ir.utils' small helpers, each at its edges: the passes ask them of every op,
so a wrong answer on one side of a limit changes what fuses without a crash."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
    f16,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
    AffineSymExpr,
)

from heirpy.ir.utils import (
    axis_loops,
    element_bytes,
    i64_elements_like,
    int_pair,
    int_values,
    is_identity,
    iterator_attrs,
    iterator_kinds,
    linear_terms,
    loop_sizes,
    map_dims,
    projection_dims,
    reassociation_attr,
    reassociation_groups,
    splat_i64_vector,
    static_shape,
    tensor_bytes,
    window_out_size,
)

d0, d1, d2 = AffineDimExpr(0), AffineDimExpr(1), AffineDimExpr(2)


def amap(num_dims: int, *results, symbols: int = 0) -> AffineMap:  # noqa: ANN001
    return AffineMap(num_dims, symbols, tuple(results))


def test_int_values_reads_each_spelling_and_refuses_others() -> None:
    assert int_values(DenseArrayBase.from_list(i64, [3, -1])) == (3, -1)
    assert int_values(splat_i64_vector(2, 3)) == (2, 2, 2)
    assert int_values(ArrayAttr([IntegerAttr(4, i64), IntegerAttr(5, i32)])) == (4, 5)
    with pytest.raises(TypeError, match=r"^not an integer array attribute: "):
        int_values(i64)
    assert int_pair([7, 8]) == (7, 8)
    with pytest.raises(ValueError):
        int_pair([1, 2, 3])


def test_i64_elements_keep_the_first_matching_spelling() -> None:
    tensor_form = i64_elements_like([1, 1], None, i64_elements_like([2, 2], None))  # vector by default
    assert isinstance(tensor_form.type, VectorType)
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    as_tensor = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), [2, 2])
    wrong_size = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [3]), [2, 2, 2])
    kept = i64_elements_like([1, 3], wrong_size, as_tensor)
    assert isinstance(kept.type, TensorType) and int_values(kept) == (1, 3)
    wrong_type = DenseIntOrFPElementsAttr.from_list(TensorType(i32, [2]), [2, 2])
    assert isinstance(i64_elements_like([1, 3], wrong_type).type, VectorType)


def test_iterator_kinds_round_trip() -> None:
    kinds = ["parallel", "reduction", "parallel"]
    assert iterator_kinds(ArrayAttr(iterator_attrs(kinds))) == kinds


def test_map_shapes() -> None:
    assert map_dims(amap(3, d2, d0)) == [2, 0]
    assert map_dims(amap(2, d0, AffineConstantExpr(0))) is None
    assert is_identity(amap(2, d0, d1))
    assert not is_identity(amap(2, d1, d0))
    assert not is_identity(amap(3, d0, d1))  # fewer results than dims
    assert not is_identity(amap(2, d0, d1, symbols=1))
    assert not is_identity(amap(2, d0, d1 + 0 * d0))
    assert projection_dims(amap(3, d2, d0)) == [2, 0]
    assert projection_dims(amap(3, d0, d0)) is None
    assert projection_dims(amap(2, d0 + d1)) is None


def test_linear_terms_of_affine_sums_and_products() -> None:
    assert linear_terms(d0 * 12 + d1 + 3) == ({0: 12, 1: 1}, 3)
    assert linear_terms(4 * (d0 + 2)) == ({0: 4}, 8)  # the constant on the left swaps sides
    assert linear_terms(d0 + d0 * 2) == ({0: 3}, 0)
    assert linear_terms(d0 % 4) is None
    assert linear_terms(d0 + AffineSymExpr(0)) is None
    assert linear_terms(d0 // 2 + d1) is None
    product = AffineBinaryOpExpr(AffineBinaryOpKind.Mul, d0, d1)  # xDSL's * refuses to build it
    assert linear_terms(product) is None


def test_axis_loops_reads_mixed_radix_numbers() -> None:
    assert axis_loops(amap(2, d0 * 12 + d1), [3, 12]) == [(0, 1)]
    assert axis_loops(amap(2, d0 * 11 + d1), [3, 12]) is None  # wrong stride
    assert axis_loops(amap(2, d0 * 12 + d1 + 1), [3, 12]) is None  # an offset
    assert axis_loops(amap(2, d0, AffineConstantExpr(0)), [3, 12]) == [(0,), ()]
    assert axis_loops(amap(2, d0, d0), [3, 12]) is None  # two results share a loop
    assert axis_loops(amap(3, d0 * 5 + d1 * 5 + d2), [2, 1, 5]) == [(0, 2)]  # unit loop d1 left out
    assert axis_loops(amap(2, d0 * 12 + d1), [3, -1]) is None  # a dynamic minor loop
    assert axis_loops(amap(2, d1), [3, -1]) == [(1,)]  # alone it may be dynamic
    assert axis_loops(amap(2, d0 * 0 + d1), [3, 4]) == [(1,)]


def test_loop_sizes_come_from_bare_dims() -> None:
    maps = [amap(2, d0 + d1, d1), amap(2, d0, d1)]
    assert loop_sizes(maps, [[5, 4], [2, 3]]) == [2, 4]  # the first bare read of each loop
    assert loop_sizes([amap(2, d0 + d1)], [[5]]) is None
    assert loop_sizes([], []) == []


def test_shapes_and_bytes() -> None:
    assert static_shape(TensorType(f32, [2, 3])) == (2, 3)
    assert static_shape(TensorType(f32, [2, -1])) is None
    assert static_shape(VectorType(f32, [2])) is None
    assert static_shape(f32) is None
    assert [element_bytes(t) for t in (i1, IntegerType(9), i64, IndexType(), f16, f32, f64)] == [1, 2, 8, 8, 2, 4, 8]
    assert element_bytes(TensorType(f32, [1])) is None
    assert tensor_bytes(TensorType(f16, [2, 3])) == 12
    assert tensor_bytes(TensorType(f16, [2, -1])) is None
    assert tensor_bytes(f32) is None
    assert tensor_bytes(TensorType(TensorType(f32, [1]), [2])) is None


@pytest.mark.parametrize(
    ("size", "window", "stride", "dilation", "expected"),
    [(5, 3, 1, 1, 3), (5, 3, 2, 1, 2), (6, 3, 2, 1, 2), (5, 3, 1, 2, 1), (4, 3, 1, 2, 0), (3, 3, 1, 1, 1), (2, 3, 1, 1, 0)],
)
def test_window_out_size_at_the_edge(size: int, window: int, stride: int, dilation: int, expected: int) -> None:
    assert window_out_size(size, window, stride, dilation) == expected


def test_reassociation_round_trips() -> None:
    assert reassociation_groups(reassociation_attr([[0, 1], [2]])) == [[0, 1], [2]]
