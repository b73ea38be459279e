"""linalg-fuse-ops: the group table, its options, and numerics on a real model."""

from __future__ import annotations

from pathlib import Path

from heirpy.api import context_of, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_file, module_resources
from heirpy.transforms.linalg_fuse_ops import PATTERN_GROUPS, LinalgFuseOpsPass

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_conv_pool_group_comes_first_and_options_switch_groups() -> None:
    assert PATTERN_GROUPS[0].option == "conv_pool"
    assert [g.option for g in PATTERN_GROUPS] == sorted(
        [g.option for g in PATTERN_GROUPS], key=["conv_pool", "linear_chains", "pointwise"].index
    )
    enabled = LinalgFuseOpsPass(conv_pool=False).enabled_groups()
    assert all(g.option != "conv_pool" for g in enabled)
    assert {g.option for g in LinalgFuseOpsPass().enabled_groups()} == {
        "conv_pool", "linear_chains", "pointwise"
    }


def test_tiny_cnn_numerics_through_fuse_ops_and_lowering() -> None:
    loaded = load_file(EXAMPLES / "tiny_cnn.mlir")
    after = load_file(EXAMPLES / "tiny_cnn.mlir").module
    run_pipeline(after, "linalg-fuse-ops,lower-tensor-ext")
    names = [op.name for op in after.walk()]
    assert not any(name.startswith("tensor_ext.") for name in names)
    report = check_equivalence(
        loaded.module, after, function="main", seeds=(0, 1, 2),
        resources_a=loaded.resources, resources_b=module_resources(after, context_of(after)),
    )
    assert report.ok, report.summary()
