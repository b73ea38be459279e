"""Every bundled model in examples/ reproduces the outputs PyTorch computed for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.func import FuncOp

from heirpy.interp import load_file, run_function
from heirpy.interp.equivalence import compare_arrays
from heirpy.interp.reference import load_npz

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.mlir"))
# The tolerance the export script uses when it checks MLIR's own JIT against PyTorch.
RTOL, ATOL = 1e-4, 1e-5


def test_examples_are_present() -> None:
    assert EXAMPLES, f"no .mlir files in {EXAMPLES_DIR}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_reproduces_pytorch(path: Path) -> None:
    npz = path.with_suffix(".npz")
    # A model without reference outputs is a broken export, not something to skip.
    assert npz.exists(), f"{path.name} has no {npz.name} holding its inputs and PyTorch's outputs"
    loaded = load_file(path)
    functions = [op.sym_name.data for op in loaded.module.ops if isinstance(op, FuncOp) and op.body.blocks]
    assert len(functions) == 1, f"{path.name}: expected one function, got {functions}"
    arrays = load_npz(npz)
    inputs = [arrays[f"arg{i}"] for i in range(sum(key.startswith("arg") for key in arrays))]
    results = run_function(loaded.module, functions[0], inputs, resources=loaded.resources)
    expected = [arrays[f"result{i}"] for i in range(sum(key.startswith("result") for key in arrays))]
    assert len(results) == len(expected)
    for index, (want, got) in enumerate(zip(expected, results)):
        comparison = compare_arrays(index, want, got, RTOL, ATOL)
        assert comparison.ok, f"{path.name}: {comparison.line()}"
