"""The one way heirpy runs rewrite patterns.

A pass's module exports `populate_<pass_name>_patterns(...)`, which returns the
`PatternSet`s the pass applies, in order. A `PatternSet` is a list of patterns that run
together to a fixpoint *with the walker settings they need* (e.g. pointwise fusion
walks consumers first), so whoever runs the set -- the pass itself, or an umbrella pass
such as `linalg-fuse-ops` -- runs it the same way through `apply_pattern_sets`.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    RewritePattern,
)


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
            PatternRewriteWalker(
                GreedyRewritePatternApplier(list(pattern_set.patterns)),
                apply_recursively=pattern_set.apply_recursively,
                walk_reverse=pattern_set.walk_reverse,
            ).rewrite_module(module)


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
