"""legalize-for-heir: values never change (every FileCheck input, the bundled nets),
and its legality helpers."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import tensor
from xdsl.dialects.func import FuncOp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from filecheck_chunks import chunks  # noqa: E402
from heirpy.analysis.slots import min_slot_count, slots_needed  # noqa: E402
from heirpy.api import parse, print_module, run_pipeline  # noqa: E402
from heirpy.interp.equivalence import check_equivalence  # noqa: E402
from heirpy.interp.resources import load_module  # noqa: E402
from heirpy.ir.dialects.linalg import GenericOp  # noqa: E402
from heirpy.transforms.heir.generic_forms import accumulation, secret_args, value_degree  # noqa: E402
from heirpy.transforms.heir.heir_forms import adds_only_unit_dims, fits, heir_native  # noqa: E402
from heirpy.transforms.heir.heir_results import piece_axis, slice_rows, static_slice  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests" / "filecheck" / "transforms" / "legalize-for-heir"
SLOT_OPTION = {
    "dense-stage.mlir": "{slot-count=64}", "remark.mlir": "{slot-count=16}", "conv-stays.mlir": "{slot-count=64}",
    "contraction.mlir": "{slot-count=1024}", "strided-grid-edge.mlir": "{slot-count=16}",
}
CASES = [(p.name, i, c) for p in sorted(TESTS.glob("*.mlir")) for i, c in enumerate(chunks(p))]


def _functions(text: str) -> list[str]:
    return [op.sym_name.data for op in parse(text, "f.mlir").ops if isinstance(op, FuncOp)]


@pytest.mark.parametrize("name,index,text", CASES, ids=[f"{n}#{i}" for n, i, _ in CASES])
def test_pass_keeps_values(name: str, index: int, text: str) -> None:
    before, after = load_module(text), load_module(text)
    run_pipeline(after.module, "legalize-for-heir" + SLOT_OPTION.get(name, ""))
    for function in _functions(text):
        report = check_equivalence(
            before.module, after.module, function, seeds=(0, 1),
            resources_a=before.resources, resources_b=after.resources,
        )
        assert report.ok, report.summary()


@pytest.mark.parametrize("model", ["tiny_cnn", "alexnet_tiny", "cryptonets", "lola_mnist"])
def test_bundled_nets_keep_values_and_become_matvecs(model: str) -> None:
    text = (ROOT / "examples" / f"{model}.mlir").read_text()
    fused = load_module(text)
    run_pipeline(fused.module, "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext")
    legal = load_module(print_module(fused.module))
    run_pipeline(legal.module, "legalize-for-heir")
    report = check_equivalence(fused.module, legal.module, "main", seeds=(0,),
                               resources_a=fused.resources, resources_b=legal.resources)
    assert report.ok, report.summary()
    names = {op.name for op in legal.module.walk()}
    assert "linalg.matvec" in names
    assert not names & {"linalg.conv_2d_nchw_fchw", "linalg.pooling_nchw_sum", "linalg.matmul", "tensor.pad"}


def test_lenet5_at_8192_slots_is_a_chain_of_matvecs() -> None:
    """LeNet-5 (x² between conv1 and its pool) at the 8192 slots its 6x28x28 conv1 output
    needs: every linear stage a matvec, conv2 with its pool too (1600x4704, above fusion's
    matrix cap), and no expand_shape but the result's (HEIR rejects the one that would
    bring conv1's flat output back to 1x6x28x28 for a conv2 left as a conv)."""
    text = (ROOT / "examples" / "lenet5.mlir").read_text()
    raw, legal = load_module(text), load_module(text)
    run_pipeline(legal.module, "linalg-canonicalizations,linalg-fuse-ops{slot-budget=8192},lower-tensor-ext,"
                               "legalize-for-heir{slot-count=8192}")
    report = check_equivalence(raw.module, legal.module, "main", seeds=(0,),
                               resources_a=raw.resources, resources_b=legal.resources)
    assert report.ok, report.summary()
    shapes = [tuple(op.operands[0].type.get_shape()) for op in legal.module.walk() if op.name == "linalg.matvec"]
    assert shapes == [(4704, 784), (1600, 4704), (120, 1600), (84, 120), (10, 84)]
    expands = [op for op in legal.module.walk() if isinstance(op, tensor.ExpandShapeOp)]
    assert [tuple(op.results[0].type.get_shape()) for op in expands] == [(1, 10)]
    func = next(f for f in legal.module.walk() if isinstance(f, FuncOp))
    assert slots_needed(func) == 4704


def test_pass_is_stable_under_a_second_run() -> None:
    text = (TESTS / "docstring.mlir").read_text()
    once = parse(text, "doc.mlir")
    run_pipeline(once, "legalize-for-heir")
    first = print_module(once)
    run_pipeline(once, "legalize-for-heir")
    assert print_module(once) == first


# ------------------------------------------------------------------ legality helpers
def test_adds_only_unit_dims_is_heirs_expand_rule() -> None:
    assert adds_only_unit_dims([10], [1, 10])
    assert adds_only_unit_dims([10], [1, 1, 10, 1])
    assert not adds_only_unit_dims([20], [2, 10])
    assert not adds_only_unit_dims([64], [1, 4, 4, 4])


def test_piece_axis_takes_the_longest_then_the_innermost() -> None:
    assert piece_axis([2, 10]) == 1
    assert piece_axis([1, 8, 4, 4]) == 1
    assert piece_axis([1, 4, 4, 4]) == 3


def test_slices_and_fit() -> None:
    assert list(slice_rows(3, 4, 2)) == [3, 5, 7, 9]
    assert fits(1024, 1024, 1024)
    assert not fits(1025, 8, 1024)
    assert not fits(8, 1025, 1024)
    assert min_slot_count(100) == 1024
    assert min_slot_count(1176) == 2048
    assert min_slot_count(4704) == 8192


def test_static_slice_reads_offset_size_stride() -> None:
    module = parse(
        "func.func @f(%v: tensor<20xf32>) -> tensor<4xf32> {\n"
        "  %p = tensor.extract_slice %v[3] [4] [2] : tensor<20xf32> to tensor<4xf32>\n"
        "  return %p : tensor<4xf32>\n}\n", "s.mlir")
    (op,) = [o for o in module.walk() if isinstance(o, tensor.ExtractSliceOp)]
    assert static_slice(op) == (3, 4, 2)


def _func(name: str) -> FuncOp:
    text = "\n".join(chunks(TESTS / "native.mlir"))
    module = parse(text, "native.mlir")
    return next(f for f in module.walk() if isinstance(f, FuncOp) and f.sym_name.data == name)


def test_heir_native_only_for_unit_strides_and_a_multidim_result() -> None:
    assert heir_native(_func("unit_strides"))
    assert not heir_native(_func("strided"))
    flat = parse((TESTS / "docstring.mlir").read_text(), "doc.mlir")
    assert not heir_native(next(f for f in flat.walk() if isinstance(f, FuncOp)))


def test_slots_needed_counts_secret_operands_of_linear_ops() -> None:
    module = parse("\n".join(chunks(TESTS / "remark.mlir")), "remark.mlir")
    needed = {f.sym_name.data: slots_needed(f) for f in module.walk() if isinstance(f, FuncOp)}
    assert needed == {"wide": 20, "narrow": 8}
    assert np.prod([2, 20]) > needed["wide"]  # the 2x20 constant matrix is not counted


def _generics(name: str) -> dict[str, GenericOp]:
    """The generics of reduction.mlir by the name of their result (%sum, %y, %p, %q)."""
    module = parse("\n".join(chunks(TESTS / "reduction.mlir")), "reduction.mlir")
    found: dict[str, GenericOp] = {}
    for func in module.walk():
        if isinstance(func, FuncOp) and func.sym_name.data == name:
            for op in func.walk():
                if isinstance(op, GenericOp) and op.results[0].name_hint:
                    found[op.results[0].name_hint] = op
    return found


def test_value_degree_tells_a_square_from_a_contraction() -> None:
    gap = _generics("gap_square_linear")["sum"]
    acc = accumulation(gap)
    assert acc is not None and acc.term_index == 0
    x = secret_args(gap, gap.inputs[0])
    assert value_degree(gap.body.block, x, of=acc.term) == 2  # x * x: split it out
    assert value_degree(gap.body.block, x | {gap.body.block.args[-1]}) == 2
    avg = _generics("gap_square_linear")["avg"]
    assert value_degree(avg.body.block, secret_args(avg, avg.inputs[0])) == 1  # / 4 (constant in the body)
    contraction = _generics("contraction")["y"]
    variables = secret_args(contraction, contraction.inputs[0]) | {contraction.body.block.args[-1]}
    assert value_degree(contraction.body.block, variables) == 1  # acc + x * w: one linear map


def test_accumulation_needs_a_sum_into_the_init() -> None:
    ops = _generics("not_sums")
    assert accumulation(ops["p"]) is None  # acc * x
    assert accumulation(ops["q"]) is None  # max(x, acc)
    x = secret_args(ops["q"], ops["q"].inputs[0])
    assert value_degree(ops["q"].body.block, x) is None  # maximumf is not a polynomial


def test_a_declined_rewrite_leaves_no_dangling_use() -> None:
    """Found by the generated-program fuzzer (legalize-for-heir crashed: "insertion point
    must have a parent block"): ElementwiseOnFlat built the collapse_shape of %x, then
    declined on the next input (%t read transposed), leaving %x with a use by an op in
    no block; erasing a producer later put that op on the rewriter's worklist. Every use
    of every value must belong to an op that is in the function."""
    text = """
    func.func @main(%x: tensor<2x2xf32>, %v: tensor<4xf32>) -> tensor<2x2xf32> {
      %t = tensor.expand_shape %v [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
      %e = tensor.empty() : tensor<2x2xf32>
      %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>,
                                            affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
          ins(%x, %t : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
      ^bb0(%a: f32, %b: f32, %out: f32):
        %s = arith.addf %a, %b : f32
        linalg.yield %s : f32
      } -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    }
    """
    module = parse(text)
    run_pipeline(module, "legalize-for-heir")
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    in_function = set(func.walk())
    x = func.body.block.args[0]
    assert list(x.uses) and all(use.operation in in_function for use in x.uses)
    assert all(use.operation in in_function for op in in_function for r in op.results for use in r.uses)


def test_row_major_values_follow_elementwise_generics() -> None:
    """HEIR keeps an elementwise generic's result in its input's layout: x² (plus a
    constant) of the 4-D batch-1 argument is row-major, x² of a strided conv's result is
    not, and neither is a generic of constants only."""
    from heirpy.transforms.heir.heir_native_convs import RowMajorValues
    from heirpy.transforms.linear.constant_folding import ConstantFolder

    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    par = '["parallel", "parallel", "parallel", "parallel"]'

    def square(name: str, value: str, shape: str) -> str:
        t = f"tensor<{shape}xf32>"
        return f"""  %{name}_e = tensor.empty() : {t}
  %{name} = linalg.generic {{indexing_maps = [{ident}, {ident}, {ident}], iterator_types = {par}}} ins({value}, %k_{shape} : {t}, {t}) outs(%{name}_e : {t}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %p = arith.addf %m, %b : f32
    linalg.yield %p : f32
  }} -> {t}"""

    text = f"""func.func @f(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>) {{
  %k_1x2x4x4 = arith.constant dense<0.5> : tensor<1x2x4x4xf32>
  %k_1x2x2x2 = arith.constant dense<0.5> : tensor<1x2x2x2xf32>
  %w = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %ce = arith.constant dense<0.0> : tensor<1x2x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%ce : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
{square("sx", "%x", "1x2x4x4")}
{square("sc", "%c", "1x2x2x2")}
{square("sk", "%k_1x2x4x4", "1x2x4x4")}
  return %sx, %sc, %sk : tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>
}}"""
    func = next(iter(parse(text, "f.mlir").ops))
    values = {op.results[0].name_hint: op.results[0] for op in func.walk() if op.results}
    layouts = RowMajorValues(ConstantFolder())
    assert layouts.row_major(func.body.block.args[0])
    assert layouts.row_major(values["sx"])
    assert not layouts.row_major(values["c"]) and not layouts.row_major(values["sc"])
    assert not layouts.row_major(values["sk"])
