"""`affine_runs.compose_run`: the scale and shift a run of elementwise affine ops computes
equal the ops applied one after another; `K / x` and a division by zero are refused."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.ir import SSAValue

from heirpy.transforms.linear.affine_runs import compose_run, scales_in
from heirpy.transforms.linear.linear_match import ElementwiseAffine

SHAPE = (2, 3, 2, 2)


def _step(kind: str, constant: np.ndarray, operand_is_lhs: bool = True) -> ElementwiseAffine:
    # compose_run reads only kind, side and constant; the IR fields are not looked at.
    none: SSAValue = None  # type: ignore[assignment]
    return ElementwiseAffine(None, kind, none, operand_is_lhs, constant, none)  # type: ignore[arg-type]


def _per_channel(values: list[float]) -> np.ndarray:
    return np.broadcast_to(np.array(values).reshape(1, 3, 1, 1), SHAPE).copy()


@pytest.mark.parametrize("order", [
    [("sub", True), ("mul", True), ("mul", True), ("add", True)],  # batch-norm
    [("mul", True), ("sub", False), ("div", True), ("add", True), ("mul", True)],  # K - x, x / K
])
def test_compose_run_equals_the_ops_in_turn(order: list[tuple[str, bool]]) -> None:
    rng = np.random.default_rng(0)
    run = [_step(kind, _per_channel(list(rng.uniform(0.5, 2.0, 3))), lhs) for kind, lhs in order]
    x = rng.standard_normal(SHAPE)
    expected = x
    for step in run:
        expected = step.apply(expected, step.constant)
    composed = compose_run(run)
    assert composed is not None
    np.testing.assert_allclose(x * composed.scale + composed.shift, expected, rtol=1e-12)
    assert scales_in(run) == sum(kind in ("mul", "div") for kind, _ in order)


def test_compose_run_refuses_what_is_not_affine() -> None:
    ones = _per_channel([1.0, 2.0, 3.0])
    assert compose_run([_step("mul", ones), _step("div", ones, operand_is_lhs=False)]) is None  # K / x
    assert compose_run([_step("div", _per_channel([1.0, 0.0, 3.0]))]) is None  # x / 0
