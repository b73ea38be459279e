"""Dtype-cleanliness fuzzing (issue 34): N generated programs (tests/strategies.py), each
converted to f16 and bf16 (and kept in f32 with --f32), and N in torch-mlir's mixed form
(tests/torch_half_strategies.py: f32-accumulating convs and depthwise convs + truncf,
batch norm via extf, every window axis drawn on its own, beside the all-f16 edge layers)
in f16 and its bf16 twin, through every named pipeline (main, iree-prepare,
iree-prepare{target=gpu}, heir-prepare, Orion's); heirpy's verifier, the element-type
check (no float type the input lacks), iree-opt (one call per batch) and the evaluator
(before vs after, tolerance from the dtype) judge each output (tests/dtype_clean.py).

    python benchmarks/fuzz_dtypes.py [--count 1000] [--seed 0] [--batch 50] [--first 0] [--stop N]
                                     [--elements f16,bf16] [--f32] [--no-torch-f16] [--pipelines main,iree,...] [--save DIR]

Prints the counts per element type and pipeline: runs, dtype errors (crash, invalid,
dtype, iree: the issue's target is 0 over 1,000 f16/bf16 programs), refused (a
user-facing heirpy error: a documented limit), numeric mismatches; then the first findings.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/ is not a package

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from dtype_clean import (  # noqa: E402
    ALL_PIPELINES,
    DTYPE_ERRORS,
    ELEMENTS,
    Finding,
    Outputs,
    Variant,
    convert_element,
    iree_parse,
    run_variant,
)
from strategies import Program, programs  # noqa: E402
from torch_half_strategies import torch_half_programs  # noqa: E402

TORCH_F16 = "f16-torch"  # torch-mlir's mixed form: f32 accumulators, extf/truncf
TORCH_BF16 = "bf16-torch"  # the same programs with bf16 storage


def draw_programs(count: int, start: int, torch_f16: bool = False) -> list[Program]:
    """`count` programs of `programs()`, or with `torch_f16` of torch-mlir's f16 form
    (torch_half_programs: the IREE differential generator's f16 programs with convs,
    depthwise convs and batch norms accumulating in f32 before a truncf, each axis drawn
    on its own, and the all-f16 edge layers)."""
    drawn: list[Program] = []
    strategy = torch_half_programs() if torch_f16 else programs()

    @seed(start)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(program=strategy)
    def collect(program: Program) -> None:
        drawn.append(program)

    collect()
    return drawn[:count]


def variants(number: int, program: Program, elements: Sequence[str], mixed: Program | None) -> list[Variant]:
    """Program `number` in each of `elements`, and the torch-form program `mixed` (drawn
    in f16) in f16 and bf16."""
    found = [Variant(f"#{number}/{element}", element, convert_element(program.text, element), len(program.layers))
             for element in elements]
    if mixed is not None:
        for label, element in ((TORCH_F16, "f16"), (TORCH_BF16, "bf16")):
            text = convert_element(mixed.text, element, source="f16")
            found.append(Variant(f"#{number}/{label}", element, text, len(mixed.layers)))
    return found


def run_all(drawn: list[Program], torch_drawn: list[Program], elements: Sequence[str], batch: int,
            texts: dict[str, str], first: int = 0, pipelines: dict[str, str] = ALL_PIPELINES,
            time_limit: float = float("inf")) -> tuple[list[Finding], int]:
    """Every variant through every pipeline, one iree-opt call per `batch` programs; each
    batch's findings are logged to stderr as they come (a long run shows them early).
    No batch starts after `time_limit` seconds; returns the findings and how many
    programs ran."""
    started = time.perf_counter()
    findings: list[Finding] = []
    done = 0
    for begin in range(first, len(drawn), batch):
        if time.perf_counter() - started > time_limit:
            break
        outputs = Outputs()
        for number, program in enumerate(drawn[begin: begin + batch], start=begin):
            mixed = torch_drawn[number] if number < len(torch_drawn) else None
            for variant in variants(number, program, elements, mixed):
                texts[variant.name] = variant.text
                run_variant(variant, pipelines, outputs)
        batch_findings = outputs.findings + iree_parse(outputs.texts)
        for f in batch_findings:
            if f.kind != "refused":
                print(f"  {f.variant} [{f.pipeline}] {f.kind}: {f.detail[:300]}", file=sys.stderr)
        findings += batch_findings
        done = min(begin + batch, len(drawn)) - first
        print(f"  {min(begin + batch, len(drawn)) - first}/{len(drawn) - first} programs, {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
    return findings, done


def print_table(findings: list[Finding], programs: int, labels: Sequence[str], pipelines: Sequence[str]) -> None:
    counts = Counter((f.variant.split("/")[1] if "/" in f.variant else "?", f.pipeline, f.kind) for f in findings)
    print(f"| element | pipeline | runs | dtype errors ({'/'.join(DTYPE_ERRORS)}) | refused | mismatch |")
    print("|---|---|---|---|---|---|")
    for element in labels:
        for label in pipelines:
            errors = [counts[(element, label, k)] for k in DTYPE_ERRORS]
            print(f"| {element} | {label} | {programs} | {sum(errors)} ({'/'.join(map(str, errors))}) "
                  f"| {counts[(element, label, 'refused')]} | {counts[(element, label, 'mismatch')]} |")
    for f in [f for f in findings if f.kind != "refused"][:15]:
        print(f"{f.variant} [{f.pipeline}] {f.kind}: {f.detail[:300]}")
    for detail, n in Counter(f.detail[:120] for f in findings if f.kind == "refused").most_common(5):
        print(f"refused x{n}: {detail}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=50, help="programs per iree-opt call")
    parser.add_argument("--first", type=int, default=0,
                        help="skip the first programs drawn (split one run of --count over processes)")
    parser.add_argument("--stop", type=int, default=None,
                        help="run no program from this one on (--first 300 --stop 301: program #300 alone, "
                             "drawn as in the run of --count)")
    parser.add_argument("--elements", default=",".join(ELEMENTS), help="element types of programs() (f32,f16,bf16)")
    parser.add_argument("--f32", action="store_true", help="also the f32 originals")
    parser.add_argument("--no-torch-f16", action="store_true",
                        help="skip the programs in torch-mlir's mixed form (f16 and bf16; as many as --count)")
    parser.add_argument("--pipelines", default=",".join(ALL_PIPELINES),
                        help=f"which of {','.join(ALL_PIPELINES)} (default: all)")
    parser.add_argument("--time-limit", type=float, default=float("inf"),
                        help="start no batch after this many seconds (the table counts the programs run)")
    parser.add_argument("--save", type=Path, help="write each program with a dtype error or mismatch here")
    args = parser.parse_args()
    elements = tuple(e for e in args.elements.split(",") if e)
    if args.f32 and "f32" not in elements:
        elements = ("f32", *elements)
    pipelines = {name: ALL_PIPELINES[name] for name in args.pipelines.split(",") if name}
    started = time.perf_counter()
    drawn = draw_programs(args.count, args.seed)
    torch_drawn = [] if args.no_torch_f16 else draw_programs(args.count, args.seed, torch_f16=True)
    if args.stop is not None:  # all --count drawn first, so #N is the run's #N
        drawn, torch_drawn = drawn[:args.stop], torch_drawn[:args.stop]
    texts: dict[str, str] = {}
    findings, done = run_all(drawn, torch_drawn, elements, args.batch, texts, args.first, pipelines, args.time_limit)
    torch_labels = () if args.no_torch_f16 else (TORCH_F16, TORCH_BF16)
    print(f"{done} programs (#{args.first}..#{args.first + done - 1}, seed {args.seed}) x ({len(elements)} element types + {len(torch_labels)} torch forms) "
          f"x {len(pipelines)} pipelines ({time.perf_counter() - started:.0f} s)")
    print_table(findings, done, (*elements, *torch_labels), list(pipelines))
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        for f in findings:
            if f.kind != "refused" and f.variant in texts:
                name = f.variant.replace("#", "p").replace("/", "_")
                (args.save / f"{name}_{f.pipeline}.mlir").write_text(
                    f"// {f.pipeline} {f.kind}: {f.detail}\n{texts[f.variant]}")
    return 1 if any(f.kind in DTYPE_ERRORS for f in findings) else 0


if __name__ == "__main__":
    sys.exit(main())
