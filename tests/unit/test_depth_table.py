"""The depth report's table text and FunctionDepth's figures on hand-made rows: the
dashed rule under the header, columns as wide as their widest cell, '-' for no result
and for nothing approximated, 'pt' for a plaintext result, '+' only when approximated."""

from __future__ import annotations

from heirpy.analysis.depth import FunctionDepth, format_depth_table


def test_the_table_text() -> None:
    rows = [
        FunctionDepth("main", (3, None), 2, 1, ("math.exp", "arith.maximumf"), 640),
        FunctionDepth("g", (), 0, 0),
    ]
    assert format_depth_table(rows).splitlines() == [
        "function  depth  result depths  linear ops  weight bytes  ct x ct muls  not modelled",
        "--------  -----  -------------  ----------  ------------  ------------  " + "-" * len("math.exp, arith.maximumf"),
        "@main     3+     3, pt          2           640           1             math.exp, arith.maximumf",
        "@g        0      -              0           0             0             -",
    ]


def test_depth_is_the_deepest_ciphertext_result() -> None:
    assert FunctionDepth("f", (None, None), 0, 0).depth == 0
    assert FunctionDepth("f", (2, None, 5, 1), 0, 0).depth == 5
    assert FunctionDepth("f", (2,), 0, 0).exact and FunctionDepth("f", (2,), 0, 0).depth_text() == "2"
    assert not FunctionDepth("f", (2,), 0, 0, ("x",)).exact
