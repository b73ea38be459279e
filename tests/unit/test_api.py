"""The library API shares the CLI's context and diagnostics."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.universe import Universe

import heirpy
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, PoolingNchwMaxOp, PoolingNchwSumOp
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp
from heirpy.ir.utils import window_out_size
from heirpy.transforms.linalg_fuse_ops import LinalgFuseOpsPass

POOL = """func.func @f(%in: tensor<1x2x8x8xf32>, %win: tensor<2x2xf32>, %o: tensor<1x2x4x4xf32>, %o2: tensor<1x2x2x2xf32>) -> tensor<1x2x4x4xf32> {
  %0 = linalg.pooling_nchw_max {strides = dense<2> : tensor<2xi64>} ins(%in, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = linalg.pooling_nchw_sum {strides = dense<2> : tensor<2xi64>} ins(%0, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%o2 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x4x4xf32>
}
"""


def test_parse_run_print_round_trip() -> None:
    module = heirpy.parse(POOL, "pool.mlir")
    heirpy.run_pipeline(module, "dce")
    text = heirpy.print_module(module)
    assert "pooling_nchw_max" in text and "pooling_nchw_sum" not in text  # dead sum removed
    again = heirpy.parse(heirpy.print_module(module, generic=True))
    assert heirpy.print_module(again) == text


def test_omitted_dilations_default_to_one_and_keep_tensor_form() -> None:
    module = heirpy.parse(POOL)
    op = next(op for op in module.walk() if isinstance(op, PoolingNchwMaxOp))
    assert op.window_strides() == (2, 2)
    assert op.window_dilations() == (1, 1)
    assert "strides = dense<2> : tensor<2xi64>" in heirpy.print_module(module)


def test_pooling_max_body_is_max_of_out_and_in() -> None:
    """MLIR's pooling_nchw_max yields max(out, in); xDSL's read the window operand."""
    module = heirpy.parse(POOL)
    op = next(op for op in module.walk() if isinstance(op, PoolingNchwMaxOp))
    block = op.body.block
    max_op = block.first_op
    assert max_op is not None and max_op.name == "arith.maximumf"
    assert set(max_op.operands) == {block.args[0], block.args[2]}


def test_conv_maps_follow_strides_and_dilations() -> None:
    module = heirpy.parse(
        """func.func @f(%x: tensor<1x1x9x9xf32>, %w: tensor<1x1x3x3xf32>, %o: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %0 = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, dilations = dense<[1, 2]> : vector<2xi64>} ins(%x, %w : tensor<1x1x9x9xf32>, tensor<1x1x3x3xf32>) outs(%o : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}"""
    )
    conv = next(op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp))
    input_map = conv.get_indexing_maps().data[0].data
    # (n, f, oh, ow, c, kh, kw) -> (n, c, oh*2 + kh, ow*2 + kw*2)
    assert input_map.eval([0, 0, 1, 1, 0, 2, 2], []) == (0, 0, 4, 6)


def test_parse_error_is_one_line_heirpy_error() -> None:
    with pytest.raises(heirpy.HeirpyError) as info:
        heirpy.parse("func.func @f( {", "bad.mlir")
    assert str(info.value).startswith("bad.mlir:1:")
    assert "\n" not in str(info.value)


def test_bad_pipeline_is_heirpy_error() -> None:
    module = heirpy.parse(POOL)
    with pytest.raises(heirpy.HeirpyError, match="Unrecognized passes"):
        heirpy.run_pipeline(module, "not-a-pass")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "linalg-fuse-ops{slot-budget=x}",
            "option 'slot-budget' of pass 'linalg-fuse-ops' expects int, got 'x'",
        ),
        (
            "linalg-fuse-ops{slot_budget=x}",
            "option 'slot_budget' of pass 'linalg-fuse-ops' expects int, got 'x'",
        ),
        ("dce{max-iterations=2}", "pass 'dce' has no option 'max-iterations' (it has no options)"),
        (
            "report-depth{max-depth=2}",
            "pass 'report-depth' has no option 'max-depth' (its options are plaintext-args, scalar-mul-levels)",
        ),
        ("dce,{", "Expected pass name here (column 5)"),
    ],
)
def test_bad_pipeline_names_the_option_as_written(spec: str, message: str) -> None:
    with pytest.raises(heirpy.HeirpyError) as info:
        heirpy.build_pipeline(spec)
    assert str(info.value) == f"error: invalid pass pipeline '{spec}': {message}"


def test_options_take_dashes_or_underscores() -> None:
    dashed = heirpy.build_pipeline("linalg-fuse-ops{slot-budget=64 conv-pool=false}").passes[0]
    underscored = heirpy.build_pipeline("linalg-fuse-ops{slot_budget=64}").passes[0]
    assert isinstance(dashed, LinalgFuseOpsPass) and isinstance(underscored, LinalgFuseOpsPass)
    assert dashed.slot_budget == underscored.slot_budget == 64
    assert dashed.conv_pool is False


def test_fused_conv_pool_builder_and_verifier() -> None:
    module = heirpy.parse(
        """func.func @f(%x: tensor<2x3x12x12xf32>, %w: tensor<4x3x3x3xf32>, %c: tensor<2x4x10x10xf32>, %p: tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32> {
  return %p : tensor<2x4x4x4xf32>
}"""
    )
    func = next(op for op in module.walk() if op.name == "func.func")
    x, w, c, p = func.regions[0].block.args
    op = FusedConvPoolOp(x, w, c, p, pool_window=(3, 3), pool_strides=(2, 2), divisor=9.0)
    op.verify()
    assert op.divisor_value() == 9.0
    assert op.int_values("pool_window") == (3, 3)
    bad = FusedConvPoolOp(x, w, c, p, pool_window=(2, 2), pool_strides=(2, 2))
    with pytest.raises(Exception, match="expects operand 'pool_init' of shape 2x4x5x5"):
        bad.verify()


@pytest.mark.parametrize(
    ("size", "window", "stride", "dilation", "expected"),
    [(16, 3, 1, 1, 14), (17, 3, 2, 2, 7), (8, 2, 2, 1, 4), (2, 3, 1, 1, 0), (10, 3, 3, 1, 3)],
)
def test_window_out_size(size: int, window: int, stride: int, dilation: int, expected: int) -> None:
    assert window_out_size(size, window, stride, dilation) == expected


def test_universe_exposes_tensor_ext_and_heirpy_passes() -> None:
    from heirpy.transforms import HEIRPY_PASSES

    multiverse = Universe.get_multiverse()
    assert multiverse.all_dialects["tensor_ext"]().name == "tensor_ext"
    for name in HEIRPY_PASSES:
        assert name in multiverse.all_passes


def test_sum_and_max_pool_are_distinct_ops() -> None:
    module = heirpy.parse(POOL)
    kinds = [type(op) for op in module.walk() if op.name.startswith("linalg.pooling")]
    assert kinds == [PoolingNchwMaxOp, PoolingNchwSumOp]


def test_two_parses_of_one_model_keep_their_own_resource_blobs() -> None:
    """xDSL shares one blob store between contexts; heirpy gives each parse its own."""
    from pathlib import Path

    text = (Path(__file__).parent.parent.parent / "examples" / "tiny_cnn.mlir").read_text()
    first = heirpy.parse(text, "a.mlir")
    second = heirpy.parse(text, "b.mlir")
    printed = heirpy.print_module(second)
    assert printed == heirpy.print_module(first)
    assert "dense_resource<torch_tensor_10_torch.float32>" in printed  # not renamed _0
    blob = next(line for line in printed.splitlines() if "torch_tensor_10_torch.float32:" in line)
    assert '"0x04000000' in blob and len(blob) > 60  # the blob is there, not empty


def test_hex_elements_of_a_float_dense_literal_are_bit_patterns() -> None:
    """MLIR reads `0xFF800000` in an f32 tensor literal as -inf; xDSL read 4286578688.0."""
    import numpy as np

    from heirpy.interp import run_function

    module = heirpy.parse(
        """func.func @main() -> (tensor<3xf32>, tensor<2xf16>, tensor<2xi32>) {
  %c = arith.constant dense<[0xFF800000, 1.0, 0x3F800000]> : tensor<3xf32>
  %h = arith.constant dense<[0x3C00, 0x7C00]> : tensor<2xf16>
  %i = arith.constant dense<[0x10, 3]> : tensor<2xi32>
  return %c, %h, %i : tensor<3xf32>, tensor<2xf16>, tensor<2xi32>
}"""
    )
    floats, halves, ints = run_function(module, "main", [])
    np.testing.assert_array_equal(floats, [-np.inf, 1.0, 1.0])
    np.testing.assert_array_equal(halves, [1.0, np.inf])
    np.testing.assert_array_equal(ints, [16, 3])  # hex stays an integer in an int tensor
    again = heirpy.parse(heirpy.print_module(module))
    np.testing.assert_array_equal(run_function(again, "main", [])[0], floats)


def test_hex_element_too_wide_for_its_float_type_is_an_error() -> None:
    with pytest.raises(heirpy.HeirpyError, match="no f16 has the bit pattern"):
        heirpy.parse(
            "func.func @f() -> tensor<1xf16> {\n"
            "  %c = arith.constant dense<[0x1FFFF]> : tensor<1xf16>\n"
            "  return %c : tensor<1xf16>\n}"
        )


def _heirpy_pass_options() -> list[tuple[str, str]]:
    from xdsl.passes import get_pass_option_infos

    from heirpy.api import available_passes

    heirpy_passes = {name for name, factory in available_passes().items()
                     if factory().__module__.startswith("heirpy.")}
    return [(name, info.name) for name in sorted(heirpy_passes)
            for info in get_pass_option_infos(available_passes()[name]()) if info.name != "name"]


HEIRPY_OPTIONS = _heirpy_pass_options()
BAD_VALUES = ["-3", '"zz"', "true", "1.5", "0,1", ""]


@pytest.mark.parametrize(("pass_name", "option"), HEIRPY_OPTIONS, ids=[f"{p}-{o}" for p, o in HEIRPY_OPTIONS])
def test_option_errors_spell_options_as_the_user_types_them(pass_name: str, option: str) -> None:
    """Issue 28: every message about a pass option names it with dashes (`slot-budget`), as
    the command line spells it, never the field's underscores (`slot_budget`). Each heirpy
    pass option gets values of every wrong kind; whatever the pass says, it says it in
    the user's spelling."""
    underscored = {o for _, o in HEIRPY_OPTIONS if "_" in o}
    dashed = option.replace("_", "-")
    text = (Path(__file__).parents[2] / "examples" / "tiny_cnn.mlir").read_text()
    messages = []
    for value in BAD_VALUES:
        spec = f"{pass_name}{{{dashed}={value}}}" if value else f"{pass_name}{{{dashed}}}"
        try:
            heirpy.run_pipeline(heirpy.parse(text, "tiny_cnn.mlir"), spec)
        except heirpy.HeirpyError as err:
            messages.append(str(err))
    assert messages, f"{pass_name}{{{dashed}}} accepted every bad value"
    for message in messages:
        assert not [o for o in underscored if re.search(rf"\b{o}\b", message)], message


def test_a_bool_for_a_number_option_is_an_error() -> None:
    """xDSL reads `true` as the int 1; legalize-for-heir then spoke of "more than True slots"."""
    with pytest.raises(heirpy.HeirpyError, match=r"option 'slot-count' of pass 'legalize-for-heir' expects int, got true$"):
        heirpy.build_pipeline("legalize-for-heir{slot-count=true}")


def test_report_depth_rejects_plaintext_args_that_are_not_indices() -> None:
    module = heirpy.parse((Path(__file__).parents[2] / "examples" / "tiny_cnn.mlir").read_text(), "m.mlir")
    with pytest.raises(heirpy.HeirpyError, match=r'report-depth\{plaintext-args="zz"\}: expected argument indices'):
        heirpy.run_pipeline(module, 'report-depth{plaintext-args="zz"}')
