"""How `heirpy-report` shows its figures: grouped text tables that fit a terminal,
markdown tables for documents, JSON for scripts. All three render one data structure,
so each holds the same facts.

The data is JSON-shaped (what `--format json` prints):

    {"pipeline": "...", "out_dir": "build/examples" | null, "plot": "build/report.png" | null,
     "models": [{"name": "tiny_cnn", "file": "examples/tiny_cnn.mlir", "seconds": 2.1,
                 "error": null, "heir_opt": {...}, "evaluator": {...}, ...}]}

A model's `error` is set when it could not be read, parsed or rewritten (no figures then).
Each other key is a cell of one `COLUMN`; a cell that could not be computed is
`{"error": "..."}`. Cell shapes by kind:

* check: `{"verdict": V, "max_abs_error": float | null, "detail": str}`; V is "ok",
  "MISMATCH", "not comparable: <why>" (a NaN or Inf in the reference) or "n/a", and the
  PyTorch check's also "model≠ref, heirpy ok" (a pass: the input model's own output is
  off the reference, heirpy's no further), with `model_abs_error` (the input model
  against the reference), `changed_abs_error` (heirpy's output against the model's) and
  `atol` (the largest absolute tolerance used); the
  heir-opt check's V is "yes", "NO" or "n/a". The evaluator check adds `"seeds":
  [compared, drawn]` when ok: a seed whose reference holds NaN or Inf is not compared
  (the detail names it, shown as `ok 1.0e-09 (2/3 seeds)`).
* pair: `{"before": int | str, "after": int | str}` (a str says why there is no number,
  e.g. IREE "rejected"); depth adds `"before_exact"`, `"after_exact"` (false: ops outside
  the cost model, the depth is a lower bound, shown `+`), `"bound"` (the depth with every
  chain of linear ops fused, `heirpy.analysis.depth.depth_bound`) and `"bound_exact"`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from heirpy.interp.reference import MODEL_DIFFERS

WIDTH = 100  # the text report fits a 100-column terminal (tests/unit/test_report.py)

PASSING = ("ok", "yes", "n/a", MODEL_DIFFERS)  # check verdicts that do not fail the run


@dataclass(frozen=True)
class Column:
    key: str  # the model's key in the data
    header: str
    kind: str  # "check", "pair", "bytes" (a pair of byte counts) or "depth"


@dataclass(frozen=True)
class Group:
    title: str
    legend: str
    columns: tuple[Column, ...]


GROUPS: tuple[Group, ...] = (
    Group(
        "Checks",
        "numerics: max abs error of the output against the input on random inputs (evaluator), "
        "and on the .npz inputs against PyTorch's outputs",
        (
            Column("heir_opt", "heir-opt parses", "check"),
            Column("evaluator", "vs evaluator", "check"),
            Column("pytorch", "vs PyTorch", "check"),
        ),
    ),
    Group(
        "Encrypted inference (CKKS cost model)",
        "before→after; (bound): the depth with every chain of linear ops fused; +: ops outside the "
        "model (relu, exp, max), so a lower bound",
        (
            Column("depth", "depth (bound)", "depth"),
            Column("linear_ops", "linear ops", "pair"),
            Column("weight_bytes", "weight bytes", "bytes"),
        ),
    ),
    Group(
        "Kernels",
        "before→after; k = 1e3, M = 1e6 bytes; IREE: llvm-cpu dispatches, heirpy's under iree-prepare",
        (
            Column("compute_ops", "linalg ops", "pair"),
            Column("kernels", "kernels", "pair"),
            Column("intermediate_bytes", "intermediate bytes", "bytes"),
            Column("constant_bytes", "constant bytes", "bytes"),
            Column("iree_dispatches", "IREE dispatches", "pair"),
        ),
    ),
)
COLUMNS: dict[str, Column] = {c.key: c for g in GROUPS for c in g.columns}


# ----------------------------------------------------------------------------- cells
def human_bytes(value: int | str) -> str:
    """A byte count a person reads at a glance: exact below 10,000, else 3 digits and
    k / M / G (powers of 1000)."""
    if isinstance(value, str) or value < 10_000:
        return str(value)
    rounded = float(f"{value:.3g}")  # 3 significant digits, then the unit that fits them
    for unit, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if rounded >= scale:
            scaled = rounded / scale
            return f"{scaled:.{max(0, 3 - len(str(int(scaled))))}f}{unit}"
    return str(value)


def cell_text(column: Column, cell: dict[str, Any] | None) -> str:
    """What a table shows for one cell."""
    if cell is None:
        return "n/a"
    if "error" in cell:
        return "error (below)"
    if column.kind == "check":
        verdict = cell["verdict"]
        if verdict in ("ok", "MISMATCH", MODEL_DIFFERS) and cell.get("max_abs_error") is not None:
            compared, total = cell.get("seeds", (1, 1))
            seeds = f" ({compared}/{total} seeds)" if compared < total else ""
            return f"{verdict} {cell['max_abs_error']:.1e}{seeds}"
        return str(verdict)
    if column.kind == "depth":
        text = f"{cell['before']}{'' if cell['before_exact'] else '+'}→{cell['after']}"
        text += "" if cell["after_exact"] else "+"
        if cell.get("bound") is None:
            return text
        return text + f" ({cell['bound']}{'' if cell.get('bound_exact', True) else '+'})"
    show = human_bytes if column.kind == "bytes" else str
    return f"{show(cell['before'])}→{show(cell['after'])}"


def failed_checks(model: dict[str, Any]) -> list[str]:
    """Why `model` does not pass: its error, each check whose verdict is not a pass (a
    mismatch, heir-opt rejecting the output, values not comparable), and each cell that
    could not be computed. Empty when it passes."""
    if model.get("error"):
        return ["error"]
    reasons = []
    for column in COLUMNS.values():
        cell = model.get(column.key)
        if cell is None:
            continue
        if "error" in cell:
            reasons.append(f"{column.header}: error")
        elif column.kind == "check" and cell["verdict"] not in PASSING:
            reasons.append(f"{column.header}: {cell['verdict']}")
    return reasons


def notes(data: dict[str, Any]) -> list[str]:
    """One line per thing a table cell cannot hold: a model's error, a cell's error, a
    check's detail (heir-opt's error line, what mismatched)."""
    lines = []
    for model in data["models"]:
        if model.get("error"):
            lines.append(f"{model['name']}: {model['error']}")
            continue
        for column in COLUMNS.values():
            cell = model.get(column.key) or {}
            detail = cell.get("error") or cell.get("detail")
            if detail:
                lines.append(f"{model['name']}, {column.header}: {detail}")
        if model.get("remarks"):
            count = model["remarks"]
            lines.append(f"{model['name']}: the pipeline made {count} remark{'s' * (count > 1)} "
                         f"(heirpy-opt {model['file']} -p PIPELINE prints them)")
    return lines


def summary(data: dict[str, Any]) -> str:
    """The run's verdict in one line."""
    models = data["models"]
    failed = [(m["name"], failed_checks(m)) for m in models if failed_checks(m)]
    if not failed:
        return f"all checks passed ({len(models)} models)"
    names = "; ".join(f"{name} ({', '.join(reasons)})" for name, reasons in failed)
    return f"not passed: {len(failed)} of {len(models)} models: {names}"


# ----------------------------------------------------------------------------- text
def fit_table(header: Sequence[str], rows: Sequence[Sequence[str]], width: int = WIDTH) -> list[str]:
    """Columns separated by two spaces, a dashed rule under the header. When the table is
    wider than `width`, the widest columns (never the first) narrow and their cells wrap
    onto more lines, so any content fits."""
    table = [list(header), *[list(r) for r in rows]]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    floor = 8
    while sum(widths) + 2 * (len(widths) - 1) > width:
        widest = max(range(1, len(widths)), key=lambda i: widths[i], default=0)
        if widest == 0 or widths[widest] <= floor:
            break
        widths[widest] -= 1
    out = []
    for number, line in enumerate(table):
        wrapped = [textwrap.wrap(cell, w, break_on_hyphens=False) or [""] for cell, w in zip(line, widths)]
        for k in range(max(len(w) for w in wrapped)):
            parts = [(w[k] if k < len(w) else "").ljust(widths[i]) for i, w in enumerate(wrapped)]
            out.append("  ".join(parts).rstrip())
        if number == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def render_text(data: dict[str, Any], width: int = WIDTH) -> str:
    """The report as a person reads it: one table per group, then notes and the verdict."""
    lines = [f"pipeline: {data['pipeline']}"]
    models = data["models"]
    for group in GROUPS:
        lines += ["", group.title, *textwrap.wrap(group.legend, width)]
        header = ["model", *[c.header for c in group.columns]]
        rows = [
            [m["name"], *(["error (below)"] + [""] * (len(group.columns) - 1) if m.get("error")
                          else [cell_text(c, m.get(c.key)) for c in group.columns])]
            for m in models
        ]
        lines += fit_table(header, rows, width)
    extra = notes(data)
    if extra:
        lines += ["", "Notes"]
        for note in extra:
            lines += textwrap.wrap(note, width, subsequent_indent="  ", break_on_hyphens=False)
    lines.append("")
    if data.get("out_dir"):
        lines.append(f"rewritten models: {data['out_dir']}/")
    if data.get("plot"):
        lines.append(f"plot: {data['plot']}")
    lines += textwrap.wrap(summary(data), width, subsequent_indent="  ")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- markdown
def _md(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(data: dict[str, Any]) -> str:
    """The same tables as GitHub-flavoured markdown, for documents."""
    lines = [f"Pipeline: `{data['pipeline']}`"]
    for group in GROUPS:
        lines += ["", f"**{group.title}** ({_md(group.legend)})", ""]
        lines.append("| model | " + " | ".join(_md(c.header) for c in group.columns) + " |")
        lines.append("|---" * (len(group.columns) + 1) + "|")
        for m in data["models"]:
            cells = (["error"] + [""] * (len(group.columns) - 1) if m.get("error")
                     else [cell_text(c, m.get(c.key)) for c in group.columns])
            lines.append(f"| {_md(m['name'])} | " + " | ".join(_md(c) for c in cells) + " |")
    extra = notes(data)
    if extra:
        lines += ["", *[f"- {_md(n)}" for n in extra]]
    lines += ["", _md(summary(data))]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- progress
def progress_line(index: int, total: int, name_width: int, model: dict[str, Any], width: int = WIDTH) -> str:
    """The line printed as soon as a model is done: its verdict and headline figures."""
    head = f"[{index:>{len(str(total))}}/{total}] {model['name']:<{name_width}}"
    if model.get("error"):
        return model["error"]  # already the one-line `file:line:col: error: ...`
    failed = failed_checks(model)
    differs = any((model.get(c.key) or {}).get("verdict") == MODEL_DIFFERS for c in COLUMNS.values())
    verdict = "NOT PASSED: " + ", ".join(failed) if failed else MODEL_DIFFERS if differs else "ok"
    parts = [f"{model.get('seconds', 0.0):5.1f} s", verdict]
    for key in ("depth", "kernels"):
        cell = model.get(key)
        if cell and "error" not in cell:
            parts.append(f"{key} {cell_text(COLUMNS[key], cell)}")
    text = "  ".join([head, *parts])
    return text if len(text) <= width else text[: width - 1] + "…"
