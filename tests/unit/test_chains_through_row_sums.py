"""A Linear on the mean over the rows of a residual add (`chains_through_row_sums`): the
sum's shape test at its limits."""

from __future__ import annotations

import pytest
from xdsl.ir.affine import AffineExpr, AffineMap

from heirpy.transforms.linear.chains_through_row_sums import sums_rows

D = [AffineExpr.dimension(i) for i in range(3)]
IDENTITY = AffineMap(3, 0, tuple(D))


@pytest.mark.parametrize(("out", "kinds", "expected"), [
    ((D[0], D[2]), ["parallel", "reduction", "parallel"], True),  # tokens summed, features kept last
    ((D[2],), ["reduction", "reduction", "parallel"], True),  # every row summed
    ((D[0], D[1]), ["parallel", "parallel", "reduction"], False),  # features summed
    ((D[2], D[0]), ["parallel", "reduction", "parallel"], False),  # features not last
    ((D[0], AffineExpr.constant(0), D[2]), ["parallel", "reduction", "parallel"], False),  # a constant axis
])
def test_sums_rows_at_its_limits(out: tuple[AffineExpr, ...], kinds: list[str], expected: bool) -> None:
    assert sums_rows(IDENTITY, AffineMap(3, 0, out), kinds) is expected


def test_sums_rows_needs_rows() -> None:
    one = AffineMap(1, 0, (AffineExpr.dimension(0),))
    assert sums_rows(one, one, ["parallel"]) is False
