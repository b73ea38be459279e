"""heirpy's arith dialect: comparisons, selects and integer casts on tensors and vectors
as MLIR types them (xDSL 0.74 types them on scalars only), with MLIR's messages, the
evaluator on whole arrays, and linalg-canonicalizations turning such generics into
tensor arith as HEIR does."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest
from xdsl.dialects import arith as xarith

import heirpy
from heirpy.interp import run_function
from heirpy.ir.dialects.arith import ARITH_OPS

TENSOR_OPS = """func.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>, %x: tensor<4xf32>, %y: vector<4xf32>, %c: i1) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>, tensor<4xindex>, tensor<4xi8>, vector<4xi1>) {
  %sum, %overflow = arith.addui_extended %a, %b : tensor<4xi32>, tensor<4xi1>
  %lt = arith.cmpi ult, %a, %b : tensor<4xi32>
  %f = arith.sitofp %a : tensor<4xi32> to tensor<4xf32>
  %gt = arith.cmpf ogt, %f, %x : tensor<4xf32>
  %m = arith.select %gt, %f, %x : tensor<4xi1>, tensor<4xf32>
  %s = arith.select %c, %f, %x : tensor<4xf32>
  %i = arith.index_cast %a : tensor<4xi32> to tensor<4xindex>
  %t = arith.trunci %b : tensor<4xi32> to tensor<4xi8>
  %v = arith.cmpf uno, %y, %y : vector<4xf32>
  return %sum, %lt, %overflow, %m, %s, %i, %t, %v : tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>, tensor<4xindex>, tensor<4xi8>, vector<4xi1>
}
"""


def test_tensor_forms_parse_print_and_reparse_in_mlir() -> None:
    printed = heirpy.print_module(heirpy.parse(TENSOR_OPS))
    assert "arith.cmpi ult, %a, %b : tensor<4xi32>" in printed
    assert "arith.select %gt, %f, %x : tensor<4xi1>, tensor<4xf32>" in printed
    assert "arith.select %c, %f, %x : tensor<4xf32>" in printed
    assert "arith.sitofp %a : tensor<4xi32> to tensor<4xf32>" in printed
    assert heirpy.print_module(heirpy.parse(printed)) == printed
    for generic in (False, True):
        text = heirpy.print_module(heirpy.parse(TENSOR_OPS), generic=generic)
        run = subprocess.run(["heir-opt"], input=text, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr


def test_parsed_ops_are_still_xdsl_ops() -> None:
    module = heirpy.parse(TENSOR_OPS)
    ops = list(module.walk())
    assert any(isinstance(op, xarith.CmpfOp) for op in ops)
    assert any(isinstance(op, xarith.SelectOp) for op in ops)
    assert ARITH_OPS["arith.select"] is not xarith.SelectOp
    assert ARITH_OPS["arith.addf"] is xarith.AddfOp


@pytest.mark.parametrize(
    ("args", "line", "result", "message"),
    [
        ("%a: tensor<4xi32>, %b: tensor<4xi64>",
         '"arith.cmpi"(%a, %b) <{predicate = 2 : i64}> : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi1>',
         "tensor<4xi1>", "'arith.cmpi' op requires all operands to have the same type"),
        ("%a: tensor<4xi32>", '"arith.cmpi"(%a, %a) <{predicate = 2 : i64}> : (tensor<4xi32>, tensor<4xi32>) -> i1',
         "i1", "'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands"),
        ("%a: f32", '"arith.cmpi"(%a, %a) <{predicate = 2 : i64}> : (f32, f32) -> i1',
         "i1", "'arith.cmpi' op operand #0 must be signless-non-zero-bitwidth-integer-like, but got 'f32'"),
        ("%a: i32", '"arith.cmpf"(%a, %a) <{predicate = 2 : i64}> : (i32, i32) -> i1',
         "i1", "'arith.cmpf' op operand #0 must be floating-point-like, but got 'i32'"),
        ("%c: tensor<3xi1>, %a: tensor<4xf32>", "arith.select %c, %a, %a : tensor<3xi1>, tensor<4xf32>",
         "tensor<4xf32>", "'arith.select' op failed to verify that condition is signless i1 or has matching shape"),
        ("%c: tensor<4xi1>, %a: f32", "arith.select %c, %a, %a : tensor<4xi1>, f32",
         "f32", "'arith.select' op failed to verify that condition is signless i1 or has matching shape"),
        ("%c: i1, %a: f32", '"arith.select"(%c, %a, %a) : (i1, f32, f32) -> f64',
         "f64", "'arith.select' op failed to verify that all of {true_value, false_value, result} have same type"),
        ("%a: i32", "arith.extsi %a : i32 to i8",
         "i8", "'arith.extsi' op operand type 'i32' and result type 'i8' are cast incompatible"),
        ("%a: f32", "arith.sitofp %a : f32 to f32",
         "f32", "'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'f32'"),
        ("%a: f32", "arith.fptosi %a : f32 to f32",
         "f32", "'arith.fptosi' op result #0 must be signless-fixed-width-integer-like, but got 'f32'"),
        ("%a: tensor<4xi32>", "arith.trunci %a : tensor<4xi32> to tensor<3xi8>",
         "tensor<3xi8>", "'arith.trunci' op failed to verify that input and output have the same tensor dimensions"),
        ("%a: index", "arith.index_cast %a : index to index",
         "index", "'arith.index_cast' op operand type 'index' and result type 'index' are cast incompatible"),
    ],
)
def test_mlir_rejects_what_heirpy_rejects_with_the_same_message(
    args: str, line: str, result: str, message: str
) -> None:
    text = f"func.func @f({args}) -> {result} {{\n  %0 = {line}\n  return %0 : {result}\n}}\n"
    for tool in ("heirpy-opt", "heir-opt"):
        run = subprocess.run([tool], input=text, capture_output=True, text=True)
        assert run.returncode == 1, tool
        assert f":2:8: error: {message}" in run.stderr.splitlines()[0], (tool, run.stderr)


def test_evaluator_on_whole_arrays() -> None:
    module = heirpy.parse(TENSOR_OPS)
    a = np.array([1, -2, 2**31 - 1, 7], dtype=np.int32)
    b = np.array([3, 5, 1, -1], dtype=np.int32)
    x = np.array([0.5, -3.0, 1.0, 9.0], dtype=np.float32)
    y = np.array([np.nan, 1.0, 2.0, np.nan], dtype=np.float32)
    total, lt, overflow, m, s, i, t, v = run_function(module, "f", [a, b, x, y, np.bool_(True)])
    ua, ub = a.view(np.uint32).astype(np.uint64), b.view(np.uint32).astype(np.uint64)
    assert (total == (ua + ub).astype(np.uint32).view(np.int32)).all()
    assert (overflow == (ua + ub >= 2**32)).all()
    assert (lt == (ua < ub)).all()
    assert (m == np.where(a.astype(np.float32) > x, a.astype(np.float32), x)).all()
    assert (s == a.astype(np.float32)).all()
    assert (i == a).all() and (t == b.astype(np.int8)).all()
    assert (v == np.isnan(y)).all()


RELU = """func.func @relu(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %gt, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
"""


def test_a_compare_and_select_generic_becomes_tensor_arith() -> None:
    module = heirpy.parse(RELU)
    x = np.array([[-1.0, 0.0, 2.0], [3.5, -0.25, np.nan]], dtype=np.float32)
    (before,) = run_function(module, "relu", [x])
    heirpy.run_pipeline(module, "linalg-canonicalizations")
    printed = heirpy.print_module(module)
    assert "linalg.generic" not in printed
    assert re.search(r"arith\.cmpf ugt, %x, %\S+ : tensor<2x3xf32>\n", printed)
    assert re.search(r"arith\.select %\S+, %x, %\S+ : tensor<2x3xi1>, tensor<2x3xf32>\n", printed)
    (after,) = run_function(module, "relu", [x])
    np.testing.assert_array_equal(before, after)
