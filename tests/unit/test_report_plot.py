"""heirpy-report --plot: the PNG holds the figure of depth and kernels per model, and the
numbers drawn are the report's."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

from heirpy.tools.heirpy_report import main
from heirpy.tools.report_plot import draw, plot_series, save_plot

pytest.importorskip("matplotlib")  # the `plot` extra, part of the `test` extra: CI has it

EXAMPLES = Path(__file__).parent.parent.parent / "examples"


def _model(name: str, depth: tuple[int, int], kernels: tuple[int, int], bound: int | None = None,
           exact: bool = True) -> dict[str, Any]:
    return {"name": name, "error": None,
            "depth": {"before": depth[0], "after": depth[1], "before_exact": exact, "after_exact": exact,
                      "bound": bound},
            "kernels": {"before": kernels[0], "after": kernels[1]}}


DATA = {"pipeline": "linalg-canonicalizations,linalg-fuse-ops", "models": [
    _model("tiny_cnn", (6, 3), (17, 3), bound=3),
    _model("vit_attention", (5, 5), (27, 9), exact=False),
    {"name": "broken", "error": "broken.mlir:1:1: error: nope"},
    dict(_model("half", (2, 1), (3, 1)), kernels={"error": "internal error"}),
]}


def png_chunks(path: Path) -> list[tuple[bytes, bytes]]:
    """The (type, data) chunks of a PNG file, checking its signature and each chunk's CRC."""
    raw = path.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(raw):
        (length,) = struct.unpack(">I", raw[at:at + 4])
        kind, data = raw[at + 4:at + 8], raw[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", raw[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + data) == crc
        chunks.append((kind, data))
        at += 12 + length
    return chunks


def test_series_are_the_report_figures_of_models_that_have_them() -> None:
    assert plot_series(DATA) == {
        "models": ["tiny_cnn", "vit_attention"],
        "depth_before": [6, 5], "depth_after": [3, 5], "depth_bound": [3, None],
        "depth_lower_bound": [False, True],
        "kernels_before": [17, 27], "kernels_after": [3, 9],
    }


def test_figure_draws_the_series() -> None:
    """Bars before and after per panel, at the series' heights; the bound as a marker."""
    fig = draw(DATA)
    depth_ax, kernel_ax = fig.axes
    heights = [[round(p.get_height()) for p in c.patches] for c in depth_ax.containers]
    assert heights == [[6, 5], [3, 5]]
    assert [[round(p.get_height()) for p in c.patches] for c in kernel_ax.containers] == [[17, 27], [3, 9]]
    (bound,) = depth_ax.collections
    assert bound.get_offsets().tolist() == [[0.2, 3.0]]
    assert [t.get_text() for t in kernel_ax.get_xticklabels()] == ["tiny_cnn", "vit_attention"]
    assert [t.get_text() for t in depth_ax.texts] == ["+"]  # vit_attention's depth is a lower bound


def test_png_holds_the_plotted_numbers(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "report.png"
    save_plot(DATA, path)
    chunks = png_chunks(path)
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height = struct.unpack(">II", chunks[0][1][:8])
    assert (width, height) == (600, 650)  # 6 x 6.5 inches at 100 dpi
    text = dict(data.split(b"\0", 1) for kind, data in chunks if kind == b"tEXt")
    assert json.loads(text[b"Description"]) == plot_series(DATA)
    assert sum(len(data) for kind, data in chunks if kind == b"IDAT") > 10_000  # drawn, not blank


def test_main_writes_the_plot_and_says_where(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "report.png"
    assert main([str(EXAMPLES / "tiny_cnn.mlir"), "--seeds", "1", "--plot", str(plot)]) == 0
    assert f"plot: {plot}" in capsys.readouterr().out
    text = dict(data.split(b"\0", 1) for kind, data in png_chunks(plot) if kind == b"tEXt")
    series = json.loads(text[b"Description"])
    assert (series["models"], series["depth_before"], series["depth_after"]) == (["tiny_cnn"], [6], [3])
    assert series["depth_bound"] == [3]
    assert (series["kernels_before"], series["kernels_after"]) == ([17], [3])
