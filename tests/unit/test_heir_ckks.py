"""heir-opt's CKKS pipeline on heirpy's output: bundled nets and small downsampling,
feature-map and pooling nets compile after `legalize-for-heir` / `heir-prepare` at
exactly heirpy's depth bound (a few seconds in all), where the forms before are rejected.

levels = len(Q) - 1 of the module's `ckks.schemeParam`, the modulus chain HEIR's
parameter generation sizes to the levels its management passes used.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from heirpy.analysis.depth import analyze_function
from heirpy.api import parse, print_module, run_pipeline
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.ir.utils import all_parallel

ROOT = Path(__file__).resolve().parents[2]
HEIR_OPT = shutil.which("heir-opt")
PIPELINE = "heir-prepare"
ISSUE_NETS = ROOT / "tests" / "filecheck" / "transforms" / "heir-prepare" / "Inputs"
CKKS = ["--secretize=function=main", "--annotate-module=backend=openfhe scheme=ckks", "--torch-linalg-to-ckks"]


def heir_ckks(text: str, function: str = "main") -> subprocess.CompletedProcess[str]:
    """heir-opt's CKKS pipeline on `text`, with `function`'s arguments secret."""
    args = [f"--secretize=function={function}", *CKKS[1:]]
    return subprocess.run([HEIR_OPT or "heir-opt", *args], input=text, capture_output=True, text=True, timeout=120)


def heir_levels(text: str, function: str = "main") -> int:
    """Levels heir-opt's CKKS pipeline allocates for `text` (fails the test if rejected)."""
    assert HEIR_OPT is not None
    result = heir_ckks(text, function)
    assert result.returncode == 0, result.stderr[-2000:]
    moduli = re.search(r"ckks\.scheme_param<[^>]*\bQ = \[([^\]]*)\]", result.stdout)
    assert moduli is not None, "no ckks.schemeParam in heir-opt's output"
    return len(moduli.group(1).split(",")) - 1


# heir-opt is a test dependency (heir-py): a missing one must fail loudly in CI, as the
# lit configuration does; on a developer machine without it the test says why it skips.
requires_heir = pytest.mark.skipif(
    HEIR_OPT is None and not os.environ.get("CI"), reason="heir-opt (heir-py) is not on PATH"
)


@requires_heir
@pytest.mark.parametrize("model,bound", [("tiny_cnn", 3), ("alexnet_tiny", 7)])
def test_heir_compiles_heirpy_output_at_the_depth_bound(model: str, bound: int) -> None:
    module = parse((ROOT / "examples" / f"{model}.mlir").read_text(), f"{model}.mlir")
    run_pipeline(module, PIPELINE)
    func = next(op for op in module.walk() if op.name == "func.func")
    assert analyze_function(func).depth == bound  # type: ignore[arg-type]
    assert heir_levels(print_module(module)) == bound


@requires_heir
def test_a_feature_map_result_compiles_at_the_depth_bound() -> None:
    """Issue 24's conv, x², avg pool, conv net returning its 1x6x4x4 feature map: the
    last stage comes out of a conv laid out as the result (ResultThroughConv), 3 levels,
    the bound (in pieces it took 4)."""
    module = parse((ISSUE_NETS / "feature_map.mlir").read_text(), "feature_map.mlir")
    run_pipeline(module, PIPELINE)
    func = next(op for op in module.walk() if op.name == "func.func")
    assert analyze_function(func).depth == 3  # type: ignore[arg-type]
    assert heir_levels(print_module(module)) == 3


def test_a_whole_function_chain_fuses_to_one_block_diagonal_matvec() -> None:
    """Issue 24's batch-2 conv, pool, flatten, Linear, Linear: the chain is the whole
    function, so it fuses by default (its 6400-element input is encrypted anyway) into
    one matvec, returned flat by heir-prepare's default (1 level under heir-opt at 8192
    slots, docs/heir.md)."""
    module = parse((ISSUE_NETS / "batch2_linear.mlir").read_text(), "batch2_linear.mlir")
    run_pipeline(module, PIPELINE)
    func = next(op for op in module.walk() if op.name == "func.func")
    assert analyze_function(func).depth == 1  # type: ignore[arg-type]
    matvecs = [op for op in module.walk() if op.name == "linalg.matvec"]
    assert len(matvecs) == 1 and str(matvecs[0].operands[0].type) == "tensor<20x6400xf32>"
    assert str(func.function_type.outputs.data[0]) == "tensor<20xf32>"  # type: ignore[attr-defined]


@requires_heir
def test_heir_rejects_the_raw_torch_mlir_form() -> None:
    """The comparison the test above stands on: HEIR rejects the unlegalized net."""
    text = (ROOT / "examples" / "tiny_cnn.mlir").read_text()
    result = heir_ckks(text)
    assert result.returncode != 0
    assert "gap^2" in result.stderr


@requires_heir
def test_heir_compiles_the_gap_form_it_crashes_on_after_legalization() -> None:
    """heir-opt dies on a global average pool with the square fused into its sum
    (benchmarks/heir_bugs/mobilenet_gap_segfault.mlir); legalize-for-heir splits the
    square out and makes the sum a matvec, which HEIR compiles within heirpy's bound."""
    path = ROOT / "benchmarks" / "heir_bugs" / "mobilenet_gap_segfault.mlir"
    raw = subprocess.run([HEIR_OPT or "heir-opt", *CKKS, str(path)], capture_output=True, text=True, timeout=120)
    assert raw.returncode != 0
    module = parse(path.read_text(), path.name)
    run_pipeline(module, "legalize-for-heir")
    assert not any(isinstance(op, GenericOp) and not all_parallel(op.iterator_types) for op in module.walk())
    func = next(op for op in module.walk() if op.name == "func.func")
    assert heir_levels(print_module(module)) <= analyze_function(func).depth  # type: ignore[arg-type]


@requires_heir
def test_heir_compiles_a_downsampling_net_on_its_grid_and_rejects_the_strided_form() -> None:
    """A strided conv, a residual 1x1 strided shortcut and a second strided conv (the
    first chunk of strided-grid.mlir, ResNet-20's downsampling in small): heir-opt
    rejects the strided form (its conv kernel's gap² rule) and compiles the form
    `strided-on-grid` gives at exactly heirpy's depth bound."""
    path = ROOT / "tests" / "filecheck" / "transforms" / "legalize-for-heir" / "strided-grid.mlir"
    chunk = path.read_text().split("// -----")[0]

    def legalized(options: str) -> tuple[str, int]:
        module = parse(chunk, path.name)
        run_pipeline(module, f"legalize-for-heir{{slot-count=16 {options}}}")
        func = next(op for op in module.walk() if op.name == "func.func")
        return print_module(module), analyze_function(func).depth  # type: ignore[arg-type]

    strided, _ = legalized("strided-on-grid=false")
    rejected = heir_ckks(strided, "downsample")
    assert rejected.returncode != 0 and "gap^2" in rejected.stderr
    grid, bound = legalized("strided-on-grid=true")
    assert heir_levels(grid, "downsample") == bound


@requires_heir
def test_heir_compiles_a_same_padded_even_filter_at_the_bound_once_its_pad_is_even() -> None:
    """A 4x4 conv padded 1 before and 2 after (torch's "same" pad; VGG's pool-fused convs
    on the grid have such pads), x², matvec: heir-opt lays the uneven pad out and
    compiles the net as it is 10 levels over its bound; after legalize-for-heir (an even
    pad, a zero tap in a 5x5 filter; slot-count=16 keeps the conv a conv) at the bound."""
    path = ROOT / "tests" / "filecheck" / "transforms" / "legalize-for-heir" / "foldable-pads.mlir"
    chunk = next(c for c in path.read_text().split("// -----") if "func.func @same_pad" in c)
    module = parse(chunk, path.name)
    run_pipeline(module, "legalize-for-heir{slot-count=16}")
    func = next(op for op in module.walk() if op.name == "func.func")
    bound = analyze_function(func).depth  # type: ignore[arg-type]
    assert bound == 3
    assert heir_levels(print_module(module), "same_pad") == bound
    assert heir_levels(chunk, "same_pad") > bound  # 13 with heir-opt 2026.11.1


GRID_BLOCKS = ROOT / "tests" / "filecheck" / "transforms" / "legalize-for-heir" / "Inputs"


@requires_heir
@pytest.mark.parametrize("net,bound", [("block_b_bn_after", 11), ("block_a_quadratic", 11), ("block_a_cubic", 16)])
def test_heir_compiles_a_residual_net_on_its_grid_at_the_bound(net: str, bound: int, tmp_path: Path) -> None:
    """Small residual nets exported by torch-mlir as users write them
    (benchmarks/export_heir_nets.py --grid-blocks: stem, a block, a stride-2 block, GAP,
    Linear on 1x4x8x8): a 1x1 stride-2 shortcut with each BN after its x² (torch-mlir's
    four per-channel BN constants after the strided conv; 12 levels before each conv took
    its own copy of the BN read by conv1 and the shortcut, AffineRunPerLinearReader), and option-A shortcuts
    (x[:, :, ::2, ::2], channels zero-padded) with 0.125x² + 0.5x + 0.25 (13 levels before
    CompleteTheSquare and ScaleEachAddend: a scalar multiply after each residual add)
    and with a cubic. slot-count=16 keeps
    every conv a conv, as at ResNet-20's size: both strided convs stay on the grid, the
    values equal PyTorch's, and heir-opt compiles them at heirpy's depth bound."""
    module = parse((GRID_BLOCKS / f"{net}.mlir").read_text(), f"{net}.mlir")
    run_pipeline(module, "heir-prepare{slot-count=16}")
    text = print_module(module)
    assert "strides = dense<2>" not in text
    func = next(op for op in module.walk() if op.name == "func.func")
    assert analyze_function(func).depth == bound  # type: ignore[arg-type]
    prepared = tmp_path / f"{net}.mlir"
    prepared.write_text(text)
    check = subprocess.run(
        ["heirpy-run", str(prepared), "--inputs", str(GRID_BLOCKS / f"{net}.npz"), "--check", "--rtol", "1e-4",
         "--atol", "1e-5"], capture_output=True, text=True, timeout=120,
    )
    assert check.returncode == 0 and " ok" in check.stdout, check.stdout + check.stderr
    assert heir_levels(text) == bound


@requires_heir
def test_heir_compiles_a_dilated_pad_with_an_unread_high_row_at_the_bound() -> None:
    """A 3x3 conv at dilation 2 padded 2 before and 1 after, x², matvec: the after side
    grows by 1, no multiple of the dilation, so `heir_foldable_pads` pads 2 on every side
    and leaves the last row unread (no tap reaches it). heir-opt verifies the longer conv
    input and folds the even pad: the bound, 3 levels, where the uneven pad costs 13."""
    path = ROOT / "tests" / "filecheck" / "transforms" / "legalize-for-heir" / "foldable-pads.mlir"
    chunk = next(c for c in path.read_text().split("// -----") if "func.func @dilated_high_remainder" in c)
    module = parse(chunk, path.name)
    run_pipeline(module, "legalize-for-heir{slot-count=16}")
    pads = [op for op in module.walk() if op.name == "tensor.pad"]
    assert [list(p.static_high.get_values()) for p in pads] == [[0, 0, 2, 2]]  # type: ignore[attr-defined]
    func = next(op for op in module.walk() if op.name == "func.func")
    bound = analyze_function(func).depth  # type: ignore[arg-type]
    assert bound == 3
    assert heir_levels(print_module(module), "dilated_high_remainder") == bound
    assert heir_levels(chunk, "dilated_high_remainder") > bound  # 13 with heir-opt 2026.11.1
