"""heir-prepare: one step and one slot count for HEIR's CKKS pipeline. It prints exactly
what its three component passes print in a row (with the slot count passed to both
that need it), and the slot count helpers it stands on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from heirpy.analysis.slots import heir_opt_flag, module_slots  # noqa: E402
from heirpy.api import build_pipeline, parse, print_module, run_pipeline  # noqa: E402
from heirpy.transforms.heir_prepare import heir_prepare_pipeline  # noqa: E402
from heirpy.transforms.lowering.heir_native_convs import is_power_of_two  # noqa: E402
from heirpy.transforms.lowering.heir_result_conv import merge_unit_dims, result_grid  # noqa: E402

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
    one, three = parse(text, path.name), parse(text, path.name)
    run_pipeline(one, f"heir-prepare{{slot-count={slots}}}")
    run_pipeline(three, heir_prepare_pipeline(slots))
    assert print_module(one) == print_module(three)


def test_the_pipeline_spelling_names_the_count_in_both_passes() -> None:
    assert heir_prepare_pipeline(0) == "linalg-canonicalizations,linalg-fuse-ops,legalize-for-heir"
    assert heir_prepare_pipeline(8192) == (
        "linalg-canonicalizations,linalg-fuse-ops{slot-budget=8192},legalize-for-heir{slot-count=8192}"
    )
    build_pipeline(heir_prepare_pipeline(8192))  # a pipeline heirpy-opt takes


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

