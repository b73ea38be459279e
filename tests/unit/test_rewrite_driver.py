"""The pattern driver (`heirpy.transforms.rewrite`): the cyclic garbage collector is
paused for one pass run only, and its state is restored whatever happens; a pattern
set visits the ops its patterns can match, and erases dead ops everywhere; a pattern
is called only on the op types it declares, and every pattern of heirpy's passes
declares them."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from xdsl.dialects.linalg.ops import GenericOp, TransposeOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from heirpy.api import context_of, parse
from heirpy.transforms.rewrite import (
    OpPattern,
    OutsideGenericBodies,
    PatternSet,
    apply_pattern_sets,
    in_generic_body,
)

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


# ---------------------------------------------------------------- which ops a set visits
GENERIC = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<4xf32>, %c: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %dead = arith.negf %x : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %unused = arith.mulf %in, %c : f32
    %unused2 = arith.addf %unused, %c : f32
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


class _RecordAll(RewritePattern):
    """No declared op types: called on every op the walker visits."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.seen.append(op.name)


class _RecordTranspose(OpPattern[TransposeOp | GenericOp]):
    """Declares two op types; records the ops it is called on (`called`) and the ones
    its `rewrite` sees (`seen`)."""

    op_types = (TransposeOp, GenericOp)

    def __init__(self) -> None:
        self.called: list[str] = []
        self.seen: list[str] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.called.append(op.name)
        super().match_and_rewrite(op, rewriter)

    def rewrite(self, op: TransposeOp | GenericOp, rewriter: PatternRewriter) -> None:
        self.seen.append(op.name)


def test_a_pattern_without_an_op_type_sees_every_live_op_in_walk_order() -> None:
    pattern = _RecordAll()
    apply_pattern_sets(parse(GENERIC), [PatternSet.of(pattern)])
    # The first sweep erases the dead ops (%unused only after its dead user), the second changes nothing.
    first = ["func.func", "tensor.empty", "linalg.generic", "arith.mulf", "arith.negf", "linalg.yield", "func.return"]
    assert pattern.seen == first + [name for name in first if name != "arith.mulf"]


def test_a_pattern_is_called_on_its_declared_op_types_only() -> None:
    """The driver reads `op_types`: it does not even call the pattern on other ops."""
    pattern = _RecordTranspose()
    apply_pattern_sets(parse(GENERIC), [PatternSet.of(pattern)])
    assert pattern.called == ["linalg.generic"] * 2  # the sweep that erased the dead ops, and the last one
    assert pattern.seen == pattern.called


def test_a_declared_pattern_acts_on_its_op_types_only_under_xdsls_walker() -> None:
    """Under xDSL's own walker the pattern is called on every op, and `rewrite` still
    sees only the declared types: the same pattern works with both drivers."""
    pattern = _RecordTranspose()
    PatternRewriteWalker(pattern).rewrite_module(parse(GENERIC))
    assert "func.return" in pattern.called and "arith.negf" in pattern.called
    assert set(pattern.seen) == {"linalg.generic"}


def test_dead_ops_are_erased_where_no_pattern_can_match_them() -> None:
    """The walker erases trivially dead ops it visits, inside generic bodies too; a set
    that skips the ops its patterns cannot match must still do that, also for an op
    that is only dead once its dead user is gone (%unused)."""
    module = parse(GENERIC)
    apply_pattern_sets(module, [PatternSet.of(_RecordTranspose())])
    names = [op.name for op in module.walk()]
    assert names.count("arith.negf") == 1 and "arith.mulf" not in names and "arith.addf" not in names


def _every_heirpy_pattern() -> list[RewritePattern]:
    """The patterns of every heirpy pass, under each option that changes the set."""
    from heirpy.transforms.canonicalize.linalg_canonicalizations import populate_linalg_canonicalizations_patterns
    from heirpy.transforms.heir.legalize_for_heir import populate_legalize_for_heir_patterns
    from heirpy.transforms.linalg_fuse_ops import populate_linalg_fuse_ops_patterns
    from heirpy.transforms.linear.linalg_fuse_conv_pool import populate_linalg_fuse_conv_pool_patterns
    from heirpy.transforms.linear.linalg_fuse_linear_chains import populate_linalg_fuse_linear_chains_patterns
    from heirpy.transforms.linear.linalg_fuse_linear_ops import populate_linalg_fuse_linear_ops_patterns
    from heirpy.transforms.lowering.lower_tensor_ext import populate_lower_tensor_ext_patterns
    from heirpy.transforms.pointwise.linalg_fuse_pointwise import populate_linalg_fuse_pointwise_patterns

    sets = [
        *populate_linalg_canonicalizations_patterns(),
        *populate_linalg_fuse_ops_patterns(),
        *populate_linalg_fuse_conv_pool_patterns(),
        *populate_linalg_fuse_linear_chains_patterns(),
        *populate_linalg_fuse_linear_ops_patterns(),
        *populate_legalize_for_heir_patterns(),
        *populate_lower_tensor_ext_patterns(layout_ops=True),
        *populate_lower_tensor_ext_patterns(layout_ops=False),
        *populate_linalg_fuse_pointwise_patterns(kernels=True),
        *populate_linalg_fuse_pointwise_patterns(kernels=False),
    ]
    return [p for s in sets for p in s.patterns]


# The patterns that may act on any op, each for a reason its `op_types` comment gives.
# A new pattern declares its op types, or joins this list on purpose.
DELIBERATELY_GENERIC = {
    "AffineRunPerLinearReader",
    "ConstantsToTheRight",
    "ElementwiseToGeneric",
    "FoldAffineIntoMatvec",
    "FoldScaleIntoSharedLinearOp",
    "FuseElementwiseIntoGroupedConv",
    "FuseElementwiseIntoLinearOp",
    "FuseLinearChain",
    "FuseRuntimeBiasIntoInit",
    "FuseRuntimeScaleIntoWeights",
    "MoveScaleIntoProjection",
}


def test_every_heirpy_pattern_declares_its_op_types() -> None:
    patterns = _every_heirpy_pattern()
    assert len({type(p) for p in patterns}) >= 40
    generic = set()
    for pattern in patterns:
        name = type(pattern).__name__
        assert isinstance(pattern, OpPattern), f"{name} does not declare the op types it acts on"
        assert pattern.op_types and all(issubclass(t, Operation) for t in pattern.op_types), name
        if Operation in pattern.op_types:
            generic.add(name)
    assert generic == DELIBERATELY_GENERIC


class _RecordOutside(_RecordAll, OutsideGenericBodies):
    """No op type, but never acts inside a generic body."""


def test_a_set_of_patterns_outside_generic_bodies_does_not_visit_body_ops() -> None:
    pattern = _RecordOutside()
    module = parse(GENERIC)
    apply_pattern_sets(module, [PatternSet.of(pattern)])
    outside = ["func.func", "tensor.empty", "linalg.generic", "func.return"]
    assert pattern.seen == outside * 2
    names = [op.name for op in module.walk()]  # the dead body ops are erased all the same
    assert "arith.mulf" not in names and "arith.addf" not in names and names.count("arith.negf") == 1


def test_patterns_marked_outside_generic_bodies_do_nothing_there() -> None:
    """The mark is a promise the walker relies on: each marked pattern of every pass
    returns at once for an op inside a generic body, whatever the op."""
    from heirpy.transforms.linalg_fuse_ops import populate_linalg_fuse_ops_patterns

    module = parse(GENERIC)
    marked = [
        p
        for s in populate_linalg_fuse_ops_patterns(context_of(module))
        for p in s.patterns
        if isinstance(p, OutsideGenericBodies)
    ]
    assert {type(p).__name__ for p in marked} >= {"ElementwiseToGeneric", "FuseLinearChain"}
    body = [op for op in module.walk() if in_generic_body(op)]
    assert len(body) == 4
    for pattern in marked:
        for op in body:
            rewriter = PatternRewriter(op)
            pattern.match_and_rewrite(op, rewriter)
            assert not rewriter.has_done_action, (type(pattern).__name__, op.name)
