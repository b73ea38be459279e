"""The linear-chain fusion's cost rule, on its own (pure numbers, no IR)."""

from __future__ import annotations

import pytest

from heirpy.ir.diagnostics import HeirpyError
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost, cost_rule

# LeNet-5's second chain: the 2x2 pool (as a [16, 16, 2, 2] conv) and FC1 (400x120)
# become one 1600x120 matrix, one level saved.
LENET_POOL_FC = FusionCost(1, 16 * 16 * 4 + 400 * 120, 1600 * 120, 16 * 100 + 400 * 120, 1600 * 120)
# A padded conv -> pool -> conv -> pool chain as a 768x128 matrix: 3 levels, 248x weights.
PADDED_CHAIN = FusionCost(3, 396, 768 * 128, 40_000, 768 * 128)
# A global average pool merged into a Linear as a contraction: same weights, 10x MACs.
GAP_LINEAR = FusionCost(1, 640, 640, 65_536 + 640, 655_360)
SHRINKS = FusionCost(1, 1000, 500, 1000, 500)


def test_growth_ratios() -> None:
    assert LENET_POOL_FC.weight_growth == pytest.approx(192_000 / 49_024)
    assert GAP_LINEAR.weight_growth == 1.0
    assert FusionCost(1, 0, 0, 10, 10).weight_growth == 1.0  # pools and sums only
    assert FusionCost(1, 0, 5, 10, 10).weight_growth == float("inf")


def test_depth_fuses_whenever_a_level_is_saved() -> None:
    rule = CostRule("depth")
    assert all(rule.allows(c) for c in (LENET_POOL_FC, PADDED_CHAIN, GAP_LINEAR, SHRINKS))
    assert not rule.allows(FusionCost(0, 10, 1, 10, 1))  # no level saved: never


def test_balanced_bounds_weight_growth_per_level_saved() -> None:
    rule = CostRule()  # balanced, 4x per level
    assert rule.allows(LENET_POOL_FC)  # 3.9x for one level
    assert rule.allows(GAP_LINEAR) and rule.allows(SHRINKS)
    assert not rule.allows(PADDED_CHAIN)  # 248x > 4^3
    assert CostRule(max_weight_growth=7).allows(PADDED_CHAIN)  # 248 <= 343
    assert not CostRule(max_weight_growth=2).allows(LENET_POOL_FC)


def test_balanced_bounds_macs_only_when_asked() -> None:
    assert CostRule().allows(GAP_LINEAR)
    assert not CostRule(max_mac_growth=4).allows(GAP_LINEAR)  # 9.9x MACs
    assert CostRule(max_mac_growth=16).allows(GAP_LINEAR)
    at_the_bound = FusionCost(1, 10, 10, 10, 40)  # exactly 4x MACs: allowed, as for weights
    assert CostRule(max_mac_growth=4).allows(at_the_bound)
    assert not CostRule(max_mac_growth=3.9).allows(at_the_bound)


def test_size_fuses_only_when_weights_do_not_grow() -> None:
    rule = CostRule("size")
    assert rule.allows(SHRINKS) and rule.allows(GAP_LINEAR)
    assert not rule.allows(LENET_POOL_FC) and not rule.allows(PADDED_CHAIN)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("fast", 4.0, 0.0), "expected one of depth, balanced, size"),
        (("balanced", 0.5, 0.0), "max-weight-growth=0.5}: expected a number >= 1"),
        (("balanced", 4.0, 0.5), "max-mac-growth=0.5}: expected 0 (off) or a number >= 1"),
    ],
)
def test_bad_options_are_one_line_errors(args: tuple[str, float, float], message: str) -> None:
    with pytest.raises(HeirpyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        cost_rule(*args, pass_name="linalg-fuse-linear-chains")


def test_good_options_make_the_rule() -> None:
    assert cost_rule("size", 2, 0, "p") == CostRule("size", 2.0, 0.0)
