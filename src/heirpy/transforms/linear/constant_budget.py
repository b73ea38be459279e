"""The model-level weight budget of the linear-chain group: levels bought against bytes.

Under CKKS a level costs a bootstrap (the expensive operation: seconds per ciphertext),
while stored constants cost memory (plaintexts to encode, keys are unaffected); what an
FHE engineer wants is to buy levels with memory, but at a bounded price. Issue 37's
price is 1.5x of constants per level: a fusion that saves L levels may grow the model's
constants by at most 1.5^L. Priced per fusion (`max-constant-growth=1.5`) that forbids
every depthwise+pointwise composition (a dense 3x3 conv, ~9x the weights of the two,
saving one level) although such a fold grows a whole MobileNet far less than its own
weights; so the budget is the model's, compounded:

    constants after / constants before  <=  budget ** max(L, 1)

where L is the levels the growing fusions buy: the deepest function's depth with no
chain that grows its constants (`max-constant-growth=1`, the frugal run) minus its depth
with the cost rule's own fusions (the default run). With L = 0 (the growing fusions save
no level on the depth-critical path: pure waste, e.g. a chain on a branch shallower than
another) the module may grow `budget` once, what folds that grow little may bring.
Beyond the budget, when the growing chains buy no level the frugal run is kept; else
each chain is priced alone (`max-constant-growth=budget`: at most `budget` per level it
saves, counted on the chain's own constants, the strict run, which is kept); a remark
says how much the growing chains would have grown the constants for how many levels and
what was kept. Kept growth past `budget` has a remark too. Why not per fusion from the start: the strict run keeps
MobileNetV3-Small at 0.99x but 20 levels deeper (91 vs 71, 64x64), while the whole
model grows 2.50x for those 20 levels, well within 1.5^20.

Buying past the local rule (issue 37's rule is the module's, not the chain's). The
local rule (`balanced`, `max-weight-growth` 4 per level saved) refuses e.g. every
ShuffleNet unit's depthwise 3x3 -> 1x1 composition (6.5-8.2x the weights for a level;
14.6x where it is cheapest as a matrix) although buying all 16 grows the whole model
3.8x for 17 levels, far inside 1.5^17. So the default run notes the price of every chain
it refuses for its weights alone (`fusion_cost.PricingRule`: weight growth per level
saved), and the chains priced above `max-weight-growth` and at most
`max-bought-weight-growth` (default 16: the runaway guard; ConvNeXt's fc2 composed into
the next 7x7 depthwise conv, ~49x per level, MB-sized dense filters, stays out) are
candidates, admitted cheapest first: the group is rerun with `max-weight-growth` at the
dearest price, then, if that run is not kept, at cheaper ones by bisection; a run is kept
when it is shallower than the local rule's and the module's constants stay within
`budget` per level all the growing chains buy, counted from the frugal run as above
(`fusion_cost.buys_within_budget`). A remark says what was bought, or why nothing was.
A bought run replaces the local rule's, within budget or not (it is judged on its own).

Cost: the default run only, plus a count of the constants before and after, when the
module stays within `budget` and no chain was refused for its weights within the guard;
otherwise copies of the module made before the group, the frugal run (the strict one
when over budget, one or more priced runs when there are candidates) on them, and the
depth analysis of each (`heirpy.analysis.depth`). ShuffleNetV2 x0.5: 4.4 -> 11 s for
the whole main pipeline.

Small models are exempt: growth that adds at most `free-constant-bytes` (default
4 MiB, a million f32 weights) is kept whatever its ratio. A ratio over a few hundred KB
is noise next to the ring's own plaintexts and keys (LeNet-5's two pool folds: 3.39x,
but 252 KB -> 852 KB, for 2 levels), and problem 1's fold, a pool into the layer after
it, is exactly the one such a ratio punishes on a small net. 0 prices every byte.

Only under `policy=balanced`: `depth` fuses whatever it costs, `size` never grows the
weights, and `diagonals` (Orion) bounds what Orion stores, its diagonals, itself.
Options `constant-budget` and `max-bought-weight-growth` of `linalg-fuse-linear-chains`
and `linalg-fuse-ops` (default 1.5, 0 in the component pass: off, each chain is judged
alone by the local rule; 16, at most `max-weight-growth`: nothing is bought).
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from dataclasses import replace

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from heirpy.analysis.depth import analyze_function
from heirpy.analysis.kernels import constant_bytes
from heirpy.ir.context import clone_module
from heirpy.ir.diagnostics import location_prefix
from heirpy.transforms.linear.fusion_cost import (
    DEFAULT_MAX_BOUGHT_WEIGHT_GROWTH,
    CostRule,
    buyable_prices,
    buys_within_budget,
    pricing,
    within_growth_rule,
)

DEFAULT_CONSTANT_BUDGET = 1.5
DEFAULT_FREE_CONSTANT_BYTES = 1 << 22
PRICED_ELEMENT_BYTES = 4
"""Every constant element is priced as 4 bytes, an f32's, whatever its storage type: CKKS
encodes an f16 weight into the same plaintext slots as an f32 one, and torch-mlir's f16
export keeps f16 weights beside the f32 ones its Linear reads, so pricing stored bytes
would make an f16 model's fold of an f16 pool into an f32 Linear look costlier than its
f32 twin's (resnet10t: 1.62x in f16 against 1.34x in f32)."""


def module_depth(module: ModuleOp) -> int:
    """The deepest function's multiplicative depth (`analyze_function`)."""
    depths = [analyze_function(op).depth for op in module.walk()
              if isinstance(op, FuncOp) and op.body.blocks]
    return max(depths, default=0)


def _growth(before: int, after: int) -> float:
    if before > 0:
        return after / before
    return 1.0 if after == 0 else float("inf")


def _captured(run: Callable[[ModuleOp, CostRule], None], module: ModuleOp, rule: CostRule) -> str:
    """Run the group on `module`, holding back its remarks (only the kept run's print)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        run(module, rule)
    return err.getvalue()


def _take_body(target: ModuleOp, source: ModuleOp) -> None:
    """Give `target` the ops of `source` (the strict run, made on a copy)."""
    old = target.body.detach_block(0)
    target.body.add_block(source.body.detach_block(0))
    old.erase(safe_erase=False)


def fuse_within_budget(
    module: ModuleOp,
    run: Callable[[ModuleOp, CostRule], None],
    rule: CostRule,
    budget: float,
    pass_name: str,
    free_bytes: int = DEFAULT_FREE_CONSTANT_BYTES,
    max_bought: float = DEFAULT_MAX_BOUGHT_WEIGHT_GROWTH,
) -> None:
    """Run the linear-chain group (`run(module, rule)`) and keep its result when the
    module's constants stay within `budget` per level bought, then buy the chains the
    local rule refused while the budget covers them; else keep the strict run's (module
    doc). `budget` 0 or a policy other than `balanced`: just `run`."""
    if budget == 0 or rule.policy != "balanced":
        run(module, rule)
        return
    before = constant_bytes(module, PRICED_ELEMENT_BYTES)
    pristine = clone_module(module)
    priced = pricing(rule)
    remarks = _captured(run, module, priced)
    after = constant_bytes(module, PRICED_ELEMENT_BYTES)
    growth = _growth(before, after)
    where = location_prefix(module)
    prices = buyable_prices(priced.refused, rule.max_weight_growth, max_bought)
    frugal_depth = _frugal_depth(pristine, run, rule) if prices else None
    if frugal_depth is not None and \
            _buy(module, pristine, run, rule, budget, pass_name, before, frugal_depth, prices):
        return  # the budget bought chains past the local rule: that run is kept
    if growth <= budget:
        sys.stderr.write(remarks)
    elif after - before <= free_bytes:
        sys.stderr.write(remarks)
        print(f"{where}remark: {pass_name}: the fused linear chains grow the module's "
              f"constants {growth:.2f}x ({before:,} -> {after:,} bytes), adding at most "
              f"free-constant-bytes={free_bytes:,}: kept", file=sys.stderr)
    else:
        if frugal_depth is None:
            frugal_depth = _frugal_depth(pristine, run, rule)
        _judge(module, pristine, run, rule, budget, pass_name, before, after, frugal_depth, remarks)


def _frugal_depth(pristine: ModuleOp, run: Callable[[ModuleOp, CostRule], None], rule: CostRule) -> int:
    """The depth with no chain that grows its constants (the levels-bought baseline)."""
    frugal = clone_module(pristine)
    _captured(run, frugal, replace(rule, max_constant_growth=1.0))
    return module_depth(frugal)


def _judge(module: ModuleOp, pristine: ModuleOp, run: Callable[[ModuleOp, CostRule], None],
           rule: CostRule, budget: float, pass_name: str, before: int, after: int,
           frugal_depth: int, remarks: str) -> None:
    """The local rule's run grew the module past `budget` once and past the free bytes:
    keep it when within `budget` per level bought, else replace it by the frugal or
    strict run."""
    growth = _growth(before, after)
    fused_depth = module_depth(module)
    levels = frugal_depth - fused_depth
    where = location_prefix(module)
    head = (f"{where}remark: {pass_name}: the fused linear chains grow the module's constants "
            f"{growth:.2f}x ({before:,} -> {after:,} bytes) and buy {levels} level"
            f"{'s' if levels != 1 else ''} (depth {frugal_depth} -> {fused_depth})")
    allowed = budget ** max(levels, 1)
    if within_growth_rule(growth, levels, budget):
        sys.stderr.write(remarks)
        print(f"{head}: within constant-budget={budget:g} per level bought ({allowed:.2f}x), kept",
              file=sys.stderr)
        return
    if levels <= 0:  # the growing chains buy nothing: pure waste, none of them is kept
        chosen = clone_module(pristine)
        _captured(run, chosen, replace(rule, max_constant_growth=1.0))
        why = "they buy no level: refused every chain that grows its constants"
    else:  # each chain priced alone, `budget` per level it saves
        cap = budget if rule.max_constant_growth == 0 else min(budget, rule.max_constant_growth)
        chosen = clone_module(pristine)
        remarks = _captured(run, chosen, replace(rule, max_constant_growth=cap))
        why = f"each chain priced alone instead, {cap:g}x per level it saves"
    kept = constant_bytes(chosen, PRICED_ELEMENT_BYTES)
    _take_body(module, chosen)
    sys.stderr.write(remarks if levels > 0 else "")
    print(f"{head}: more than constant-budget={budget:g} per level bought ({allowed:.2f}x); {why}: "
          f"{_growth(before, kept):.2f}x ({kept:,} bytes), depth {module_depth(module)}", file=sys.stderr)


def _buy(module: ModuleOp, pristine: ModuleOp, run: Callable[[ModuleOp, CostRule], None],
         rule: CostRule, budget: float, pass_name: str, before: int, frugal_depth: int,
         prices: list[float]) -> bool:
    """Fuse the chains the local rule refused, cheapest weight growth per level first, as
    far as the module's budget covers them: the run at the dearest price that keeps the
    module within `budget` per level bought and buys a level (`buys_within_budget`),
    tried at the dearest price of all first, then by bisection over the prices (a dearer
    price fuses a superset, so growth and depth move together but not in lockstep: the
    bisection finds a price within the budget, not always the dearest). Each try is the
    group rerun on a copy with `max-weight-growth` at that price. True when a run is kept
    (it replaces `module`'s body), False when none buys a level within the budget."""
    default_depth = module_depth(module)
    default_bytes = constant_bytes(module, PRICED_ELEMENT_BYTES)

    def attempt(price: float) -> tuple[bool, ModuleOp, str, int, int]:
        tried = clone_module(pristine)
        # a hair above the price: the chain priced at it is admitted despite rounding
        remarks = _captured(run, tried, replace(rule, max_weight_growth=price * (1 + 1e-9)))
        depth, kept = module_depth(tried), constant_bytes(tried, PRICED_ELEMENT_BYTES)
        ok = buys_within_budget(_growth(before, kept), depth, default_depth, frugal_depth, budget)
        return ok, tried, remarks, depth, kept

    dearest = attempt(prices[-1])
    best, best_price = (dearest, prices[-1]) if dearest[0] else (None, 0.0)
    lo, hi = 0, (len(prices) - 2 if best is None else -1)
    while lo <= hi:  # the dearest price within the budget, by bisection
        mid = (lo + hi) // 2
        got = attempt(prices[mid])
        if not got[0]:
            hi = mid - 1
        else:
            best, best_price, lo = got, prices[mid], mid + 1
    where = location_prefix(module)
    if best is None:
        _, _, _, depth, kept = dearest
        levels = frugal_depth - depth
        print(f"{where}remark: {pass_name}: the module's weight budget bought no chain past "
              f"max-weight-growth={rule.max_weight_growth:g}: all those up to {prices[-1]:.2f}x per level "
              f"saved (max-bought-weight-growth) would grow the constants {_growth(before, kept):.2f}x "
              f"({before:,} -> {kept:,} bytes) for {levels} level{'s' if levels != 1 else ''} bought "
              f"(depth {frugal_depth} -> {depth}; {default_depth} without them), more than "
              f"constant-budget={budget:g} per level bought ({budget ** max(levels, 1):.2f}x)"
              f"{'' if len(prices) == 1 else ', and no cheaper price kept within it while buying a level'}",
              file=sys.stderr)
        return False
    _, tried, remarks, depth, kept = best
    _take_body(module, tried)
    sys.stderr.write(remarks)
    levels = frugal_depth - depth
    print(f"{where}remark: {pass_name}: the module's weight budget bought "
          f"{default_depth - depth} more level{'s' if default_depth - depth != 1 else ''} "
          f"(depth {default_depth} -> {depth}): fused the chains whose weights grow up to "
          f"{best_price:.2f}x per level saved (max-weight-growth={rule.max_weight_growth:g} refused them); "
          f"constants {_growth(before, default_bytes):.2f}x -> {_growth(before, kept):.2f}x "
          f"({before:,} -> {kept:,} bytes) for {levels} level{'s' if levels != 1 else ''} bought "
          f"(depth {frugal_depth} -> {depth}), within constant-budget={budget:g} per level bought "
          f"({budget ** max(levels, 1):.2f}x)", file=sys.stderr)
    return True
