"""Properties over generated programs (tests/strategies.py), for the default pipeline and
for each heirpy pass alone: the output verifies, re-parses from its custom and generic
print, computes the same as the input under the evaluator, does not change when the pass
runs again, and needs no more multiplicative depth (tests/generated_properties.py).

CI runs a fixed, derandomized sample; benchmarks/fuzz_generated.py runs thousands.

Known and allowed: the default pipeline is not idempotent in one step. Its last pass,
lower-tensor-ext, emits forms (`linalg.fill` inits, pointwise `linalg.generic` epilogues)
that linalg-canonicalizations folds on a second run (splat constants, tensor arith), and
fusion outputs generics that canonicalization turns back into tensor ops when nothing is
left to fuse. So for the pipeline the test requires that a third run changes nothing. The same holds
for `iree-prepare`, that pipeline under a cost rule, which ends with lower-tensor-ext and
unroll-depthwise-conv (whose generics a second run's canonicalization folds).
`heir-prepare` is held to idempotence, heir-prepare(heir-prepare(x)) == heir-prepare(x):
it runs its passes in rounds until one changes nothing (issue 35: one round left forms
that the next round's fusion and canonicalization changed on about a third of the
generated programs).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

import heirpy  # noqa: E402
from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)
from generated_properties import (  # noqa: E402
    FULL_PIPELINE,
    REPORT_PASSES,
    canonical_names,
    check_program,
    single_pass_specs,
)
from heirpy.interp.equivalence import check_equivalence  # noqa: E402
from heirpy.interp.resources import load_module  # noqa: E402
from strategies import Program, programs  # noqa: E402

EXAMPLES_PER_PASS = 20
EXAMPLES_PIPELINE = 40
PIPELINE_ALLOWED = {"non_idempotent"}  # see the module docstring
LOWERING_PIPELINES = {"iree-prepare"}  # one-step pipelines (ditto; heir-prepare is idempotent)
# test_generator_covers_every_layer_kind's fixed sample (not the profile's budgets).
_settings = dict(deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])



@settings(max_examples=budget(EXAMPLES_PIPELINE))
@given(program=programs())
def test_full_pipeline_properties(program: Program) -> None:
    outcome = check_program(program.text, FULL_PIPELINE)
    unexpected = set(outcome.problems) - PIPELINE_ALLOWED
    assert not unexpected, outcome.summary()


@pytest.mark.parametrize("spec", single_pass_specs())
@settings(max_examples=budget(EXAMPLES_PER_PASS))
@given(program=programs())
def test_single_pass_properties(spec: str, program: Program) -> None:
    outcome = check_program(program.text, spec)
    allowed = PIPELINE_ALLOWED if spec in LOWERING_PIPELINES else set()
    unexpected = set(outcome.problems) - allowed
    assert not unexpected, outcome.summary()


def test_every_registered_pass_is_covered() -> None:
    from heirpy.transforms import HEIRPY_PASSES

    assert set(single_pass_specs()) == set(HEIRPY_PASSES)
    assert REPORT_PASSES <= set(HEIRPY_PASSES)


# ------------------------------------------------------------------ the generator itself
@settings(max_examples=budget(40))
@given(program=programs())
def test_generated_programs_verify_and_evaluate(program: Program) -> None:
    loaded = load_module(program.text)
    func = next(op for op in loaded.module.walk() if op.name == "func.func")
    assert [t.get_shape() for t in func.function_type.inputs.data] == list(program.arg_shapes)
    report = check_equivalence(
        loaded.module, loaded.module, "main", seeds=(0,),
        resources_a=loaded.resources, resources_b=loaded.resources,
    )
    assert report.ok, report.summary()
    # The generic print of a generated program parses back (the input side of the
    # re-parse property is sound).
    heirpy.parse(heirpy.print_module(loaded.module, generic=True))


def test_generator_covers_every_layer_kind() -> None:
    kinds: Counter[str] = Counter()
    weights: Counter[str] = Counter()

    # Always derandomized: it asserts what a fixed sample of 150 programs covers. The sample
    # depends on this function's source text (hypothesis seeds a derandomized test with a
    # digest of it), so this decorator is kept byte for byte: some kinds are rare.
    @settings(max_examples=150, **_settings)
    @given(program=programs())
    def collect(program: Program) -> None:
        for layer in program.layers:
            kinds[layer.split("/")[0].rstrip("0123456789x,->()[] ").split("[")[0]] += 1
            weights.update(part for part in layer.split("/") if part in ("dense", "resource", "arg"))
        if "dense_resource<" in program.text:
            weights["blob section"] += "dialect_resources" in program.text

    collect()
    for kind in ("conv", "sumpool", "avgpool", "maxpool", "pad", "square", "relu", "sigmoid",
                 "transpose", "broadcast_add", "map_add", "permuted_", "expand", "collapse", "flatten", "linear", "bias",
                 # the constructs of the standard nets (issue 11)
                 "depthwise", "batchnorm", "global_avg_pool", "softmax", "max_dim", "two_results"):
        assert any(k.startswith(kind) for k in kinds), (kind, kinds)
    assert weights["dense"] and weights["resource"] and weights["arg"], weights


def test_canonical_names_ignores_renaming_only() -> None:
    a = "%x = arith.addf %a, %b : f32\n%y = arith.mulf %x, %x : f32"
    b = "%0 = arith.addf %a, %b : f32\n%v1 = arith.mulf %0, %0 : f32"
    assert canonical_names(a) == canonical_names(b)
    assert canonical_names(a) != canonical_names(a.replace("%x, %x", "%x, %a"))


# ------------------------------------------------------------------ regressions
def test_equivalence_treats_nan_on_both_sides_as_equal() -> None:
    """Found by test_generated_programs_verify_and_evaluate: a module compared with
    itself was NOT equivalent when a result held NaN, since the tolerance read |NaN|;
    and an inf reference accepted anything (-inf, a finite value), the tolerance being inf.
    The property tests compare with nonfinite_equal (a rewrite keeps a NaN or Inf); the
    user-facing checks call the same NaN 'not comparable' (issue 25), never ok."""
    import numpy as np

    from heirpy.interp.equivalence import compare_arrays

    def same(a: np.ndarray, b: np.ndarray) -> bool:
        return compare_arrays(0, a, b, 1e-4, 1e-5, nonfinite_equal=True).ok

    a = np.array([1.0, np.nan, np.inf, -np.inf], dtype=np.float32)
    assert same(a, a.copy())
    assert compare_arrays(0, a, a.copy(), 1e-4, 1e-5).verdict == "not comparable: reference has NaN and Inf"
    assert not same(a, np.array([1.0, 0.0, np.inf, -np.inf], dtype=np.float32))
    assert not same(a, np.array([1.0, np.nan, -np.inf, -np.inf], dtype=np.float32))
    assert not same(a, np.array([1.0, np.nan, 3.0, -np.inf], dtype=np.float32))
    big = np.array([1e30], dtype=np.float32)
    assert compare_arrays(0, big, big * np.float32(1 + 1e-6), 1e-4, 1e-5).ok


def test_relative_error_against_an_infinite_reference_is_0_or_inf_without_warnings() -> None:
    """inf against inf is no error; a finite value against inf is an infinite one (it
    was inf / inf: NaN, and a numpy RuntimeWarning on every such comparison)."""
    import warnings

    import numpy as np

    from heirpy.interp.equivalence import compare_arrays

    ref = np.array([2.0, np.inf], dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same = compare_arrays(0, ref, ref.copy(), 1e-4, 1e-5, nonfinite_equal=True)
        off = compare_arrays(0, ref, np.array([2.0, 3.0], dtype=np.float32), 1e-4, 1e-5, nonfinite_equal=True)
        strict = compare_arrays(0, ref, ref.copy(), 1e-4, 1e-5)
    assert same.ok and same.max_rel_error == 0.0
    assert not off.ok and off.max_rel_error == float("inf")
    assert strict.verdict == "not comparable: reference has Inf" and strict.max_rel_error == 0.0


_RELU_THEN_GAP = """
func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %w = arith.constant dense<[[[[0.5]], [[-1.0]]], [[[0.25]], [[0.75]]], [[[-0.5]], [[1.5]]]]> : tensor<3x2x1x1xf32>
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x3x4x4xf32>) outs(%e : tensor<1x3x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %p = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %p, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x3x4x4xf32>
  %e1 = tensor.empty() : tensor<1x3x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%r : tensor<1x3x4x4xf32>) outs(%z1 : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x3x1x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x3x1x1xf32>) outs(%e1 : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x3x1x1xf32>
  return %m : tensor<1x3x1x1xf32>
}
"""


def test_the_pipeline_never_beats_the_depth_bound_on_relu_then_global_pool() -> None:
    """SqueezeNet's tail in small (conv, relu, global average pool): fusion puts the relu
    into the pool's sum; that sum still costs its level (2+ after, as the bound says), where
    the depth analysis once counted a non-polynomial body's sum as free (squeezenet1_1:
    19+ -> 18+ with bound 19+)."""
    outcome = check_program(_RELU_THEN_GAP, FULL_PIPELINE)
    assert "below_bound" not in outcome.problems and "depth_increase" not in outcome.problems, outcome.summary()
    after = heirpy.parse(_RELU_THEN_GAP)
    heirpy.run_pipeline(after, FULL_PIPELINE)
    reductions = [op for op in after.walk() if op.name == "linalg.generic" and "reduction" in str(op.iterator_types)]
    assert [{o.name for o in op.body.block.ops} >= {"arith.select", "arith.addf"} for op in reductions] == [True]
