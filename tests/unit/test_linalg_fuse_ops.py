"""linalg-fuse-ops: its groups are its component passes, option by option; numerics on a
real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from heirpy.api import context_of, parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_file, module_resources
from heirpy.ir.diagnostics import HeirpyError
from heirpy.transforms.linalg_fuse_ops import populate_linalg_fuse_ops_patterns
from heirpy.transforms.linear.linalg_fuse_conv_pool import populate_linalg_fuse_conv_pool_patterns
from heirpy.transforms.linear.linalg_fuse_linear_chains import (
    populate_linalg_fuse_linear_chains_patterns,
)
from heirpy.transforms.linear.linalg_fuse_linear_ops import (
    populate_linalg_fuse_linear_ops_patterns,
)
from heirpy.transforms.pointwise.linalg_fuse_pointwise import (
    populate_linalg_fuse_pointwise_patterns,
)
from heirpy.transforms.rewrite import PatternSet

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
TRANSFORM_TESTS = ROOT / "tests" / "filecheck" / "transforms"

# Each group of the umbrella, the component pass that is the same group alone, and the
# umbrella's spec with every other group switched off.
COMPONENTS = {
    "linalg-fuse-linear-ops": "linalg-fuse-ops{conv-pool=false linear-chains=false pointwise=false bias-into-init=true}",
    "linalg-fuse-conv-pool": "linalg-fuse-ops{linear-ops=false linear-chains=false pointwise=false}",
    "linalg-fuse-linear-chains": "linalg-fuse-ops{linear-ops=false conv-pool=false pointwise=false constant-budget=0}",
    "linalg-fuse-pointwise": "linalg-fuse-ops{linear-ops=false conv-pool=false linear-chains=false}",
}


def _shape(sets: list[PatternSet]) -> list[tuple[list[str], bool, bool]]:
    return [
        ([type(p).__name__ for p in s.patterns], s.walk_reverse, s.apply_recursively)
        for s in sets
    ]


def test_groups_are_the_component_passes_sets_in_order() -> None:
    linear_ops = _shape(populate_linalg_fuse_linear_ops_patterns())
    conv_pool = _shape(populate_linalg_fuse_conv_pool_patterns())
    chains = _shape(populate_linalg_fuse_linear_chains_patterns())
    pointwise = _shape(populate_linalg_fuse_pointwise_patterns())
    every = linear_ops + conv_pool + chains + pointwise
    assert _shape(populate_linalg_fuse_ops_patterns()) == every
    assert _shape(populate_linalg_fuse_ops_patterns(linear_ops=False)) == every[len(linear_ops):]
    assert _shape(populate_linalg_fuse_ops_patterns(conv_pool=False)) == linear_ops + chains + pointwise
    assert _shape(populate_linalg_fuse_ops_patterns(linear_chains=False)) == linear_ops + conv_pool + pointwise
    assert _shape(populate_linalg_fuse_ops_patterns(pointwise=False)) == linear_ops + conv_pool + chains


def _component_inputs(component: str) -> list[tuple[str, str]]:
    """Every chunk of every FileCheck input of `component` (its own files and Inputs/)."""
    folder = TRANSFORM_TESTS / component
    chunks: list[tuple[str, str]] = []
    for path in sorted([*folder.glob("*.mlir"), *folder.glob("Inputs/*.mlir")]):
        for index, chunk in enumerate(path.read_text().split("// -----")):
            if "func.func" in chunk:
                chunks.append((f"{path.relative_to(folder)}#{index}", chunk))
    return chunks


def _printed_after(text: str, spec: str | None) -> str:
    try:
        module = parse(text)
        if spec is not None:
            run_pipeline(module, spec)
    except HeirpyError as err:
        return f"error: {err}"
    return print_module(module)


@pytest.mark.parametrize("component", sorted(COMPONENTS))
def test_umbrella_with_other_groups_off_prints_what_the_component_prints(component: str) -> None:
    chunks = _component_inputs(component)
    assert len(chunks) >= 3, f"no FileCheck inputs found for {component}"
    changed = 0
    for name, text in chunks:
        alone = _printed_after(text, component)
        umbrella = _printed_after(text, COMPONENTS[component])
        assert umbrella == alone, f"{component} vs {COMPONENTS[component]} differ on {name}"
        changed += alone != _printed_after(text, None)
    assert changed, f"{component} changed none of its inputs: the comparison proves nothing"


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
