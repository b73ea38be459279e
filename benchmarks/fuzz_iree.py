"""Differential fuzzing through IREE: generated programs (tests/edge_strategies.py's
`edge_differential_programs`, f32 and f16: tests/strategies.py's `differential_programs`
with convs, depthwise convs and pools whose kernel, stride, dilation and pads are drawn
per axis on its own, at the guards' limits; `--plain`: without them), raw and after
heirpy's pipeline, compiled with IREE's
llvm-cpu back end and run on the evaluator's random inputs; heirpy's output re-parsed by
heir-opt and iree-opt. tests/iree_differential.py says how the four values of a program
are compared and a disagreement classified.

    python benchmarks/fuzz_iree.py [--count 1000] [--seed 0] [--element f32 f16] [--plain]
                                   [--batch 25] [--start I] [--stop J] [--json OUT] [--save DIR]
    python benchmarks/fuzz_iree.py --report A.json B.json ...     # the tables of several pieces

`--count` programs in all, split evenly between the elements (distinct programs: a text
hypothesis draws twice counts once). `--start/--stop` run a slice of them, so that a
long run goes in pieces (each piece writes its records with --json; --report merges
them). `--save DIR` writes each program that does not agree: raw text, heirpy's output,
the inputs and the four values (.npz), for a reduction by hand. The report ends with how
many programs reached each guard limit (edge_strategies.LIMITS).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/ is not a package
sys.path.insert(0, str(ROOT / "benchmarks"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

import iree_differential as diff  # noqa: E402
from edge_strategies import edge_differential_programs, format_limit_counts, limit_counts  # noqa: E402
from harness import markdown_table  # noqa: E402
from strategies import Program, differential_programs  # noqa: E402


def draw_programs(count: int, element: str, base_seed: int, edges: bool = True) -> list[Program]:
    """`count` distinct programs of `element`, the same ones for the same arguments
    (`edges`: each axis of a window op drawn on its own)."""
    found: dict[str, Program] = {}

    @seed(base_seed)
    @settings(max_examples=2 * count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(program=edge_differential_programs(element) if edges else differential_programs(element))
    def collect(program: Program) -> None:
        if len(found) < count:
            found.setdefault(program.text, program)

    collect()
    return list(found.values())


def record(subject: diff.Subject, seconds: float, limits: tuple[str, ...] = ()) -> dict[str, object]:
    return {
        "index": subject.index, "element": subject.element, "layers": list(subject.layers), "limits": list(limits),
        "families": sorted(subject.families), "verdict": diff.classify(subject),
        "problems": subject.problems, "not_comparable": diff.not_comparable(subject),
        "errors": {f"{a}/{b}": e for (a, b), e in diff.errors(subject).items()}, "seconds": seconds,
    }


def save(subject: diff.Subject, out: Path) -> None:
    stem = out / f"{subject.element}_{subject.index:05d}"
    header = f"// verdict: {diff.classify(subject)}\n// problems: {subject.problems}\n// layers: {list(subject.layers)}\n"
    stem.with_suffix(".raw.mlir").write_text(header + subject.raw)
    if subject.custom:
        stem.with_suffix(".heirpy.mlir").write_text(header + subject.custom)
    arrays = {f"seed{k}_arg{i}": a for k, inputs in enumerate(subject.inputs) for i, a in enumerate(inputs)}
    for source, per_seed in subject.values.items():
        arrays |= {f"seed{k}_{source}_{i}": r for k, results in enumerate(per_seed) for i, r in enumerate(results)}
    np.savez(stem.with_suffix(".npz"), **arrays)


def run(args: argparse.Namespace) -> list[dict[str, object]]:
    per_element = args.count // len(args.element)
    todo: list[tuple[int, Program, str]] = []
    for k, element in enumerate(args.element):
        drawn = draw_programs(per_element, element, args.seed + k, edges=not args.plain)
        todo += [(k * per_element + i, p, element) for i, p in enumerate(drawn)]
    todo = [t for t in todo if args.start <= t[0] < (args.stop if args.stop is not None else len(todo) + 1)]
    records: list[dict[str, object]] = []
    start = time.perf_counter()
    for b in range(0, len(todo), args.batch):
        batch = todo[b: b + args.batch]
        t0 = time.perf_counter()
        subjects = diff.run_batch([(i, p.text, p.layers, element) for i, p, element in batch])
        seconds = (time.perf_counter() - t0) / len(batch)
        for s, (_, program, _) in zip(subjects, batch):
            records.append(record(s, seconds, program.limits))
            if args.save and records[-1]["verdict"] != "agree":
                args.save.mkdir(parents=True, exist_ok=True)
                save(s, args.save)
        if args.json:  # after every batch: a piece cut short keeps what it did
            args.json.write_text(json.dumps(records, indent=0))
        done = Counter(str(r["verdict"]) for r in records)
        print(f"... {len(records)} of {len(todo)} programs, {time.perf_counter() - start:.0f} s: {dict(done)}", flush=True)
    return records


def report(records: list[dict[str, object]]) -> None:
    elements = sorted({str(r["element"]) for r in records})
    verdicts = sorted({str(r["verdict"]) for r in records})
    print(f"programs: {len(records)}; distinct layer sequences: {len({tuple(r['layers']) for r in records})}")  # type: ignore[arg-type]
    rows = []
    for element in elements:
        mine = [r for r in records if r["element"] == element]
        rows.append([element, str(len(mine)), *(str(sum(r["verdict"] == v for r in mine)) for v in verdicts),
                     str(sum(bool(r["not_comparable"]) for r in mine))])
    print(markdown_table(["element", "programs", *verdicts, "reference NaN/inf (not comparable)"], rows))
    print()
    with_output = [r for r in records if "heirpy crash" not in r["problems"]]  # type: ignore[operator]
    reparsed = [r for r in with_output if not any(k.startswith("reparse") for k in r["problems"])]  # type: ignore[union-attr]
    print(f"heirpy's output parsed and verified by heir-opt and iree-opt, custom and generic print: "
          f"{len(reparsed)} of {len(with_output)} programs\n")
    problems: Counter[tuple[str, str, str]] = Counter()
    for r in records:
        for kind, message in r["problems"].items():  # type: ignore[union-attr]
            known = diff.known_iree_bug(message) if kind.startswith("iree-compile") else None
            what = f"known IREE bug: iree_bugs/{known}" if known else message[:100]
            problems[(str(r["element"]), kind, what)] += 1
    if problems:
        rows = [[e, k, w, str(n)] for (e, k, w), n in sorted(problems.items())]
        print(markdown_table(["element", "step that failed", "why", "programs"], rows))
        print()
    rows = []
    for family in diff.FAMILIES:
        for element in elements:
            mine = [r for r in records if r["element"] == element and family in r["families"]]  # type: ignore[operator]
            agree = sum(r["verdict"] == "agree" for r in mine)
            rows.append([family, element, str(len(mine)), str(agree), str(len(mine) - agree)])
    print(markdown_table(["family", "element", "programs", "agree", "other (see above)"], rows))
    print()
    noise: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in records:
        if r["verdict"] == "agree":
            for pair, err in r["errors"].items():  # type: ignore[union-attr]
                noise[(str(r["element"]), pair)].append(float(err))
    rows = [[e, pair, f"{np.median(v):.1f}", f"{np.percentile(v, 99):.1f}", f"{max(v):.1f}"]
            for (e, pair), v in sorted(noise.items())]
    print(f"error between agreeing values, in ulps of the result type (agree: <= {diff.AGREE_ULPS:g})")
    print(markdown_table(["element", "pair", "median", "99th percentile", "max"], rows))
    seconds = [float(r["seconds"]) for r in records]  # type: ignore[arg-type]
    print(f"\ntime: {sum(seconds):.0f} s ({np.mean(seconds):.2f} s per program)")
    worst = [r for r in records if r["verdict"] not in ("agree",)]
    for r in worst:
        print(f"  {r['element']} #{r['index']}: {r['verdict']} {r['problems']} {r['layers']}")
    print("\nguard limits drawn (programs):")
    print(format_limit_counts(limit_counts(r.get("limits", ()) for r in records), len(records)))  # type: ignore[misc]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="programs in all, split between the elements")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--element", nargs="+", default=["f32", "f16"], choices=["f32", "f16"])
    parser.add_argument("--batch", type=int, default=25, help="programs per iree-compile run")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--stop", type=int)
    parser.add_argument("--json", type=Path, help="write the records here")
    parser.add_argument("--save", type=Path, help="directory for programs that do not agree")
    parser.add_argument("--report", type=Path, nargs="+", help="print the tables of these --json files")
    parser.add_argument("--plain", action="store_true", help="differential_programs without the edge layers")
    args = parser.parse_args(argv)
    if args.report:
        records = [r for path in args.report for r in json.loads(path.read_text())]
    else:
        records = run(args)
    report(records)
    wrong = [r for r in records if "heirpy" in str(r["verdict"]) or "heirpy crash" in r["problems"]]  # type: ignore[operator]
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
