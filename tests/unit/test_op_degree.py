"""`heirpy.ir.utils.op_degree`: the one polynomial-degree rule that the lowering's
generic forms and the Orion exporter's pointwise reading share."""

from __future__ import annotations

import pytest

from heirpy.ir.utils import op_degree


@pytest.mark.parametrize(
    ("name", "degrees", "expected"),
    [
        ("arith.addf", [1, 2], 2),
        ("linalg.sub", [2, 0], 2),
        ("arith.negf", [1], 1),
        ("arith.mulf", [1, 1], 2),
        ("linalg.mul", [2, 1], 3),
        ("arith.divf", [2, 0], 2),  # by a constant
        ("linalg.div", [1, 1], None),  # by a variable: not a polynomial
        ("math.exp", [1], None),
        ("math.exp", [0], 0),  # of a constant: a constant
    ],
)
def test_degree_of_one_op(name: str, degrees: list[int], expected: int | None) -> None:
    assert op_degree(name, degrees) == expected
