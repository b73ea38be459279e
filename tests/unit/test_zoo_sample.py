"""The model zoo's CI sample (issue 37, benchmarks/zoo/): three small models from the real
packages (torchvision's SqueezeNet 1.1, timm's MobileNetV3-small-0.5 and LCNet-0.5) built
with random weights and randomised BatchNorm statistics, exported by torch-mlir, the first
two in f32, LCNet in f16. For each: heirpy's main pipeline keeps PyTorch's outputs (f32 at
heirpy-report's tolerance; f16 no worse than PyTorch's own f16 against the f32 model,
`measure.f16_verdict`), and IREE compiles heirpy's output under the IREE pipeline
(`measure.iree_pipeline()`) and runs it to PyTorch's f32 outputs.

The model code, torch-mlir and iree-compile are test dependencies: a missing one fails,
it never skips. About 40 s of CPU in all (each model's export ~5 s, each IREE build ~8 s).
Inputs are the zoo's 64x64: most of the time is torch.export's tracing and
IREE's code generation, not the model's size. (At 32x32 torch-mlir writes SqueezeNet's last
ceil-mode max pool over a 3x3 map as a 3x3 window, stride 2, on a 5x5 pad with a 1x1 output,
which IREE's verifier rejects in the raw IR already.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ZOO = Path(__file__).resolve().parents[2] / "benchmarks" / "zoo"
sys.path[:0] = [str(ZOO), str(ZOO.parent)]

import measure  # noqa: E402
import models  # noqa: E402

from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile  # noqa: E402
from heirpy.api import clone_module, parse, print_module, run_pipeline  # noqa: E402

SAMPLE = (("squeezenet1_1", "f32"), ("mobilenetv3_small_050", "f32"), ("lcnet_050", "f16"))

# As for the Orion export tests: torch (and torch-mlir) install on 3.11 only, so the skip
# follows the version, not a failed import; on 3.11 a missing package is an error.
pytestmark = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11),
    reason=f"no torch==2.13.0+cpu wheel for Python {sys.version_info.major}.{sys.version_info.minor}: "
    "the test extra installs torch and torch-mlir on 3.11 only",
)


@pytest.fixture(scope="module", params=SAMPLE, ids=["-".join(p) for p in SAMPLE])
def exported(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    name, dtype = request.param
    directory = tmp_path_factory.mktemp(f"{name}_{dtype}")
    models.export(models.BY_NAME[name], dtype, directory)
    return directory, dtype


def _arrays(directory: Path) -> dict[str, np.ndarray]:
    with np.load(directory / "model.npz") as data:
        return {k: data[k] for k in data.files}


def test_heirpy_keeps_pytorch_outputs(exported: tuple[Path, str]) -> None:
    directory, dtype = exported
    module = parse((directory / "model.mlir").read_text(), "model.mlir")
    after = clone_module(module)
    run_pipeline(after, measure.MAIN_PIPELINE)
    assert print_module(after) != print_module(module)  # the pipeline did rewrite the model
    verdict = measure.numerics(after, _arrays(directory))
    assert verdict["verdict"] == "ok", verdict


def test_iree_compiles_and_runs_heirpy_output(exported: tuple[Path, str]) -> None:
    directory, dtype = exported
    if dtype == "f16":  # the f16 model is checked by heirpy's evaluator; one IREE build per network
        return
    tool = find_iree_compile()
    assert tool is not None, "iree-compile is a test dependency (iree-base-compiler)"
    module = parse((directory / "model.mlir").read_text(), "model.mlir")
    run_pipeline(module, measure.iree_pipeline())
    source, vmfb = directory / "heirpy_iree.mlir", directory / "heirpy_iree.vmfb"
    source.write_text(print_module(module))
    subprocess.run([tool, *COMPILE_FLAGS, str(source), "-o", str(vmfb)], check=True, capture_output=True)
    arrays = _arrays(directory)
    np.save(directory / "arg0.npy", arrays["arg0"])
    runner = Path(tool).parent / "iree-run-module"
    subprocess.run([str(runner), "--device=local-task", f"--module={vmfb}", "--function=main",
                    f"--input=@{directory / 'arg0.npy'}", f"--output=@{directory / 'out0.npy'}"],
                   check=True, capture_output=True)
    np.testing.assert_allclose(np.load(directory / "out0.npy"), arrays["result0"], rtol=1e-4, atol=1e-4)


def test_a_non_persistent_buffer_exports_once_it_is_made_persistent() -> None:
    """LeViT keeps its attention-bias indices in a non-persistent buffer, which torch-mlir's
    importer cannot find in the state dict; `models.persist_buffers` registers it as
    persistent, and the model computes the same."""
    import torch
    from torch_mlir import fx

    class Indexed(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("idx", torch.tensor([2, 0, 1]), persistent=False)
            self.scale = torch.nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.index_select(x, 1, self.idx) * self.scale

    x = torch.tensor([[1.0, 2.0, 3.0]])
    model = Indexed().eval()
    with pytest.raises(AssertionError, match="state mapping"):
        fx.export_and_import(model, x, output_type="linalg-on-tensors", func_name="main")
    expected = model(x)
    models.persist_buffers(model)
    assert "idx" in model.state_dict() and torch.equal(model(x), expected)
    assert "linalg" in str(fx.export_and_import(model, x, output_type="linalg-on-tensors", func_name="main"))
