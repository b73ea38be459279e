"""heirpy.export.orion: the exported Orion networks compute what the IR computes.

Cleartext only (no encryption: encrypted runs are benchmarks/bench_orion.py's job). The
networks are compared with heirpy's evaluator on the same IR and with PyTorch's outputs
stored next to each example. Orion and its CPU torch are installed by the test extra
for Python 3.11 only (the only Python with a CPU torch 2.13.0 wheel here): on another
Python these tests are skipped, and say so.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import heirpy
from heirpy.export.orion_cli import main as export_main
from heirpy.interp.equivalence import random_inputs
from heirpy.interp.evaluator import run_function
from heirpy.interp.reference import load_npz
from heirpy.interp.resources import load_file

# The orion extra's markers install nothing on another Python, so the skip follows the
# version, not a failed import: on 3.11 a missing torch or orion is an error, not a skip.
pytestmark = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11),
    reason=(
        f"no torch==2.13.0+cpu wheel (nor orion-fhe, which needs it) for Python "
        f"{sys.version_info.major}.{sys.version_info.minor}: the orion extra installs them on 3.11 only"
    ),
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FHE_NETS = [name for name in ("tiny_cnn", "alexnet_tiny", "cryptonets", "lenet5", "lola_mnist", "resnet_block",
                              "mobilenet_block")
            if (EXAMPLES / f"{name}.mlir").exists()]


def export(name: str, fused: bool):  # type: ignore[no-untyped-def]
    from heirpy.export.orion import ORION_PIPELINE, to_orion

    loaded = load_file(EXAMPLES / f"{name}.mlir")
    if fused:
        heirpy.run_pipeline(loaded.module, ORION_PIPELINE)
    return loaded, to_orion(loaded.module)


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "raw"])
@pytest.mark.parametrize("name", FHE_NETS)
def test_exported_network_equals_evaluator_and_pytorch(name: str, fused: bool) -> None:
    import orion.nn

    from heirpy.export.orion import run_cleartext

    loaded, net = export(name, fused)
    assert isinstance(net, orion.nn.Module)
    data = load_npz(EXAMPLES / f"{name}.npz")
    x, pytorch = data["arg0"], data["result0"]
    func = next(op for op in loaded.module.ops if op.sym_name.data == "main")
    for inputs in ([x], random_inputs(func, 1)):
        (expected,) = run_function(loaded.module, "main", inputs, resources=loaded.resources)
        got = run_cleartext(net, inputs[0])
        scale = float(np.abs(expected).max())
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5 * max(1.0, scale))
    np.testing.assert_allclose(run_cleartext(net, x), pytorch, rtol=1e-4, atol=1e-5 * max(1.0, float(np.abs(pytorch).max())))


def test_layers_are_orions_and_pools_fold_away_when_fused() -> None:
    import orion.nn as on

    _, raw = export("tiny_cnn", fused=False)
    _, fused = export("tiny_cnn", fused=True)
    assert [type(m) for m in raw.children()] == [
        on.Conv2d, on.AvgPool2d, on.Quad, on.Conv2d, on.AvgPool2d, on.Flatten, on.Linear]
    assert [type(m) for m in fused.children()] == [on.Conv2d, on.Quad, on.Flatten, on.Linear]
    conv = next(fused.children())
    assert (conv.kernel_size, conv.stride, conv.padding) == ((4, 4), (2, 2), (1, 1))


def test_channel_affine_becomes_an_exact_batch_norm() -> None:
    import orion.nn as on

    from heirpy.export.orion import run_cleartext, to_orion

    text = """
func.func @main(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %s = arith.constant dense<[2.0, -1.5]> : tensor<2xf32>
  %b = arith.constant dense<[0.25, 1.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s, %b : tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%v: f32, %k: f32, %c: f32, %o: f32):
    %m = arith.mulf %v, %k : f32
    %a = arith.addf %m, %c : f32
    linalg.yield %a : f32
  } -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}
"""
    net = to_orion(heirpy.parse(text, "bn.mlir"))
    (norm,) = net.children()
    assert isinstance(norm, on.BatchNorm2d)
    x = np.random.default_rng(0).standard_normal((1, 2, 3, 3)).astype(np.float32)
    expected = x * np.array([2.0, -1.5]).reshape(1, 2, 1, 1) + np.array([0.25, 1.0]).reshape(1, 2, 1, 1)
    np.testing.assert_allclose(run_cleartext(net, x), expected, rtol=1e-6)


def test_orion_fits_the_exported_network() -> None:
    """Orion's fit traces the network with torch.fx and tracks each layer's shapes:
    the exported graph must be one it accepts (keys only, nothing is encrypted)."""
    import orion

    _, net = export("tiny_cnn", fused=True)
    orion.init_scheme({
        "ckks_params": {"LogN": 12, "LogQ": [30, 26, 26, 26], "LogP": [31], "LogScale": 26, "H": 192, "RingType": "standard"},
        "orion": {"backend": "lattigo", "debug": False},
    })
    import torch

    orion.fit(net, torch.from_numpy(load_npz(EXAMPLES / "tiny_cnn.npz")["arg0"]))
    fitted = {name: tuple(m.output_shape) for name, m in net.named_children()}
    assert fitted == {"conv2d1": (1, 2, 4, 4), "quad1": (1, 2, 4, 4), "flatten1": (1, 2, 4, 4), "linear1": (1, 10)}


def test_cli_saves_a_network_that_loads_and_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import torch

    from heirpy.export.orion import run_cleartext

    out = tmp_path / "net.pt"
    assert export_main([str(EXAMPLES / "tiny_cnn.mlir"), "-o", str(out), "--check"]) == 0
    printed = capsys.readouterr().out
    assert "conv2d1      Conv2d 1->2, 4x4, stride 2, padding 1" in printed
    assert "levels Orion needs without bootstrapping: 3" in printed
    assert "plaintext diagonals Orion packs at N = 2^14: 85" in printed
    assert "network vs evaluator" in printed and "ok" in printed
    net = torch.load(out, weights_only=False)
    data = load_npz(EXAMPLES / "tiny_cnn.npz")
    np.testing.assert_allclose(run_cleartext(net, data["arg0"]), data["result0"], rtol=1e-4, atol=1e-6)


def test_cli_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "relu.mlir"
    model.write_text("""func.func @main(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %r = arith.maximumf %x, %z : tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
""")
    assert export_main([str(model), "--no-pipeline"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"{model}:3:8: error: 'arith.maximumf' on the encrypted input has no Orion layer"
    assert export_main([str(tmp_path / "missing.mlir")]) == 1
    assert capsys.readouterr().err.strip().startswith("error: cannot read")


def test_a_dilated_conv_exports_with_its_dilation() -> None:
    """A dilation-2 conv (2x2 filter spanning 3x3) runs in Orion's Conv2d as the evaluator
    computes it: without the dilation the network would compute a 5x5 output."""
    from heirpy.export.orion import run_cleartext, to_orion

    text = """
func.func @main(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[-1.0, 0.5], [0.25, 2.0]]]]> : tensor<2x1x2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%f : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c : tensor<1x2x4x4xf32>
}
"""
    module = heirpy.parse(text, "dilated.mlir")
    x = np.random.default_rng(0).standard_normal((1, 1, 6, 6)).astype(np.float32)
    (expected,) = run_function(module, "main", [x])
    got = run_cleartext(to_orion(module), x)
    assert got.shape == (1, 2, 4, 4)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_cli_names_each_layers_op_by_its_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each layer line ends with `file:line:col` of the op it came from (no trailing colon)."""
    model = EXAMPLES / "tiny_cnn.mlir"
    assert export_main([str(model), "--no-pipeline"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("conv2d1 ")]
    assert len(lines) == 1
    location = lines[0].split()[-1]
    path, line, column = location.rsplit(":", 2)
    assert path == str(model) and line.isdigit() and column.isdigit()
    assert "linalg.conv_2d_nchw_fchw" in model.read_text().splitlines()[int(line) - 1]


def test_cli_help_says_what_each_option_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        export_main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for expected in ("--no-pipeline export the IR as it is", "-o OUTPUT, --output OUTPUT save the network here",
                     "--check [SEED] compare the network with heirpy's evaluator", "--debug show tracebacks"):
        assert expected in text


def test_cli_without_orion_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import metadata

    real_version = metadata.version

    def version(distribution: str) -> str:
        if distribution == "orion-fhe":
            raise metadata.PackageNotFoundError(distribution)
        return real_version(distribution)

    monkeypatch.setattr(metadata, "version", version)
    assert export_main([str(EXAMPLES / "tiny_cnn.mlir")]) == 1
    assert capsys.readouterr().err.strip() == (
        "error: heirpy-export-orion needs orion-fhe: pip install torch==2.13.0, then orion-fhe==1.0.2"
    )


F16_NET = Path(__file__).resolve().parent / "orion_nets" / "square_net_f16.mlir"


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "raw"])
def test_an_f16_export_becomes_the_network_its_f32_twin_would(fused: bool, capsys: pytest.CaptureFixture[str]) -> None:
    """torch-mlir's f16 form (casts around every op) exports: the network computes in f32
    what the IR rounds to f16, so it is judged at f16 precision, against the evaluator
    (the CLI's check) and against PyTorch's f16 output."""
    import orion.nn as on

    from heirpy.export.orion import ORION_PIPELINE, run_cleartext, to_orion
    from heirpy.interp.equivalence import compare_arrays

    args = [str(F16_NET), "--check"] + ([] if fused else ["--no-pipeline"])
    assert export_main(args) == 0
    assert "network vs evaluator" in capsys.readouterr().out
    loaded = load_file(F16_NET)
    if fused:
        heirpy.run_pipeline(loaded.module, ORION_PIPELINE)
    net = to_orion(loaded.module)
    kinds = [type(m) for m in net.children()]
    assert on.Quad in kinds and on.Linear in kinds
    data = load_npz(F16_NET.with_suffix(".npz"))
    got = run_cleartext(net, data["arg0"]).astype(np.float16)
    assert compare_arrays(0, data["result0"], got, rtol=1e-4, atol=1e-5, scale_atol=True).ok


@pytest.mark.parametrize("scale", [1.0, 1000.0], ids=["outputs-under-1", "outputs-in-the-hundreds"])
@pytest.mark.parametrize(("fraction", "status"), [(0.5, 0), (1.5, 1)])
def test_the_f16_check_can_fail(fraction: float, status: int, scale: float, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    """The f16 check allows each value `magnitude_tolerance`'s `atol + rtol * |value|` (at
    least 4 f16 ulps, absolute and relative, and 4 ulps of the result's largest value): a
    network off by half that passes, one off by 1.5 times that is a mismatch. The net's
    outputs are under 1; scaled by 1000 (the evaluator's and the network's alike), the
    largest value's 4 ulps are what allows the half."""
    from heirpy.export import orion_cli
    from heirpy.export.orion import run_cleartext
    from heirpy.interp.equivalence import magnitude_tolerance

    evaluate = orion_cli.run_function

    def scaled(*args, **kwargs):  # type: ignore[no-untyped-def]
        return [(r.astype(np.float32) * scale).astype(r.dtype) for r in evaluate(*args, **kwargs)]

    def shifted(net, x):  # type: ignore[no-untyped-def]
        out = run_cleartext(net, x) * scale
        rtol, atol = magnitude_tolerance(out.astype(np.float16), 1e-4, 1e-5)
        return out + fraction * (atol + rtol * np.abs(out))

    monkeypatch.setattr(orion_cli, "run_function", scaled)
    monkeypatch.setattr(orion_cli, "run_cleartext", shifted)
    assert export_main([str(F16_NET), "--check"]) == status
    assert ("MISMATCH" in capsys.readouterr().out) == bool(status)
