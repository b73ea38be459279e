"""The pattern driver (`heirpy.transforms.rewrite`): the cyclic garbage collector is
paused for one pass run only, and its state is restored whatever happens."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from heirpy.api import parse
from heirpy.transforms.rewrite import PatternSet, apply_pattern_sets

TEXT = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.negf %x : tensor<4xf32>
  return %a : tensor<4xf32>
}
"""


class _RecordGc(RewritePattern):
    """Records whether the collector runs while patterns are applied; may raise."""

    def __init__(self, fail: bool = False) -> None:
        self.seen: list[bool] = []
        self.fail = fail

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.seen.append(gc.isenabled())
        if self.fail:
            raise KeyboardInterrupt  # not caught by xDSL's walker, like a user's ^C


@pytest.fixture
def collector_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_paused_during_a_run_and_enabled_after(collector_enabled: None) -> None:
    pattern = _RecordGc()
    apply_pattern_sets(parse(TEXT), [PatternSet.of(pattern)])
    assert pattern.seen and not any(pattern.seen)
    assert gc.isenabled()


def test_the_collector_is_enabled_again_after_an_error(collector_enabled: None) -> None:
    with pytest.raises(KeyboardInterrupt):
        apply_pattern_sets(parse(TEXT), [PatternSet.of(_RecordGc(fail=True))])
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled(collector_enabled: None) -> None:
    gc.disable()
    try:
        apply_pattern_sets(parse(TEXT), [PatternSet.of(_RecordGc())])
        assert not gc.isenabled()
    finally:
        gc.enable()
