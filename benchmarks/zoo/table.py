"""The zoo's table, its summary against issue 37's targets, the f16 models against their
f32 twins (issue 34), and its plot, from the per-model results `measure.measure` writes (a
dict per model, cached as JSON). Rows measured with `--untimed` read "untimed" in the time
columns."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from harness import markdown_table
from heirpy.interp.reference import MODEL_DIFFERS

HEADER = [
    "model", "dtype", "heirpy vs PyTorch (max abs err)", "depth / bound", "linear ops: raw -> main",
    "weights MB: raw -> main (x)", "levels bought / within rule",
    "IREE rule (x)", "dispatches default: raw -> heirpy", "best flags: raw -> heirpy", "raw ms default",
    "raw ms best", "heirpy/raw default", "heirpy/raw best", "PyTorch ms", "heirpy-opt s / iree-opt s",
]
GROWTH_TARGET = 1.5


def _ms(r: dict[str, Any], key: str) -> float | None:
    return r.get("ms", {}).get(key)


def ratio(r: dict[str, Any], flags: str) -> float | None:
    ours, raw = _ms(r, f"heirpy {flags}"), _ms(r, f"raw {flags}")
    return ours / raw if ours and raw else None


def growth(r: dict[str, Any], key: str = "main") -> float | None:
    sizes = r.get("constant_bytes", {})
    before = sizes.get("before")
    after = sizes.get(key) if key == "main" else r.get("iree_constant_bytes")
    return after / before if before and after is not None else None


def within_rule(r: dict[str, Any]) -> bool | None:
    """Issue 37's weight rule (1.5x per level the growing chains buy), None where the
    result predates it."""
    rule = r.get("weight_rule")
    return None if rule is None else bool(rule["within"])


def _rule_cell(r: dict[str, Any]) -> str:
    rule = r.get("weight_rule")
    return "-" if rule is None else f"{rule['levels_bought']} / {'yes' if rule['within'] else 'no'}"


def _f(value: float | None, fmt: str = "{:.2f}") -> str:
    return "-" if value is None else fmt.format(value)


def _dispatches(r: dict[str, Any], flags: str) -> str:
    """raw -> heirpy dispatch counts; "failed" where iree-compile failed on that file."""
    disp, failed = r.get("dispatches", {}), r.get("iree_failures", {})
    if not disp and not failed:
        return "IREE failed" if r.get("error") else "-"
    return " -> ".join(str(disp.get(k, "failed" if k in failed else "-")) for k in (f"raw {flags}", f"heirpy {flags}"))


def row(r: dict[str, Any]) -> list[str]:
    if r.get("error") and "numerics" not in r:
        return [r["name"], r["dtype"], f"ERROR: {r['error'][:80]}"] + ["-"] * (len(HEADER) - 3)
    n, d = r["numerics"], r["depth"]
    sizes, lin = r["constant_bytes"], r.get("linear_ops", {})
    times = ["untimed"] * 5 if r.get("untimed") else [
        _f(_ms(r, "raw default"), "{:.1f}"), _f(_ms(r, "raw best"), "{:.1f}"),
        _f(ratio(r, "default")), _f(ratio(r, "best")), _f(r.get("torch_ms") if r["dtype"] == "f32" else None, "{:.1f}")]
    return [
        r["name"], r["dtype"], f"{n['verdict']} ({n.get('max_abs_error', float('nan')):.1e})",
        f"{d['after']} / {d['bound']}", f"{lin.get('before', '-')} -> {lin.get('after', '-')}",
        f"{sizes['before'] / 1e6:.1f} -> {sizes['main'] / 1e6:.1f} ({growth(r):.2f})", _rule_cell(r),
        _f(growth(r, "iree")),
        _dispatches(r, "default"), _dispatches(r, "best"),
        *times,
        f"{r['heirpy_opt_s']:.1f} / {r['iree_opt_s']:.1f}" if "heirpy_opt_s" in r else "-",
    ] + ([f"(error: {r['error'][:60]})"] if r.get("error") else [])


def table(results: list[dict[str, Any]]) -> str:
    return markdown_table(HEADER, [row(r)[: len(HEADER)] for r in results])


def geomean(values: list[float]) -> float | None:
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def passed(verdict: str) -> bool:
    """heirpy-report's passing verdicts: "ok", and the raw model off the reference where
    heirpy's rewrite moved nothing further from it (`MODEL_DIFFERS`)."""
    return verdict in ("ok", MODEL_DIFFERS)


def misses(results: list[dict[str, Any]]) -> list[str]:
    """Every model that misses a target of issue 37, with its figures."""
    found = []
    twin_of = {f16["name"]: f32 for f32, f16 in twins(results)}
    for r in results:
        tag = f"{r['name']} {r['dtype']}"
        if r.get("error"):
            found.append(f"{tag}: {'failed' if 'numerics' in r else 'did not run'}: {r['error'][:200]}")
        if "numerics" not in r:
            continue
        if not passed(r["numerics"]["verdict"]):
            found.append(f"{tag}: numerics {r['numerics']['verdict']} {r['numerics']}")
        best = ratio(r, "best")
        if best is not None and best > 1.0:
            again = r.get("ms_rerun", {})
            rerun = (f"; rerun {again['heirpy best'] / again['raw best']:.2f}x "
                     f"({again['heirpy best']:.2f} vs {again['raw best']:.2f} ms)") if again else "; not rerun"
            confirmed = not again or again["heirpy best"] > again["raw best"]
            found.append(f"{tag}: {best:.2f}x raw with best flags "
                         f"({_ms(r, 'heirpy best'):.2f} vs {_ms(r, 'raw best'):.2f} ms){rerun}"
                         + ("" if confirmed else " (not confirmed)"))
        disp = r.get("dispatches", {})
        if disp.get("heirpy default", 0) > disp.get("raw default", 1 << 30):
            found.append(f"{tag}: dispatches under IREE defaults {disp['raw default']} -> {disp['heirpy default']}")
        d = r["depth"]
        if r["dtype"] == "f32" and d["after"] > d["bound"]:
            found.append(f"{tag}: depth {d['after']} above bound {d['bound']} (raw {d['before']})")
        if r["dtype"] == "f16" and (twin := twin_of.get(r["name"])) and (gap := twin_gap(twin, r)):
            found.append(f"{tag}: below its f32 twin: {gap}")
        g = growth(r)
        if g is not None and g > GROWTH_TARGET and within_rule(r) is not True:
            found.append(f"{tag}: weights {r['constant_bytes']['before'] / 1e6:.1f} -> "
                         f"{r['constant_bytes']['main'] / 1e6:.1f} MB ({g:.2f}x) under the main pipeline"
                         + ("" if within_rule(r) is None else
                            f", {r['weight_rule']['levels_bought']} levels bought: beyond 1.5x per level"))
    return found


# ----------------------------------------------------------------------------- f16 vs f32 (issue 34)
TWIN_HEADER = ["model", "depth f32 / f16 (bound)", "linear ops f32 / f16 (raw)", "f16 reaches f32"]


def twins(results: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(f32, f16) result pairs of the same model, both measured without error."""
    ok = {(r["name"], r["dtype"]): r for r in results if "depth" in r}
    return [(r, ok[(name, "f16")]) for (name, dtype), r in ok.items() if dtype == "f32" and (name, "f16") in ok]


def twin_gap(f32: dict[str, Any], f16: dict[str, Any]) -> str | None:
    """What the f16 model misses of its f32 twin's depth and linear-op count, or None."""
    gaps = []
    for key, label in (("depth", "depth"), ("linear_ops", "linear ops")):
        a, b = f32.get(key, {}).get("after"), f16.get(key, {}).get("after")
        if a is not None and b is not None and b > a:
            gaps.append(f"{label} {b} vs {a}")
    return ", ".join(gaps) or None


def twin_table(results: list[dict[str, Any]]) -> str:
    """Each f16 model beside its f32 twin: depth and linear ops after the main pipeline."""
    rows = []
    for f32, f16 in twins(results):
        d32, d16, l32, l16 = f32["depth"], f16["depth"], f32.get("linear_ops", {}), f16.get("linear_ops", {})
        gap = twin_gap(f32, f16)
        rows.append([f32["name"], f"{d32['after']} / {d16['after']} ({d32['bound']})",
                     f"{l32.get('after', '-')} / {l16.get('after', '-')} ({l32.get('before', '-')})",
                     "yes" if gap is None else f"no: {gap}"])
    return markdown_table(TWIN_HEADER, rows)


def twin_summary(results: list[dict[str, Any]]) -> str:
    pairs = twins(results)
    short = [f"{f32['name']}: {gap}" for f32, f16 in pairs if (gap := twin_gap(f32, f16))]
    line = (f"f16 at its f32 twin's depth and linear-op count: {len(pairs) - len(short)} of {len(pairs)} "
            f"models measured in both")
    return "\n".join([line] + [f"- short: {s}" for s in short])


def summary(results: list[dict[str, Any]]) -> str:
    ok = [r for r in results if "numerics" in r]  # heirpy's figures stand when IREE failed
    untimed = sum(bool(r.get("untimed")) for r in results)
    failed = sum(bool(r.get("error")) for r in results)
    differs = sum(r["numerics"]["verdict"] == MODEL_DIFFERS for r in ok)
    lines = [f"models run: {len(ok)} of {len(results)} ({untimed} untimed, {failed} with an error); numerics ok: "
             f"{sum(passed(r['numerics']['verdict']) for r in ok)} of {len(ok)}"
             + (f" ({differs} of them '{MODEL_DIFFERS}': the raw IR itself is off PyTorch)" if differs else "")]
    for flags in ("best", "default"):
        values = [v for r in ok if (v := ratio(r, flags)) is not None]
        if values:
            lines.append(f"heirpy/raw time, IREE {flags} flags: geomean {geomean(values):.3f}x over {len(values)} "
                         f"models, worst {max(values):.2f}x, above 1.0x: {sum(v > 1.0 for v in values)}")
    torch = [_ms(r, "heirpy best") / r["torch_ms"] for r in ok if r["dtype"] == "f32" and _ms(r, "heirpy best")
             and r.get("torch_ms")]
    if torch:
        lines.append(f"heirpy + IREE best flags / PyTorch eager (1 thread): geomean {geomean(torch):.3f}x "
                     f"over {len(torch)} models")
    f32 = [r for r in ok if r["dtype"] == "f32"]
    if f32:
        at = sum(r["depth"]["after"] <= r["depth"]["bound"] for r in f32)
        lines.append(f"depth at the bound: {at} of {len(f32)} f32 models ({100 * at / len(f32):.0f}%)")
    grown = [g for r in ok if (g := growth(r)) is not None]
    if grown:
        ruled = [w for r in ok if (w := within_rule(r)) is not None]
        lines.append(f"weight growth (main pipeline): worst {max(grown):.2f}x, above {GROWTH_TARGET}x: "
                     f"{sum(g > GROWTH_TARGET for g in grown)}"
                     + (f"; within the rule (1.5x per level the growing chains buy): {sum(ruled)} of {len(ruled)}"
                        if ruled else ""))
    iree = [r["iree_max_abs_error"] for r in ok if "iree_max_abs_error" in r and r["dtype"] == "f32"]
    if iree:
        worst = {side: max(e[k] for e in iree for k in e if k.startswith(side)) for side in ("raw", "heirpy")}
        lines.append(f"IREE's outputs against PyTorch's, worst max abs error over {len(iree)} f32 models: "
                     f"raw {worst['raw']:.1e}, heirpy {worst['heirpy']:.1e}")
    speed = [(r["heirpy_opt_s"], r["iree_opt_s"]) for r in ok if "heirpy_opt_s" in r]
    if speed:
        lines.append(f"heirpy-opt (IREE pipeline) / iree-opt parse+print: geomean "
                     f"{geomean([a / b for a, b in speed]):.1f}x")
    seconds = sum(r.get("seconds", 0) for r in results)
    cpu = [r["cpu_seconds"] for r in results if "cpu_seconds" in r]
    lines.append(f"measured in {seconds / 60:.0f} min of wall time (export included where not cached)"
                 + (f"; {sum(cpu) / 60:.0f} min of CPU over {len(cpu)} models, "
                    f"median {sorted(cpu)[len(cpu) // 2]:.0f} s each" if cpu else ""))
    lines.append(twin_summary(results))
    found = misses(results)
    lines.append("misses:" if found else "misses: none")
    lines += [f"- {m}" for m in found]
    return "\n".join(lines)


def plot(results: list[dict[str, Any]], path: Path) -> None:
    """heirpy/raw single-threaded time per timed model, IREE defaults and best flags."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    timed = [r for r in results if ratio(r, "best") is not None]
    labels = [f"{r['name']} {r['dtype']}" for r in timed]
    fig, ax = plt.subplots(figsize=(max(6, 0.45 * len(timed)), 4))
    xs = range(len(timed))
    ax.bar([x - 0.2 for x in xs], [ratio(r, "default") or 0 for r in timed], 0.4, label="IREE defaults")
    ax.bar([x + 0.2 for x in xs], [ratio(r, "best") or 0 for r in timed], 0.4, label="IREE best flags")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(list(xs), labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("heirpy / raw time (1 thread)")
    ax.set_title("Model zoo: heirpy / raw time, IREE llvm-cpu", fontsize=10)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
