"""iree-prepare's two targets: the passes each runs, as they are spelled and as they run.

`iree-prepare` (target=cpu) ends with `unroll-depthwise-conv`, because IREE's llvm-cpu
back end compiles the named NCHW depthwise conv to scalar loops; the GPU target was not
measured with it and keeps the named conv (transforms/iree/iree_prepare.py). Found by
issue 35's fresh mutation sample: no test ran iree-prepare on a depthwise conv, so the
unroll could move to the GPU target, or the default target change, unnoticed.
"""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.iree.iree_prepare import iree_prepare_passes, iree_prepare_pipeline

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


def test_the_cpu_target_is_the_default_and_unrolls_depthwise_convs_last() -> None:
    names = [p.name for p in iree_prepare_passes()]
    assert names == [p.name for p in iree_prepare_passes("cpu")]
    assert names == [
        "linalg-canonicalizations",
        "demote-f64",
        "linalg-fuse-ops",
        "lower-tensor-ext",
        "unroll-depthwise-conv",
    ]
    assert [p.name for p in iree_prepare_passes("gpu")] == names[:-1]


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
