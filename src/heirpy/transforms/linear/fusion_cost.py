"""When fusing a linear chain is worth it: levels saved against weight and MAC growth.

Fusing a chain of k linear ops (no nonlinearity between them) into one saves k - 1
multiplicative levels under CKKS, but the fused op can be much larger than the ops it
replaces: a 2x2 average pool folded into the next Linear multiplies that Linear's
weights by the window (LeNet-5's FC1, 400x120, becomes 1600x120), a depthwise conv
composed into a dense one multiplies its filter by the channel count. Whether a level
is worth that depends on the back end and the user, so the rule is an option.

A chain's cost is a `FusionCost` (pure numbers: levels saved, weight elements and
multiply-accumulates per sample before and after); a `CostRule` decides, by policy:

* `depth`: fuse whenever a level is saved (heirpy's behaviour before the rule existed).
* `balanced` (the default): fuse when the fused op's weights are at most
  `max-weight-growth` (default 4) times the weights it replaces, per level saved
  (so X^k for k levels). The default 4 admits the classic fold of encrypted-inference
  nets, a 2x2 pool into the next layer, and refuses e.g. a 3x3 pool folded into a
  matrix (9x) or a depthwise conv composed into a dense one (C x). With
  `max-mac-growth` > 0, MACs per sample are held to the same per-level bound. In the
  main pipeline (`linalg-fuse-ops`, `constant-budget` > 0) this is the local rule: the
  module's weight budget may still buy a chain it refuses, up to
  `max-bought-weight-growth` (16) per level (`constant_budget.py`, `PricingRule`).
* `size`: fuse only when the weights do not grow.
* `diagonals` (Orion's): fuse when the plaintext diagonals Orion packs for the fused op
  are at most `max-diagonal-growth` (default 2) times those of the ops it replaces,
  per level saved, counted at `orion-slots` slots (default 8192: N = 2^14). Weights
  and MACs are not bounded (unless `max-mac-growth` is set): what an Orion layer
  costs, in memory and in time, is its diagonals (`heirpy.analysis.orion_packing`).

Why weights and not MACs by default: under CKKS a plaintext-ciphertext linear map is
evaluated as a sum of plaintext diagonals times rotations of the ciphertext, so what
grows with the fused op is the plaintext data to encode and multiply (the weights),
while the dense MAC count over-counts structured maps such as a global average pool
merged into a Linear (a generic whose weight is the Linear's, read through a
broadcast, but whose naive MAC count is H*W times larger). Plaintext back ends, and
CKKS back ends that pack each layer's dense matrix, can ask for the MAC bound with
`max-mac-growth`. For Orion neither is right: see `diagonals` below, which
`heirpy.export.orion.ORION_PIPELINE` uses.

Why diagonals for Orion: Orion encodes, per `slots` x `slots` block of a layer's
dense matrix in its multiplexed layout, one plaintext per nonzero diagonal, and runs
one product (and most often a rotation) per diagonal; weights and MACs both miss
this. A 2x2 average pool, a global pool and a Linear(64 -> 10) at the end of a
VGG-style CIFAR net are 37 + 100 + 73 diagonals; fused into one 10 x 4096 Linear (MACs
x7, within `max-mac-growth=4` for two levels) they are 4,105, since Orion packs the
last linear layer "square" (one diagonal per input slot), and Orion's compile of that
net went from 17 GB to killed at 24 GB. Under `diagonals` that is 19.5x for two levels
(bound 2^2 = 4): refused.

Constants as stored (the weight-growth remark and `max-constant-growth`): a chain's
weights are what the rule weighs, but what a back end stores is the constants the fused op
is emitted with: the dense matrix a contraction is written as (a global average pool
merged into a Linear repeats the Linear's weights H*W times: shufflenet_v2_x0_5 at 64x64,
5.5 -> 17.7 MB of weights), and its init, a full tensor where a pad or a pool makes the
bias vary over H and W. `FusionCost.constants_before/after` count those elements (a
splat init one, a per-channel one C). A fused chain whose constants grow more than
`REMARK_CONSTANT_GROWTH` (1.5x) per level saved gets a remark saying how much, and why
it was fused (its weights are within `max-weight-growth`); `max-constant-growth=X` (0,
off, by default) refuses such a chain instead, X^k for k levels saved, as for weights:
`max-constant-growth=1.5` holds every fused chain to 1.5x per level saved, at the cost
of e.g. the level ResNet-20's global pool + Linear saves (64x its constants). The main
pipeline prices the whole module instead (`constant_budget.py`, option `constant-budget`
of `linalg-fuse-ops`, default 1.5): its constants may grow 1.5x per level the growing
chains buy, compounded (`within_growth_rule`), and within that budget it buys chains
`balanced` refuses, cheapest weight growth per level first (`buyable_prices`,
`buys_within_budget`).

Pure: no IR here. `linalg-fuse-linear-chains` builds the `FusionCost` of each chain
(`orion_cost.py` counts its diagonals when the policy asks for them);
other legality conditions (e.g. a ciphertext slot budget) are separate predicates the
pass checks next to this one.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, fields

from xdsl.ir import Operation, SSAValue

from heirpy.ir.diagnostics import HeirpyError, location_prefix
from heirpy.ir.utils import element_bytes, element_type

POLICIES = ("depth", "balanced", "size", "diagonals")
DEFAULT_POLICY = "balanced"
DEFAULT_MAX_WEIGHT_GROWTH = 4.0
DEFAULT_MAX_DIAGONAL_GROWTH = 2.0
DEFAULT_ORION_SLOTS = 8192
REMARK_CONSTANT_GROWTH = 1.5  # per level saved: a fused chain growing more gets a remark
DEFAULT_MAX_BOUGHT_WEIGHT_GROWTH = 16.0  # per level saved: the most the module budget buys a chain at


@dataclass(frozen=True)
class FusionCost:
    """What fusing one chain saves and costs (per sample; weights in elements)."""

    levels_saved: int
    weights_before: int
    weights_after: int
    macs_before: int
    macs_after: int
    diagonals_before: int | None = None  # Orion's packed diagonals, when counted
    diagonals_after: int | None = None
    constants_before: int | None = None  # constant elements as stored, when counted
    constants_after: int | None = None
    sum_adds_before: int = 0  # of macs_before, the adds of pools and sums (no multiplies)

    @property
    def weight_growth(self) -> float:
        """weights after / before (a chain of weightless pools and sums: 1 if it stays
        weightless, infinite if fusion creates weights)."""
        return _ratio(self.weights_after, self.weights_before)

    @property
    def weight_growth_per_level(self) -> float:
        """The chain's price under `balanced`: weight growth per level saved, the k-th root
        for k levels (the smallest `max-weight-growth` that admits it)."""
        return self.weight_growth ** (1.0 / max(self.levels_saved, 1))

    @property
    def mac_growth(self) -> float:
        return _ratio(self.macs_after, self.macs_before)

    @property
    def constant_growth(self) -> float:
        """Stored constants after / before (1 when they were not counted)."""
        if self.constants_before is None or self.constants_after is None:
            return 1.0
        return _ratio(self.constants_after, self.constants_before)

    @property
    def diagonal_growth(self) -> float:
        """Orion's diagonals after / before (infinite when they were not counted)."""
        if self.diagonals_before is None or self.diagonals_after is None:
            return float("inf")
        return _ratio(self.diagonals_after, self.diagonals_before)


def _ratio(after: int, before: int) -> float:
    if before > 0:
        return after / before
    return 1.0 if after == 0 else float("inf")


@dataclass(frozen=True)
class CostRule:
    """The policy of `linalg-fuse-linear-chains` (see the module docstring)."""

    policy: str = DEFAULT_POLICY
    max_weight_growth: float = DEFAULT_MAX_WEIGHT_GROWTH
    max_mac_growth: float = 0.0  # 0: MACs are not bounded
    max_diagonal_growth: float = DEFAULT_MAX_DIAGONAL_GROWTH  # `diagonals` only
    orion_slots: int = DEFAULT_ORION_SLOTS  # the slot count diagonals are counted at
    max_constant_growth: float = 0.0  # 0: stored constants only draw a remark

    @property
    def counts_diagonals(self) -> bool:
        """Whether `allows` needs the chain's Orion diagonals (`FusionCost.diagonals_*`)."""
        return self.policy == "diagonals"

    def allows(self, cost: FusionCost) -> bool:
        """Fuse this chain? Never when no level is saved; under `diagonals`, never when
        the diagonals were not counted; with `max-constant-growth`, never when the stored
        constants grow more than it per level saved (counted by the caller, else 1x)."""
        if cost.levels_saved < 1:
            return False
        if self.policy == "depth":
            return True
        if self.max_constant_growth > 0 and \
                cost.constant_growth > self.max_constant_growth ** cost.levels_saved:
            return False
        if self.policy == "size":
            return cost.weights_after <= cost.weights_before
        if self.max_mac_growth > 0 and cost.mac_growth > self.max_mac_growth ** cost.levels_saved:
            return False
        if self.max_mac_growth == 1 and cost.sum_adds_before and \
                cost.macs_after >= cost.macs_before - cost.sum_adds_before:
            # Never grow (IREE's bound, `iree-prepare`): a pool's adds, which IREE runs
            # over a window in a small dispatch, are not MACs the fusion saves; absorbing
            # a pool pays only where the fused op multiplies less than the ops it
            # replaces did (a looser bound accepts growth, counting the adds as before).
            # A 1x1 conv and a 2x2 stride-2 pool make a 2x2 stride-2 conv of the same
            # multiplies whose contraction is 4x narrower and 4x deeper: DenseNet-121's
            # transitions, 534 -> 1,259 us of dispatch time under IREE's best CPU
            # flags, the model 1.10x raw (docs/iree.md).
            return False
        if self.policy == "diagonals":
            return cost.diagonal_growth <= self.max_diagonal_growth ** cost.levels_saved
        return cost.weight_growth <= self.max_weight_growth ** cost.levels_saved

    @staticmethod
    def grows_constants(cost: FusionCost) -> bool:
        """Whether a fused chain stores more than `REMARK_CONSTANT_GROWTH` times the
        constants it replaces per level saved (the remark's condition)."""
        return cost.constant_growth > REMARK_CONSTANT_GROWTH ** max(cost.levels_saved, 1)


@dataclass(frozen=True)
class PricingRule(CostRule):
    """A `balanced` `CostRule` that also notes the price (`weight_growth_per_level`) of
    every chain it refuses for its weights alone (one any `max-weight-growth` would
    admit): the candidates the module's weight budget may buy (`constant_budget.py`)."""

    refused: set[float] = field(default_factory=set, compare=False, hash=False, repr=False)

    def allows(self, cost: FusionCost) -> bool:
        if super().allows(cost):
            return True
        if self.policy == "balanced" and cost.levels_saved >= 1:
            if unbounded_weights(self).allows(cost):
                self.refused.add(cost.weight_growth_per_level)
        return False


def unbounded_weights(rule: CostRule) -> CostRule:
    """`rule` with no bound on weight growth (its other bounds kept)."""
    return CostRule(rule.policy, float("inf"), rule.max_mac_growth, rule.max_diagonal_growth,
                    rule.orion_slots, rule.max_constant_growth)


def pricing(rule: CostRule) -> PricingRule:
    """A `PricingRule` deciding as `rule` does, with an empty record."""
    return PricingRule(**{f.name: getattr(rule, f.name) for f in fields(CostRule)})


def buyable_prices(refused: set[float], max_weight_growth: float, max_bought: float) -> list[float]:
    """The prices the module budget may try, cheapest first: those of the refused chains
    above the local bound `max_weight_growth` and at most `max_bought` (the runaway guard;
    none when it is not above the local bound)."""
    return sorted(p for p in refused if max_weight_growth < p <= max_bought)


def buys_within_budget(growth: float, bought_depth: int, default_depth: int, frugal_depth: int,
                       budget: float) -> bool:
    """Keep a run that fused chains past the local rule? Only when it is shallower than the
    local rule's run (it buys a level) and the module's constants, `growth` times the
    export's, stay within `budget` per level all the growing chains buy
    (`frugal_depth - bought_depth`), compounded: issue 37's rule (`within_growth_rule`)."""
    return bought_depth < default_depth and \
        within_growth_rule(growth, frugal_depth - bought_depth, budget)


def within_growth_rule(growth: float, levels_bought: int, per_level: float = REMARK_CONSTANT_GROWTH) -> bool:
    """Issue 37's rule for a whole model: its stored constants may grow by at most
    `per_level` (1.5) for each level the growing fusions buy on its depth, compounded
    (`per_level ** levels_bought`; no level bought: at most `per_level` once, the
    growth the folds that cost nothing may bring)."""
    return growth <= per_level ** max(levels_bought, 1)


def constant_growth_remark(pass_name: str, where: str, cost: FusionCost, element_bytes: int) -> str:
    """One line saying that a fused chain grew its stored constants, by how much, and why
    it was fused anyway (module docstring)."""
    assert cost.constants_before is not None and cost.constants_after is not None
    levels = cost.levels_saved
    return (
        f"{where}remark: {pass_name}: fused a linear chain saving {levels} level{'s' if levels != 1 else ''} "
        f"although its constants grow {cost.constant_growth:.1f}x "
        f"({cost.constants_before * element_bytes:,} -> {cost.constants_after * element_bytes:,} bytes), "
        f"more than {REMARK_CONSTANT_GROWTH}x per level saved: its weights grow {cost.weight_growth:.1f}x, "
        f"within the cost rule; max-constant-growth={REMARK_CONSTANT_GROWTH} keeps such chains apart"
    )


def check_constant_budget(budget: float, pass_name: str) -> None:
    """The `constant-budget` option (`constant_budget.py`): 0 (off) or a number >= 1."""
    if not (budget == 0 or budget >= 1.0):
        raise HeirpyError(
            f"error: {pass_name}{{constant-budget={budget}}}: expected 0 (off) or a number >= 1"
        )


def check_max_bought_weight_growth(cap: float, pass_name: str) -> None:
    """The `max-bought-weight-growth` option (`constant_budget.py`): a number >= 1."""
    if not cap >= 1.0:
        raise HeirpyError(
            f"error: {pass_name}{{max-bought-weight-growth={cap}}}: expected a number >= 1"
        )


def check_free_constant_bytes(free_bytes: int, pass_name: str) -> None:
    """The `free-constant-bytes` option (`constant_budget.py`): a byte count, 0 or more."""
    if free_bytes < 0:
        raise HeirpyError(
            f"error: {pass_name}{{free-constant-bytes={free_bytes}}}: expected a byte count >= 0"
        )


def cost_rule(
    policy: str,
    max_weight_growth: float,
    max_mac_growth: float,
    pass_name: str,
    max_diagonal_growth: float = DEFAULT_MAX_DIAGONAL_GROWTH,
    orion_slots: int = DEFAULT_ORION_SLOTS,
    max_constant_growth: float = 0.0,
) -> CostRule:
    """A `CostRule` from pass options, or a one-line error naming the bad option."""
    if policy not in POLICIES:
        raise HeirpyError(
            f"error: {pass_name}{{policy={policy}}}: expected one of {', '.join(POLICIES)}"
        )
    if not max_weight_growth >= 1.0:
        raise HeirpyError(
            f"error: {pass_name}{{max-weight-growth={max_weight_growth}}}: expected a number >= 1"
        )
    if not (max_mac_growth == 0 or max_mac_growth >= 1.0):
        raise HeirpyError(
            f"error: {pass_name}{{max-mac-growth={max_mac_growth}}}: expected 0 (off) or a number >= 1"
        )
    if not max_diagonal_growth >= 1.0:
        raise HeirpyError(
            f"error: {pass_name}{{max-diagonal-growth={max_diagonal_growth}}}: expected a number >= 1"
        )
    if isinstance(orion_slots, bool) or not isinstance(orion_slots, int) or orion_slots < 1 \
            or orion_slots & (orion_slots - 1):
        raise HeirpyError(
            f"error: {pass_name}{{orion-slots={orion_slots}}}: expected a power of two (N / 2)"
        )
    if not (max_constant_growth == 0 or max_constant_growth >= 1.0):
        raise HeirpyError(
            f"error: {pass_name}{{max-constant-growth={max_constant_growth}}}: expected 0 (off) or a number >= 1"
        )
    return CostRule(policy, float(max_weight_growth), float(max_mac_growth),
                    float(max_diagonal_growth), orion_slots, float(max_constant_growth))


def admit_fusion(rule: CostRule, cost: FusionCost, pass_name: str, where: Operation, result: SSAValue) -> bool:
    """Whether `rule` allows a fusion priced `cost`. One it allows that grows the stored
    constants past the remark's threshold per level saved says so (`constant_growth_remark`,
    on stderr as every diagnostic, located at `where`, bytes counted in `result`'s element
    type), so that every linear-chain pattern prices and remarks alike."""
    if not rule.allows(cost):
        return False
    if rule.grows_constants(cost):
        print(constant_growth_remark(pass_name, location_prefix(where), cost,
                                     element_bytes(element_type(result.type)) or 4), file=sys.stderr)
    return True
