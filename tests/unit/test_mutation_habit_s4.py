"""Behaviours that mutation runs of the fourth session (habit runs with seeds 5, 17, 23
and the open survivors of the fresh sample of 2026-12-07) found untested: each test
fails on the surviving mutant named in its docstring (docs/testing.md, "Habit runs of
the fourth session")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, FloatAttr, TensorType, f32
from xdsl.ir.affine import AffineMap
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer

from heirpy.analysis.heir_command import command_remark, heir_opt_args
from heirpy.api import parse, print_module, run_pipeline
from heirpy.ir.constants import attribute_array
from heirpy.ir.diagnostics import UsageError
from heirpy.ir.lexer import FastMLIRLexer
from heirpy.ir.utils import axis_loops
from heirpy.tools.heirpy_heir import heir_main
from heirpy.tools.heirpy_opt import HeirpyOptMain, main
from heirpy.tools.report_format import fit_table
from heirpy.transforms.linear.linalg_fuse_linear_ops import uniform_factor
from heirpy.transforms.linear.linear_match import ElementwiseAffine
from heirpy.transforms.pointwise.pointwise_maps import layout_chain

GOOD = """func.func @f(%x: f32) -> f32 {
  %0 = arith.mulf %x, %x : f32
  return %0 : f32
}
"""


def test_the_mlir_target_streams_without_building_the_whole_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """heirpy_opt.write_resulting_program: the `mlir` target (also when named with
    options) prints straight to the output, never through xdsl-opt's
    `output_resulting_program`, which holds a network's whole text (tens of MB of
    weights) as one string. The mutant compared the target's name with "MLIR" and so
    always took xdsl-opt's way."""

    def whole_text(self: HeirpyOptMain, module: object) -> str:
        raise AssertionError("the mlir target built its whole text")

    monkeypatch.setattr(HeirpyOptMain, "output_resulting_program", whole_text)
    path = tmp_path / "in.mlir"
    path.write_text(GOOD)
    assert main([str(path), "-t", "mlir"]) == 0
    assert capsys.readouterr().out.startswith("module {\n  func.func @f(%x: f32) -> f32 {\n")
    # Any other target is xdsl-opt's, through output_resulting_program.
    assert main([str(path), "-t", "wat"]) == 1
    assert "the mlir target built its whole text" in capsys.readouterr().err


def test_the_help_names_the_tool(capsys: pytest.CaptureFixture[str]) -> None:
    """heirpy_opt.HeirpyOptMain.__init__: the description `--help` prints (the mutant
    upper-cased it)."""
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert "\nheirpy: MLIR linalg fusion passes on xDSL\n" in capsys.readouterr().out


@pytest.mark.parametrize("budget", ["1", "2"])
def test_a_level_budget_of_one_is_accepted(tmp_path: Path, budget: str) -> None:
    """heirpy_heir.heir_main refuses `--level-budget` below 1, at 1 goes on (here to the
    missing heir-opt); the mutant refused 1 as well."""
    path = tmp_path / "in.mlir"
    path.write_text(GOOD)
    missing = str(tmp_path / "no-heir-opt")
    with pytest.raises(UsageError, match="--heir-opt .* is not an executable"):
        heir_main([str(path), "--level-budget", budget, "--heir-opt", missing])


@pytest.mark.parametrize("budget", ["0", "-1"])
def test_a_level_budget_below_one_is_refused(tmp_path: Path, budget: str) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(GOOD)
    with pytest.raises(UsageError, match="--level-budget must be at least 1"):
        heir_main([str(path), "--level-budget", budget, "--heir-opt", str(tmp_path / "no-heir-opt")])


def test_the_fast_lexer_matches_common_tokens_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """ir/lexer.FastMLIRLexer.lex: names, punctuation, keywords and types are matched by
    its one pattern; xDSL's lexer is asked only for what the pattern leaves (here the
    string literal and the end). The tokens are the same either way (test_lexer.py), so
    only this notices a fast path never taken (the mutant lost the text it matches)."""
    text = '%0 = arith.mulf %x, %x : f32 {name = "a"}\n'
    calls: list[int] = []
    slow_lex = MLIRLexer.lex

    def counted(self: MLIRLexer) -> object:
        calls.append(self.pos)
        return slow_lex(self)

    monkeypatch.setattr(MLIRLexer, "lex", counted)
    lexer = FastMLIRLexer(Input(text, "in.mlir"))
    tokens = []
    while (token := lexer.lex()).kind.name != "EOF":
        tokens.append(token.text)
    assert tokens == ["%0", "=", "arith.mulf", "%x", ",", "%x", ":", "f32", "{", "name", "=", '"a"', "}"]
    assert [text[pos:].lstrip()[:1] for pos in calls] == ['"', ""]


@pytest.mark.parametrize(("values", "size"), [([1.0, 2.0, 3.0], 4), ([1.0, 2.0, 3.0, 4.0, 5.0], 4)])
def test_a_dense_literal_of_another_size_than_its_type_reads_as_unknown(values: list[float], size: int) -> None:
    """ir/constants.attribute_array: elements that do not fill the type (the verifier
    rejects such an arith.constant, but `--disable-verify` and the passes' own reads do
    not) are unknown, not an internal error; one element is a splat. The mutant reshaped
    them anyway (a ValueError)."""
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [len(values)]), values)
    assert attribute_array(attr, TensorType(f32, [size]), {}) is None
    fitting = attribute_array(attr, TensorType(f32, [len(values)]), {})
    assert fitting is not None and fitting.tolist() == values
    splat = attribute_array(DenseIntOrFPElementsAttr.from_list(TensorType(f32, [1]), [2.0]), TensorType(f32, [size]), {})
    assert splat is not None and splat.tolist() == [2.0] * size



# ----------------------------------------------------------- transforms (seed 17)


def _div_by(constant: np.ndarray) -> ElementwiseAffine:
    module = parse(
        "func.func @f(%x: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = arith.divf %x, %c : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n"
    )
    div = next(op for op in module.walk() if isinstance(op, arith.DivfOp))
    return ElementwiseAffine(div, "div", div.lhs, True, constant, div.result)


@pytest.mark.parametrize("size", [1, 2, 4])
def test_a_uniform_division_by_one_or_more_equal_numbers_is_its_reciprocal(size: int) -> None:
    """linalg_fuse_linear_ops.uniform_factor: `y / c` with c one number repeated, also
    once (a one-element or 0-d constant), scales by 1/c; the mutant read c's second
    element (an IndexError for one element)."""
    assert uniform_factor(_div_by(np.full(size, 4.0))) == 0.25
    assert uniform_factor(_div_by(np.zeros(size))) is None  # a division by zero is no scale
    assert uniform_factor(_div_by(np.array([4.0, 2.0]))) is None  # nor one by varying numbers


MEMREF_MATMUL = """func.func @f(%a: memref<2x3xf32>, %c: memref<2x4xf32>) {
  %w = memref.alloc() : memref<3x4xf32>
  linalg.matmul ins(%a, %w : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}
"""


def test_a_matmul_on_memrefs_is_left_alone() -> None:
    """linear_match.may_be_linear_op: only a linear op with 3 operands and 1 result
    (on tensors) can be a weighted view; a matmul on memrefs has no result. The mutant
    let every linear op through, and the pass failed ("tuple index out of range")."""
    module = parse(MEMREF_MATMUL)
    before = print_module(module)
    run_pipeline(module, "linalg-fuse-linear-ops")
    assert print_module(module) == before


def test_a_layout_chain_lists_its_ops_from_the_source() -> None:
    """pointwise_maps.layout_chain: the layout ops between a value and its source, in
    the order they run (the transpose absorption walks them from the source, each the
    single user of the one before); the mutant put the second one first."""
    module = parse(
        "func.func @f(%x: tensor<2x6xf32>) -> tensor<12xf32> {\n"
        "  %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [2, 2, 3] : tensor<2x6xf32> into tensor<2x2x3xf32>\n"
        "  %t = tensor.collapse_shape %e [[0, 1], [2]] : tensor<2x2x3xf32> into tensor<4x3xf32>\n"
        "  %c = tensor.collapse_shape %t [[0, 1]] : tensor<4x3xf32> into tensor<12xf32>\n"
        "  return %c : tensor<12xf32>\n}\n"
    )
    ops = [op for op in module.walk() if isinstance(op, (tensor.ExpandShapeOp, tensor.CollapseShapeOp))]
    func_arg = next(op for op in module.walk() if isinstance(op, func.FuncOp)).args[0]
    source, steps, chain = layout_chain(ops[-1].results[0])
    assert source is func_arg and chain == ops and len(steps) == 3


GROUPED_CONV_ON_EMPTY = """func.func @f(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x3x3xf32> {
  %w = arith.constant dense<0.5> : tensor<2x2x2x3x3xf32>
  %k = arith.constant dense<[[[0.625]], [[0.625]], [[-0.875]], [[-0.25]]]> : tensor<4x1x1xf32>
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 5, 5] : tensor<1x4x5x5xf32> into tensor<1x2x2x5x5xf32>
  %z = tensor.empty() : tensor<1x2x2x3x3xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %w : tensor<1x2x2x5x5xf32>, tensor<2x2x2x3x3xf32>) outs(%z : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %o = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %k : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.mulf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<1x4x3x3xf32>
  return %m : tensor<1x4x3x3xf32>
}
"""


def test_a_scale_after_a_grouped_conv_on_an_empty_init_goes_into_its_weights() -> None:
    """grouped_conv.FuseElementwiseIntoGroupedConv: a per-channel scale after a grouped
    conv whose init is `tensor.empty` scales the weights and keeps the init (a scaled
    undefined init is still undefined: no init ops); the mutant made those ops None and
    the pass failed."""
    module = parse(GROUPED_CONV_ON_EMPTY)
    run_pipeline(module, "linalg-fuse-linear-ops")
    text = print_module(module)
    assert "arith.mulf" not in text and "linalg.generic" not in text
    assert "outs(%z : tensor<1x2x2x3x3xf32>)" in text and "dense<0.5>" not in text
    assert "3.125000e-01" in text and "-4.375000e-01" in text and "-1.250000e-01" in text


# ------------------------------------------------- analysis, ir, tools (seed 23)


def test_heir_opt_args_by_default_name_the_level_budget() -> None:
    """heir_command.heir_opt_args' `exact` defaults to true (the mutant: false, and no
    budget named): depth 20 needs `greedy-level-budget=21`."""
    assert heir_opt_args("main", 1024, 20)[-1] == "--torch-linalg-to-ckks=greedy-level-budget=21"
    assert heir_opt_args("main", 1024, 20, exact=False)[-1] == "--torch-linalg-to-ckks"


@pytest.mark.parametrize(("depth", "named"), [(9, False), (10, True)])
def test_the_remark_says_why_only_when_it_names_a_budget(depth: int, named: bool) -> None:
    """heir_command.command_remark explains the budget only when it differs from HEIR's
    default (depth 9 fits HEIR's 10; depth 10 needs 11); the mutant always explained."""
    remark = command_remark("heir-prepare", "main", 65536, depth)
    assert remark.startswith(f"remark: heir-prepare: @main has depth {depth} and needs 65536 slots")
    assert ("holds the depth: no bootstrap" in remark) == named
    assert ("greedy-level-budget" in remark) == named


def test_a_one_column_table_wider_than_the_page_is_left_whole() -> None:
    """report_format.fit_table never narrows the first column; with one column there is
    nothing to narrow (the mutant picked column 1, an IndexError)."""
    assert fit_table(["h"], [["x" * 30]], width=10) == ["h", "-" * 30, "x" * 30]


def test_an_unknown_target_is_named_with_the_targets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """heirpy_opt.HeirpyOptMain.run: `-t` with an unknown target is a usage error
    naming heirpy-opt's targets, before any input is read (the mutant lost the message)."""
    assert main([str(tmp_path / "never-read.mlir"), "-t", "nope"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: unknown target 'nope' (-t): heirpy-opt's targets are ")
    assert "mlir" in err and "never-read" not in err


def test_an_axis_read_as_a_number_puts_its_widest_stride_first_whatever_the_loop_order() -> None:
    """ir/utils.axis_loops orders a result's loops by stride (major first), not by loop
    index: `d0 + d1 * 4` with d0 of size 4 is the number (d1, d0); the mutant sorted by
    index and found no number."""
    transposed = AffineMap.from_callable(lambda d0, d1: (d0 + d1 * 4,))
    assert axis_loops(transposed, [4, 3]) == [(1, 0)]
    assert axis_loops(AffineMap.from_callable(lambda d0, d1: (d0 * 3 + d1,)), [4, 3]) == [(0, 1)]
    assert axis_loops(transposed, [5, 3]) is None  # d1's stride 4 is not d0's size


def test_a_constant_with_no_elements_reads_as_an_empty_array() -> None:
    """ir/constants.attribute_array refuses only dynamic sizes (-1); a size of 0 is an
    empty array of that shape, at the limit beside 1 (the mutant refused 0 too)."""
    for rows in (0, 1):
        array = attribute_array(FloatAttr(1.5, f32), TensorType(f32, [rows, 4]), {})
        assert array is not None and array.shape == (rows, 4) and np.all(array == 1.5)
    assert attribute_array(FloatAttr(1.5, f32), TensorType(f32, [DYNAMIC_INDEX, 4]), {}) is None


def test_an_unregistered_op_prints_in_generic_form_with_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ir/printer.MLIRPrinter._print_op prints an unregistered op under its own name,
    without the attribute that carries it (the mutant deleted another key: a KeyError)."""
    path = tmp_path / "in.mlir"
    path.write_text('func.func @f(%x: f32) -> f32 {\n  %0 = "foo.bar"(%x) {k = 1 : i64} : (f32) -> f32\n  return %0 : f32\n}\n')
    assert main([str(path), "--allow-unregistered-dialect"]) == 0
    out = capsys.readouterr().out
    assert '%0 = "foo.bar"(%x) {k = 1 : i64} : (f32) -> f32' in out and "op_name__" not in out
