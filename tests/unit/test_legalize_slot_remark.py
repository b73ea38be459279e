"""legalize-for-heir's slot-count checks at their limits: `check_slot_count` at 0 and -1,
and `slot_remark` with the longest secret vector exactly at, one over and one under the
asked count, and the count it chose at, and one step over, HEIR's default. Found by
issue 35's mutation habit: each comparison was tested on one side only."""

from __future__ import annotations

import pytest
from xdsl.dialects.func import FuncOp

from heirpy.analysis.slots import DEFAULT_SLOT_COUNT
from heirpy.api import parse
from heirpy.ir.diagnostics import HeirpyError
from heirpy.transforms.heir.legalize_for_heir import check_slot_count, slot_remark


def test_slot_count_zero_is_heirpys_choice_and_negative_is_an_error() -> None:
    check_slot_count("legalize-for-heir", 0)
    check_slot_count("legalize-for-heir", 1)
    with pytest.raises(HeirpyError, match=r"^error: legalize-for-heir: slot-count must be 0 \(heirpy picks it\) "
                                          r"or a number of slots, got -1$"):
        check_slot_count("legalize-for-heir", -1)


def _matvec(rows: int, cols: int) -> list[FuncOp]:
    """@f: a matvec reading a secret `cols`-vector into a `rows`-vector."""
    module = parse(f"""
func.func @f(%x: tensor<{cols}xf32>) -> tensor<{rows}xf32> {{
  %a = arith.constant dense<0.5> : tensor<{rows}x{cols}xf32>
  %b = arith.constant dense<0.0> : tensor<{rows}xf32>
  %y = linalg.matvec ins(%a, %x : tensor<{rows}x{cols}xf32>, tensor<{cols}xf32>) outs(%b : tensor<{rows}xf32>) -> tensor<{rows}xf32>
  return %y : tensor<{rows}xf32>
}}""")
    return [op for op in module.ops if isinstance(op, FuncOp)]


def test_a_vector_as_long_as_the_asked_slots_fits_them() -> None:
    functions = _matvec(8, 16)
    assert slot_remark("legalize-for-heir", functions, 16, 16) == ""
    assert slot_remark("legalize-for-heir", functions, 16, 17) == ""
    over = slot_remark("legalize-for-heir", functions, 16, 15)
    assert over == (
        "remark: legalize-for-heir: @f has a secret tensor of 16 elements, more than 15 slots: run "
        "heir-prepare{slot-count=1024} (or leave slot-count out), then heir-opt "
        "--torch-linalg-to-ckks=min-slot-count=1024"
    )


def test_heirs_default_slot_count_needs_no_remark() -> None:
    functions = _matvec(8, 16)
    assert slot_remark("legalize-for-heir", functions, DEFAULT_SLOT_COUNT, 0) == ""
    assert slot_remark("legalize-for-heir", functions, 2 * DEFAULT_SLOT_COUNT, 0) == (
        "remark: legalize-for-heir: the module needs 2048 slots (@f has a secret tensor of 16 elements): "
        "run heir-opt --torch-linalg-to-ckks=min-slot-count=2048"
    )
    long = _matvec(4, DEFAULT_SLOT_COUNT + 1)
    assert "the module needs 2048 slots (@f has a secret tensor of 1025 elements)" in slot_remark(
        "legalize-for-heir", long, 0, 0)
    at = _matvec(4, DEFAULT_SLOT_COUNT)
    assert slot_remark("legalize-for-heir", at, 0, 0) == ""
