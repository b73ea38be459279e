"""The linear-chain fusion's cost rule, on its own (pure numbers, no IR)."""

from __future__ import annotations

import pytest

from heirpy.ir.diagnostics import HeirpyError
from heirpy.transforms.linear.fusion_cost import (
    CostRule,
    FusionCost,
    buyable_prices,
    buys_within_budget,
    check_constant_budget,
    check_max_bought_weight_growth,
    constant_growth_remark,
    cost_rule,
    pricing,
    unbounded_weights,
    within_growth_rule,
)

# LeNet-5's second chain: the 2x2 pool (as a [16, 16, 2, 2] conv) and FC1 (400x120)
# become one 1600x120 matrix, one level saved.
LENET_POOL_FC = FusionCost(1, 16 * 16 * 4 + 400 * 120, 1600 * 120, 16 * 100 + 400 * 120, 1600 * 120)
# A padded conv -> pool -> conv -> pool chain as a 768x128 matrix: 3 levels, 248x weights.
PADDED_CHAIN = FusionCost(3, 396, 768 * 128, 40_000, 768 * 128)
# A global average pool merged into a Linear as a contraction: same weights, 10x MACs.
GAP_LINEAR = FusionCost(1, 640, 640, 65_536 + 640, 655_360)
SHRINKS = FusionCost(1, 1000, 500, 1000, 500)
# The VGG-style CIFAR net's last pool, global pool and Linear(64, 10) fused into one
# 10 x 4096 Linear, as Orion packs them (37 + 100 + 73 -> 4105 diagonals, two levels),
# with their weights and MACs (the pool as canonicalization's [64, 64, 2, 2] conv).
VGG_TAIL = FusionCost(2, 64 * 64 * 4 + 640, 40_960, 4096 + 1024 + 640, 40_960, 210, 4105)
# A 2x2 pool into an 8 -> 3 Linear: 6 + 12 -> 34 diagonals (1.9x, one level).
POOL_LINEAR = FusionCost(1, 24, 96, 56, 96, 18, 34)


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


def test_the_mac_bound_compounds_per_level_saved() -> None:
    """max-mac-growth is a factor per level saved, as the weight bound is: 3x per level
    allows 9x MACs for two levels (and 7x), not 3 * 2 = 6x."""
    two_levels = FusionCost(2, 10, 10, 10, 70)
    assert CostRule(max_mac_growth=3).allows(two_levels)
    assert not CostRule(max_mac_growth=3).allows(FusionCost(2, 10, 10, 10, 91))


def test_size_fuses_only_when_weights_do_not_grow() -> None:
    rule = CostRule("size")
    assert rule.allows(SHRINKS) and rule.allows(GAP_LINEAR)
    assert not rule.allows(LENET_POOL_FC) and not rule.allows(PADDED_CHAIN)


def test_diagonals_bound_orions_packed_diagonals_per_level_saved() -> None:
    rule = CostRule("diagonals")  # 2x per level
    assert VGG_TAIL.diagonal_growth == pytest.approx(4105 / 210)
    assert not rule.allows(VGG_TAIL)  # 19.5x > 2^2
    assert rule.allows(POOL_LINEAR)  # 1.9x <= 2
    assert not CostRule("diagonals", max_diagonal_growth=1.5).allows(POOL_LINEAR)
    assert not CostRule("diagonals", max_diagonal_growth=4.4).allows(VGG_TAIL)  # 19.36
    assert CostRule("diagonals", max_diagonal_growth=4.5).allows(VGG_TAIL)  # 20.25
    at_the_bound = FusionCost(2, 1, 1, 1, 1, 10, 40)  # exactly 2^2: allowed
    assert rule.allows(at_the_bound)
    assert not rule.allows(FusionCost(0, 1, 1, 1, 1, 10, 5))  # no level saved: never


def test_diagonals_ignore_weights_and_macs_unless_asked() -> None:
    """What grew in VGG_TAIL is not its weights (2.4x for two levels) nor its MACs
    (7.1x, within the former `max-mac-growth=4` for two levels: that pipeline fused it)."""
    assert CostRule().allows(VGG_TAIL) and CostRule(max_mac_growth=4).allows(VGG_TAIL)
    wide = FusionCost(1, 10, 1000, 10, 1000, 100, 100)  # 100x weights and MACs, same diagonals
    assert CostRule("diagonals").allows(wide)
    assert not CostRule("diagonals", max_mac_growth=4).allows(wide)


def test_diagonals_refuse_a_chain_whose_diagonals_were_not_counted() -> None:
    uncounted = FusionCost(1, 10, 10, 10, 10)
    assert uncounted.diagonal_growth == float("inf")
    assert not CostRule("diagonals").allows(uncounted)
    assert CostRule("diagonals").counts_diagonals and not CostRule().counts_diagonals
    assert FusionCost(1, 1, 1, 1, 1, 0, 0).diagonal_growth == 1.0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("fast", 4.0, 0.0), "expected one of depth, balanced, size, diagonals"),
        (("balanced", 0.5, 0.0), "max-weight-growth=0.5}: expected a number >= 1"),
        (("balanced", 4.0, 0.5), "max-mac-growth=0.5}: expected 0 (off) or a number >= 1"),
    ],
)
def test_bad_options_are_one_line_errors(args: tuple[str, float, float], message: str) -> None:
    with pytest.raises(HeirpyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        cost_rule(*args, pass_name="linalg-fuse-linear-chains")


@pytest.mark.parametrize(
    ("growth", "slots", "message"),
    [
        (0.5, 8192, "max-diagonal-growth=0.5}: expected a number >= 1"),
        (2.0, 1000, "orion-slots=1000}: expected a power of two"),
        (2.0, 0, "orion-slots=0}: expected a power of two"),
    ],
)
def test_bad_diagonal_options_are_one_line_errors(growth: float, slots: int, message: str) -> None:
    with pytest.raises(HeirpyError, match=message):
        cost_rule("diagonals", 4.0, 0.0, "linalg-fuse-ops", growth, slots)


def test_good_options_make_the_rule() -> None:
    assert cost_rule("size", 2, 0, "p") == CostRule("size", 2.0, 0.0)
    assert cost_rule("diagonals", 4, 0, "p", 3, 4096) == CostRule("diagonals", 4.0, 0.0, 3.0, 4096)


def _stored(levels: int, before: int, after: int) -> FusionCost:
    """A chain whose weights do not grow (a global pool into a Linear, weighed by its
    distinct weights) but whose stored constants go from `before` to `after`."""
    return FusionCost(levels, 100, 100, 100, 100, constants_before=before, constants_after=after)


def test_constant_growth_is_one_when_not_counted() -> None:
    assert LENET_POOL_FC.constant_growth == 1.0
    assert _stored(1, 16, 435).constant_growth == pytest.approx(27.1875)
    assert _stored(1, 0, 0).constant_growth == 1.0
    assert _stored(1, 0, 3).constant_growth == float("inf")


def test_max_constant_growth_at_its_limit_and_each_side() -> None:
    """max-constant-growth=1.5: 1.5x for one level fuses, just over it does not; it
    compounds per level saved (2.25x for two); 0 (the default) never refuses."""
    rule = CostRule(max_constant_growth=1.5)
    assert rule.allows(_stored(1, 100, 150))
    assert not rule.allows(_stored(1, 100, 151))
    assert rule.allows(_stored(1, 100, 149))
    assert rule.allows(_stored(2, 100, 225)) and not rule.allows(_stored(2, 100, 226))
    assert CostRule().allows(_stored(1, 100, 10_000))
    assert CostRule("depth", max_constant_growth=1.5).allows(_stored(1, 100, 10_000))
    # The weight bound still applies beside it.
    assert not CostRule(max_weight_growth=2, max_constant_growth=1.5).allows(
        FusionCost(1, 100, 300, 100, 100, constants_before=100, constants_after=120))


def test_the_remark_fires_past_one_and_a_half_per_level() -> None:
    assert not CostRule.grows_constants(_stored(1, 100, 150))
    assert CostRule.grows_constants(_stored(1, 100, 151))
    assert not CostRule.grows_constants(_stored(2, 100, 225))
    assert CostRule.grows_constants(_stored(2, 100, 226))
    assert not CostRule.grows_constants(LENET_POOL_FC)  # constants not counted


def test_constant_growth_option() -> None:
    assert cost_rule("balanced", 4, 0, "p", max_constant_growth=1.5) == CostRule(max_constant_growth=1.5)
    with pytest.raises(HeirpyError, match=r"max-constant-growth=0.5}: expected 0 \(off\) or a number >= 1"):
        cost_rule("balanced", 4, 0, "p", max_constant_growth=0.5)


def test_weight_and_size_bounds_at_their_limits() -> None:
    """Exactly 4x weights for one level (16x for two) fuses under `balanced`, just over
    does not; `size` fuses a chain whose weights stay equal."""
    assert CostRule().allows(FusionCost(1, 10, 40, 1, 1))
    assert not CostRule().allows(FusionCost(1, 10, 41, 1, 1))
    assert CostRule().allows(FusionCost(2, 10, 160, 1, 1)) and not CostRule().allows(FusionCost(2, 10, 161, 1, 1))
    assert CostRule("size").allows(FusionCost(1, 10, 10, 1, 1))
    assert not CostRule("size").allows(FusionCost(1, 10, 11, 1, 1))


def test_options_at_their_lower_limits_are_accepted() -> None:
    assert cost_rule("balanced", 1, 1, "p", 1, 1, 1) == CostRule("balanced", 1.0, 1.0, 1.0, 1, 1.0)
    assert cost_rule("depth", 1.0, 0, "p", max_constant_growth=0) == CostRule("depth", 1.0, 0.0)
    with pytest.raises(HeirpyError, match=r"^error: p\{orion-slots=True\}: expected a power of two \(N / 2\)$"):
        cost_rule("diagonals", 4, 0, "p", 2, True)  # type: ignore[arg-type]
    with pytest.raises(HeirpyError, match=r"^error: p\{max-mac-growth=0.99\}: expected 0 \(off\) or a number >= 1$"):
        cost_rule("balanced", 4, 0.99, "p")
    with pytest.raises(HeirpyError, match=r"^error: p\{max-weight-growth=0.99\}: expected a number >= 1$"):
        cost_rule("balanced", 0.99, 0, "p")
    with pytest.raises(HeirpyError, match=r"^error: p\{max-diagonal-growth=0.99\}: expected a number >= 1$"):
        cost_rule("diagonals", 4, 0, "p", 0.99)


def test_the_constant_growth_remark_spells_levels_and_bytes() -> None:
    one = constant_growth_remark("linalg-fuse-ops", "f.mlir:3:5: ", _stored(1, 100, 300), 2)
    assert one == (
        "f.mlir:3:5: remark: linalg-fuse-ops: fused a linear chain saving 1 level although its constants "
        "grow 3.0x (200 -> 600 bytes), more than 1.5x per level saved: its weights grow 1.0x, within the "
        "cost rule; max-constant-growth=1.5 keeps such chains apart"
    )
    two = constant_growth_remark("p", "", _stored(2, 1000, 3000), 4)
    assert two.startswith("remark: p: fused a linear chain saving 2 levels although its constants grow 3.0x "
                          "(4,000 -> 12,000 bytes)")


def test_the_remark_counts_at_least_one_level() -> None:
    assert not CostRule.grows_constants(_stored(0, 100, 150))
    assert CostRule.grows_constants(_stored(0, 100, 151))


def test_within_growth_rule_at_its_limit_and_each_side() -> None:
    """A model may grow 1.5x per level its growing chains buy, compounded, and 1.5x with
    none bought (issue 37's rule, `constant-budget`)."""
    assert within_growth_rule(1.5, 0) and within_growth_rule(1.5, 1)
    assert not within_growth_rule(1.5001, 0) and not within_growth_rule(1.5001, 1)
    assert within_growth_rule(2.25, 2) and not within_growth_rule(2.2501, 2)
    assert within_growth_rule(1.5 ** 20, 20) and not within_growth_rule(1.5 ** 20 * 1.001, 20)
    assert not within_growth_rule(3.23, 1)  # shufflenet_v2_x0_5's 1 level for 3.23x
    assert within_growth_rule(2.50, 20)  # mobilenet_v3_small's 20 levels for 2.50x
    assert within_growth_rule(1.2, -1)  # a run deeper than without growth: 1.5x at most
    assert within_growth_rule(29.0, 1, per_level=29.0) and not within_growth_rule(29.0, 1, per_level=28.99)


def test_constant_budget_option() -> None:
    check_constant_budget(0, "p")
    check_constant_budget(1, "p")
    check_constant_budget(1.5, "p")
    with pytest.raises(HeirpyError, match=r"^error: p\{constant-budget=0.5\}: expected 0 \(off\) or a number >= 1$"):
        check_constant_budget(0.5, "p")


# ShuffleNet's unit: a depthwise 3x3 (24 x 9) and a 1x1 (24 x 24) composed into a dense 3x3
# (24 x 24 x 9): 6.5x for one level, refused at 4x, a candidate of the module's budget.
SHUFFLE_UNIT = FusionCost(1, 24 * 9 + 24 * 24, 24 * 24 * 9, 0, 0)


def test_the_price_is_weight_growth_per_level_saved() -> None:
    assert SHUFFLE_UNIT.weight_growth_per_level == pytest.approx(5184 / 792)
    assert PADDED_CHAIN.weight_growth_per_level == pytest.approx((768 * 128 / 396) ** (1 / 3))
    assert FusionCost(0, 1, 9, 1, 9).weight_growth_per_level == 9.0  # no level: the growth itself


def test_the_pricing_rule_decides_as_its_rule_and_notes_only_weight_refusals() -> None:
    rule = pricing(CostRule())
    assert rule.allows(LENET_POOL_FC) and not rule.refused  # admitted: nothing noted
    assert not rule.allows(SHUFFLE_UNIT) and not rule.allows(PADDED_CHAIN)
    assert rule.refused == {SHUFFLE_UNIT.weight_growth_per_level, PADDED_CHAIN.weight_growth_per_level}
    # refused for its MACs, which no weight bound admits: not a candidate
    macs = pricing(CostRule(max_mac_growth=4))
    assert not macs.allows(GAP_LINEAR) and not macs.refused
    # refused for saving no level: not a candidate
    assert not rule.allows(FusionCost(0, 1, 9, 1, 9)) and len(rule.refused) == 2
    # only `balanced` prices weights
    size = pricing(CostRule("size"))
    assert not size.allows(SHUFFLE_UNIT) and not size.refused
    # a replaced copy of the plain rule keeps no record
    assert isinstance(unbounded_weights(rule), CostRule) and unbounded_weights(rule).allows(SHUFFLE_UNIT)


def test_buyable_prices_lie_above_the_local_bound_and_at_most_the_guard() -> None:
    refused = {4.0, 6.5, 8.2, 14.6, 16.0, 49.0}
    assert buyable_prices(refused, 4.0, 16.0) == [6.5, 8.2, 14.6, 16.0]  # 16 at the guard: in
    assert buyable_prices(refused, 4.0, 15.99) == [6.5, 8.2, 14.6]  # just under it: out
    assert buyable_prices(refused, 4.0, 4.0) == []  # the guard at the local bound: none
    assert buyable_prices(refused, 8.2, 16.0) == [14.6, 16.0]


def test_a_bought_run_is_held_to_the_budget_at_its_limit_and_each_side() -> None:
    # ShuffleNet x0.5: 17 levels bought (frugal 52 -> 35) over a local-rule run at 51.
    assert buys_within_budget(3.77, 35, 51, 52, 1.5)
    # 2 levels bought: at the limit (1.5^2 = 2.25) kept, just over refused, just under kept
    assert buys_within_budget(2.25, 8, 9, 10, 1.5)
    assert not buys_within_budget(2.2500001, 8, 9, 10, 1.5)
    assert buys_within_budget(2.2499999, 8, 9, 10, 1.5)
    # it must buy a level over the local rule's run, whatever its growth
    assert not buys_within_budget(1.0, 9, 9, 10, 1.5)
    # no level bought over the frugal run (a chain off the critical path): at most 1.5x once
    assert buys_within_budget(1.5, 9, 10, 9, 1.5) and not buys_within_budget(1.51, 9, 10, 9, 1.5)


def test_max_bought_weight_growth_option() -> None:
    check_max_bought_weight_growth(1, "p")
    with pytest.raises(HeirpyError, match=r"^error: p\{max-bought-weight-growth=0.5\}: expected a number >= 1$"):
        check_max_bought_weight_growth(0.5, "p")


def test_under_a_mac_bound_absorbing_a_pool_must_cut_the_multiplies() -> None:
    """A pool's adds are no multiplies: under IREE's bound (max-mac-growth=1, never grow)
    a fusion that absorbs a pool or sum must multiply less than the ops it replaces
    (DenseNet's 1x1 conv + 2x2 pool: the same 768 multiplies as one 2x2 stride-2 conv,
    refused); without the bound, with a looser one, or with no pool absorbed, equal
    multiplies are no reason to refuse."""
    at_limit = FusionCost(1, 12, 48, 768 + 192, 768, sum_adds_before=192)
    under = FusionCost(1, 12, 48, 768 + 192, 767, sum_adds_before=192)
    assert not CostRule(max_mac_growth=1).allows(at_limit)
    assert CostRule(max_mac_growth=1).allows(under)
    assert CostRule().allows(at_limit)  # the main pipeline pays levels, not MACs
    assert CostRule(max_mac_growth=1).allows(FusionCost(1, 12, 12, 768, 768))  # no pool absorbed
    assert CostRule(max_mac_growth=1.5).allows(at_limit)  # a looser bound accepts growth
    over = FusionCost(1, 12, 48, 768 + 192, 769, sum_adds_before=192)
    assert not CostRule(max_mac_growth=1).allows(over)
