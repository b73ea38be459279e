"""Orion's output in the IR's shape: `heirpy.export.orion_layout` and
`OrionNetwork.clear_output` / `decrypted_output`.

A network whose last layer is a conv decodes from Orion in Orion's multiplexed layout
(a 1x6x4x4 result of a stride-2 conv: 2x8x8 = 128 slots). The layouts are pure numpy
(any Python); that they are Orion's is checked against Orion's own `multiplex` and its
fitted shapes, and end to end by a small encrypted run whose decrypted output must equal
the cleartext network's (Python 3.11, where the orion extra installs orion-fhe).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import heirpy
from heirpy.analysis.orion_packing import Layout, slot_index
from heirpy.export.network import Conv, extract_network
from heirpy.export.orion_layout import from_orion_layout, network_diagonals, network_layouts, output_layout
from heirpy.interp.evaluator import run_function
from heirpy.interp.resources import load_file
from heirpy.ir.utils import static_shape

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FHE_NETS = ("tiny_cnn", "alexnet_tiny", "cryptonets", "lenet5", "lola_mnist", "resnet_block", "mobilenet_block")

ORION_ONLY = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11), reason="orion-fhe is installed by the orion extra on Python 3.11 only"
)


def dense(array: np.ndarray) -> str:
    return "dense<" + np.array2string(array, separator=", ", threshold=10**6, floatmode="unique").replace("\n", "") + ">"


def conv(name: str, x: str, shape: tuple[int, ...], weight: np.ndarray, bias: np.ndarray, stride: int,
         out: tuple[int, ...]) -> str:
    """`name = conv(pad(x, 1), weight, stride) + bias` in torch-mlir's form."""
    n, c, h, w = shape
    f = weight.shape[0]
    t = f"tensor<{'x'.join(map(str, out))}xf32>"
    return f"""
  %{name}_w = arith.constant {dense(weight)} : tensor<{f}x{c}x3x3xf32>
  %{name}_b = arith.constant {dense(bias)} : tensor<{f}xf32>
  %{name}_p = tensor.pad %{x} low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  }} : tensor<{n}x{c}x{h}x{w}xf32> to tensor<{n}x{c}x{h + 2}x{w + 2}xf32>
  %{name}_e = tensor.empty() : {t}
  %{name}_i = linalg.broadcast ins(%{name}_b : tensor<{f}xf32>) outs(%{name}_e : {t}) dimensions = [0, 2, 3]
  %{name} = linalg.conv_2d_nchw_fchw {{strides = dense<{stride}> : vector<2xi64>}} ins(%{name}_p, %{name}_w : tensor<{n}x{c}x{h + 2}x{w + 2}xf32>, tensor<{f}x{c}x3x3xf32>) outs(%{name}_i : {t}) -> {t}"""


def conv_last_network() -> str:
    """1x1x8x8 -> conv 3x3 stride 2 (6 channels) -> x² -> conv 3x3 (5 channels) -> 1x5x4x4:
    both convs at gap 2, so the result is 2 planes of 8x8 with 4 channels in each."""
    rng = np.random.default_rng(0)
    w1, b1 = rng.uniform(-0.5, 0.5, (6, 1, 3, 3)), rng.uniform(-0.1, 0.1, 6)
    w2, b2 = rng.uniform(-0.3, 0.3, (5, 6, 3, 3)), rng.uniform(-0.1, 0.1, 5)
    return (
        "func.func @main(%x: tensor<1x1x8x8xf32>) -> tensor<1x5x4x4xf32> {\n  %zero = arith.constant 0.0 : f32"
        + conv("c1", "x", (1, 1, 8, 8), w1.astype(np.float32), b1.astype(np.float32), 2, (1, 6, 4, 4))
        + "\n  %sq = arith.mulf %c1, %c1 : tensor<1x6x4x4xf32>"
        + conv("c2", "sq", (1, 6, 4, 4), w2.astype(np.float32), b2.astype(np.float32), 1, (1, 5, 4, 4))
        + "\n  return %c2 : tensor<1x5x4x4xf32>\n}\n"
    )


def test_layouts_of_a_conv_last_network() -> None:
    network = extract_network(heirpy.parse(conv_last_network(), "conv_last.mlir"))
    layouts, shapes = network_layouts(network)
    assert [layout.gap for layout in layouts] == [1, 2, 2, 2]
    assert layouts[-1] == Layout((1, 5, 4, 4), 2, (1, 2, 8, 8))
    assert output_layout(network) == (layouts[-1], (1, 5, 4, 4))
    assert shapes[-1] == (1, 5, 4, 4)


def test_from_orion_layout_reads_each_value_from_its_slot() -> None:
    layout = Layout((1, 5, 4, 4), 2, (1, 2, 8, 8))
    slots = np.zeros(2 * 8 * 8)
    # Channel 3, row 1, column 2: plane 0, row 1*2 + 1, column 2*2 + 1.
    slots[0 * 64 + 3 * 8 + 5] = 7.0
    # Channel 4, row 3, column 0: plane 1, row 6, column 0.
    slots[1 * 64 + 6 * 8 + 0] = -2.0
    got = from_orion_layout(np.concatenate([slots, np.full(64, 99.0)]), layout, (1, 5, 4, 4))
    expected = np.zeros((1, 5, 4, 4))
    expected[0, 3, 1, 2], expected[0, 4, 3, 0] = 7.0, -2.0
    np.testing.assert_array_equal(got, expected)
    with pytest.raises(ValueError, match="has 100 values; its layout"):
        from_orion_layout(np.zeros(100), layout, (1, 5, 4, 4))
    # A Linear's output (gap 1, 2-D) and a flatten of a multiplexed conv output.
    np.testing.assert_array_equal(from_orion_layout(np.arange(12.0), Layout((1, 10)), (1, 10)), np.arange(10.0)[None])
    flat = from_orion_layout(slots, layout, (1, 80))
    assert flat.shape == (1, 80) and flat[0, 3 * 16 + 1 * 4 + 2] == 7.0


@pytest.mark.parametrize("name", FHE_NETS)
def test_clear_shapes_are_the_irs_result_shapes(name: str) -> None:
    """`network_layouts`' clear shape of every value (a Flatten's 2-D, a Linear's
    (batch, features)) is the result type of the op the layer came from."""
    network = extract_network(load_file(EXAMPLES / f"{name}.mlir").module)
    _, shapes = network_layouts(network)
    assert shapes[1:] == [static_shape(layer.op.results[0].type) for layer in network.layers]


def test_a_grouped_conv_packs_as_the_dense_conv_with_zeros_across_groups() -> None:
    """Orion resolves a grouped conv into a conv over all input channels whose weights
    across groups are zero: the diagonals of MobileNet's depthwise convs (32 and 64
    groups) are those of that dense conv."""
    network = extract_network(load_file(EXAMPLES / "mobilenet_block.mlir").module)
    grouped = [i for i, layer in enumerate(network.layers) if isinstance(layer, Conv) and layer.groups > 1]
    assert len(grouped) == 2
    dense_layers = list(network.layers)
    for i in grouped:
        conv = network.layers[i]
        assert isinstance(conv, Conv)
        out_channels, per_group, kh, kw = conv.weight.shape
        per_out = out_channels // conv.groups
        weight = np.zeros((out_channels, per_group * conv.groups, kh, kw))
        for o in range(out_channels):
            group = o // per_out
            weight[o, group * per_group:(group + 1) * per_group] = conv.weight[o]
        dense_layers[i] = dataclasses.replace(conv, weight=weight, groups=1)
    dense = dataclasses.replace(network, layers=dense_layers)
    assert network_diagonals(network) == network_diagonals(dense)


@ORION_ONLY
def test_clear_output_reads_a_multiplexed_result_back() -> None:
    """`OrionNetwork.clear_output` on Orion's 2x8x8 decoding of a 1x5x4x4 result (every
    value at its slot, as Orion's multiplex puts it), given as a torch tensor (one that
    still requires grad, too) or a numpy array, is the result in the IR's shape."""
    import torch

    from heirpy.export.orion import to_orion

    net = to_orion(heirpy.parse(conv_last_network(), "conv_last.mlir"))
    layout = Layout((1, 5, 4, 4), 2, (1, 2, 8, 8))
    clear = np.random.default_rng(3).standard_normal((1, 5, 4, 4)).astype(np.float32)
    slots = np.zeros(2 * 8 * 8, dtype=np.float32)
    cc, hh, ww = np.meshgrid(np.arange(5), np.arange(4), np.arange(4), indexing="ij")
    slots[slot_index(layout, cc, hh, ww).reshape(-1)] = clear.reshape(-1)
    decoded = slots.reshape(1, 2, 8, 8)
    np.testing.assert_array_equal(net.clear_output(decoded), clear)
    np.testing.assert_array_equal(net.clear_output(torch.from_numpy(decoded)), clear)
    np.testing.assert_array_equal(net.clear_output(torch.tensor(decoded, requires_grad=True)), clear)


@ORION_ONLY
def test_layout_inverts_orions_multiplex() -> None:
    """Orion's `multiplex` (pixel_shuffle of zero-padded channels) of a random tensor,
    placed in the fhe shape as Orion's packing places it, reads back to the tensor."""
    import torch
    from orion.core.packing import multiplex

    rng = np.random.default_rng(1)
    for channels, gap, (h, w), packed in ((6, 2, (4, 4), (2, 8, 8)), (64, 4, (8, 8), (4, 32, 32)),
                                          (10, 3, (5, 5), (2, 16, 16))):
        clear = rng.standard_normal((1, channels, h, w)).astype(np.float32)
        spread = multiplex(torch.from_numpy(clear), gap).numpy()[0]
        slots = np.zeros(packed, dtype=np.float32)
        slots[:spread.shape[0], :spread.shape[1], :spread.shape[2]] = spread
        layout = Layout((1, channels, h, w), gap, (1, *packed))
        np.testing.assert_array_equal(from_orion_layout(slots, layout, clear.shape), clear)


def encrypted_conv_last_run() -> dict:
    """The encrypted run of `test_decrypted_conv_output_equals_the_cleartext_network`, in a
    process of its own (this file run as a script): Orion's scheme is global and its Go
    runtime aborts the whole process on an error, which must not take pytest with it."""
    import orion
    import torch

    from heirpy.export.orion import decrypted_output, run_cleartext, to_orion

    module = heirpy.parse(conv_last_network(), "conv_last.mlir")
    net = to_orion(module)
    x = np.random.default_rng(2).uniform(-1, 1, (1, 1, 8, 8)).astype(np.float32)
    (expected,) = run_function(module, "main", [x])
    clear = run_cleartext(net, x)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        orion.init_scheme({
            "ckks_params": {"LogN": 12, "LogQ": [35, 30, 30, 30, 30], "LogP": [36], "LogScale": 30, "H": 192,
                            "RingType": "standard"},
            "orion": {"backend": "lattigo", "debug": False, "embedding_method": "hybrid", "margin": 2},
        })
        orion.fit(net, torch.from_numpy(x))
        level = orion.compile(net)
        net.he()
        out = net(orion.encrypt(orion.encode(torch.from_numpy(x), level)))
    net.eval()
    decoded = out.decrypt().decode()
    return {"expected": expected.tolist(), "clear": clear.tolist(), "decoded": decoded.numpy().tolist(),
            "got": decrypted_output(net, out).tolist()}


@ORION_ONLY
def test_decrypted_conv_output_equals_the_cleartext_network() -> None:
    """Encrypted end to end at a toy ring (N = 2^12, not secure; seconds): the decrypted
    output is Orion's 2x8x8 multiplexed tensor; `decrypted_output` (`clear_output`) puts
    it back into 1x5x4x4, equal to the cleartext network and to heirpy's evaluator."""
    done = subprocess.run([sys.executable, __file__], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    result = {k: np.array(v) for k, v in json.loads(done.stdout.splitlines()[-1]).items()}
    clear, decoded, got = result["clear"], result["decoded"], result["got"]
    np.testing.assert_allclose(clear, result["expected"], rtol=1e-5, atol=1e-6)
    assert decoded.shape == (1, 2, 8, 8)  # Orion's multiplexed layout, not 1x5x4x4
    assert not np.allclose(decoded.reshape(-1)[:80], clear.reshape(-1), atol=1e-2)
    assert got.shape == (1, 5, 4, 4)
    np.testing.assert_allclose(got, clear, atol=1e-3 * max(1.0, float(np.abs(clear).max())))


if __name__ == "__main__":
    print(json.dumps(encrypted_conv_last_run()))
