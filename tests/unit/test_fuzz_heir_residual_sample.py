"""A CI sample of benchmarks/fuzz_heir_residual.py: residual nets, exported by torch-mlir,
through heir-prepare and heir-opt with every flag heirpy names (a few seconds a net).

The four nets (benchmarks/residual_nets.py's CI_SPECS, exported by
`fuzz_heir_residual.py --ci-sample --save tests/unit/residual_nets`, so CI needs neither
torch nor torch-mlir) have one block each on an 8x8 map: an identity shortcut with x² and
BN as four constants; an option-A shortcut (stride-2 slice, channel pad) with
0.125x² + 0.5x + 0.25 and BN folded; an option-B shortcut with 0.25x³ + 0.5x and BN after
each activation; an option-B shortcut with x² and no BN. heirpy never fails or changes
PyTorch's values, its depth is the bound, and heir-opt compiles each at its bound with
no bootstrap. Two of them are the forms that missed before (2026-12-06):

* option A at a matvec size: the shortcut's strided slice and channel pad of the flat
  block input is one selection matvec (`LayoutToMatvec`); it read the input expanded
  back to 1x2x8x8, an expand_shape HEIR rejects ("Only rank-reduced types are supported");
* a BN after the activation: each linear reader of the BN gets its own copy, which
  fusion folds into it (`AffineRunPerLinearReader`); read by conv1 and the shortcut,
  it stayed, and cost a level over the bound.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from fuzz_heir_residual import compile_text  # noqa: E402

SAMPLE_DIR = Path(__file__).resolve().parent / "residual_nets"
SAMPLE = sorted(SAMPLE_DIR.glob("*.json"))
HEIR_OPT = shutil.which("heir-opt")
requires_heir = pytest.mark.skipif(
    HEIR_OPT is None and not os.environ.get("CI"), reason="heir-opt (heir-py) is not on PATH"
)


def load(path: Path) -> tuple[str, int, str, list[np.ndarray], list[np.ndarray]]:
    meta = json.loads(path.read_text())
    arrays = np.load(path.with_suffix(".npz"))
    return meta["label"], meta["bound"], path.with_suffix(".mlir").read_text(), [arrays["arg0"]], [arrays["result0"]]


def test_the_sample_covers_every_shortcut_degree_bn_place_and_form() -> None:
    labels = " ".join(json.loads(p.read_text())["label"] for p in SAMPLE)
    for part in ("i]", "A]", "B]", "x²", "p2", "p3", "bn:conv bn", "bn:conv folded", "bn:act", "bn:none"):
        assert part in labels, part


@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.stem)
def test_heirpy_keeps_the_values_and_its_depth_meets_the_bound(path: Path) -> None:
    label, bound, text, inputs, outputs = load(path)
    outcome = compile_text(label, bound, text, inputs, outputs, None, 0)
    assert outcome.status == "prepared", outcome.detail
    assert outcome.depth == bound


@requires_heir
@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.stem)
def test_residual_net_compiles_at_its_bound_with_no_bootstrap(path: Path) -> None:
    label, bound, text, inputs, outputs = load(path)
    outcome = compile_text(label, bound, text, inputs, outputs, HEIR_OPT, 300)
    assert (outcome.status, outcome.levels, outcome.bootstraps) == ("at bound", bound, 0), outcome.detail
