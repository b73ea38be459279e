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
  `max-mac-growth` > 0, MACs per sample are held to the same per-level bound.
* `size`: fuse only when the weights do not grow.

Why weights and not MACs by default: under CKKS a plaintext-ciphertext linear map is
evaluated as a sum of plaintext diagonals times rotations of the ciphertext, so what
grows with the fused op is the plaintext data to encode and multiply (the weights),
while the dense MAC count over-counts structured maps such as a global average pool
merged into a Linear (a generic whose weight is the Linear's, read through a
broadcast, but whose naive MAC count is H*W times larger). Plaintext back ends, and
CKKS back ends that pack each layer's dense matrix, can ask for the MAC bound with
`max-mac-growth`: Orion evaluates a conv or Linear from the diagonals of its dense
(Toeplitz) matrix, so there the pool merged into a Linear IS H*W times wider
(`heirpy.export.orion.ORION_PIPELINE` sets `max-mac-growth=4`).

Pure: no IR here. `linalg-fuse-linear-chains` builds the `FusionCost` of each chain;
other legality conditions (e.g. a ciphertext slot budget) are separate predicates the
pass checks next to this one.
"""

from __future__ import annotations

from dataclasses import dataclass

from heirpy.ir.diagnostics import HeirpyError

POLICIES = ("depth", "balanced", "size")
DEFAULT_POLICY = "balanced"
DEFAULT_MAX_WEIGHT_GROWTH = 4.0


@dataclass(frozen=True)
class FusionCost:
    """What fusing one chain saves and costs (per sample; weights in elements)."""

    levels_saved: int
    weights_before: int
    weights_after: int
    macs_before: int
    macs_after: int

    @property
    def weight_growth(self) -> float:
        """weights after / before (a chain of weightless pools and sums: 1 if it stays
        weightless, infinite if fusion creates weights)."""
        return _ratio(self.weights_after, self.weights_before)

    @property
    def mac_growth(self) -> float:
        return _ratio(self.macs_after, self.macs_before)


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

    def allows(self, cost: FusionCost) -> bool:
        """Fuse this chain? Never when no level is saved."""
        if cost.levels_saved < 1:
            return False
        if self.policy == "depth":
            return True
        if self.policy == "size":
            return cost.weights_after <= cost.weights_before
        bound = self.max_weight_growth ** cost.levels_saved
        if cost.weight_growth > bound:
            return False
        if self.max_mac_growth > 0 and cost.mac_growth > self.max_mac_growth ** cost.levels_saved:
            return False
        return True


def cost_rule(policy: str, max_weight_growth: float, max_mac_growth: float, pass_name: str) -> CostRule:
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
    return CostRule(policy, float(max_weight_growth), float(max_mac_growth))
