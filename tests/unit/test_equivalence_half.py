"""heirpy-equiv on half-precision results: an honest change of rounding passes, a wrong
rewrite does not (`heirpy.interp.equivalence.judge_half`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from heirpy.tools.heirpy_run import equiv_main

STEPS = 64
"""Multiply-adds in the chain: enough f16 roundings to put A tens of ulps off the exact values."""


def chain(element: str, shift: str = "0.0") -> str:
    """`y = x; y = y + x * c_k` for k < STEPS, computed in `element` (f16: each op rounds;
    f32: torch-mlir's mixed form, widened once and rounded once at the end), plus `shift`
    after the rounding (0.0: an honest rewrite; otherwise a wrong one)."""
    wide = element == "f32"
    lines = ["    %x0 = arith.extf %a : f16 to f32" if wide else "    %x0 = arith.addf %a, %zero : f16"]
    for k in range(STEPS):
        lines.append(f"    %c{k} = arith.constant {0.1 * (k % 7 + 1) + 0.013 * k:.6f} : {element}")
        lines.append(f"    %p{k} = arith.mulf %x0, %c{k} : {element}")
        previous = "%x0" if k == 0 else f"%y{k - 1}"
        lines.append(f"    %y{k} = arith.addf {previous}, %p{k} : {element}")
    last = f"%y{STEPS - 1}"
    if wide:
        lines.append(f"    %n = arith.truncf {last} : f32 to f16")
        last = "%n"
    lines.append(f"    %shift = arith.constant {shift} : f16")
    lines.append(f"    %out = arith.addf {last}, %shift : f16")
    body = "\n".join(lines)
    return f"""
#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {{
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x16xf16>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%x : tensor<8x16xf16>) outs(%e : tensor<8x16xf16>) {{
  ^bb0(%a: f16, %o: f16):
{body}
    linalg.yield %out : f16
  }} -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}}
"""


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    paths = {}
    for name, text in (("f16", chain("f16")), ("f32", chain("f32")), ("off", chain("f32", "1.0")),
                       ("at_limit", chain("f32", "0.25"))):
        path = tmp_path / f"{name}.mlir"
        path.write_text(text)
        paths[name] = str(path)
    return paths


def test_a_closer_rounding_passes(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    # The plain rule (4 f16 ulps) fails it: f16 accumulation is tens of ulps off.
    assert equiv_main([files["f16"], files["f32"], "--plain-half"]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    assert equiv_main([files["f16"], files["f32"]]) == 0
    out = capsys.readouterr().out
    assert "against the first computed in f32" in out and ": ok" in out


def test_a_wrong_rewrite_still_fails(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert equiv_main([files["f16"], files["off"]]) == 1
    assert "further" in capsys.readouterr().out


def test_a_shift_within_the_magnitude_tolerance_passes(files: dict[str, str]) -> None:
    # The tolerance is 4 ulps of the result's magnitude (|y| up to about 120 on seeds 0-2:
    # atol 0.48, heirpy-report's rule), so 0.25 further than A passes and 1.0 does not.
    assert equiv_main([files["f16"], files["at_limit"]]) == 0


def test_f32_results_keep_the_plain_rule(tmp_path: Path) -> None:
    # No half-precision result, no f32 computation to judge against: a shift of 1e-3 on an
    # f32 result is a mismatch as before.
    a, b = tmp_path / "a.mlir", tmp_path / "b.mlir"
    a.write_text(chain("f32").replace("f16", "f32").replace("arith.extf %a : f32 to f32", "arith.addf %a, %zero : f32")
                 .replace("    %n = arith.truncf %y63 : f32 to f32\n", "").replace("%out = arith.addf %n,", "%out = arith.addf %y63,"))
    b.write_text(a.read_text().replace("%shift = arith.constant 0.0 : f32", "%shift = arith.constant 1.0e-3 : f32"))
    assert equiv_main([str(a), str(a)]) == 0
    assert equiv_main([str(a), str(b)]) == 1
