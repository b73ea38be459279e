"""iree-prepare's two targets: the passes each runs, as they are spelled and as they run.

`iree-prepare` (target=cpu) runs `unroll-depthwise-conv` before `detach-conv-init`, because IREE's llvm-cpu
back end compiles the named NCHW depthwise conv to scalar loops; the GPU target was not
measured with it and keeps the named conv (transforms/iree/iree_prepare.py). Found by
issue 35's fresh mutation sample: no test ran iree-prepare on a depthwise conv, so the
unroll could move to the GPU target, or the default target change, unnoticed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.iree.iree_prepare import iree_prepare_passes, iree_prepare_pipeline

ROOT = Path(__file__).resolve().parents[2]

DEPTHWISE = """
func.func @main(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<WEIGHTS> : tensor<4x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%z : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
""".replace("WEIGHTS", str(np.round(np.random.default_rng(35).uniform(-1, 1, (4, 3, 3)), 3).tolist()))


def test_the_cpu_target_is_the_default_and_unrolls_depthwise_convs() -> None:
    names = [p.name for p in iree_prepare_passes()]
    assert names == [p.name for p in iree_prepare_passes("cpu")]
    assert names == [
        "linalg-canonicalizations",
        "demote-f64",
        "linalg-fuse-ops",
        "lower-tensor-ext",
        "detach-constant-transpose",
        "detach-contraction-transpose",
        "drop-softmax-unit-dims",
        "narrow-contraction-inputs",
        "sink-widening-casts",
        "narrow-rounded-reads",
        "round-in-reductions",
        "unroll-depthwise-conv",
        "detach-conv-init",
    ]
    assert [p.name for p in iree_prepare_passes("gpu")] == [n for n in names if n != "unroll-depthwise-conv"]


@pytest.mark.parametrize("target", ["cpu", "gpu"])
def test_the_named_pass_runs_what_its_pipeline_spells(target: str) -> None:
    named = print_module(run_pipeline(parse(DEPTHWISE), f"iree-prepare{{target={target}}}"))
    spelled = print_module(run_pipeline(parse(DEPTHWISE), iree_prepare_pipeline(target)))
    assert named == spelled


def test_only_the_cpu_target_unrolls_a_depthwise_conv() -> None:
    cpu = print_module(run_pipeline(parse(DEPTHWISE), "iree-prepare"))
    gpu = print_module(run_pipeline(parse(DEPTHWISE), "iree-prepare{target=gpu}"))
    assert "linalg.depthwise_conv_2d_nchw_chw" not in cpu and "tensor.extract_slice" in cpu
    assert "linalg.depthwise_conv_2d_nchw_chw" in gpu
    for prepared in (cpu, gpu):
        report = check_equivalence(parse(DEPTHWISE), parse(prepared), function="main", seeds=(0, 1))
        assert report.ok, report.summary()


# Each component option of iree-prepare, with an input whose output it changes: the named
# pass must run the pipeline its docstring spells (written out here, not read from
# iree_prepare_pipeline, so that a changed option in both places is still noticed).
CPU = (
    "linalg-canonicalizations{max-mac-growth=1},demote-f64,"
    "linalg-fuse-ops{max-mac-growth=1 iree-reductions=true},lower-tensor-ext,detach-constant-transpose,"
    "detach-contraction-transpose,drop-softmax-unit-dims,narrow-contraction-inputs,sink-widening-casts,"
    "narrow-rounded-reads,round-in-reductions,unroll-depthwise-conv,"
    "detach-conv-init"
)
OPTION_INPUTS = [  # (input, the pipeline with one option changed, which gives another output)
    ("tests/filecheck/transforms/linalg-canonicalizations/pool_mac_bound.mlir",
     CPU.replace("linalg-canonicalizations{max-mac-growth=1}", "linalg-canonicalizations")),
    ("tests/filecheck/transforms/demote-f64/cases.mlir", CPU.replace("demote-f64,", "")),
    ("tests/filecheck/transforms/detach-conv-init/cases.mlir", CPU.replace(",detach-conv-init", "")),
    ("tests/filecheck/transforms/linalg-fuse-pointwise/iree_reductions.mlir",
     CPU.replace(" iree-reductions=true", "")),
    # 4 -> 1 -> 4 channels: one 4x4 1x1 conv has twice the MACs of the two (fused within 2x,
    # and with no bound)
    ("BOTTLENECK", CPU.replace("linalg-fuse-ops{max-mac-growth=1 ", "linalg-fuse-ops{max-mac-growth=2 ")),
]
BOTTLENECK = """
func.func @main(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w1 = arith.constant dense<[[[[0.5]], [[-0.25]], [[0.75]], [[1.0]]]]> : tensor<1x4x1x1xf32>
  %w2 = arith.constant dense<[[[[0.5]]], [[[-1.0]]], [[[0.25]]], [[[2.0]]]]> : tensor<4x1x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x1x6x6xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) outs(%z1 : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %e2 = tensor.empty() : tensor<1x4x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %w2 : tensor<1x1x6x6xf32>, tensor<4x1x1x1xf32>) outs(%z2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %b : tensor<1x4x6x6xf32>
}
"""


@pytest.mark.parametrize(("path", "changed"), OPTION_INPUTS, ids=["canon-macs", "demote", "detach", "reductions", "fuse-macs"])
def test_each_component_option_of_iree_prepare(path: str, changed: str) -> None:
    text = BOTTLENECK if path == "BOTTLENECK" else (ROOT / path).read_text()
    named = print_module(run_pipeline(parse(text), "iree-prepare"))
    assert named == print_module(run_pipeline(parse(text), CPU))
    assert named != print_module(run_pipeline(parse(text), changed))  # the input tells the option


def test_the_gpu_target_lowers_for_the_gpu() -> None:
    text = (ROOT / "examples/yolo_head_k1.mlir").read_text()
    gpu = print_module(run_pipeline(parse(text), "iree-prepare{target=gpu}"))
    forms = ("detach-constant-transpose,detach-contraction-transpose,drop-softmax-unit-dims,"
             "narrow-contraction-inputs,sink-widening-casts,narrow-rounded-reads,round-in-reductions")
    spelled = CPU.replace(f"lower-tensor-ext,{forms},unroll-depthwise-conv", f"lower-tensor-ext{{target=gpu}},{forms}")
    assert spelled.endswith(f"lower-tensor-ext{{target=gpu}},{forms},detach-conv-init")
    assert gpu == print_module(run_pipeline(parse(text), spelled))
    assert gpu != print_module(run_pipeline(parse(text), "iree-prepare"))
