"""The one way heirpy runs rewrite patterns.

A pass's module exports `populate_<pass_name>_patterns(...)`, which returns the
`PatternSet`s the pass applies, in order. A `PatternSet` is a list of patterns that run
together to a fixpoint *with the walker settings they need* (e.g. pointwise fusion
walks consumers first), so whoever runs the set -- the pass itself, or an umbrella pass
such as `linalg-fuse-ops` -- runs it the same way through `apply_pattern_sets`.
"""

from __future__ import annotations

import gc
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from heirpy.ir.dialects.linalg import GenericOp


@dataclass(frozen=True)
class PatternSet:
    """Patterns applied together until none matches, and how the IR is walked."""

    patterns: tuple[RewritePattern, ...]
    walk_reverse: bool = False
    """Visit ops last to first (consumers before their producers)."""
    apply_recursively: bool = True
    """Revisit the ops a rewrite creates, and the producers of the ops it erases."""

    @staticmethod
    def of(*patterns: RewritePattern, walk_reverse: bool = False) -> PatternSet:
        return PatternSet(tuple(patterns), walk_reverse=walk_reverse)


def apply_pattern_sets(module: ModuleOp, sets: Sequence[PatternSet]) -> None:
    """Run each set to a fixpoint, in order (a later set sees what earlier ones made)."""
    with cyclic_gc_paused():
        for pattern_set in sets:
            if not pattern_set.patterns:
                continue
            _SetWalker(
                _TypeDispatchApplier(pattern_set.patterns),
                apply_recursively=pattern_set.apply_recursively,
                walk_reverse=pattern_set.walk_reverse,
            ).rewrite_module(module)


class OutsideGenericBodies:
    """Marks a pattern that never acts on an op inside a linalg.generic body: it rewrites
    tensor-level ops, and a body computes one element with scalar ops. Its
    `match_and_rewrite` returns at once for such an op (`in_generic_body`). A pattern
    set does not visit the ops of generic bodies that only marked patterns could match
    (dead ones it still erases)."""


def constant_insertion_point(op: Operation) -> InsertPoint:
    """Where a constant that a rewrite of `op` folds goes: the start of the entry block
    of the nearest op isolated from above (the function), as MLIR's folder places
    constants, so printed IR lists folded constants before the code that uses them, as
    MLIR tools print it. Falls back to just before `op` when no such block encloses it."""
    current = op.parent_op()
    while current is not None and not current.has_trait(IsolatedFromAbove):
        current = current.parent_op()
    if current is None or not current.regions or current.regions[0].first_block is None:
        return InsertPoint.before(op)
    return InsertPoint.at_start(current.regions[0].first_block)


def in_generic_body(op: Operation) -> bool:
    """Is `op` in the body of a linalg.generic (directly, not in a nested region)?"""
    return isinstance(op.parent_op(), GenericOp)


OpT = TypeVar("OpT", bound=Operation)


class OpPattern(RewritePattern, Generic[OpT]):
    """A pattern that acts only on ops of the classes in `op_types` (its declaration):
    `match_and_rewrite` calls `rewrite` for such an op and returns at once for any
    other, so the pattern behaves the same under xDSL's `PatternRewriteWalker`, and
    `apply_pattern_sets` can skip it on other ops without calling it. A pattern that
    may act on any op says so with `op_types = (Operation,)`. A subclass may override
    `match_and_rewrite` to add a check, as long as it still acts on `op_types` only.

        class FoldConstantFill(ConstantPattern[FillOp]):
            op_types = (FillOp,)

            def rewrite(self, op: FillOp, rewriter: PatternRewriter) -> None: ...
    """

    op_types: tuple[type[OpT], ...]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, self.op_types):
            self.rewrite(op, rewriter)

    @abstractmethod
    def rewrite(self, op: OpT, rewriter: PatternRewriter) -> None:
        """Match `op` (of one of `op_types`), check legality, rewrite."""


def _declared_op_types(pattern: RewritePattern) -> tuple[type[Operation], ...]:
    """The op classes `pattern` may act on: its declaration, or every op when it has
    none (xDSL's own patterns, or a heirpy pattern that is a plain `RewritePattern`)."""
    return pattern.op_types if isinstance(pattern, OpPattern) else (Operation,)


class _TypeDispatchApplier(RewritePattern):
    """xDSL's `GreedyRewritePatternApplier` (trivially dead ops are erased first, then
    the patterns are tried in order until one acts; no folding), except that an
    `OpPattern` is only called on ops of its `op_types`: the patterns an op's class can
    match are looked up once per class. An `OpPattern` called on another op returns at
    once, so skipping it changes nothing."""

    def __init__(self, patterns: Sequence[RewritePattern]) -> None:
        self._patterns = [(_declared_op_types(p), p, isinstance(p, OutsideGenericBodies)) for p in patterns]
        self._by_class: dict[type[Operation], tuple[RewritePattern, ...]] = {}
        self._in_bodies: dict[type[Operation], bool] = {}

    def matches_for(self, cls: type[Operation]) -> tuple[RewritePattern, ...]:
        """The patterns that may act on an op of class `cls`, in the set's order."""
        found = self._by_class.get(cls)
        if found is None:
            found = tuple(p for types, p, _ in self._patterns if issubclass(cls, types))
            self._by_class[cls] = found
        return found

    def may_match_in_generic_body(self, cls: type[Operation]) -> bool:
        """Could some pattern act on an op of class `cls` inside a generic body?"""
        found = self._in_bodies.get(cls)
        if found is None:
            found = any(not outside and issubclass(cls, types) for types, _, outside in self._patterns)
            self._in_bodies[cls] = found
        return found

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if is_trivially_dead(op):
            rewriter.erase(op)
            return
        for pattern in self.matches_for(type(op)):
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


@dataclass(eq=False, repr=False)
class _SetWalker(PatternRewriteWalker):
    """xDSL's walker (same order, same worklist, same sweeps to a fixpoint; ops before
    the ops nested in them), except that a sweep does not queue an op that no pattern
    of the set can match and that is not dead: visiting it would only have found that
    out. "Can match": the op's class is one of the pattern's `op_types`, and, for an op
    directly in a linalg.generic body, the pattern is not `OutsideGenericBodies`. Mostly
    this skips the scalar ops of generic bodies, which xDSL's walker visits twice per
    pattern set (every set ends with a sweep that changes nothing).
    An op that becomes dead during a sweep because a user is erased is queued by the
    walker's erase handler (it queues the producers of an erased op's single-use
    operands); one whose uses are redirected is erased by the next sweep, where xDSL's
    walker would erase it later in the same sweep if it was still queued -- any change
    makes another sweep, so both end with no dead op and no match. The printed IR is
    the same on every FileCheck input, example and benchmarks/bench_scaling.py module
    (checked against xDSL's walker when this was written)."""

    pattern: _TypeDispatchApplier = field()

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        # xDSL pushes `walk(reverse=not walk_reverse, region_first=True)` onto a stack,
        # so ops pop in walk order, each before the ops nested in it.
        assert isinstance(op, Region)
        self._push_region(op, not self.walk_reverse)

    def _push_region(self, region: Region, reverse: bool, in_body: bool = False) -> None:
        push = self._worklist.push
        may_match = self.pattern.may_match_in_generic_body if in_body else self.pattern.matches_for
        for block in reversed(region.blocks) if reverse else region.blocks:
            for op in reversed(block.ops) if reverse else block.ops:
                for nested in reversed(op.regions) if reverse else op.regions:
                    self._push_region(nested, reverse, isinstance(op, GenericOp))
                if may_match(type(op)) or is_trivially_dead(op):
                    push(op)


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the duration of one pass run.

    A pass allocates many short-lived IR objects, which trigger collections, and each
    full collection walks every object alive in the process -- the whole module: 1.2 M
    objects at 3,000 YOLO heads, 1.5-2 s per collection, 20-40% of `linalg-fuse-ops`
    and `lower-tensor-ext` on large modules (benchmarks/bench_scaling.py). Reference
    counting still frees acyclic garbage at once; the cycles a pass leaves (erased ops
    with their regions) wait for the first collection after it, as the standard
    library's `timeit` does for its timed code. Scoped: the collector is re-enabled on
    exit, error or not, and left alone if it was already disabled.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
