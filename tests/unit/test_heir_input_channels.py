"""pad-input-channels (legalize-for-heir) at its limits: `widened_channels` on each
kind of shape (already a power of two, a plane that is not, batch 2, an empty dim, 5
channels to 8), and the readers it must refuse or take that input-channels.mlir lacks:
a conv reading the argument directly (no pad), an argument read as a filter, a pad
read by something other than a conv, a second argument (the remark's index). Values:
the widened function on the input with zero channels added equals the original.
Found by issue 35's mutation habit."""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.evaluator import run_function
from heirpy.transforms.heir.heir_input_channels import next_power_of_two, widened_channels

PASS = "legalize-for-heir{slot-count=16 pad-input-channels=true}"


@pytest.mark.parametrize(("shape", "expected"), [
    ((1, 3, 8, 8), 4),
    ((1, 5, 4, 4), 8),
    ((1, 4, 8, 8), None),  # 256 elements already
    ((1, 1, 8, 8), None),
    ((1, 3, 6, 6), None),  # 36-element plane: no channel count helps
    ((2, 3, 8, 8), None),  # batch 2
    ((1, 3, 8), None),
    ((1, 0, 8, 8), None),
    (None, None),
])
def test_widened_channels(shape: tuple[int, ...] | None, expected: int | None) -> None:
    assert widened_channels(shape) == expected


def test_next_power_of_two() -> None:
    assert [next_power_of_two(n) for n in (1, 2, 3, 4, 5, 8, 9)] == [1, 2, 4, 4, 8, 8, 16]


CONV = ("linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} "
        "ins(%IN, %W : tensor<1x3xSxSxf32>, tensor<2x3x3x3xf32>) outs(%b : tensor<1x2xOxOxf32>) -> tensor<1x2xOxOxf32>")
WEIGHTS = np.round(np.random.default_rng(35).uniform(-1, 1, (2, 3, 3, 3)), 3).tolist()


def _conv(name: str, data: str, size: int) -> str:
    return f"  %{name} = " + CONV.replace("%IN", data).replace("%W", "%w").replace("xS", f"x{size}").replace(
        "xO", f"x{size - 2}")


DIRECT = f"""
func.func @main(%y: tensor<1x2x2x2xf32>, %x: tensor<1x3x8x8xf32>) -> tensor<1x2x6x6xf32> {{
  %b = arith.constant dense<0.5> : tensor<1x2x6x6xf32>
  %w = arith.constant dense<{WEIGHTS}> : tensor<2x3x3x3xf32>
{_conv("c", "%x", 8)}
  return %c : tensor<1x2x6x6xf32>
}}"""


def test_a_conv_reading_the_argument_directly_gets_zero_filter_channels() -> None:
    before = parse(DIRECT)
    after = run_pipeline(parse(DIRECT), PASS)
    text = print_module(after)
    assert "func.func @main(%y: tensor<1x2x2x2xf32>, %x: tensor<1x4x8x8xf32>)" in text
    assert "tensor<2x4x3x3xf32>" in text
    rng = np.random.default_rng(0)
    y, x = rng.standard_normal((1, 2, 2, 2), dtype=np.float32), rng.standard_normal((1, 3, 8, 8), dtype=np.float32)
    wide = np.concatenate([x, rng.standard_normal((1, 1, 8, 8), dtype=np.float32)], axis=1)  # any values there
    expected = run_function(before, "main", [y, x])[0]
    np.testing.assert_allclose(run_function(after, "main", [y, wide])[0], expected, rtol=1e-5, atol=1e-5)


def test_the_remark_names_the_second_argument(capfd: pytest.CaptureFixture[str]) -> None:
    run_pipeline(parse(DIRECT), PASS)
    err = capfd.readouterr().err
    assert ("@main takes power-of-two inputs (pad-input-channels): argument #1 tensor<1x4x8x8xf32> is the "
            "tensor<1x3x8x8xf32> input with 1 channel(s) added at the end") in err


FILTER_READ = """
func.func @main(%x: tensor<1x3x4x4xf32>, %d: tensor<1x3x6x6xf32>) -> tensor<1x1x3x3xf32> {
  %b = arith.constant dense<0.0> : tensor<1x1x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %x : tensor<1x3x6x6xf32>, tensor<1x3x4x4xf32>) outs(%b : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %c : tensor<1x1x3x3xf32>
}"""

INIT_READ = """
func.func @main(%x: tensor<1x3x4x4xf32>, %d: tensor<1x2x6x6xf32>) -> tensor<1x3x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<3x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%x : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %c : tensor<1x3x4x4xf32>
}"""

PAD_AS_INIT = """
func.func @main(%x: tensor<1x3x4x4xf32>, %d: tensor<1x2x8x8xf32>) -> tensor<1x3x6x6xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<3x2x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x4x4xf32> to tensor<1x3x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %w : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>) outs(%p : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %c : tensor<1x3x6x6xf32>
}"""

PAD_READ_ELSEWHERE = f"""
func.func @main(%x: tensor<1x3x8x8xf32>) -> (tensor<1x2x8x8xf32>, tensor<1x3x10x10xf32>) {{
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<0.5> : tensor<1x2x8x8xf32>
  %w = arith.constant dense<{WEIGHTS}> : tensor<2x3x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  }} : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%p, %w : tensor<1x3x10x10xf32>, tensor<2x3x3x3xf32>) outs(%b : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  return %c, %p : tensor<1x2x8x8xf32>, tensor<1x3x10x10xf32>
}}"""


@pytest.mark.parametrize("text", [FILTER_READ, INIT_READ, PAD_AS_INIT, PAD_READ_ELSEWHERE],
                         ids=["read-as-filter", "read-as-init", "pad-as-init", "pad-returned"])
def test_an_argument_read_otherwise_keeps_its_type(text: str) -> None:
    out = print_module(run_pipeline(parse(text), PASS))
    assert "%x: tensor<1x3x" in out and "%x: tensor<1x4x" not in out
