"""MLIR semantics of scalar and tensor ops in the evaluator: wrapping integers, unordered
float compares, constants in every form, tensor ops, calls and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from heirpy.interp import EvaluationError, load_module, run_function
from heirpy.interp.arith_math import erf


def run(ir: str, *inputs: object) -> list[np.ndarray]:
    loaded = load_module(ir)
    return run_function(loaded.module, "main", [np.asarray(i) for i in inputs], resources=loaded.resources)


def binary(op: str, type_: str, a: object, b: object, result_type: str | None = None) -> np.ndarray:
    result_type = result_type or type_
    ir = (
        f"func.func @main(%a: {type_}, %b: {type_}) -> {result_type} {{\n"
        f"  %r = {op} %a, %b : {type_}\n  return %r : {result_type}\n}}"
    )
    return run(ir, a, b)[0]


I8 = np.int8


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        ("arith.addi", 100, 100, -56),
        ("arith.muli", 16, 16, 0),
        ("arith.subi", -128, 1, 127),
        ("arith.divsi", -7, 2, -3),  # rounds toward zero
        ("arith.remsi", -7, 2, -1),  # sign of the dividend
        ("arith.floordivsi", -7, 2, -4),
        ("arith.ceildivsi", 7, 2, 4),
        ("arith.divui", -1, 2, 127),  # 255 / 2
        ("arith.remui", -1, 16, 15),
        ("arith.maxui", -1, 1, -1),
        ("arith.maxsi", -1, 1, 1),
        ("arith.shrsi", -16, 2, -4),
        ("arith.shrui", -16, 2, 60),  # 240 >> 2
        ("arith.shli", 96, 1, -64),
    ],
)
def test_i8_arithmetic_wraps_like_mlir(op: str, a: int, b: int, expected: int) -> None:
    result = binary(op, "i8", np.int8(a), np.int8(b))
    assert result.dtype == I8 and int(result) == expected


def test_i1_arithmetic_is_mod_2() -> None:
    t = np.bool_(True)
    assert bool(binary("arith.addi", "i1", t, t)) is False
    assert bool(binary("arith.muli", "i1", t, t)) is True


def test_cmpi_signed_and_unsigned_predicates() -> None:
    ir = (
        "func.func @main(%a: i8, %b: i8) -> (i1, i1) {\n"
        "  %s = arith.cmpi slt, %a, %b : i8\n  %u = arith.cmpi ult, %a, %b : i8\n"
        "  return %s, %u : i1, i1\n}"
    )
    signed, unsigned = run(ir, np.int8(-1), np.int8(1))
    assert bool(signed) is True and bool(unsigned) is False


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [("oeq", False), ("une", True), ("ult", True), ("olt", False), ("uno", True), ("ord", False)],
)
def test_cmpf_with_nan(predicate: str, expected: bool) -> None:
    ir = (
        "func.func @main(%a: f32, %b: f32) -> i1 {\n"
        f"  %r = arith.cmpf {predicate}, %a, %b : f32\n  return %r : i1\n}}"
    )
    assert bool(run(ir, np.float32(np.nan), np.float32(1.0))[0]) is expected


def test_float_ops_stay_f32() -> None:
    result = binary("arith.addf", "f32", np.float32(1.0), np.float32(1e-8))
    assert result.dtype == np.float32 and result == np.float32(1.0)
    nan_max = binary("arith.maximumf", "f32", np.float32(np.nan), np.float32(1.0))
    num_max = binary("arith.maxnumf", "f32", np.float32(np.nan), np.float32(1.0))
    assert np.isnan(nan_max) and num_max == 1.0


def test_casts() -> None:
    ir = """func.func @main(%t: i1, %f: f32, %i: i32) -> (i32, i32, i32, f32, f32, i8, f64) {
  %a = arith.extsi %t : i1 to i32
  %b = arith.extui %t : i1 to i32
  %c = arith.fptosi %f : f32 to i32
  %d = arith.sitofp %i : i32 to f32
  %e = arith.uitofp %i : i32 to f32
  %g = arith.trunci %i : i32 to i8
  %h = arith.extf %f : f32 to f64
  return %a, %b, %c, %d, %e, %g, %h : i32, i32, i32, f32, f32, i8, f64
}"""
    a, b, c, d, e, g, h = run(ir, np.bool_(True), np.float32(-2.75), np.int32(-1))
    assert (int(a), int(b), int(c)) == (-1, 1, -2)
    assert float(d) == -1.0 and float(e) == np.float32(2**32 - 1)
    assert g.dtype == np.int8 and int(g) == -1
    assert h.dtype == np.float64 and float(h) == -2.75


def test_erf_matches_python() -> None:
    x = np.linspace(-7, 7, 2001)
    np.testing.assert_allclose(erf(x), [math.erf(v) for v in x], rtol=1e-13, atol=1e-15)


def test_math_ops_on_a_tensor() -> None:
    ir = """func.func @main(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %a = math.tanh %x : tensor<5xf32>
  %b = math.round %x : tensor<5xf32>
  %c = math.roundeven %x : tensor<5xf32>
  return %a, %b, %c : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}"""
    x = np.array([-2.5, -0.5, 0.5, 1.5, 2.5], dtype=np.float32)
    a, b, c = run(ir, x)
    np.testing.assert_allclose(a, np.tanh(x), rtol=1e-6)
    np.testing.assert_array_equal(b, [-3, -1, 1, 2, 3])  # half away from zero
    np.testing.assert_array_equal(c, [-2, -0, 0, 2, 2])  # half to even


def test_constants_in_every_form() -> None:
    ir = """func.func @main() -> (tensor<2x2xf32>, tensor<2xf32>, tensor<3xi1>, tensor<2xi16>, tensor<2xf32>, index) {
  %a = arith.constant dense<1.5> : tensor<2x2xf32>
  %b = arith.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %c = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %d = arith.constant dense<[-1, 300]> : tensor<2xi16>
  %e = arith.constant dense_resource<blob> : tensor<2xf32>
  %f = arith.constant 7 : index
  return %a, %b, %c, %d, %e, %f : tensor<2x2xf32>, tensor<2xf32>, tensor<3xi1>, tensor<2xi16>, tensor<2xf32>, index
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000C03F000020C0"
    }
  }
#-}
"""
    a, b, c, d, e, f = run(ir)
    np.testing.assert_array_equal(a, np.full((2, 2), 1.5, np.float32))
    np.testing.assert_array_equal(b, np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(c, [True, False, True])
    np.testing.assert_array_equal(d, np.array([-1, 300], np.int16))
    np.testing.assert_array_equal(e, np.array([1.5, -2.5], np.float32))  # after the 4-byte header
    assert f.dtype == np.int64 and int(f) == 7


def test_tensor_ops() -> None:
    ir = """func.func @main(%x: tensor<3x4xf32>, %v: f32) -> (tensor<5x7xf32>, tensor<2xf32>, tensor<3x4xf32>, tensor<6x4xf32>, tensor<12xf32>, tensor<2x6xf32>, f32, tensor<2xf32>, tensor<2x2xf32>, index) {
  %c1 = arith.constant 1 : index
  %p = tensor.pad %x low[1, 2] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x4xf32> to tensor<5x7xf32>
  %s = tensor.extract_slice %x[1, 0] [1, 2] [1, 2] : tensor<3x4xf32> to tensor<2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %ins = tensor.insert_slice %z into %x[2, 1] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<3x4xf32>
  %cat = tensor.concat dim(0) %x, %ins : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
  %exp = tensor.expand_shape %flat [[0, 1]] output_shape [2, 6] : tensor<12xf32> into tensor<2x6xf32>
  %e = tensor.extract %x[%c1, %c1] : tensor<3x4xf32>
  %fe = tensor.from_elements %e, %v : tensor<2xf32>
  %sp = tensor.splat %v : tensor<2x2xf32>
  %d = tensor.dim %x, %c1 : tensor<3x4xf32>
  return %p, %s, %ins, %cat, %flat, %exp, %e, %fe, %sp, %d : tensor<5x7xf32>, tensor<2xf32>, tensor<3x4xf32>, tensor<6x4xf32>, tensor<12xf32>, tensor<2x6xf32>, f32, tensor<2xf32>, tensor<2x2xf32>, index
}"""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    p, s, ins, cat, flat, exp, e, fe, sp, d = run(ir, x, np.float32(-1))
    np.testing.assert_array_equal(p, np.pad(x, ((1, 1), (2, 1)), constant_values=-1))
    np.testing.assert_array_equal(s, [4, 6])
    expected_ins = x.copy()
    expected_ins[2, 1:3] = 0
    np.testing.assert_array_equal(ins, expected_ins)
    np.testing.assert_array_equal(cat, np.concatenate([x, expected_ins]))
    np.testing.assert_array_equal(flat, x.reshape(-1))
    np.testing.assert_array_equal(exp, x.reshape(2, 6))
    assert float(e) == 5.0
    np.testing.assert_array_equal(fe, [5, -1])
    np.testing.assert_array_equal(sp, np.full((2, 2), -1, np.float32))
    assert int(d) == 4


def test_pad_value_may_depend_on_the_position() -> None:
    ir = """func.func @main(%x: tensor<2xi32>) -> tensor<4xi32> {
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    %c = arith.index_cast %i : index to i32
    tensor.yield %c : i32
  } : tensor<2xi32> to tensor<4xi32>
  return %p : tensor<4xi32>
}"""
    np.testing.assert_array_equal(run(ir, np.array([7, 8], np.int32))[0], [0, 7, 8, 3])


def test_empty_is_nan_so_reading_it_shows() -> None:
    ir = """func.func @main() -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  return %e : tensor<2xf32>
}"""
    assert np.isnan(run(ir)[0]).all()


def test_func_call() -> None:
    ir = """func.func @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = arith.mulf %x, %x : tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = func.call @square(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %b = func.call @square(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %b : tensor<3xf32>
}"""
    np.testing.assert_array_equal(run(ir, np.array([1, 2, 3], np.float32))[0], [1, 16, 81])


def test_linalg_map_and_elementwise_named_ops() -> None:
    ir = """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %m = linalg.map ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
    (%x: f32, %y: f32) {
      %s = arith.subf %x, %y : f32
      linalg.yield %s : f32
    }
  %n = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %m, %n : tensor<4xf32>, tensor<4xf32>
}"""
    a, b = np.arange(4, dtype=np.float32), np.ones(4, np.float32)
    m, n = run(ir, a, b)
    np.testing.assert_array_equal(m, a - b)
    np.testing.assert_array_equal(n, a + b)


def test_wrong_input_shape_is_an_error() -> None:
    ir = "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n  return %x : tensor<3xf32>\n}"
    with pytest.raises(EvaluationError, match=r"argument #0 expects tensor<3xf32>, got shape \(4,\)"):
        run(ir, np.zeros(4, np.float32))


def test_out_of_bounds_extract_is_an_error_naming_the_op() -> None:
    ir = """func.func @main(%x: tensor<3xf32>, %i: index) -> f32 {
  %e = tensor.extract %x[%i] : tensor<3xf32>
  return %e : f32
}"""
    with pytest.raises(EvaluationError, match=r"<string>:2:8: error: 'tensor.extract' index \[3\] is out of bounds"):
        run(ir, np.zeros(3, np.float32), np.int64(3))


def test_out_of_bounds_slice_is_an_error_naming_the_op_and_axis() -> None:
    ir = """func.func @main(%x: tensor<4xf32>, %i: index) -> tensor<2xf32> {
  %s = tensor.extract_slice %x[%i] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}"""
    np.testing.assert_array_equal(run(ir, np.arange(4, dtype=np.float32), np.int64(2))[0], [2, 3])
    with pytest.raises(EvaluationError, match=(
        r"^<string>:2:8: error: 'tensor.extract_slice' slice of axis 0 \(offset 3, size 2, stride 1\) "
        r"is out of bounds for size 4$"
    )):
        run(ir, np.arange(4, dtype=np.float32), np.int64(3))


def test_generic_reading_past_a_dynamic_operand_is_an_error_naming_the_map() -> None:
    """A shifted indexing map is in bounds for one run-time size and not for another
    (the verifier cannot tell with a dynamic operand)."""
    ir = """func.func @main(%x: tensor<?xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 + 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}"""
    np.testing.assert_array_equal(run(ir, np.arange(5, dtype=np.float32))[0], [1, 2, 3, 4])
    with pytest.raises(EvaluationError, match=(
        r"^<string>:3:8: error: 'linalg.generic' indexing map \(d0\) -> \(\(d0 \+ 1\)\) reads axis 0 "
        r"at 1\.\.4, outside 0\.\.3$"
    )):
        run(ir, np.zeros(4, dtype=np.float32))


GATHER = """func.func @main(%t: tensor<5xf32>, %idx: tensor<3xi32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %j = arith.index_cast %i : i32 to index
    %v = tensor.extract %t[%j] : tensor<5xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}"""


def test_tensor_extract_in_a_generic_body_gathers() -> None:
    table = np.array([10, 11, 12, 13, 14], dtype=np.float32)
    (out,) = run(GATHER, table, np.array([4, 0, 2], dtype=np.int32))
    np.testing.assert_array_equal(out, [14, 10, 12])


def test_gather_out_of_bounds_is_an_evaluation_error() -> None:
    table = np.zeros(5, dtype=np.float32)
    with pytest.raises(EvaluationError, match="out of bounds"):
        run(GATHER, table, np.array([1, 5, 0], dtype=np.int32))


def test_handler_tables_register_once_and_join_without_overlap() -> None:
    """A family's table maps each name to its handler; a second handler for a name, in
    one table or across two, is refused with the op's name (the evaluator's own tables
    are built while heirpy imports, before any test could see a broken registry)."""
    from heirpy.interp.registry import HandlerTable, join_tables

    def first(ev, op, args):  # type: ignore[no-untyped-def]
        return []

    def second(ev, op, args):  # type: ignore[no-untyped-def]
        return []

    table = HandlerTable()
    assert table.register("x.a", "x.b")(first) is first
    assert table == {"x.a": first, "x.b": first}
    with pytest.raises(ValueError, match="two evaluators registered for 'x.a'"):
        table.register("x.a")(second)
    other = HandlerTable()
    other.register("y.c")(second)
    assert join_tables(table, other) == {"x.a": first, "x.b": first, "y.c": second}
    clash = HandlerTable()
    clash.register("x.b")(second)
    with pytest.raises(ValueError, match="two evaluators registered for 'x.b'"):
        join_tables(table, clash)


def test_load_module_keeps_the_blobs_it_parsed() -> None:
    """A dense_resource constant evaluates from the blobs load_module returns with the
    module (without them it has no values)."""
    loaded = load_module(
        """func.func @f() -> tensor<2xf32> {
  %c = arith.constant dense_resource<w> : tensor<2xf32>
  return %c : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}
"""
    )
    assert set(loaded.resources) == {"w"}
    (value,) = run_function(loaded.module, "f", [], resources=loaded.resources)
    np.testing.assert_array_equal(value, np.array([1.0, 2.0], dtype=np.float32))


def test_a_write_past_a_dynamic_output_is_an_error_naming_the_op() -> None:
    """A mixed-radix output map over a dynamic init: the write bounds are checked when
    the init's size is known, with the op's position in the message."""
    ir = """func.func @main(%x: tensor<2x3xf32>, %o: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 * 4 + d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%o : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}"""
    x = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3)
    (written,) = run(ir, x, np.zeros(7, np.float32))
    np.testing.assert_array_equal(written, [1, 2, 3, 0, 4, 5, 6])
    with pytest.raises(EvaluationError, match=r"^<string>:2:8: error: 'linalg.generic' indexing map .* reads axis 0 at 0\.\.6, outside 0\.\.5"):
        run(ir, x, np.zeros(6, np.float32))


def test_an_xori_reduction_xors_along_the_reduced_loop() -> None:
    ir = """func.func @main(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<2xi32>) -> tensor<2xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x3xi32>) outs(%z : tensor<2xi32>) {
  ^bb0(%in: i32, %acc: i32):
    %v = arith.xori %in, %acc : i32
    linalg.yield %v : i32
  } -> tensor<2xi32>
  return %r : tensor<2xi32>
}"""
    x = np.array([[5, 3, 9], [-1, 6, 12]], dtype=np.int32)
    np.testing.assert_array_equal(run(ir, x)[0], np.bitwise_xor.reduce(x, axis=1))


def test_a_zero_size_slice_is_empty_and_a_rank_reducing_one_drops_trailing_unit_dims() -> None:
    empty = """func.func @main(%x: tensor<2x4xf32>) -> tensor<2x0xf32> {
  %s = tensor.extract_slice %x[0, 1] [2, 0] [1, 1] : tensor<2x4xf32> to tensor<2x0xf32>
  return %s : tensor<2x0xf32>
}"""
    x = np.arange(8.0, dtype=np.float32).reshape(2, 4)
    assert run(empty, x)[0].shape == (2, 0)
    reduced = """func.func @main(%x: tensor<2x3x4xf32>) -> tensor<2x3xf32> {
  %s = tensor.extract_slice %x[0, 0, 1] [2, 3, 1] [1, 1, 1] : tensor<2x3x4xf32> to tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}"""
    y = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(run(reduced, y)[0], y[:, :, 1])


def test_a_handler_result_of_another_size_is_caught_even_on_an_empty_dim() -> None:
    """The evaluator's own check on every op's results (a handler bug surfaces at the op):
    a static 0 is a size like any other."""
    from heirpy.interp.evaluator import _check_results

    loaded = load_module("func.func @main(%x: tensor<0x2xf32>) -> tensor<0x2xf32> {\n"
                         "  %n = arith.negf %x : tensor<0x2xf32>\n  return %n : tensor<0x2xf32>\n}")
    neg = next(op for op in loaded.module.walk() if op.name == "arith.negf")
    _check_results(neg, [np.zeros((0, 2), np.float32)])
    with pytest.raises(EvaluationError, match=r"result #0 has shape \(1, 2\), but its type is tensor<0x2xf32>"):
        _check_results(neg, [np.zeros((1, 2), np.float32)])


def test_an_input_of_another_kind_is_an_error() -> None:
    ir = "func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {\n  return %x : tensor<2xi32>\n}"
    np.testing.assert_array_equal(run(ir, np.array([1, 2], np.int8))[0], [1, 2])  # same kind: widened
    with pytest.raises(EvaluationError, match=r"@main argument #0 expects .*got dtype float64"):
        run(ir, np.array([1.5, 2.0]))
