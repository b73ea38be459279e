"""heirpy keeps no process-wide state: importing and running it leaves xDSL's classes as
they were, its own linalg ops carry the tensor-semantics effect, caches live for one
pass run, and constants never come from xDSL's shared blob store."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import Builtin

import heirpy
from heirpy.ir import constants
from heirpy.ir.context import blob_store
from heirpy.ir.dialects import linalg
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.linalg_fuse_linear_chains import (
    FuseLinearChain,
    populate_linalg_fuse_linear_chains_patterns,
)

DEAD_ADD = """
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %dead = linalg.add ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}
"""

# Run in a fresh interpreter: this test process has imported heirpy long ago.
_SNAPSHOT_SCRIPT = """
import json, sys
from xdsl.dialects.linalg import ops as xops
from xdsl.ir import Operation

def traits():
    return {
        name: sorted(type(t).__name__ for t in cls.traits)
        for name, cls in sorted(vars(xops).items())
        if isinstance(cls, type) and issubclass(cls, Operation) and hasattr(cls, "traits")
    }

before = traits()
import heirpy
from heirpy.transforms import HEIRPY_PASSES
for factory in HEIRPY_PASSES.values():
    factory()
module = heirpy.parse(sys.stdin.read())
heirpy.run_pipeline(module, "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext,dce")
print(json.dumps({"before": before, "after": traits()}))
"""


def test_importing_and_running_heirpy_leaves_xdsl_linalg_classes_untouched() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SNAPSHOT_SCRIPT],
        input=DEAD_ADD, capture_output=True, text=True, check=True,
    )
    snapshot = json.loads(done.stdout)
    assert {"AddOp", "GenericOp", "MatmulOp"} <= set(snapshot["before"])
    assert snapshot["after"] == snapshot["before"]


def test_heirpy_linalg_ops_are_pure_on_tensors_and_subclass_xdsls() -> None:
    from xdsl.dialects.linalg import ops as xops

    assert issubclass(linalg.AddOp, xops.AddOp)
    assert linalg.AddOp.has_trait(linalg.TensorSemanticsMemoryEffect)
    assert not xops.AddOp.has_trait(linalg.TensorSemanticsMemoryEffect)
    module = heirpy.parse(DEAD_ADD)
    assert any(isinstance(op, linalg.AddOp) for op in module.walk())
    heirpy.run_pipeline(module, "dce")
    assert "linalg.add" not in heirpy.print_module(module)


def test_constant_folder_cache_belongs_to_one_folder_made_per_pass_run() -> None:
    module = heirpy.parse(DEAD_ADD)
    dead = next(op for op in module.walk() if isinstance(op, linalg.AddOp))
    first, second = ConstantFolder(), ConstantFolder()
    assert first.fold(dead.results[0]) is None  # reads function arguments: not constant
    assert dead in first.known_not_constant
    assert second.known_not_constant == set()
    # Each pass run builds its patterns, hence its folder, afresh.
    def chain_pattern() -> FuseLinearChain:
        found = [p for s in populate_linalg_fuse_linear_chains_patterns() for p in s.patterns
                 if isinstance(p, FuseLinearChain)]
        assert len(found) == 1
        return found[0]

    run_a, run_b = chain_pattern(), chain_pattern()
    assert isinstance(run_a, FuseLinearChain) and isinstance(run_b, FuseLinearChain)
    assert run_a.reader is not run_b.reader


RESOURCE = """
func.func @f() -> tensor<2xf32> {
  %c = arith.constant dense_resource<only_in_xdsl_store> : tensor<2xf32>
  return %c : tensor<2xf32>
}
"""


def test_constant_reader_never_reads_xdsls_shared_blob_store() -> None:
    module = heirpy.parse(RESOURCE)
    constant = next(op for op in module.walk() if op.name == "arith.constant")
    shared = Builtin.get_interface(OpAsmDialectInterface)
    assert shared is not None and shared is not blob_store(heirpy.api.context_of(module))
    blob = "0x04000000" + np.array([1.5, 2.5], dtype="<f4").tobytes().hex()
    shared.declare_resource("only_in_xdsl_store")
    shared.parse_resource("only_in_xdsl_store", blob)
    try:
        ctx_blobs = constants.ContextBlobs(heirpy.api.context_of(module))
        assert constants.constant_array(constant.results[0], ctx_blobs) is None
        assert constants.constant_array(constant.results[0], constants.NO_BLOBS) is None
        # The same blob in the module's own context is read.
        own = blob_store(heirpy.api.context_of(module))
        own.parse_resource("only_in_xdsl_store", blob)
        read = constants.constant_array(constant.results[0], constants.ContextBlobs(heirpy.api.context_of(module)))
        assert read is not None and read.tolist() == [1.5, 2.5]
    finally:
        shared._blob_storage.pop("only_in_xdsl_store", None)


def test_a_cloned_module_reads_the_blobs_of_its_original() -> None:
    text = (Path(__file__).resolve().parents[2] / "examples" / "tiny_cnn.mlir").read_text()
    module = heirpy.parse(text)
    copy = heirpy.api.clone_module(module)
    assert copy is not module and heirpy.api.context_of(copy) is heirpy.api.context_of(module)
    heirpy.run_pipeline(copy, "linalg-canonicalizations,linalg-fuse-ops")
    again = heirpy.parse(text)
    heirpy.run_pipeline(again, "linalg-canonicalizations,linalg-fuse-ops")
    assert heirpy.print_module(copy) == heirpy.print_module(again)  # blobs folded alike
    # A plain clone gets a context of its own, without the blobs: what clone_module avoids.
    assert heirpy.api.context_of(module.clone()) is not heirpy.api.context_of(module)
