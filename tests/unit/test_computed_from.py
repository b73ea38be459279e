"""`ir.utils.computed_from`, the one walk up the producers that the depth model (a reduction's
accumulator) and chain fusion (a skip feeding a branch) share: each bound at its limit."""

from __future__ import annotations

from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from heirpy.api import parse
from heirpy.ir.utils import computed_from

TEXT = """
func.func @f(%x: f32, %y: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  %b = arith.mulf %a, %a : f32
  %c = arith.addf %b, %y : f32
  return %c : f32
}
"""


def _ops() -> tuple[FuncOp, dict[str, Operation]]:
    func = next(op for op in parse(TEXT).walk() if isinstance(op, FuncOp))
    named = {op.results[0].name_hint: op for op in func.walk() if op.results and op.results[0].name_hint}
    return func, named


def test_a_value_is_computed_from_its_producers_transitively_and_not_from_others() -> None:
    func, ops = _ops()
    x, y = func.body.block.args
    c = ops["c"].results[0]
    assert computed_from(c, x) and computed_from(c, y) and computed_from(c, c)
    assert not computed_from(ops["b"].results[0], y)


def test_the_block_bound_stops_at_ops_outside_it() -> None:
    func, ops = _ops()
    x = func.body.block.args[0]
    c = ops["c"].results[0]
    assert computed_from(c, x, block=func.body.block)
    other = parse("func.func @g() {\n  return\n}\n")
    outside = next(op for op in other.walk() if isinstance(op, FuncOp)).body.block
    assert not computed_from(c, x, block=outside)  # c's producer is not in that block


def test_the_limit_counts_values_visited() -> None:
    """From %c the walk visits %c, %y, %b and %a before it reaches %x: a limit of 5 finds
    it, 4 (one under) does not; the value itself is found with any limit of at least 1."""
    func, ops = _ops()
    x = func.body.block.args[0]
    c = ops["c"].results[0]
    assert computed_from(c, x, limit=5)
    assert not computed_from(c, x, limit=4)
    assert computed_from(c, c, limit=1)
