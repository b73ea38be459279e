"""linalg-canonicalizations' pattern sets for each option (canonicalize/
linalg_canonicalizations.py): `elementwise=false` leaves out the generic -> tensor-op
patterns and the quadratic ones, a rule bounding MACs leaves out the standalone pool ->
conv patterns and the per-reader copies of affine runs, the default keeps all; and the
pass's bad `conv-pool` option is a one-line error. Found by issue 35's mutation habit:
the sets were checked only through the IR each option gives on a few inputs."""

from __future__ import annotations

import pytest

from heirpy.api import parse, run_pipeline
from heirpy.ir.diagnostics import HeirpyError
from heirpy.transforms.canonicalize.affine_readers import AffineRunPerLinearReader
from heirpy.transforms.canonicalize.elementwise import GenericToElementwise, MapToElementwise
from heirpy.transforms.canonicalize.linalg_canonicalizations import (
    canonicalization_patterns,
    populate_linalg_canonicalizations_patterns,
)
from heirpy.transforms.canonicalize.linear import PoolToConv1D, PoolToConv2D
from heirpy.transforms.canonicalize.polynomial import CompleteTheSquare, ScaleEachAddend
from heirpy.transforms.linear.fusion_cost import CostRule


def _kinds(sets: list) -> set[type]:  # type: ignore[type-arg]
    return {type(p) for s in sets for p in s.patterns}


def test_canonicalization_patterns_by_option() -> None:
    every = {type(p) for p in canonicalization_patterns()}
    assert {GenericToElementwise, MapToElementwise, PoolToConv2D, PoolToConv1D} <= every
    no_elementwise = {type(p) for p in canonicalization_patterns(elementwise=False)}
    assert every - no_elementwise == {GenericToElementwise, MapToElementwise}
    no_pools = {type(p) for p in canonicalization_patterns(pools_to_convs=False)}
    assert every - no_pools == {PoolToConv2D, PoolToConv1D}


def test_the_sets_by_option() -> None:
    default = _kinds(populate_linalg_canonicalizations_patterns())
    assert {CompleteTheSquare, ScaleEachAddend, AffineRunPerLinearReader, PoolToConv2D} <= default
    assert _kinds(populate_linalg_canonicalizations_patterns(rule=CostRule())) == default  # MACs unbounded
    macs = _kinds(populate_linalg_canonicalizations_patterns(rule=CostRule(max_mac_growth=1)))
    assert default - macs == {AffineRunPerLinearReader, PoolToConv2D, PoolToConv1D}
    plain = _kinds(populate_linalg_canonicalizations_patterns(elementwise=False))
    assert default - plain == {CompleteTheSquare, ScaleEachAddend, GenericToElementwise, MapToElementwise}


def test_a_bad_conv_pool_option_is_an_error() -> None:
    with pytest.raises(HeirpyError, match=r"^error: linalg-canonicalizations\{conv-pool=both\}: "
                                          r"expected 'conv' or 'fused'$"):
        run_pipeline(parse("module {\n}"), "linalg-canonicalizations{conv-pool=both}")
