"""heir-prepare: one step and one slot count for HEIR's CKKS pipeline. It prints exactly
what its three component passes print in a row (with the slot count passed to both
that need it), repeated until a round changes nothing, so a second heir-prepare is a
no-op (issue 35); and the slot count helpers it stands on."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from xdsl.dialects.builtin import ModuleOp  # noqa: E402

from heirpy.analysis.slots import heir_opt_flag, module_slots  # noqa: E402
from heirpy.api import build_pipeline, parse, print_module, run_pipeline  # noqa: E402
from heirpy.transforms.heir.heir_forms import is_power_of_two  # noqa: E402
from heirpy.transforms.heir.heir_prepare import heir_prepare_pipeline  # noqa: E402
from heirpy.transforms.heir.heir_result_conv import merge_unit_dims, result_grid  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
INPUTS = [
    ROOT / "examples" / "tiny_cnn.mlir",
    ROOT / "examples" / "mobilenet_block.mlir",
    ROOT / "tests" / "filecheck" / "transforms" / "heir-prepare" / "Inputs" / "feature_map.mlir",
]


@pytest.mark.parametrize("slots", [0, 2048])
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_heir_prepare_is_its_three_passes(path: Path, slots: int) -> None:
    text = path.read_text()
    one = parse(text, path.name)
    run_pipeline(one, f"heir-prepare{{slot-count={slots}}}")
    assert print_module(one) == _rounds_to_fixpoint(text, heir_prepare_pipeline(slots))[-1]


FIXPOINT_PROGRAMS = ROOT / "tests" / "filecheck" / "transforms" / "heir-prepare" / "Inputs" / "fixpoint_programs.mlir"


def _rounds_to_fixpoint(text: str, pipeline: str, limit: int = 8) -> list[str]:
    """The prints after each round of `pipeline` on `text`, up to the first round that
    changes nothing (so the last two are equal, or `limit` rounds ran)."""
    module = parse(text)
    prints: list[str] = []
    while len(prints) < limit and (len(prints) < 2 or prints[-1] != prints[-2]):
        run_pipeline(module, pipeline)
        prints.append(print_module(module))
    return prints


def test_heir_prepare_run_twice_changes_nothing_on_issue_35s_programs() -> None:
    """The programs one round of the three passes did not settle: the second round
    changed them and only the third was a fixpoint. heir-prepare reaches it in one run
    (and prints what three rounds of the passes print)."""
    text = FIXPOINT_PROGRAMS.read_text()
    rounds = _rounds_to_fixpoint(text, heir_prepare_pipeline())
    assert len(rounds) == 4 and rounds[0] != rounds[1] != rounds[2] == rounds[3]
    module = parse(text)
    run_pipeline(module, "heir-prepare")
    once = print_module(module)
    run_pipeline(module, "heir-prepare")
    assert print_module(module) == once == rounds[2]


def test_same_ir_compares_ops_order_and_types_but_not_names() -> None:
    from heirpy.transforms.heir.heir_prepare import same_ir

    def module(body: str) -> ModuleOp:
        return parse("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n" + body + "\n}")

    base = "%a = tensor.empty() : tensor<2xf32>\n%b = arith.constant 1.0 : f32\nreturn %x : tensor<4xf32>"
    renamed = "%q = tensor.empty() : tensor<2xf32>\n%r = arith.constant 1.0 : f32\nreturn %x : tensor<4xf32>"
    retyped = "%a = tensor.empty() : tensor<3xf32>\n%b = arith.constant 1.0 : f32\nreturn %x : tensor<4xf32>"
    swapped = "%b = arith.constant 1.0 : f32\n%a = tensor.empty() : tensor<2xf32>\nreturn %x : tensor<4xf32>"
    assert same_ir(module(base), module(renamed))
    assert not same_ir(module(base), module(retyped))  # only the result type differs
    assert not same_ir(module(base), module(swapped))  # the same ops in another order


def test_the_pipeline_spelling_names_the_count_in_both_passes() -> None:
    assert heir_prepare_pipeline(0) == (
        "linalg-canonicalizations,linalg-fuse-ops,legalize-for-heir{flat-results=true pad-input-channels=true},"
        "heir-widen-half"
    )
    assert heir_prepare_pipeline(8192) == (
        "linalg-canonicalizations,linalg-fuse-ops{slot-budget=8192},"
        "legalize-for-heir{slot-count=8192 flat-results=true pad-input-channels=true},heir-widen-half"
    )
    assert heir_prepare_pipeline(0, flat_results=False, pad_input_channels=False, widen_half=False) == (
        "linalg-canonicalizations,linalg-fuse-ops,legalize-for-heir"
    )
    assert heir_prepare_pipeline(0, strided_on_grid=False) == (
        "linalg-canonicalizations,linalg-fuse-ops,"
        "legalize-for-heir{flat-results=true strided-on-grid=false pad-input-channels=true},heir-widen-half"
    )
    build_pipeline(heir_prepare_pipeline(8192))  # a pipeline heirpy-opt takes
    build_pipeline(heir_prepare_pipeline(0, strided_on_grid=False))


def test_the_component_passes_default_to_heir_prepares_defaults() -> None:
    """`heir_prepare_passes()` with no arguments is what `heir-prepare` runs with none:
    a result no conv lays out comes back flat (flat-results, heir-prepare's default) and
    heirpy's slot count."""
    from heirpy.transforms.heir.heir_prepare import HeirPreparePass, heir_prepare_passes
    from heirpy.transforms.heir.heir_widen_half import HeirWidenHalfPass
    from heirpy.transforms.heir.legalize_for_heir import LegalizeForHeirPass

    default = HeirPreparePass()
    passes = heir_prepare_passes()
    assert passes == heir_prepare_passes(
        default.slot_count, default.flat_results, default.strided_on_grid, default.pad_input_channels,
        default.widen_half,
    )
    assert isinstance(passes[-1], HeirWidenHalfPass) and default.widen_half
    assert not any(isinstance(p, HeirWidenHalfPass) for p in heir_prepare_passes(widen_half=False))
    legalize = passes[-2]
    assert isinstance(legalize, LegalizeForHeirPass) and legalize.flat_results and legalize.strided_on_grid
    assert legalize.pad_input_channels and not LegalizeForHeirPass().pad_input_channels
    assert HeirPreparePass(strided_on_grid=False).strided_on_grid != default.strided_on_grid
    assert not LegalizeForHeirPass().flat_results  # the pass on its own keeps every shape


def test_module_slots_is_the_longest_vector_as_a_power_of_two() -> None:
    module = parse("""
    func.func @a(%x: tensor<1200xf32>) -> tensor<2xf32> {
      %w = arith.constant dense<1.0> : tensor<2x1200xf32>
      %z = arith.constant dense<0.0> : tensor<2xf32>
      %y = linalg.matvec ins(%w, %x : tensor<2x1200xf32>, tensor<1200xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
      return %y : tensor<2xf32>
    }
    func.func @b(%x: tensor<8xf32>) -> tensor<8xf32> {
      return %x : tensor<8xf32>
    }
    """)
    functions = list(module.ops)
    count, func, longest = module_slots(functions)  # type: ignore[arg-type]
    assert (count, longest) == (2048, 1200)
    assert func is functions[0]
    assert module_slots(functions[1:])[0] == 1024  # type: ignore[arg-type]  (HEIR's default at least)
    assert heir_opt_flag(2048) == "--torch-linalg-to-ckks=min-slot-count=2048"


def test_result_grid_puts_the_non_unit_dims_on_the_conv_output() -> None:
    grid = result_grid((1, 6, 4, 4))
    assert grid is not None and grid.conv_shape == (1, 6, 4, 4) and grid.pad == 3 and grid.taps == (4, 4)
    grid = result_grid((2, 10))
    assert grid is not None and grid.conv_shape == (1, 1, 2, 10) and grid.pad == 9 and grid.taps == (18, 10)
    assert result_grid((2, 2, 2, 2)) is None  # four non-unit dims: a conv's N is 1
    assert result_grid((1, 10)) is None  # an expand that adds unit dims is legal as it is
    assert merge_unit_dims((1, 1, 2, 10)) == [[0, 1, 2], [3]]
    assert merge_unit_dims((2, 1, 3)) == [[0], [1, 2]]
    assert merge_unit_dims((2, 3, 1)) == [[0], [1, 2]]


def test_the_filter_reads_each_matrix_row_through_its_own_tap() -> None:
    import numpy as np

    from heirpy.interp.linalg_named import CONV_LAYOUTS, convolve

    grid = result_grid((2, 3))
    assert grid is not None
    rng = np.random.default_rng(0)
    matrix, x = rng.standard_normal((6, 5)), rng.standard_normal(5)
    filt = grid.filter_of(matrix, 8)  # 3 channels past the matrix's 5 read zero taps
    data = np.zeros((1, 8, 2 * grid.pad + 1, 2 * grid.pad + 1))
    data[0, :5, grid.pad, grid.pad] = x
    data[0, 5:, grid.pad, grid.pad] = 7.0  # whatever the padded rows hold
    out = convolve(CONV_LAYOUTS["linalg.conv_2d_nchw_fchw"], data, filt, np.zeros((1, *grid.conv_shape[1:])), (1, 1), (1, 1))
    assert np.allclose(out.reshape(-1), matrix @ x)


def test_power_of_two() -> None:
    assert [n for n in range(1, 20) if is_power_of_two(n)] == [1, 2, 4, 8, 16]
    assert not is_power_of_two(0) and not is_power_of_two(3072)



NATIVE = """
func.func @f(%x: tensor<1x4x8x8xf32>, %y: tensor<1x3x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>, tensor<1x4x2x2xf32>, tensor<1x4x8x8xf32>, tensor<1x4x11x11xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<4x4x3x3xf32>
  %w3 = arith.constant dense<0.5> : tensor<4x3x3x3xf32>
  %w1 = arith.constant dense<0.5> : tensor<4x1x1x1xf32>
  %b = arith.constant dense<0.0> : tensor<1x4x8x8xf32>
  %b4 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %b2 = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %pow2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %q = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %odd = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%q, %w3 : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %strided = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%b4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %after = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%strided, %w : tensor<1x4x4x4xf32>, tensor<4x4x3x3xf32>) outs(%b2 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [1, 1, 8, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x1x8x8xf32>
  %tap = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x1, %w1 : tensor<1x1x8x8xf32>, tensor<4x1x1x1xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %p2 = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x12x12xf32>
  %w22 = arith.constant dense<0.5> : tensor<4x4x2x2xf32>
  %b11 = arith.constant dense<0.0> : tensor<1x4x11x11xf32>
  %wide = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p2, %w22 : tensor<1x4x12x12xf32>, tensor<4x4x2x2xf32>) outs(%b11 : tensor<1x4x11x11xf32>) -> tensor<1x4x11x11xf32>
  return %pow2, %odd, %strided, %after, %tap, %wide : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>, tensor<1x4x2x2xf32>, tensor<1x4x8x8xf32>, tensor<1x4x11x11xf32>
}
"""


def test_native_convs_are_unit_stride_row_major_and_pow2_under_a_pad() -> None:
    """`RowMajorValues.native_conv`, the guard that keeps a conv HEIR's own: a padded
    power-of-two input (256) is native; a padded 192-element one is not (HEIR masks it);
    a strided conv is not, nor a conv reading a strided conv's (gapped) result, nor one
    with a 1x1 filter or a pad as wide as its filter (heir-opt fails on both), nor a
    slice's."""
    from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
    from heirpy.transforms.heir.heir_native_convs import RowMajorValues
    from heirpy.transforms.linear.constant_folding import ConstantFolder

    module = parse(NATIVE)
    convs = {op.results[0].name_hint: op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)}
    layouts = RowMajorValues(ConstantFolder())
    assert {name: layouts.native_conv(op) for name, op in convs.items()} == {
        "pow2": True, "odd": False, "strided": False, "after": False, "tap": False, "wide": False,
    }


def test_resnet20_leaves_no_strided_conv_for_heir_and_keeps_pytorchs_values() -> None:
    """ResNet-20's two downsampling blocks: after heir-prepare every conv runs at stride 1
    on the 32x32 grid (the later ones read it dilated by 2 and 4; heir-prepare's second
    round undilates the stage-2 3x3 filters at dilation 2 into 5x5 ones with zero taps, as
    canonicalization does any dilated conv whose filter it can fold, while stage 3's would
    be 9x9, past the fold limit, and stay dilated), the Linear reads the 64x32x32
    grid in 65536 slots, the 3-channel input takes 4 (pad-input-channels), and the values
    are still PyTorch's (examples/resnet20.npz, the input zero-padded). With
    `strided-on-grid=false pad-input-channels=false` both stay, in 16384 slots."""
    from xdsl.dialects.func import FuncOp

    from heirpy.interp.equivalence import padded_inputs
    from heirpy.interp.evaluator import run_function
    from heirpy.interp.reference import compare_with_reference, load_npz, reference_inputs
    from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
    from heirpy.ir.utils import int_values, static_shape

    path = ROOT / "examples" / "resnet20.mlir"
    text = path.read_text()
    cases = [
        (True, 65536, {1}, {(1, 1): 2, (1, 3): 8, (1, 5): 6, (4, 3): 5}, 4),
        (False, 16384, {1, 2}, {(1, 1): 2, (1, 3): 19}, 3),
    ]
    for on_grid, slots, strides, windows, channels in cases:
        module = parse(text, path.name)
        run_pipeline(module, "heir-prepare" + ("" if on_grid else "{strided-on-grid=false pad-input-channels=false}"))
        func = next(op for op in module.ops if isinstance(op, FuncOp))
        assert static_shape(func.function_type.inputs.data[0]) == (1, channels, 32, 32)
        convs = [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]
        assert len(convs) == 21
        assert {int_values(c.properties["strides"])[0] for c in convs} == strides
        # (dilation, filter H): how many convs read their input that way
        read = Counter((int_values(c.properties["dilations"])[0], static_shape(c.inputs[1].type)[2]) for c in convs)
        assert read == windows
        assert module_slots([op for op in module.ops])[0] == slots  # type: ignore[misc]
        assert "tensor.extract_slice" not in print_module(module)
        arrays = load_npz(path.with_suffix(".npz"))
        results = run_function(module, "main", padded_inputs(reference_inputs(arrays, 1, "resnet20.npz"), func))
        assert all(c.ok for c in compare_with_reference(arrays, results, 1e-4, 1e-5, "resnet20.npz"))


def test_prepared_flags_take_the_first_function_with_a_body_and_the_larger_slot_count() -> None:
    """A declaration before the entry is skipped (`--secretize=function=` needs a body);
    an asked slot count above what the vectors need is kept, one below is raised; a
    module without a function has no flags and no remark."""
    from heirpy.transforms.heir.heir_prepare import prepared_module_flags, prepared_remark

    module = parse("""
func.func private @ext(tensor<4xf32>) -> tensor<4xf32>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.mulf %x, %x : tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}""")
    assert prepared_module_flags(module) == ("main", 1024, 1, True)
    assert prepared_module_flags(module, 4096) == ("main", 4096, 1, True)
    assert prepared_module_flags(module, 16) == ("main", 1024, 1, True)
    empty = parse("module {\n}")
    assert prepared_module_flags(empty) is None
    assert prepared_remark("heir-prepare", empty) == ""
