"""`heirpy-report --plot FILE.png`: multiplicative depth and kernels, before and after the
pipeline, one pair of bars per model (the depth bound, when known, as a tick).

matplotlib is an optional extra (`pip install 'heirpy[plot]'`); it is imported only here
and only when a plot is asked for. The figure is drawn on matplotlib's object API (no
pyplot, so no global state) and the PNG carries the plotted numbers as JSON in its
`Description` text chunk, so a script (or a test) can read back what was drawn.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from heirpy.ir.diagnostics import HeirpyError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PANELS = (("depth", "multiplicative depth\n(+: a lower bound)"), ("kernels", "kernels"))


def require_matplotlib() -> None:
    """A one-line error, before any model runs, when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise HeirpyError("error: --plot needs matplotlib: pip install 'heirpy[plot]'") from None


def plot_series(data: dict[str, Any]) -> dict[str, list[Any]]:
    """The numbers the plot draws: per model with both figures, depth and kernels before
    and after, the depth bound (None when unknown) and whether the depth is a lower bound
    (ops outside the cost model, drawn as `+`). Models that failed are left out."""
    series: dict[str, list[Any]] = {
        "models": [], "depth_before": [], "depth_after": [], "depth_bound": [], "depth_lower_bound": [],
        "kernels_before": [], "kernels_after": [],
    }
    for model in data["models"]:
        cells = [model.get(key) for key, _ in PANELS]
        if model.get("error") or any(c is None or "error" in c for c in cells):
            continue
        depth, kernels = cells
        assert depth is not None and kernels is not None
        series["models"].append(model["name"])
        series["depth_before"].append(depth["before"])
        series["depth_after"].append(depth["after"])
        series["depth_bound"].append(depth.get("bound"))
        series["depth_lower_bound"].append(not (depth["before_exact"] and depth["after_exact"]))
        series["kernels_before"].append(kernels["before"])
        series["kernels_after"].append(kernels["after"])
    return series


def draw(data: dict[str, Any]) -> Figure:
    """The figure: one panel per figure of `PANELS`, grouped bars before / after."""
    from matplotlib.figure import Figure

    series = plot_series(data)
    count = len(series["models"])
    fig = Figure(figsize=(max(6.0, 0.55 * count + 2), 6.5), dpi=100, layout="constrained")
    axes = fig.subplots(len(PANELS), 1, sharex=True)
    positions = list(range(count))
    for ax, (key, label) in zip(axes, PANELS):
        ax.bar([p - 0.2 for p in positions], series[f"{key}_before"], 0.4, label="before", color="#b0b0b0")
        ax.bar([p + 0.2 for p in positions], series[f"{key}_after"], 0.4, label="after", color="#3070b0")
        if key == "depth" and any(b is not None for b in series["depth_bound"]):
            known = [(p, b) for p, b in zip(positions, series["depth_bound"]) if b is not None]
            ax.scatter([p + 0.2 for p, _ in known], [b for _, b in known], marker="_", s=300,
                       color="black", label="bound", zorder=3)
        if key == "depth":
            for p, plus, top in zip(positions, series["depth_lower_bound"], series["depth_after"]):
                if plus:
                    ax.annotate("+", (p, top), ha="center", va="bottom", fontsize="large")
        ax.set_ylabel(label)
        ax.legend(loc="upper right", fontsize="small")
        ax.grid(axis="y", alpha=0.3)
    axes[-1].set_xticks(positions, series["models"], rotation=45, ha="right")
    axes[0].set_title(f"heirpy-report: {data['pipeline']}", fontsize="medium")
    return fig


def save_plot(data: dict[str, Any], path: Path) -> None:
    """Draw the figure and write it as a PNG (the plotted numbers in its Description)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = draw(data)
    FigureCanvasAgg(fig)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", metadata={"Description": json.dumps(plot_series(data))})
